import Foundation
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import Synchronization

extension PickerSession {
    /// How long the client's `takePicture()` waits for the presenter's camera to answer.
    static let presenterCaptureTimeout: Duration = .seconds(20)

    // MARK: Camera settings

    /// The camera in use: the request's at first, then as ``setCameraDevice(_:)`` sets it.
    public var cameraDevice: ImagePickerController.CameraDevice { state.withLock { $0.cameraDevice } }
    /// Photos or movies: the request's mode at first, then as ``setCameraCaptureMode(_:)`` sets
    /// it; `.video` once a recording starts.
    public var cameraCaptureMode: ImagePickerController.CameraCaptureMode { state.withLock { $0.captureMode } }
    /// The flash (the torch, for movies): the request's mode at first, then as
    /// ``setCameraFlashMode(_:)`` sets it.
    public var cameraFlashMode: ImagePickerController.CameraFlashMode { state.withLock { $0.flashMode } }
    /// Whether a recording is in progress.
    public var isRecording: Bool { state.withLock { $0.recording != nil } }

    private func requireCamera() throws(PickerError) {
        guard request.sourceType == .camera, cameraSource != nil else {
            throw PickerError(.cameraUnavailable, "the picker's source is \(request.sourceType.rawValue), not the camera")
        }
    }

    /// Switches between the rear and front camera (the user's switch button).
    ///
    /// - Throws: ``PickerError/Code/cameraUnavailable`` when the source is not the camera or there
    ///   is no such camera; ``PickerError/Code/invalidState`` while recording.
    public func setCameraDevice(_ device: ImagePickerController.CameraDevice) async throws(PickerError) {
        try requireCamera()
        if cameraSource == .captureDevice, await PickerAvailability.captureDevice(for: device) == nil {
            throw PickerError(.cameraUnavailable, "there is no \(device.rawValue) capture device on this machine")
        }
        try state.withLock { (state: inout State) throws(PickerError) in
            try Self.requireActive(state)
            guard state.recording == nil else { throw PickerError(.invalidState, "cannot switch cameras while recording") }
            state.cameraDevice = device
        }
    }

    /// Switches between photos and movies (the still / video switch).
    ///
    /// - Throws: ``PickerError/Code/cameraUnavailable`` when `mediaTypes` does not allow the mode;
    ///   ``PickerError/Code/invalidState`` while recording.
    public func setCameraCaptureMode(_ mode: ImagePickerController.CameraCaptureMode) throws(PickerError) {
        try requireCamera()
        guard request.mediaTypes.contains(mode == .photo ? .image : .movie) else {
            throw PickerError(.cameraUnavailable, "mediaTypes \(request.mediaTypes.map(\.rawValue)) do not allow \(mode.rawValue) capture")
        }
        try state.withLock { (state: inout State) throws(PickerError) in
            try Self.requireActive(state)
            guard state.recording == nil else { throw PickerError(.invalidState, "cannot switch modes while recording") }
            state.captureMode = mode
        }
    }

    /// Sets the flash (for movies: the torch).
    ///
    /// - Throws: ``PickerError/Code/cameraUnavailable`` for `.on` or `.auto` on a camera without
    ///   a flash (device cameras; the browser reports its torch itself).
    public func setCameraFlashMode(_ mode: ImagePickerController.CameraFlashMode) throws(PickerError) {
        try requireCamera()
        let device = cameraDevice
        if mode != .off, cameraSource == .captureDevice, PickerAvailability.captureDevice(for: device)?.hasFlash != true {
            throw PickerError(.cameraUnavailable, "the \(device.rawValue) camera has no flash")
        }
        state.withLock { $0.flashMode = mode }
    }

    /// A capture device's zoom now and the range it allows (`videoZoomFactor`,
    /// `min…maxAvailableVideoZoomFactor`); `nil` for the presenter's camera, whose page zooms its
    /// own track.
    public var cameraZoom: (factor: Double, range: ClosedRange<Double>)? {
        guard request.sourceType == .camera, cameraSource == .captureDevice,
            let device = PickerAvailability.captureDevice(for: cameraDevice)
        else { return nil }
        return (device.videoZoomFactor, device.minAvailableVideoZoomFactor...device.maxAvailableVideoZoomFactor)
    }

