import ArgumentParser
import Foundation
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary

/// `--synthetic` and `--device`, shared by the capture commands.
struct DeviceOptions: ParsableArguments {
    @Flag(help: "Offer the synthetic cameras (as SHOEBOX_SYNTHETIC_CAMERA=1 does).") var synthetic = false

    func apply() {
        if synthetic { CaptureDevice.isSyntheticCameraEnabled = true }
    }
}

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List cameras and microphones.",
        discussion: "JSON: [{uniqueID, localizedName, mediaType, position, deviceType, hasFlash, hasTorch, zoom: [min, max], formats: [{pixelFormat, width, height, frameRates}]}].")
    @OptionGroup var devices: DeviceOptions
    @Flag(help: "Print JSON.") var json = false

    struct Record: Encodable {
        struct Format: Encodable {
            let pixelFormat: String
            let width: Int
            let height: Int
            let frameRates: [Double]
        }
        let uniqueID: String
        let localizedName: String
        let mediaType: String
        let position: String
        let deviceType: String
        let hasFlash: Bool
        let hasTorch: Bool
        let zoom: [Double]
        let formats: [Format]
    }

    func run() throws {
        devices.apply()
        let found = CaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera, .external, .microphone], mediaType: nil, position: .unspecified).devices
        let records = found.map { device in
            Record(uniqueID: device.uniqueID, localizedName: device.localizedName, mediaType: device.mediaType.rawValue,
                   position: device.position.rawValue, deviceType: device.deviceType.rawValue, hasFlash: device.hasFlash,
                   hasTorch: device.hasTorch, zoom: [device.minAvailableVideoZoomFactor, device.maxAvailableVideoZoomFactor],
                   formats: device.formats.map { .init(pixelFormat: $0.pixelFormat.rawValue, width: $0.dimensions.width, height: $0.dimensions.height, frameRates: $0.frameRates) })
        }
        if json {
            try JSONOutput.print(records)
        } else if records.isEmpty {
            print("no cameras or microphones (use --synthetic or SHOEBOX_SYNTHETIC_CAMERA=1 for the synthetic camera)")
        } else {
            for record in records {
                let sizes = record.formats.map { "\($0.width)×\($0.height)" }.joined(separator: " ")
                print("\(record.uniqueID)  \(record.localizedName)  \(record.mediaType) \(record.position)  \(sizes)")
            }
        }
    }
}

struct CaptureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Take a photo with a camera.",
        subcommands: [Photo.self])

    struct Photo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take one photo: JPEG (or HEIC by the file's extension) with EXIF; --save adds it to the library.",
            discussion: "With --json prints {path, width, height, flashFired, localIdentifier}.")
        @OptionGroup var devices: DeviceOptions
        @OptionGroup var library: LibraryOptions
        @Option(name: .shortAndLong, help: "Where to write the photo (.jpg or .heic).") var output: String
        @Option(help: "The camera's uniqueID (default: the back camera).") var device: String?
        @Option(help: "photo, high, medium, low, vga640x480, hd1280x720, hd1920x1080 or hd4K3840x2160.") var preset = "photo"
        @Option(help: "off, on or auto.") var flash = "off"
        @Flag(help: "Also add the photo to the library.") var save = false
        @Flag(help: "Print JSON.") var json = false

        struct Record: Encodable {
            let path: String
            let width: Int
            let height: Int
            let flashFired: Bool
            let localIdentifier: String?
        }

        func run() async throws {
            devices.apply()
            guard let preset = CaptureSession.Preset(rawValue: preset) else { throw ValidationError("unknown preset \(preset)") }
            guard let flashMode = CaptureDevice.FlashMode(rawValue: flash) else { throw ValidationError("--flash takes off, on or auto") }
            let camera = device.map { CaptureDevice.device(withUniqueID: $0) } ?? CaptureDevice.default(for: .video)
            guard let camera else {
                Terminal.standardError("error: \(device.map { "no camera \($0)" } ?? "no camera (use --synthetic or SHOEBOX_SYNTHETIC_CAMERA=1 for the synthetic camera)")")
                throw ExitCode.failure
            }
            let url = URL(fileURLWithPath: output)
            let format: ImageFormat = ["heic", "heif"].contains(url.pathExtension.lowercased()) ? .heic : .jpeg
            let session = CaptureSession()
            let photos = PhotoOutput()
            let photo: CapturePhoto
            do {
                session.beginConfiguration()
                try session.setSessionPreset(preset)
                try session.addInput(CaptureDeviceInput(device: camera))
                try session.addOutput(photos)
                try session.commitConfiguration()
                try await session.startRunning()
                photo = try await photos.capturePhoto(with: PhotoSettings(flashMode: flashMode, format: format))
                await session.stopRunning()
            } catch {
                await session.stopRunning()
                Terminal.standardError("error: \(error.message)")
                throw ExitCode.failure
            }
            try photo.fileDataRepresentation().write(to: url)
            var identifier: String?
            if save {
                let library = try library.open()
                let result = try await library.performChanges {
                    _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: url)
                }
                identifier = result.created.first?.localIdentifier
                await library.waitForBackgroundWork()
            }
            let size = photo.resolvedSettings.photoDimensions
            if json {
                try JSONOutput.print(Record(path: url.path, width: size.width, height: size.height, flashFired: photo.resolvedSettings.flashFired, localIdentifier: identifier))
            } else {
                print("\(url.path): \(size.width)×\(size.height)\(photo.resolvedSettings.flashFired ? ", flash fired" : "")\(identifier.map { ", saved as \($0)" } ?? "")")
            }
        }
    }
}
