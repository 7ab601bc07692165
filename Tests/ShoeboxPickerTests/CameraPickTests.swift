import Foundation
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxPicker

/// The picker's camera on the synthetic capture device (and on a scripted presenter's camera).
@Suite(.serialized, .usesSyntheticCamera) struct CameraPickTests {
    func cameraPicker(_ fixture: PickerLibrary, script: @escaping ScriptedPresenter.Script) throws -> ImagePickerController {
        let (picker, _) = fixture.picker(script: script)
        try picker.setSourceType(.camera)
        return picker
    }

    @Test func noCameraMeansTheSourceIsUnavailable() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        CaptureDevice.isSyntheticCameraEnabled = false  // the trait restores it
        let (picker, _) = fixture.picker { await $0.cancel() }
        #expect(!picker.isSourceTypeAvailable(.camera))
        #expect(picker.availableMediaTypes(for: .camera) == nil)
        #expect(!picker.isCameraDeviceAvailable(.rear) && picker.availableCaptureModes(for: .rear) == nil)
        do {
            try picker.setSourceType(.camera)
            Issue.record("the camera was offered without one")
        } catch {
            #expect(error.code == .sourceTypeUnavailable && error.message.contains("no capture device"))
        }
        // A presenter with its own camera (a browser) makes it available again.
        let (browser, _) = fixture.picker(cameras: [.front: PickerAvailability.Camera(hasFlash: false)]) { await $0.cancel() }
        #expect(browser.isSourceTypeAvailable(.camera) && browser.isCameraDeviceAvailable(.front) && !browser.isCameraDeviceAvailable(.rear))
        #expect(!browser.isFlashAvailable(for: .front))
    }

    /// Availability means usable now (issue 22): a camera another session holds is not offered,
    /// and a camera picker with none free fails when it is set up, not after waiting for frames.
    @Test func aCameraSomeoneElseHoldsIsNotAvailable() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let (picker, _) = fixture.picker { await $0.cancel() }
        #expect(picker.isCameraDeviceAvailable(.rear) && picker.isCameraDeviceAvailable(.front))
        let back = try #require(await PickerAvailability.captureDevice(for: .rear))
        let front = try #require(await PickerAvailability.captureDevice(for: .front))
        let other = CaptureSession()
        let another = CaptureSession()
        try other.addInput(CaptureDeviceInput(device: back))
        try another.addInput(CaptureDeviceInput(device: front))
        try await other.startRunning()
        #expect(back.isInUseByAnotherApplication && !front.isInUseByAnotherApplication)
        #expect(!picker.isCameraDeviceAvailable(.rear) && picker.isCameraDeviceAvailable(.front))
        #expect(picker.isSourceTypeAvailable(.camera))
        try await another.startRunning()
        #expect(!picker.isSourceTypeAvailable(.camera), "both cameras are held")
        do {
            try picker.setSourceType(.camera)
            Issue.record("a camera was offered while both were held")
        } catch {
            #expect(error.code == .sourceTypeUnavailable && error.message.contains("is free"))
        }
        await other.stopRunning()
        await another.stopRunning()
        #expect(!back.isInUseByAnotherApplication && picker.isCameraDeviceAvailable(.rear) && picker.isSourceTypeAvailable(.camera))
    }

    @Test func optionsTheOnlyCameraLacksAreErrors() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        CaptureDevice.isSyntheticCameraEnabled = false  // the trait restores it
        // A browser with only a front camera that takes photos, no movies.
        let (picker, _) = fixture.picker(cameras: [.front: PickerAvailability.Camera(hasFlash: false, captureModes: [.photo])]) { await $0.cancel() }
        try picker.setSourceType(.camera)
        #expect(picker.availableMediaTypes(for: .camera) == [.image])
        do {
            try picker.setMediaTypes([.movie])
            Issue.record("movies were accepted from a camera that cannot record")
        } catch {
            #expect(error.code == .invalidMediaTypes && error.message.contains("public.movie"))
        }
        do {
            try picker.setCameraDevice(.rear)
            Issue.record("a rear camera that does not exist was chosen")
        } catch {
            #expect(error.code == .cameraUnavailable && error.message.contains("rear"))
        }
        #expect(throws: PickerError.self) { try picker.setCameraFlashMode(.on) }
        #expect(throws: PickerError.self) { try picker.setCameraCaptureMode(.video) }
        #expect(picker.mediaTypes == [.image] && picker.cameraDevice == .front)
    }

    @Test func cameraOptionsAreCheckedAgainstTheDevices() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let picker = try cameraPicker(fixture) { await $0.cancel() }
        #expect(picker.isCameraDeviceAvailable(.rear) && picker.isCameraDeviceAvailable(.front))
        #expect(picker.availableCaptureModes(for: .rear) == [.photo, .video])
        #expect(picker.isFlashAvailable(for: .rear) && !picker.isFlashAvailable(for: .front))
        try picker.setCameraDevice(.front)
        #expect(throws: PickerError.self) { try picker.setCameraFlashMode(.on) }  // the front camera has none
        try picker.setCameraDevice(.rear)
        try picker.setCameraFlashMode(.on)
        #expect(throws: PickerError.self) { try picker.setCameraCaptureMode(.video) }  // mediaTypes: images only
        try picker.setMediaTypes([.image, .movie])
        try picker.setCameraCaptureMode(.video)
        #expect(throws: PickerError.self) { try picker.setCameraViewTransform(.scale(.nan)) }
        try picker.setCameraViewTransform(.scale(1.5))
        #expect(picker.cameraViewTransform.a == 1.5)
    }

    @Test func takePictureThenUsePhoto() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let picker = try cameraPicker(fixture) { session in
            let first = try await session.takePicture()
            #expect(session.reviewing == first)
            await #expect(throws: PickerError.self) { try await session.takePicture() }  // review first
            try await session.retake()
            #expect(!FileManager.default.fileExists(atPath: first.fileURL.path), "a retaken shot is thrown away")
            let second = try await session.takePicture()
            #expect(second.id != first.id && second.pixelSize == PixelSize(width: 3840, height: 2160), "the 4K camera's still size")
            try await session.useCapture()
        }
        try picker.setCameraFlashMode(.on)
        let result = try await picker.pick()
        defer { cleanUp(result) }
        let info = try #require(result.infos.first)
        #expect(info.mediaType == .image)
        #expect(info.originalImage?.pixelSize == PixelSize(width: 3840, height: 2160))
        let metadata = try #require(info.mediaMetadata)
        #expect(metadata.make != nil && metadata.model != nil && metadata.dateTimeOriginal != nil)
        #expect(metadata.flashFired == true, "the flash was on")
        #expect(info.referenceURL == nil && info.asset == nil, "a capture is not in the library")
        #expect(try Image(contentsOf: try #require(info.imageURL)).metadata.make == metadata.make, "the file carries its EXIF")
        await #expect(try fixture.library.fetchAssets().count == 8, "not saved unless asked")
    }

    @Test func customControlsTakeSeveralPicturesBeforeDismissal() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        final class Delegate: ImagePickerControllerDelegate, Sendable {
            let infos = EventRecorder<ImagePickerController.Info>()
            func imagePickerController(_ picker: ImagePickerController, didFinishPickingMediaWithInfo info: ImagePickerController.Info) async {
                infos.append(info)
            }
        }
        let delegate = Delegate()
        let picker = try cameraPicker(fixture) { _ in }  // the client drives the camera
        try picker.setShowsCameraControls(false)
        try picker.setCameraOverlay(#"<button data-picker-action="takePicture">Snap</button>"#)
        picker.delegate = delegate
        let session = try await picker.present()
        for _ in 0..<3 { try await picker.takePicture() }
        #expect(session.reviewing == nil, "no Retake / Use Photo with custom controls")
        #expect(await delegate.infos.waitFor(3) && delegate.infos.count == 3, "each picture reached the delegate as it was taken")
        #expect(!session.isFinished)
        await picker.dismiss()
        let result = await session.result()
        defer { cleanUp(result) }
        #expect(result.infos.count == 3)
        #expect(Set(result.infos.compactMap(\.imageURL)).count == 3)
        for info in result.infos { #expect(FileManager.default.fileExists(atPath: info.imageURL!.path)) }
        await #expect(throws: PickerError.self) { try await picker.takePicture() }  // dismissed
    }

    @Test func aStopAfterTheMaximumDurationGetsTheMovieForReview() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let picker = try cameraPicker(fixture) { session in
            try session.setCameraCaptureMode(.video)
            let events = session.events
            try await session.startVideoCapture()
            // The recording stops by itself at videoMaximumDuration; Stop comes right after.
            for await event in events {
                if case .recordingStopped = event { break }
            }
            let movie = try await session.stopVideoCapture()
            #expect(movie.mediaType == .movie && session.reviewing == movie, "the late Stop waits for the review instead of failing")
            #expect(try await session.stopVideoCapture() == movie, "a second Stop answers the same")
            try await session.useCapture()
        }
        try picker.setMediaTypes([.image, .movie])
        try picker.setVideoMaximumDuration(0.6)
        let result = try await picker.pick()
        defer { cleanUp(result) }
        let info = try #require(result.infos.first)
        let movie = try await MovieInfo(contentsOf: try #require(info.mediaURL))
        #expect(info.mediaType == .movie && movie.duration > 0.3 && movie.duration <= 0.7, "stopped at 0.6 s, got \(movie.duration)")
    }

    @Test func recordAMovieThenChoose() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        // The camera runs on a clock the test moves: 1.5 s of recording, frame by frame.
        let clock = TestClock()
        let picker = try cameraPicker(fixture) { session in
            try session.setCameraCaptureMode(.video)
            try await session.startVideoCapture()
            #expect(session.isRecording)
            let end = clock.now.advanced(by: .seconds(1.5))
            while await clock.waitForSleepers(), let next = clock.nextDeadline, next <= end { _ = clock.advance(to: next) }
            _ = clock.advance(to: end)
            let movie = try await session.stopVideoCapture()
            #expect(movie.mediaType == .movie && session.reviewing == movie)
            try session.setTrim(0.5..<1.2, for: movie.id)
            try await session.useCapture()
        }
        try picker.setMediaTypes([.image, .movie])
        picker.allowsEditing = true
        picker.videoQuality = .type640x480
        picker.savesCapturedMedia = true
        picker.setCaptureClock(clock)
        let result = try await picker.pick()
        defer { cleanUp(result) }
        let info = try #require(result.infos.first)
        #expect(info.mediaType == .movie && info.mediaMetadata == nil && info.referenceURL == nil)
        let movie = try await MovieInfo(contentsOf: try #require(info.mediaURL))
        #expect(abs(movie.duration - 0.7) <= 0.04, "trimmed to 0.7 s, got \(movie.duration)")
        #expect(movie.pixelSize == PixelSize(width: 640, height: 480) && movie.videoCodec == "h264")
        // Saved: the whole recording as the original, the trim as its edit.
        let savedIdentifier = try #require(info.savedAssetIdentifier)
        let saved = try await #require(try fixture.library.fetchAssets(withLocalIdentifiers: [savedIdentifier]).firstObject)
        #expect(saved.mediaType == .video && saved.hasAdjustments)
        #expect(abs(saved.duration - 0.7) <= 0.04, "the current version is the trim")
        let original = try await MovieInfo(contentsOf: fixture.library.originalURL(for: saved))
        #expect(abs(original.duration - 1.5) <= 0.04, "the original recording is kept whole (\(original.duration) s of 1.5 s)")
    }

    /// Start answers once the movie has its first frame: a Stop at once still gives a movie with
    /// a picture (it used to race the first frame into the file and lose).
    @Test func aStopRightAfterTheStartGivesAMovie() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let picker = try cameraPicker(fixture) { session in
            try session.setCameraCaptureMode(.video)
            try await session.startVideoCapture()
            let movie = try await session.stopVideoCapture()
            #expect(movie.mediaType == .movie)
            try await session.useCapture()
        }
        try picker.setMediaTypes([.image, .movie])
        picker.videoQuality = .type640x480
        let result = try await picker.pick()
        defer { cleanUp(result) }
        let movie = try await MovieInfo(contentsOf: try #require(result.infos.first?.mediaURL))
        #expect(movie.videoCodec == "h264" && movie.duration > 0, "\(movie)")
    }

    @Test func savedPhotosKeepTheCropAsAnEdit() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        let picker = try cameraPicker(fixture) { session in
            let shot = try await session.takePicture()
            try session.setCrop(PixelRect(x: 420, y: 0, width: 1080, height: 1080), for: shot.id)
            try await session.useCapture()
        }
        picker.allowsEditing = true
        picker.savesCapturedMedia = true
        #expect(throws: PickerError.self) { try picker.setCameraMaxPhotoDimensions(PixelSize(width: 0, height: 2000)) }
        var request = picker.request
        request.camera.maxPhotoDimensions = PixelSize(width: -1, height: 10)
        #expect(throws: PickerError.self, "a request decoded from JSON is checked too") { try request.validate(in: picker.availability) }
        try picker.setCameraMaxPhotoDimensions(PixelSize(width: 1080, height: 2000))  // either way round
        let result = try await picker.pick()
        defer { cleanUp(result) }
        let info = try #require(result.infos.first)
        #expect(info.cropRect == PixelRect(x: 420, y: 0, width: 1080, height: 1080))
        #expect(info.editedImage?.pixelSize == PixelSize(width: 1024, height: 1024), "bounded by the 1024 px default")
        let savedIdentifier = try #require(info.savedAssetIdentifier)
        let saved = try await #require(try fixture.library.fetchAssets(withLocalIdentifiers: [savedIdentifier]).firstObject)
        #expect(saved.hasAdjustments && saved.pixelWidth == 1080 && saved.pixelHeight == 1080)
        await #expect(
            try Image(contentsOf: fixture.library.originalURL(for: saved)).pixelSize == PixelSize(width: 1920, height: 1080),
            "the client asked for at most 1080 × 2000")
        await #expect(try Image(contentsOf: fixture.library.originalURL(for: saved)).metadata.make != nil, "with the capture's metadata")
    }

    @Test func thePresentersCameraAnswersTheClientsCommands() async throws {
        let fixture = try await PickerLibrary()
        defer { fixture.remove() }
        CaptureDevice.isSyntheticCameraEnabled = false  // only the presenter's camera
        let shot = fixture.folder.appendingPathComponent("browser.png")
        try SyntheticPhoto(width: 640, height: 360, seed: 9).image().write(to: shot, format: .png)
        // A browser-like presenter: it answers the camera commands by sending a capture.
        let presenter = ScriptedPresenter(cameras: [.rear: .init(hasFlash: false), .front: .init(hasFlash: false)]) { session in
            for await event in session.events {
                if case .command(.takePicture) = event { try await session.addCapture(contentsOf: shot) }
            }
        }
        let picker = ImagePickerController(library: fixture.library, presenter: presenter)
        try picker.setSourceType(.camera)
        try picker.setShowsCameraControls(false)
        let session = try await picker.present()
        #expect(session.cameraSource == .presenter)
        let capture = try await picker.takePicture()
        #expect(capture.origin == .presenter && capture.pixelSize == PixelSize(width: 640, height: 360))
        await #expect(throws: PickerError.self) { try await session.addCapture(contentsOf: fixture.folder.appendingPathComponent("missing.jpg")) }
        await picker.dismiss()
        let result = await session.result()
        defer { cleanUp(result) }
        let info = try #require(result.infos.first)
        #expect(info.uniformTypeIdentifier == "public.png" && info.mediaMetadata?.dateTimeOriginal != nil)
    }
}