    /// Zooms the capture device (the page's zoom slider, pinch and keys): the preview and the
    /// photos and movies that follow show it.
    ///
    /// - Throws: ``PickerError/Code/invalidArgument`` outside the camera's zoom range;
    ///   ``PickerError/Code/cameraUnavailable`` for the presenter's camera (it zooms itself) or a
    ///   camera that is gone.
    public func setCameraZoomFactor(_ factor: Double) throws(PickerError) {
        let device = try captureDeviceToConfigure(else: "the browser zooms its own camera")
        let range = device.minAvailableVideoZoomFactor...device.maxAvailableVideoZoomFactor
        guard factor.isFinite, range.contains(factor) else {
            throw PickerError(.invalidArgument, "zoom \(factor) is outside \(range.lowerBound)…\(range.upperBound) on \(device.localizedName)")
        }
        try configure(device, doing: "zoom") { () throws(CaptureError) in try device.setVideoZoomFactor(factor) }
    }

    /// The capture device the session's camera is, for a setting; `presenterReason` when it is the
    /// presenter's camera instead.
    private func captureDeviceToConfigure(else presenterReason: String) throws(PickerError) -> CaptureDevice {
        try requireCamera()
        guard cameraSource == .captureDevice else { throw PickerError(.cameraUnavailable, presenterReason) }
        guard let device = PickerAvailability.captureDevice(for: cameraDevice) else {
            throw PickerError(.cameraUnavailable, "there is no \(cameraDevice.rawValue) capture device on this machine")
        }
        return device
    }

    /// Changes `device` under its configuration lock.
    private func configure(_ device: CaptureDevice, doing what: String, _ change: () throws(CaptureError) -> Void) throws(PickerError) {
        do throws(CaptureError) {
            try device.lockForConfiguration()
            defer { device.unlockForConfiguration() }
            try change()
        } catch {
            throw PickerError(.cameraUnavailable, "cannot \(what) on \(device.localizedName): \(error.message)", underlying: error)
        }
    }

    /// A capture device's exposure bias now and the range it allows (`exposureTargetBias`, in
    /// EV); `nil` for the presenter's camera (its page sets its own track's exposure) or a camera
    /// without one.
    public var cameraExposureBias: (bias: Float, range: ClosedRange<Float>)? {
        guard request.sourceType == .camera, cameraSource == .captureDevice,
            let device = PickerAvailability.captureDevice(for: cameraDevice),
            device.maxExposureTargetBias > device.minExposureTargetBias
        else { return nil }
        return (device.exposureTargetBias, device.minExposureTargetBias...device.maxExposureTargetBias)
    }

    /// Brightens or darkens what the capture device's auto exposure chooses (the page's exposure
    /// slider), by `bias` EV.
    ///
    /// - Throws: ``PickerError/Code/invalidArgument`` outside the camera's range;
    ///   ``PickerError/Code/cameraUnavailable`` for the presenter's camera or a camera without one.
    public func setCameraExposureTargetBias(_ bias: Float) throws(PickerError) {
        let device = try captureDeviceToConfigure(else: "the browser sets its own camera's exposure")
        let range = device.minExposureTargetBias...device.maxExposureTargetBias
        guard bias.isFinite, range.contains(bias), range.upperBound > range.lowerBound else {
            throw PickerError(.invalidArgument, "exposure bias \(bias) EV is outside \(range.lowerBound)…\(range.upperBound) on \(device.localizedName)")
        }
        try configure(device, doing: "set the exposure") { () throws(CaptureError) in try device.setExposureTargetBias(bias) }
    }

    /// Live frames of a capture-device camera, for the preview (late frames are dropped).
    ///
    /// - Throws: ``PickerError/Code/cameraUnavailable`` when the camera is the presenter's own
    ///   (it shows its preview itself) or cannot start.
    public func previewFrames() async throws(PickerError) -> AsyncStream<CaptureFrame> {
        try requireCamera()
        guard let camera else { throw PickerError(.cameraUnavailable, "the presenter's camera shows its own preview") }
        return try await camera.previewFrames(device: cameraDevice, mode: cameraCaptureMode)
    }

