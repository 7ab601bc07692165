import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import Synchronization

/// Connects capture devices to outputs and runs the flow of frames: `AVCaptureSession` for
/// Linux.
///
/// ```swift
/// let session = CaptureSession()
/// session.beginConfiguration()
/// try session.setSessionPreset(.photo)
/// try session.addInput(CaptureDeviceInput(device: CaptureDevice.default(for: .video)!))
/// let photos = PhotoOutput()
/// try session.addOutput(photos)
/// try session.commitConfiguration()
/// try await session.startRunning()
/// let photo = try await photos.capturePhoto(with: PhotoSettings(flashMode: .auto))
/// try photo.fileDataRepresentation().write(to: URL(fileURLWithPath: "photo.jpg"))
/// await session.stopRunning()
/// ```
///
/// Changes between ``beginConfiguration()`` and ``commitConfiguration()`` apply together, also
/// while running (the next frame uses them; the session does not stop). With a client identifier,
/// ``startRunning()`` checks its authorization for the camera (and the microphone, when an audio
/// input is present).
public final class CaptureSession: Sendable {
    /// Something that happened to a running session.
    public enum Event: Sendable, Equatable {
        case started
        case stopped
        /// The device failed or was unplugged; the session stopped.
        case runtimeError(CaptureError)
    }

    struct Configuration: Sendable {
        var preset: Preset = .high
        var inputs: [CaptureDeviceInput] = []
        var outputs: [CaptureOutput] = []
    }

    private struct State: Sendable {
        var current = Configuration()
        var staged: Configuration?
        var depth = 0
        var isRunning = false
        var pump: Task<Void, Never>?
        var generation = 0
        var listeners: [UUID: AsyncStream<Event>.Continuation] = [:]
        /// Devices this running session holds.
        var claimed: [String] = []
    }

    private let state = Mutex(State())

    /// Devices some running session holds: a camera streams to one session at a time.
    private static let inUse = Mutex<Set<String>>([])

    private static func claim(_ devices: [String]) throws(CaptureError) {
        try inUse.withLock { (held: inout Set<String>) throws(CaptureError) in
            if let busy = devices.first(where: held.contains) {
                throw .deviceUnavailable("\(busy) is in use by another running session")
            }
            held.formUnion(devices)
        }
    }

    private static func release(_ devices: [String]) {
        inUse.withLock { $0.subtract(devices) }
    }
    /// Who checks the client's authorization, if a client runs the session.
    let authorization: Authorization?
    let clientIdentifier: String?

    /// A session run by Shoebox's own tools (no client), or by `clientIdentifier`, whose camera and
    /// microphone authorization `authorization` checks at ``startRunning()``.
    public init(authorization: Authorization? = nil, clientIdentifier: String? = nil) {
        self.authorization = authorization
        self.clientIdentifier = clientIdentifier
    }

    // MARK: Configuration

    public var sessionPreset: Preset { configuration.preset }
    public var inputs: [CaptureDeviceInput] { configuration.inputs }
    public var outputs: [CaptureOutput] { configuration.outputs }
    public var isRunning: Bool { state.withLock { $0.isRunning } }

    /// What a change would act on: the staged configuration inside begin/commit, else the current.
    private var configuration: Configuration {
        state.withLock { $0.staged ?? $0.current }
    }

    /// Starts a batch of changes that ``commitConfiguration()`` applies together. Batches nest.
    public func beginConfiguration() {
        state.withLock { state in
            if state.depth == 0 { state.staged = state.current }
            state.depth += 1
        }
    }

    /// Applies the batch, if this closes the outermost one. A batch that does not hold together
    /// (a preset the camera cannot do) is refused whole and nothing changes.
    public func commitConfiguration() throws(CaptureError) {
        let staged: Configuration? = state.withLock { state in
            guard state.depth > 0 else { return nil }
            state.depth -= 1
            guard state.depth == 0 else { return nil }
            defer { state.staged = nil }
            return state.staged
        }
        guard let staged else { return }
        try Self.validate(staged)
        install(staged)
    }

    /// Whether the session can use `preset` with its current camera (any preset without one).
    public func canSetSessionPreset(_ preset: Preset) -> Bool {
        guard let camera = configuration.inputs.first(where: { $0.device.mediaType == .video })?.device else { return true }
        return preset.format(on: camera) != nil
    }

    public func setSessionPreset(_ preset: Preset) throws(CaptureError) {
        try change { $0.preset = preset }
    }

