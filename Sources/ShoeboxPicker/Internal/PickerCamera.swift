import Foundation
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxMedia
import Synchronization

/// The picker's camera on a capture device of this machine: one running `CaptureSession` with a
/// photo output, a movie output and a preview output, started on first use and stopped when the
/// session ends.
///
/// The preview streams at the `high` preset (the camera's largest format up to 1920×1080), light
/// enough for the page and the synthetic camera. A photo is taken at the camera's largest still
/// size, or the largest that fits the request's `maxPhotoDimensions`: the session switches to
/// that format for the shot and back (the preview pauses for the switch, as a phone's does).
/// Movies are recorded at the preset closest to `videoQuality` (they are transcoded to it on
/// delivery).
final class PickerCamera: Sendable {
    private struct Running {
        let capture: CaptureSession
        let device: CaptureDevice
        let mode: ImagePickerController.CameraCaptureMode
        let photos: PhotoOutput
        let movies: MovieFileOutput
        let preview: VideoDataOutput
    }

    private let request: PickerRequest
    /// Makes the capture session (on a test's clock, in tests: `CaptureSession(clock:)`).
    private let makeCaptureSession: @Sendable () -> CaptureSession
    private let running = Mutex<Running?>(nil)
    /// Serializes starts and stops.
    private let gate = AsyncGate()

    init(request: PickerRequest, makeCaptureSession: @escaping @Sendable () -> CaptureSession = { CaptureSession() }) {
        self.request = request
        self.makeCaptureSession = makeCaptureSession
    }

    /// The capture preset for a mode.
    func preset(for mode: ImagePickerController.CameraCaptureMode, on device: CaptureDevice) -> CaptureSession.Preset {
        guard mode == .video else { return .high }
        let wanted: CaptureSession.Preset =
            switch request.videoQuality {
            case .typeLow, .typeMedium, .type640x480: .vga640x480
            case .typeIFrame960x540, .typeIFrame1280x720, .hd1280x720: .hd1280x720
            case .typeHigh, .hd1920x1080: .hd1920x1080
            case .uhd3840x2160: .hd4K3840x2160
            }
        let probe = CaptureSession()
        try? probe.addInput(CaptureDeviceInput(device: device))
        return probe.canSetSessionPreset(wanted) ? wanted : .high
    }

    /// The preset a photo is taken at on `device`, and the size it gives.
    func stillPreset(on device: CaptureDevice) -> (preset: CaptureSession.Preset, size: PixelSize?) {
        guard let limit = request.camera.maxPhotoDimensions else { return (.photo, CaptureSession.Preset.photo.dimensions(on: device)) }
        let long = max(limit.width, limit.height)
        let short = min(limit.width, limit.height)
        for preset in [CaptureSession.Preset.hd4K3840x2160, .hd1920x1080, .hd1280x720, .vga640x480] {
            if let size = preset.dimensions(on: device), size.width <= long, size.height <= short { return (preset, size) }
        }
        return (.medium, CaptureSession.Preset.medium.dimensions(on: device))
    }

    /// Starts (or restarts, for another device or mode) the capture session.
    @discardableResult
    func start(device position: ImagePickerController.CameraDevice, mode: ImagePickerController.CameraCaptureMode) async throws(PickerError) -> CaptureDevice {
        await gate.enter()
        defer { gate.leave() }
        guard let device = await PickerAvailability.captureDevice(for: position) else {
            throw PickerError(.cameraUnavailable, "there is no \(position.rawValue) capture device on this machine")
        }
        if let current = running.withLock({ $0 }) {
            if current.device == device, current.mode == mode, current.capture.isRunning { return device }
            running.withLock { $0 = nil }
            await current.capture.stopRunning()
        }
        let capture = makeCaptureSession()
        let photos = PhotoOutput()
        let movies = MovieFileOutput()
        let preview = VideoDataOutput()
        do throws(CaptureError) {
            capture.beginConfiguration()
            try capture.setSessionPreset(preset(for: mode, on: device))
            try capture.addInput(CaptureDeviceInput(device: device))
            if mode == .video, request.mediaTypes.contains(.movie), let microphone = await CaptureDevice.default(for: .audio) {
                try capture.addInput(CaptureDeviceInput(device: microphone))
            }
            try capture.addOutput(photos)
            try capture.addOutput(movies)
            try capture.addOutput(preview)
            try capture.commitConfiguration()
            try await capture.startRunning()
            do throws(CaptureError) {
                // A camera another program holds: the page hears "camera unavailable" at once.
                try await capture.waitUntilUninterrupted(timeout: .seconds(5))
            } catch {
                await capture.stopRunning()
                throw error
            }
        } catch {
            throw PickerError(error.code == .notAuthorized ? .notAuthorized : .cameraUnavailable, error.message, underlying: error)
        }
        running.withLock { $0 = Running(capture: capture, device: device, mode: mode, photos: photos, movies: movies, preview: preview) }
        return device
    }