    // MARK: Taking pictures

    private func nextCaptureID() -> String {
        state.withLock { state in
            state.captureCount += 1
            return "capture-\(state.captureCount)"
        }
    }

    private func prepareFolder() async throws(PickerError) {
        let folder = folder
        do {
            // Private to this user: picked copies and captures are the user's photos.
            try await BlockingPool.shared.run {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw PickerError(.captureFailed, "cannot make \(folder.path): \(error.localizedDescription)", underlying: error)
        }
    }

    /// Takes a picture (the shutter, or `takePicture()` with custom controls).
    ///
    /// With the standard controls the picture waits for review (``useCapture()`` or ``retake()``);
    /// without them it is delivered at once (``Event/delivered(_:)``) and the camera stays open.
    /// With the presenter's camera, the presenter is asked (``Event/command(_:)``) and this waits
    /// for its ``addCapture(contentsOf:)``.
    ///
    /// - Throws: ``PickerError/Code/cameraUnavailable`` when the source is not the camera or the
    ///   capture mode is video; ``PickerError/Code/invalidState`` while a capture waits for review
    ///   or a recording runs; ``PickerError/Code/captureFailed``.
    @discardableResult
    public func takePicture() async throws(PickerError) -> CapturedMedia {
        try requireCamera()
        guard request.mediaTypes.contains(.image) else {
            throw PickerError(.cameraUnavailable, "mediaTypes \(request.mediaTypes.map(\.rawValue)) do not include public.image")
        }
        let (device, flash) = try state.withLock {
            (state: inout State) throws(PickerError) -> (ImagePickerController.CameraDevice, ImagePickerController.CameraFlashMode) in
            try Self.requireActive(state)
            guard state.reviewing == nil else { throw PickerError(.invalidState, "a picture waits for Use Photo or Retake") }
            guard state.recording == nil else { throw PickerError(.invalidState, "a movie is recording") }
            return (state.cameraDevice, state.flashMode)
        }
        guard let camera else { return try await awaitPresenterCapture(.takePicture) }
        let photo = try await camera.capturePhoto(device: device, flash: flash)
        try await prepareFolder()
        let id = nextCaptureID()
        let file = folder.appendingPathComponent("\(id).jpg")
        do {
            let data = photo.fileDataRepresentation()
            try await BlockingPool.shared.run { try data.write(to: file, options: .atomic) }
        } catch {
            throw PickerError(.captureFailed, "cannot write the picture: \(error.localizedDescription)", underlying: error)
        }
        let media = CapturedMedia(
            id: id, mediaType: .image, fileURL: file, uniformTypeIdentifier: "public.jpeg",
            pixelSize: photo.image.pixelSize, duration: nil, metadata: photo.metadata, origin: .captureDevice)
        return try await didCapture(media)
    }

    /// Starts recording a movie (the Record button, or `startVideoCapture()`). The recording stops
    /// by itself at `videoMaximumDuration`.
    ///
    /// On this machine's camera it returns once the movie has its first frame, so a
    /// ``stopVideoCapture()`` that follows at once still gives a (short) movie; a camera that
    /// sends no frame within 5 s fails it with ``PickerError/Code/captureFailed``.
    ///
    /// - Throws: ``PickerError/Code/cameraUnavailable`` when movies are not allowed;
    ///   ``PickerError/Code/invalidState`` while recording or reviewing.
    public func startVideoCapture() async throws(PickerError) {
        try requireCamera()
        guard request.mediaTypes.contains(.movie) else {
            throw PickerError(.cameraUnavailable, "mediaTypes \(request.mediaTypes.map(\.rawValue)) do not include public.movie")
        }
        try await prepareFolder()
        let id = nextCaptureID()
        let url = folder.appendingPathComponent("\(id).mp4")
        let (device, flash) = try state.withLock {
            (state: inout State) throws(PickerError) -> (ImagePickerController.CameraDevice, ImagePickerController.CameraFlashMode) in
            try Self.requireActive(state)
            guard state.reviewing == nil else { throw PickerError(.invalidState, "a capture waits for review") }
            guard state.recording == nil else { throw PickerError(.invalidState, "already recording") }
            state.recording = (id, url)
            state.captureMode = .video
            return (state.cameraDevice, state.flashMode)
        }
        guard let camera else {
            state.withLock { $0.pendingCommand = .startVideoCapture }
            emit(.command(.startVideoCapture))
            emit(.recordingStarted)
            return
        }
        do {
            // The flash mode lights the torch for a movie: `.auto` lights it in a dark scene.
            let torch: CaptureDevice.TorchMode =
                switch flash {
                case .on: .on
                case .auto: .auto
                case .off: .off
                }
            try await camera.startRecording(to: url, device: device, torch: torch) { [weak self] recording in
                guard let self, recording.reason != .stopped else { return }
                // Stopped by itself (maximum duration, session stopped): review it as if stopped.
                Task { _ = try? await self.finishRecording(recording, id: id) }
            }
        } catch {
            state.withLock { $0.recording = nil }
            throw error
        }
        emit(.recordingStarted)
    }

    /// Stops the recording (the Stop button, or `stopVideoCapture()`).
    ///
    /// - Returns: The movie, waiting for review with the standard controls, or delivered.
    /// - Throws: ``PickerError/Code/invalidState`` when not recording; ``PickerError/Code/captureFailed``.
    @discardableResult
    public func stopVideoCapture() async throws(PickerError) -> CapturedMedia {
        try requireCamera()
        let (current, finishing) = state.withLock { ($0.recording, $0.finishingRecording) }
        guard let recording = current else {
            // It stopped by itself a moment ago (its maximum duration): wait for its review.
            if let finishing { return try await awaitStoppedRecording(id: finishing) }
            if let reviewing { return reviewing }
            throw PickerError(.invalidState, "not recording")
        }
        guard let camera else {
            state.withLock { $0.recording = nil }
            emit(.recordingStopped)
            return try await awaitPresenterCapture(.stopVideoCapture)
        }
        guard let finished = await camera.stopRecording() else {
            // It stopped by itself a moment ago (its maximum duration): wait for its review.
            return try await awaitStoppedRecording(id: recording.id)
        }
        return try await finishRecording(finished, id: recording.id)
    }

    /// The outcome of the recording `id` that stopped by itself, once ``finishRecording(_:id:)``
    /// has it: at once when it has, else when it tells the capture waiters (within
    /// ``presenterCaptureTimeout``, should the recording never report its end).
    private func awaitStoppedRecording(id: String) async throws(PickerError) -> CapturedMedia {
        let key = UUID()
        let timeout = Task { [weak self] in
            try? await Task.sleep(for: Self.presenterCaptureTimeout)
            let waiter = self?.state.withLock { $0.captureWaiters.removeValue(forKey: key) }
            waiter?.resume(throwing: PickerError(.captureFailed, "the recording ended without a movie"))
        }
        defer { timeout.cancel() }
        do {
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<CapturedMedia, any Error>) in
                let outcome = state.withLock { state -> Result<CapturedMedia, PickerError>? in
                    if let stopped = state.stoppedRecording, stopped.id == id { return stopped.outcome }
                    guard state.recording?.id == id || state.finishingRecording == id else {
                        return .failure(PickerError(.invalidState, "not recording"))
                    }
                    state.captureWaiters[key] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome.mapError { $0 as any Error }) }
            }
        } catch let error as PickerError {
            throw error
        } catch {
            throw PickerError(.captureFailed, "\(error)", underlying: error)
        }
    }

    private func finishRecording(_ recording: MovieFileOutput.Recording, id: String) async throws(PickerError) -> CapturedMedia {
        let mine = state.withLock { state -> Bool in
            guard state.recording?.id == id else { return false }
            state.recording = nil
            state.finishingRecording = id
            return true
        }
        guard mine else {
            if let reviewing { return reviewing }
            throw PickerError(.invalidState, "the recording was handled already")
        }
        emit(.recordingStopped)
        guard let info = recording.info else {
            let error = PickerError(.captureFailed, recording.error?.message ?? "the recording failed", underlying: recording.error)
            tellCaptureWaiters(.failure(error), recording: id)
            throw error
        }
        let media = CapturedMedia(
            id: id, mediaType: .movie, fileURL: recording.url, uniformTypeIdentifier: "public.mpeg-4",
            pixelSize: info.pixelSize, duration: info.duration, metadata: nil, origin: .captureDevice)
        return try await didCapture(media, recording: id)
    }

    /// Adds a picture or movie taken by the presenter's own camera (the browser's): the file is
    /// checked by its content (an image libvips decodes, or a movie ffprobe reads) and copied
    /// into the session — or, when `consuming`, moved there (renamed on the same file system, as
    /// a server's received upload is: its bytes are not written twice).
    ///
    /// - Throws: ``PickerError/Code/invalidArgument`` for a file that is neither, or of a media
    ///   type the picker does not allow; ``PickerError/Code/invalidState`` when a capture already
    ///   waits for review.
    @discardableResult
    public func addCapture(contentsOf url: URL, consuming: Bool = false) async throws(PickerError) -> CapturedMedia {
        try requireCamera()
        try state.withLock { (state: inout State) throws(PickerError) in
            try Self.requireActive(state)
            guard state.reviewing == nil else { throw PickerError(.invalidState, "a capture waits for review") }
        }
        try await prepareFolder()
        let id = nextCaptureID()
        let media: CapturedMedia
        // libvips's read and the copies run on the blocking pool: under `shoebox
        // serve` this task runs on an event loop, and a browser's recording may be large.
        if let image = try? await BlockingPool.shared.run({ try Image(contentsOf: url) }), let format = image.format {
            guard request.mediaTypes.contains(.image) else { throw PickerError(.invalidArgument, "this picker does not take photos") }
            let file = folder.appendingPathComponent("\(id).\(format.fileExtension)")
            try await copyCapture(url, to: file, moving: consuming)
            var metadata = image.metadata
            if metadata.dateTimeOriginal == nil { metadata.dateTimeOriginal = ImageMetadata.DateTime(Date()) }
            if metadata.software == nil { metadata.software = "Shoebox picker (browser camera)" }
            media = CapturedMedia(
                id: id, mediaType: .image, fileURL: file, uniformTypeIdentifier: format.uniformTypeIdentifier,
                pixelSize: image.pixelSize, duration: nil, metadata: metadata, origin: .presenter)
        } else {
            let movie: Movie
            do {
                movie = try await Movie(contentsOf: url)
            } catch {
                throw PickerError(.invalidArgument, "the capture is neither an image nor a movie: \(error.message)", underlying: error)
            }
            guard request.mediaTypes.contains(.movie) else { throw PickerError(.invalidArgument, "this picker does not take movies") }
            let type = movie.info.uniformType
            let (ext, uti) = (type.preferredFilenameExtension ?? url.pathExtension, type.identifier)
            let file = folder.appendingPathComponent("\(id).\(ext)")
            try await copyCapture(url, to: file, moving: consuming)
            guard movie.info.duration <= request.videoMaximumDuration + 1 else {
                await BlockingPool.shared.run { try? FileManager.default.removeItem(at: file) }
                throw PickerError(
                    .invalidArgument, "the recording lasts \(movie.info.duration) s, more than videoMaximumDuration \(request.videoMaximumDuration) s")
            }
            media = CapturedMedia(
                id: id, mediaType: .movie, fileURL: file, uniformTypeIdentifier: uti, pixelSize: movie.info.pixelSize,
                duration: movie.info.duration, metadata: nil, origin: .presenter)
        }
        state.withLock { $0.recording = nil }
        return try await didCapture(media)
    }

    /// Copies the capture into the session, or moves it (a rename, else a copy) when `moving`.
    private func copyCapture(_ source: URL, to destination: URL, moving: Bool) async throws(PickerError) {
        do {
            try await BlockingPool.shared.run {
                if moving, rename(source.path, destination.path) == 0 { return }
                try FileManager.default.copyItem(at: source, to: destination)
            }
        } catch {
            throw PickerError(.captureFailed, "cannot keep the capture: \(error.localizedDescription)", underlying: error)
        }
    }

    /// Files a new capture: under review with the standard controls, delivered at once without.
    /// A client waiting in `takePicture()` / `stopVideoCapture()` hears of it once that is done.
    private func didCapture(_ media: CapturedMedia, recording: String? = nil) async throws(PickerError) -> CapturedMedia {
        state.withLock { state in
            state.captures[media.id] = media
            state.pendingCommand = nil
            if request.camera.showsControls { state.reviewing = media.id }
        }
        let outcome: Result<CapturedMedia, PickerError>
        if request.camera.showsControls {
            emit(.captured(media))
            outcome = .success(media)
        } else {
            do {
                let info = try await delivery.deliver([.capture(media)], edits: [:], progress: { _ in })[0]
                state.withLock { $0.delivered.append(info) }
                emit(.delivered(info))
                outcome = .success(media)
            } catch {
                outcome = .failure(error)
            }
        }
        tellCaptureWaiters(outcome, recording: recording)
        return try outcome.get()
    }

    /// Resumes everyone waiting for a capture with `outcome`; for a recording, keeps the outcome
    /// under the same lock, so a Stop that asks after this hears it too.
    private func tellCaptureWaiters(_ outcome: Result<CapturedMedia, PickerError>, recording: String?) {
        let waiters = state.withLock { state in
            defer { state.captureWaiters.removeAll() }
            if let recording {
                state.stoppedRecording = (recording, outcome)
                if state.finishingRecording == recording { state.finishingRecording = nil }
            }
            return Array(state.captureWaiters.values)
        }
        for waiter in waiters { waiter.resume(with: outcome.mapError { $0 as any Error }) }
    }

    /// Asks the presenter's camera to act and waits for the capture it sends.
    private func awaitPresenterCapture(_ command: Command) async throws(PickerError) -> CapturedMedia {
        let key = UUID()
        let timeout = Task { [weak self] in
            try? await Task.sleep(for: Self.presenterCaptureTimeout)
            let waiter = self?.state.withLock { state in
                state.pendingCommand = nil
                return state.captureWaiters.removeValue(forKey: key)
            }
            waiter?.resume(throwing: PickerError(.captureFailed, "the presenter's camera did not answer \(command.rawValue) in time"))
        }
        defer { timeout.cancel() }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                state.withLock { state in
                    state.captureWaiters[key] = continuation
                    state.pendingCommand = command
                }
                emit(.command(command))
            }
        } catch let error as PickerError {
            throw error
        } catch {
            throw PickerError(.captureFailed, "\(error)", underlying: error)
        }
    }

    // MARK: Review

    /// Retake (for movies: Cancel): throws the capture under review away.
    ///
    /// - Throws: ``PickerError/Code/invalidState`` when nothing waits for review.
    public func retake() async throws(PickerError) {
        let dropped = try state.withLock { (state: inout State) throws(PickerError) -> CapturedMedia in
            try Self.requireActive(state)
            guard let id = state.reviewing, let media = state.captures.removeValue(forKey: id) else {
                throw PickerError(.invalidState, "nothing waits for review")
            }
            state.reviewing = nil
            state.edits[id] = nil
            return media
        }
        await BlockingPool.shared.run { try? FileManager.default.removeItem(at: dropped.fileURL) }
        emit(.reviewEnded)
    }

    /// Use Photo (for movies: Choose): picks the capture under review and finishes the session.
    ///
    /// - Returns: `.picked` with the capture's info.
    /// - Throws: ``PickerError/Code/invalidState`` when nothing waits for review; delivery errors
    ///   (the capture stays under review).
    @discardableResult
    public func useCapture() async throws(PickerError) -> PickerResult {
        let id = try state.withLock { (state: inout State) throws(PickerError) -> String in
            try Self.requireActive(state)
            guard let id = state.reviewing else { throw PickerError(.invalidState, "nothing waits for review") }
            state.selection = [id]
            return id
        }
        emit(.selectionChanged([id]))
        do {
            let result = try await confirm()
            emit(.reviewEnded)
            return result
        } catch {
            state.withLock { $0.selection.removeAll { $0 == id } }
            throw error
        }
    }
}
