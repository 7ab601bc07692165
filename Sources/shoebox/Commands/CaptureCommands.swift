import ArgumentParser
import Foundation
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia

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
        discussion:
            "JSON: [{uniqueID, localizedName, mediaType, position, deviceType, hasFlash, hasTorch, zoom: [min, max], formats: [{pixelFormat, width, height, frameRates}]}]."
    )
    @OptionGroup var devices: DeviceOptions
    @Flag(help: "Print JSON.") var json = false
    @Option(help: ArgumentHelp("Write a V4L2 device's answers as JSON (for the backend's replay tests) instead of listing.", valueName: "/dev/videoN"))
    var recordV4l2: String?

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
        if let recordV4l2 {
            do {
                FileHandle.standardOutput.write(try CaptureDevice.recordV4L2Answers(devicePath: recordV4l2))
                print()
            } catch {
                Terminal.standardError("error: \(error.message)")
                throw ExitCode.failure
            }
            return
        }
        let found = CaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera, .external, .microphone], mediaType: nil, position: .unspecified)
            .devices
        let records = found.map { device in
            Record(
                uniqueID: device.uniqueID, localizedName: device.localizedName, mediaType: device.mediaType.rawValue,
                position: device.position.rawValue, deviceType: device.deviceType.rawValue, hasFlash: device.hasFlash,
                hasTorch: device.hasTorch, zoom: [device.minAvailableVideoZoomFactor, device.maxAvailableVideoZoomFactor],
                formats: device.formats.map {
                    .init(pixelFormat: $0.pixelFormat.rawValue, width: $0.dimensions.width, height: $0.dimensions.height, frameRates: $0.frameRates)
                })
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
        abstract: "Take a photo or record a movie with a camera.",
        subcommands: [Photo.self, Movie.self])

    /// Builds and starts a session with `camera` (and the default microphone when asked).
    static func start(_ camera: CaptureDevice, preset: CaptureSession.Preset, output: CaptureOutput, microphone: Bool) async throws(CaptureError)
        -> CaptureSession
    {
        let session = CaptureSession()
        session.beginConfiguration()
        try session.setSessionPreset(preset)
        try session.addInput(CaptureDeviceInput(device: camera))
        if microphone {
            guard let mic = await CaptureDevice.default(for: .audio) else { throw .deviceUnavailable("no microphone") }
            try session.addInput(CaptureDeviceInput(device: mic))
        }
        try session.addOutput(output)
        try session.commitConfiguration()
        try await session.startRunning()
        do throws(CaptureError) {
            // A camera another program streams from: say so rather than wait for it.
            try await session.waitUntilUninterrupted(timeout: .seconds(5))
        } catch {
            await session.stopRunning()
            throw error
        }
        return session
    }

    /// The camera asked for, or the default one; exits 1 with a message when there is none.
    static func camera(_ uniqueID: String?) throws -> CaptureDevice {
        guard let camera = uniqueID.map({ CaptureDevice.device(withUniqueID: $0) }) ?? CaptureDevice.default(for: .video) else {
            Terminal.standardError(
                "error: \(uniqueID.map { "no camera \($0)" } ?? "no camera (use --synthetic or SHOEBOX_SYNTHETIC_CAMERA=1 for the synthetic camera)")")
            throw ExitCode.failure
        }
        return camera
    }

    /// Where a capture writes: straight into the library's staging area with `--save` (a
    /// ``PendingCapture`` that becomes an asset on commit, or disappears), else the output file.
    static func destination(for output: URL, save: Bool, library options: LibraryOptions) async throws -> (URL, PendingCapture?) {
        guard save else { return (output, nil) }
        do {
            let pending = try await options.open().beginCapture(filename: output.lastPathComponent)
            return (pending.url, pending)
        } catch let error as LibraryError {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
    }

    /// Copies the capture to the output file and commits it to the library; returns the asset's
    /// identifier.
    static func finish(_ pending: PendingCapture, copyTo output: URL) async throws -> String {
        do {
            let partial = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).partial-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: pending.url, to: partial)
            guard rename(partial.path, output.path) == 0 else {
                try? FileManager.default.removeItem(at: partial)
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: output.path])
            }
        } catch {
            pending.discard()
            Terminal.standardError("error: cannot write \(output.path): \(error.localizedDescription)")
            throw ExitCode.failure
        }
        do {
            let identifier = try await pending.commit().localIdentifier
            await pending.library.waitForBackgroundWork()  // the thumbnails, before the process ends
            return identifier
        } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
    }

    struct Movie: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a movie: H.264 (+ AAC with --microphone) in MP4; --save adds it to the library.",
            discussion: "With --json prints {path, duration, width, height, audioCodec, localIdentifier}. A progress line shows on a terminal.")
        @OptionGroup var devices: DeviceOptions
        @OptionGroup var library: LibraryOptions
        @Option(name: .shortAndLong, help: "Where to write the movie (.mp4 or .mov).") var output: String
        @Option(help: "Seconds to record.") var duration: Double
        @Option(help: "The camera's uniqueID (default: the back camera).") var device: String?
        @Option(help: "A session preset (default hd1280x720).") var preset = "hd1280x720"
        @Flag(help: "Record sound from the default microphone.") var microphone = false
        @Flag(help: "Also add the movie to the library.") var save = false
        @Flag(help: "Print JSON.") var json = false

        struct Record: Encodable {
            let path: String
            let duration: Double
            let width: Int
            let height: Int
            let audioCodec: String?
            let localIdentifier: String?
        }

        func validate() throws {
            guard duration > 0, duration.isFinite else { throw ValidationError("--duration must be a positive number of seconds") }
        }

        func run() async throws {
            devices.apply()
            guard let preset = CaptureSession.Preset(rawValue: preset) else { throw ValidationError("unknown preset \(preset)") }
            let camera = try CaptureCommand.camera(device)
            let url = URL(fileURLWithPath: output)
            let (destination, pending) = try await CaptureCommand.destination(for: url, save: save, library: library)
            let movies = MovieFileOutput()
            movies.maxRecordedDuration = duration
            let recording: MovieFileOutput.Recording
            do {
                let stream = movies.events
                let session = try await CaptureCommand.start(camera, preset: preset, output: movies, microphone: microphone)
                try await movies.startRecording(to: destination)
                let progress = Task {
                    while !Task.isCancelled, Terminal.isInteractive {
                        Terminal.progress(String(format: "recording %.1f / %.1f s", movies.recordedDuration, duration))
                        try? await Task.sleep(for: .milliseconds(200))
                    }
                }
                var finished: MovieFileOutput.Recording?
                for await event in stream {
                    if case .finished(let done) = event {
                        finished = done
                        break
                    }
                }
                progress.cancel()
                Terminal.endProgress()
                await session.stopRunning()
                guard let finished else { throw CaptureError.captureFailed("the recording never finished") }
                recording = finished
            } catch let error as CaptureError {
                pending?.discard()
                Terminal.standardError("error: \(error.message)")
                throw ExitCode.failure
            }
            guard let info = recording.info else {
                pending?.discard()
                Terminal.standardError("error: \(recording.error?.message ?? "the movie was not written")")
                throw ExitCode.failure
            }
            let identifier = if let pending { try await CaptureCommand.finish(pending, copyTo: url) } else { String?.none }
            if json {
                try JSONOutput.print(
                    Record(
                        path: url.path, duration: info.duration, width: info.pixelSize.width, height: info.pixelSize.height,
                        audioCodec: info.audioCodec, localIdentifier: identifier))
            } else {
                print(
                    String(
                        format: "%@: %.2f s, %d×%d%@%@", url.path, info.duration, info.pixelSize.width, info.pixelSize.height,
                        info.audioCodec.map { ", \($0)" } ?? "", identifier.map { ", saved as \($0)" } ?? ""))
            }
        }
    }

    struct Photo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take one photo: JPEG (or HEIC by the file's extension) with EXIF, or a RAW photo as DNG (.dng); --save adds it to the library.",
            discussion: """
                A RAW photo keeps the sensor's photosites: it needs a camera that streams a Bayer format (the largest one is \
                used; the synthetic camera always can). --quality quality averages four frames (less noise, four frames' \
                time); speed takes the next frame; balanced (the default) waits for focus and exposure. With --json prints \
                {path, width, height, flashFired, isRawPhoto, framesCombined, localIdentifier}.
                """)
        @OptionGroup var devices: DeviceOptions
        @OptionGroup var library: LibraryOptions
        @Option(name: .shortAndLong, help: "Where to write the photo (.jpg, .heic or .dng).") var output: String
        @Option(help: "The camera's uniqueID (default: the back camera).") var device: String?
        @Option(help: "photo, high, medium, low, vga640x480, hd1280x720, hd1920x1080 or hd4K3840x2160.") var preset = "photo"
        @Option(help: "off, on or auto.") var flash = "off"
        @Option(help: "speed, balanced or quality.") var quality = "balanced"
        @Flag(help: "Also add the photo to the library.") var save = false
        @Flag(help: "Print JSON.") var json = false

        struct Record: Encodable {
            let path: String
            let width: Int
            let height: Int
            let flashFired: Bool
            let isRawPhoto: Bool
            let framesCombined: Int
            let localIdentifier: String?
        }

        func run() async throws {
            devices.apply()
            guard var preset = CaptureSession.Preset(rawValue: preset) else { throw ValidationError("unknown preset \(preset)") }
            guard let flashMode = CaptureDevice.FlashMode(rawValue: flash) else { throw ValidationError("--flash takes off, on or auto") }
            let prioritization: PhotoSettings.QualityPrioritization
            switch quality {
            case "speed": prioritization = .speed
            case "balanced": prioritization = .balanced
            case "quality": prioritization = .quality
            default: throw ValidationError("--quality takes speed, balanced or quality")
            }
            let camera = try CaptureCommand.camera(device)
            let url = URL(fileURLWithPath: output)
            let ext = url.pathExtension.lowercased()
            let format: ImageFormat = ["heic", "heif"].contains(ext) ? .heic : .jpeg
            let raw = ext == "dng"
            if raw, let bayer = camera.formats.filter(\.pixelFormat.isBayer).max(by: { $0.dimensions.pixelCount < $1.dimensions.pixelCount }) {
                // A V4L2 sensor's Bayer format: the session streams it as it is.
                do {
                    try camera.lockForConfiguration()
                    try camera.setActiveFormat(bayer)
                    camera.unlockForConfiguration()
                    preset = .inputPriority
                } catch {
                    Terminal.standardError("error: \(error.message)")
                    throw ExitCode.failure
                }
            }
            let photos = PhotoOutput()
            photos.maxPhotoQualityPrioritization = .quality
            let photo: CapturedPhoto
            do throws(CaptureError) {
                let session = try await CaptureCommand.start(camera, preset: preset, output: photos, microphone: false)
                defer { Task { await session.stopRunning() } }
                var settings = PhotoSettings(flashMode: flashMode, format: format, photoQualityPrioritization: prioritization)
                if raw {
                    guard let rawFormat = photos.availableRawPhotoPixelFormatTypes.first else {
                        throw CaptureError.unsupported("\(camera.localizedName) streams no Bayer format: it cannot take RAW photos (write .jpg or .heic)")
                    }
                    settings = PhotoSettings(rawPixelFormatType: rawFormat, flashMode: flashMode)
                }
                photo = try await photos.capturePhoto(with: settings)
            } catch {
                Terminal.standardError("error: \(error.message)")
                throw ExitCode.failure
            }
            let (destination, pending) = try await CaptureCommand.destination(for: url, save: save, library: library)
            do {
                try photo.fileDataRepresentation().write(to: destination)
            } catch {
                pending?.discard()
                Terminal.standardError("error: cannot write the photo: \(error.localizedDescription)")
                throw ExitCode.failure
            }
            let identifier = if let pending { try await CaptureCommand.finish(pending, copyTo: url) } else { String?.none }
            let size = photo.resolvedSettings.photoDimensions
            if json {
                try JSONOutput.print(
                    Record(
                        path: url.path, width: size.width, height: size.height, flashFired: photo.resolvedSettings.flashFired,
                        isRawPhoto: photo.isRawPhoto, framesCombined: photo.resolvedSettings.framesCombined, localIdentifier: identifier))
            } else {
                let kind = photo.isRawPhoto ? "RAW (DNG) " : ""
                print(
                    "\(url.path): \(kind)\(size.width)×\(size.height)\(photo.resolvedSettings.flashFired ? ", flash fired" : "")\(identifier.map { ", saved as \($0)" } ?? "")"
                )
            }
        }
    }
}