    public func canAddInput(_ input: CaptureDeviceInput) -> Bool {
        var trial = configuration
        guard !trial.inputs.contains(input), !trial.inputs.contains(where: { $0.device.mediaType == input.device.mediaType }) else { return false }
        trial.inputs.append(input)
        return (try? Self.validate(trial)) != nil
    }

    /// Adds a camera or a microphone (one of each).
    public func addInput(_ input: CaptureDeviceInput) throws(CaptureError) {
        guard canAddInput(input) else {
            throw .cannotAdd("\(input.device.localizedName): the session has a \(input.device.mediaType.rawValue) input already, or cannot use the preset with it")
        }
        try change { $0.inputs.append(input) }
    }

    public func removeInput(_ input: CaptureDeviceInput) {
        try? change { $0.inputs.removeAll { $0 == input } }
    }

    public func canAddOutput(_ output: CaptureOutput) -> Bool {
        output.session == nil && !configuration.outputs.contains { $0 === output }
            && !(output is PhotoOutput && configuration.outputs.contains { $0 is PhotoOutput })
    }

    public func addOutput(_ output: CaptureOutput) throws(CaptureError) {
        guard canAddOutput(output) else { throw .cannotAdd("\(type(of: output)) is in a session already (or this one has one)") }
        try change { $0.outputs.append(output) }
    }

    public func removeOutput(_ output: CaptureOutput) {
        try? change { $0.outputs.removeAll { $0 === output } }
    }

    /// Applies one change: to the batch inside begin/commit, else at once.
    private func change(_ body: (inout Configuration) -> Void) throws(CaptureError) {
        let immediate: Configuration? = state.withLock { state in
            if state.staged != nil {
                body(&state.staged!)
                return nil
            }
            var next = state.current
            body(&next)
            return next
        }
        guard let immediate else { return }
        try Self.validate(immediate)
        install(immediate)
    }

    static func validate(_ configuration: Configuration) throws(CaptureError) {
        if let camera = configuration.inputs.first(where: { $0.device.mediaType == .video })?.device,
           configuration.preset.format(on: camera) == nil {
            throw .unsupported("\(camera.localizedName) cannot capture at preset \(configuration.preset.rawValue)")
        }
    }

    /// Makes `configuration` current: outputs learn their session, the camera its format, and a
    /// running pump its new settings (at the next frame).
    private func install(_ configuration: Configuration) {
        let (old, running) = state.withLock { state -> ([CaptureOutput], Bool) in
            let old = state.current.outputs
            state.current = configuration
            state.generation += 1
            return (old, state.isRunning)
        }
        for output in old where !configuration.outputs.contains(where: { $0 === output }) { output.detach() }
        for output in configuration.outputs { output.attach(to: self) }
        if let camera = configuration.inputs.first(where: { $0.device.mediaType == .video })?.device,
           let format = configuration.preset.format(on: camera), camera.activeFormat != format {
            camera.selectFormat(format)
        }
        _ = running
    }

    // MARK: Running

    /// Starts the flow of frames.
    ///
    /// - Throws: ``CaptureError/notAuthorized(_:)`` when the session's client is not authorized
    ///   for the camera (or the microphone, with an audio input); ``CaptureError/notRunning(_:)``
    ///   without a camera input; ``CaptureError/deviceUnavailable(_:)`` when the camera is gone or
    ///   another running session holds it.
    public func startRunning() async throws(CaptureError) {
        let configuration = state.withLock { $0.current }
        guard let camera = configuration.inputs.first(where: { $0.device.mediaType == .video })?.device else {
            throw .notRunning("the session has no camera input")
        }
        try checkAuthorization(needsMicrophone: configuration.inputs.contains { $0.device.mediaType == .audio })
        guard camera.isConnected else { throw .deviceUnavailable("\(camera.localizedName) is disconnected") }
        guard !isRunning else { return }
        let devices = configuration.inputs.map(\.device.uniqueID)
        try Self.claim(devices)
        let started = state.withLock { state -> Bool in
            guard !state.isRunning else { return false }
            state.isRunning = true
            state.claimed = devices
            state.pump = Task.detached { [self] in await pump() }
            return true
        }
        if started { emit(.started) } else { Self.release(devices) }
    }

    /// Stops the flow; outputs finish what they were doing (a recording is finished).
    public func stopRunning() async {
        let (pump, claimed) = state.withLock { state -> (Task<Void, Never>?, [String]) in
            guard state.isRunning else { return (nil, []) }
            state.isRunning = false
            defer { state.pump = nil; state.claimed = [] }
            return (state.pump, state.claimed)
        }
        Self.release(claimed)
        guard let pump else { return }
        pump.cancel()
        await pump.value
        for output in outputs { await output.sessionDidStop() }
        emit(.stopped)
    }