    func capturePhoto(device: ImagePickerController.CameraDevice, flash: ImagePickerController.CameraFlashMode) async throws(PickerError) -> CapturedPhoto {
        try await start(device: device, mode: .photo)
        guard let current = running.withLock({ $0 }) else { throw PickerError(.captureFailed, "the camera stopped") }
        let mode: CaptureDevice.FlashMode = current.device.hasFlash ? CaptureDevice.FlashMode(rawValue: flash.rawValue) ?? .off : .off
        let preview = current.capture.sessionPreset
        let still = stillPreset(on: current.device)
        do throws(CaptureError) {
            if still.preset != preview { try current.capture.setSessionPreset(still.preset) }
            defer { if still.preset != preview { try? current.capture.setSessionPreset(preview) } }
            // A frame of the preview's size may still be on its way when the format changes.
            for _ in 0..<4 {
                let photo = try await current.photos.capturePhoto(with: PhotoSettings(flashMode: mode, format: .jpeg, quality: 0.92))
                if still.size == nil || photo.resolvedSettings.photoDimensions == still.size { return photo }
            }
            throw .captureFailed("the camera gave no photo at \(still.size.map(\.description) ?? "its still size")")
        } catch {
            throw PickerError(.captureFailed, error.message, underlying: error)
        }
    }

    /// Starts recording to `url` and returns once the recording has its first frame (the
    /// delegate's `didStartRecordingTo`), so a Stop from then on always has a movie to finish;
    /// `onFinish` gets the recording when it ends by itself (the maximum duration) or is stopped.
    ///
    /// - Throws: ``PickerError/Code/captureFailed`` when the recording cannot start, or the
    ///   camera sends no frame within `firstFrameTimeout`.
    func startRecording(
        to url: URL, device: ImagePickerController.CameraDevice, torch: CaptureDevice.TorchMode,
        firstFrameTimeout: Duration = .seconds(5),
        onFinish: @escaping @Sendable (MovieFileOutput.Recording) -> Void
    ) async throws(PickerError) {
        try await start(device: device, mode: .video)
        guard let current = running.withLock({ $0 }) else { throw PickerError(.captureFailed, "the camera stopped") }
        setTorch(torch, on: current.device)
        current.movies.maxRecordedDuration = request.videoMaximumDuration
        let events = current.movies.events
        // Whether the recording began (true) or ended before its first frame (false).
        let (began, beginning) = AsyncStream.makeStream(of: Bool.self)
        Task {
            for await event in events {
                switch event {
                case .started:
                    beginning.yield(true)
                case .finished(let recording):
                    beginning.yield(false)
                    beginning.finish()
                    onFinish(recording)
                    return
                }
            }
            beginning.finish()
        }
        do {
            try await current.movies.startRecording(to: url)
        } catch {
            setTorch(.off, on: current.device)
            throw PickerError(.captureFailed, error.message, underlying: error)
        }
        let started = await withTimeout(firstFrameTimeout) { await began.first { _ in true } }
        switch started {
        case true?:
            return
        case false?:
            setTorch(.off, on: current.device)
            throw PickerError(.captureFailed, "the recording ended before its first frame")
        case nil:
            _ = await current.movies.stopRecording()
            setTorch(.off, on: current.device)
            throw PickerError(.captureFailed, "the camera sent no frame within \(firstFrameTimeout) of the recording's start")
        }
    }

    /// Stops the recording and waits for its file; `nil` if none was in progress.
    func stopRecording() async -> MovieFileOutput.Recording? {
        guard let current = running.withLock({ $0 }) else { return nil }
        let recording = await current.movies.stopRecording()
        setTorch(.off, on: current.device)
        return recording
    }

    private func setTorch(_ mode: CaptureDevice.TorchMode, on device: CaptureDevice) {
        guard device.hasTorch else { return }
        do {
            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            try device.setTorchMode(mode)
        } catch {
            // A torch that cannot be set leaves the recording as it is.
        }
    }

    /// Live frames for the preview (late frames are dropped).
    func previewFrames(device: ImagePickerController.CameraDevice, mode: ImagePickerController.CameraCaptureMode) async throws(PickerError) -> AsyncStream<
        CaptureFrame
    > {
        try await start(device: device, mode: mode)
        guard let current = running.withLock({ $0 }) else { throw PickerError(.cameraUnavailable, "the camera stopped") }
        return current.preview.frames
    }

    func stop() async {
        await gate.enter()
        defer { gate.leave() }
        guard
            let current = running.withLock({ state -> Running? in
                defer { state = nil }
                return state
            })
        else { return }
        await current.capture.stopRunning()
        setTorch(.off, on: current.device)
        // Zoom and exposure bias are the camera's: the next picker starts without them, as a
        // camera app does.
        if current.device.videoZoomFactor != 1 || current.device.exposureTargetBias != 0 {
            try? current.device.lockForConfiguration()
            try? current.device.setVideoZoomFactor(Swift.max(1, current.device.minAvailableVideoZoomFactor))
            try? current.device.setExposureTargetBias(0)
            current.device.unlockForConfiguration()
        }
    }
}
