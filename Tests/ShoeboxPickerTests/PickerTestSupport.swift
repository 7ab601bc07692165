import Foundation
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

@testable import ShoeboxPicker

/// A library with known content for picker tests:
/// - `landscape.jpg` 400×300, `portrait.jpg` 300×400 (favorites), `square.jpg` 256×256
/// - `screenshot.png` 200×400 PNG without camera make (a screenshot)
/// - `wide.jpg` 2400×600 (a panorama)
/// - `photo.heic` 320×240 HEIC
/// - `clip.mp4` 4 s 320×240 H.264 + AAC, `recording.webm` 2 s VP8 + Opus
/// and an album "Trip" holding portrait, square and clip.
struct PickerLibrary {
    let folder: URL
    let library: PhotoLibrary
    /// Asset identifiers by file name.
    let ids: [String: String]
    let tripAlbum: String

    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-picker-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        library = try await PhotoLibrary.open(at: folder.appendingPathComponent("Picker.shoebox"), backgroundWork: .onDemand)
        let inputs = try await PickerInputs.shared.folder()
        let names = ["landscape.jpg", "portrait.jpg", "square.jpg", "wide.jpg", "screenshot.png", "photo.heic", "clip.mp4", "recording.webm"]
        var ids: [String: String] = [:]
        for url in names.map(inputs.appendingPathComponent) {
            let result = try await library.performChanges {
                _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url)
            }
            ids[url.lastPathComponent] = result.created[0].localIdentifier
        }
        let favorite = try await library.fetchAssets(withLocalIdentifiers: [ids["portrait.jpg"]!]).firstObject!
        var album: String?
        let trip = try await library.fetchAssets(withLocalIdentifiers: [ids["portrait.jpg"]!, ids["square.jpg"]!, ids["clip.mp4"]!]).allObjects()
        try await library.performChanges {
            AssetChangeRequest(for: favorite).isFavorite = true
            let request = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
            request.addAssets(trip)
            album = request.placeholderForCreatedAssetCollection?.localIdentifier
        }
        await library.waitForBackgroundWork()
        self.ids = ids
        tripAlbum = try #require(album)
    }

    func asset(_ name: String) async throws -> Asset {
        try #require(await library.fetchAssets(withLocalIdentifiers: [ids[name]!]).firstObject)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A picker over this library driven by `script`.
    func picker(
        cameras: [ImagePickerController.CameraDevice: PickerAvailability.Camera] = [:],
        script: @escaping ScriptedPresenter.Script
    ) -> (ImagePickerController, ScriptedPresenter) {
        let presenter = ScriptedPresenter(cameras: cameras, script: script)
        return (ImagePickerController(library: library, presenter: presenter), presenter)
    }
}

/// The input files, made once per test run (ffmpeg and HEIC encoding are the slow part).
actor PickerInputs {
    static let shared = PickerInputs()
    private var made: URL?

    func folder() throws -> URL {
        if let made { return made }
        let inputs = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-picker-inputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        var camera = ImageMetadata()
        camera.make = "Shoebox"
        camera.model = "Test Camera"
        func jpeg(_ name: String, _ width: Int, _ height: Int, seed: UInt64, date: String) throws {
            var metadata = camera
            let parts = date.split(separator: "-").map { Int($0)! }
            metadata.dateTimeOriginal = ImageMetadata.DateTime(year: parts[0], month: parts[1], day: parts[2], hour: 12, minute: 0, second: 0)
            try SyntheticPhoto(width: width, height: height, seed: seed).image().writingMetadata(metadata)
                .write(to: inputs.appendingPathComponent(name), options: ImageEncodingOptions(keepsMetadata: true))
        }
        try jpeg("landscape.jpg", 400, 300, seed: 1, date: "2020-01-01")
        try jpeg("portrait.jpg", 300, 400, seed: 2, date: "2020-02-01")
        try jpeg("square.jpg", 256, 256, seed: 3, date: "2020-03-01")
        try jpeg("wide.jpg", 2400, 600, seed: 4, date: "2020-04-01")
        try SyntheticPhoto(width: 200, height: 400, seed: 5).image().write(to: inputs.appendingPathComponent("screenshot.png"), format: .png)
        try SyntheticPhoto(width: 320, height: 240, seed: 6).image(metadata: camera).write(to: inputs.appendingPathComponent("photo.heic"), format: .heic)
        try SyntheticMovie(duration: 4, width: 320, height: 240).write(to: inputs.appendingPathComponent("clip.mp4"))
        try SyntheticMovie(duration: 2, width: 320, height: 240).write(to: inputs.appendingPathComponent("recording.webm"))
        made = inputs
        return inputs
    }
}

/// Files in the library folder, to prove no library file is handed out.
func isInside(_ url: URL?, _ folder: URL) -> Bool {
    guard let url else { return false }
    return url.standardizedFileURL.path.hasPrefix(folder.standardizedFileURL.path + "/")
}

/// Removes a result's delivery folder.
func cleanUp(_ result: PickerResult) {
    for info in result.infos {
        for url in [info.imageURL, info.mediaURL, info.editedImageURL].compactMap({ $0 }) {
            try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
        }
    }
}

/// Holds the process-wide synthetic camera around each test case (the capture tests, in another
/// target of the same process, take the same lock).
struct SyntheticCameraTrait: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else { return try await function() }
        try await SyntheticCameraLock.shared.run {
            let before = CaptureDevice.isSyntheticCameraEnabled
            CaptureDevice.isSyntheticCameraEnabled = true
            defer { CaptureDevice.isSyntheticCameraEnabled = before }
            try await function()
        }
    }
}

extension Trait where Self == SyntheticCameraTrait {
    static var usesSyntheticCamera: Self { Self() }
}