    /// Started, stopped and runtime errors, from now on.
    public var events: AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        let id = UUID()
        state.withLock { $0.listeners[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    private func emit(_ event: Event) {
        for listener in state.withLock({ Array($0.listeners.values) }) { listener.yield(event) }
    }

    /// Checks the client's grants again for the session as configured now: a revoked grant
    /// stops a running session (within half a second, with a runtime error) and refuses the next
    /// photo or recording at once.
    func checkStillAuthorized() throws(CaptureError) {
        let needsMicrophone = state.withLock { $0.current.inputs.contains { $0.device.mediaType == .audio } }
        try checkAuthorization(needsMicrophone: needsMicrophone)
    }

    private func checkAuthorization(needsMicrophone: Bool) throws(CaptureError) {
        guard let client = clientIdentifier else { return }
        guard let authorization else {
            throw .notAuthorized("a session run by \(client) needs an Authorization to check")
        }
        for service in needsMicrophone ? [Authorization.Service.camera, .microphone] : [.camera] {
            let status: Authorization.Status
            do {
                status = try authorization.status(for: service, client: client)
            } catch {
                throw .notAuthorized("cannot read \(client)'s \(service) authorization: \(error.message)")
            }
            guard status == .authorized else {
                throw .notAuthorized("\(client) may not use the \(service) (status \(status.rawValue)); ask with Authorization.requestAccess")
            }
        }
    }

    /// Reads frames from the camera and hands them to the outputs, reopening the source when
    /// the configuration (format, preset) changes.
    private func pump() async {
        let started = ContinuousClock.now
        var source: (any FrameSource)?
        var openedFor: (generation: Int, format: CaptureDevice.Format?, device: String)?
        var authorizedAt = started
        defer { source?.close() }
        while !Task.isCancelled {
            let (configuration, generation) = state.withLock { ($0.current, $0.generation) }
            if clientIdentifier != nil, ContinuousClock.now - authorizedAt >= .milliseconds(500) {
                // A grant revoked in Shoebox's settings stops the camera of a client that runs.
                do {
                    try checkStillAuthorized()
                } catch {
                    fail(error)
                    return
                }
                authorizedAt = .now
            }
            guard let camera = configuration.inputs.first(where: { $0.device.mediaType == .video })?.device,
                  let format = camera.activeFormat else {
                try? await Task.sleep(for: .milliseconds(10))
                continue
            }
            if source == nil || openedFor?.format != format || openedFor?.device != camera.uniqueID {
                source?.close()
                do {
                    source = try camera.backend.open(camera, format: format, frameRate: format.maxFrameRate)
                } catch {
                    fail(error)
                    return
                }
            }
            openedFor = (generation, format, camera.uniqueID)
            let flash = configuration.outputs.contains { $0.wantsFlashOnNextFrame }
            do {
                var frame = try await source!.nextFrame(flash: flash)
                // Time stamps count from the session's start, across sources reopened for a new format.
                let elapsed = frame.capturedAt - started
                frame = CaptureFrame(image: frame.image, timestamp: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                                     frameNumber: frame.frameNumber, flashFired: frame.flashFired, capturedAt: frame.capturedAt)
                if let size = configuration.preset.outputSize {
                    frame = try Self.scaled(frame, to: size)
                }
                for output in configuration.outputs { await output.receive(frame, from: camera) }
            } catch {
                if Task.isCancelled { return }
                fail(error)
                return
            }
        }
    }

    static func scaled(_ frame: CaptureFrame, to size: PixelSize) throws(CaptureError) -> CaptureFrame {
        do {
            let image = try frame.image.thumbnail(targetSize: size, contentMode: .aspectFit)
            return CaptureFrame(image: image, timestamp: frame.timestamp, frameNumber: frame.frameNumber, flashFired: frame.flashFired,
                                capturedAt: frame.capturedAt)
        } catch {
            throw .captureFailed("cannot scale a frame: \(error.message)")
        }
    }

    private func fail(_ error: CaptureError) {
        let claimed = state.withLock { state in
            state.isRunning = false
            state.pump = nil
            defer { state.claimed = [] }
            return state.claimed
        }
        Self.release(claimed)
        emit(.runtimeError(error))
        for output in outputs { output.sessionDidFail(error) }
    }
}
