import Foundation
import ShoeboxImaging
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
///
/// A device streams to one running session at a time, and the session that holds it keeps it. A
/// session that starts while another holds its camera (or microphone), or whose camera another
/// program is streaming from (V4L2's `EBUSY`), runs *interrupted*: ``isInterrupted`` is true, no
/// frames flow, and ``events`` says ``Event/wasInterrupted(_:)``; when the device is free the
/// session takes it, frames flow again and ``events`` says ``Event/interruptionEnded``.
public final class CaptureSession: Sendable {
    /// Something that happened to a running session.
    public enum Event: Sendable, Equatable {
        /// The session began running (``CaptureSession/startRunning()``); a start that finds a
        /// device in use is followed at once by ``CaptureSession/Event/wasInterrupted(_:)``.
        case started
        /// ``CaptureSession/stopRunning()`` stopped the session, once its outputs had finished (a
        /// recording included); a failure says ``CaptureSession/Event/runtimeError(_:)`` instead.
        case stopped
        /// The device failed or was unplugged; the session stopped.
        case runtimeError(CaptureError)
        /// The session still runs but gets no frames: another session or program holds a device
        /// it needs (`AVCaptureSessionWasInterrupted`). A recording in progress is finished; a
        /// photo asked for is taken once frames flow again.
        case wasInterrupted(InterruptionReason)
        /// The device is back: frames flow again (`AVCaptureSessionInterruptionEnded`).
        case interruptionEnded
    }

    /// Why a running session gets no frames for now (`AVCaptureSession.InterruptionReason`, the
    /// reasons that happen on Linux).
    public enum InterruptionReason: String, Sendable, Hashable, Codable {
        /// Another running session holds the camera, or another program streams from it.
        case videoDeviceInUseByAnotherClient
        /// Another running session holds the microphone.
        case audioDeviceInUseByAnotherClient
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
        /// Checks the client's access again whenever its checker says a decision changed.
        var accessWatch: Task<Void, Never>?
        var generation = 0
        /// This run's token in the device claims (from start to stop).
        var run: UUID?
        /// Why the running session gets no frames now, if it does not.
        var interruption: InterruptionReason?
    }

    private let state = Mutex(State())
    /// Who listens to ``events``; told under the state lock where order matters.
    private let listeners = EventFanOut<Event>()

    /// Who holds which devices, and who waits for which, by run.
    private struct Claims {
        var held: [UUID: Set<String>] = [:]
        /// Runs waiting for devices, in order of arrival.
        var waiting: [(run: UUID, devices: Set<String>)] = []
    }

    /// The devices running sessions hold: a device streams to one session at a time, the first
    /// to take it keeps it, and sessions that want it later get it in the order they asked.
    private static let claims = Mutex(Claims())
    /// Notified when a run lets devices go or a session changes its devices: what an
    /// interrupted session waits for before it tries to take its devices again.
    private static let claimsChanged = NotificationBoard()

    /// Takes all of `devices` for `run`, or none: `nil` when `run` holds them now, else a device
    /// another run holds (or waits for longer). A run that cannot have them gives up what it held
    /// (a session that switched to a busy camera frees its old one) and waits its turn.
    private static func acquire(_ devices: [CaptureDevice], for run: UUID) -> CaptureDevice? {
        let wanted = Set(devices.map(\.uniqueID))
        return claims.withLock { claims -> CaptureDevice? in
            if claims.held[run] == wanted { return nil }
            var taken = Set<String>()
            for (other, held) in claims.held where other != run { taken.formUnion(held) }
            for waiter in claims.waiting {
                if waiter.run == run { break }
                taken.formUnion(waiter.devices)
            }
            if let busy = devices.first(where: { taken.contains($0.uniqueID) }) {
                if claims.held.removeValue(forKey: run) != nil { claimsChanged.notify() }
                if let index = claims.waiting.firstIndex(where: { $0.run == run }) {
                    claims.waiting[index].devices = wanted
                } else {
                    claims.waiting.append((run, wanted))
                }
                return busy
            }
            claims.held[run] = wanted
            claims.waiting.removeAll { $0.run == run }
            return nil
        }
    }

    /// Whether a running session holds `device`.
    static func isHeld(_ device: CaptureDevice) -> Bool {
        claims.withLock { claims in claims.held.values.contains { $0.contains(device.uniqueID) } }
    }

    private static func release(_ run: UUID) {
        claims.withLock { claims in
            claims.held[run] = nil
            claims.waiting.removeAll { $0.run == run }
        }
        claimsChanged.notify()
    }

    private static func reason(_ busy: CaptureDevice) -> InterruptionReason {
        busy.mediaType == .audio ? .audioDeviceInUseByAnotherClient : .videoDeviceInUseByAnotherClient
    }
    /// Who decides whether the session's client may use its devices, if a client runs it.
    let access: (any CaptureAccessChecking)?
    let clientIdentifier: String?

    /// A session run by Shoebox's own tools (no client), or by `clientIdentifier`, whose camera
    /// and microphone access `access` decides: at ``startRunning()`` (asking the user while
    /// undecided), before every photo and recording, and whenever it says a decision changed.
    ///
    /// With the photo library's `Authorization`, import `ShoeboxPicker` and use
    /// `CaptureSession(authorization:clientIdentifier:missingUsageDescription:)`.
    ///
    /// `clock` is the session's `synchronizationClock`: frames are paced (the synthetic camera)
    /// and stamped on it, photos are taken from the first frame after their request on it, and a
    /// recording lasts, on it, from its start to its stop. `ContinuousClock` unless given; a
    /// test's clock (`TestClock` in ShoeboxTesting) makes the synthetic camera deliver a frame
    /// only when the test moves time on. A microphone records in real time whatever the clock.
    public init(
        access: (any CaptureAccessChecking)? = nil, clientIdentifier: String? = nil, clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.access = access
        self.clientIdentifier = clientIdentifier
        self.clock = ErasedClock(clock)
    }

    /// The clock frames, photo requests and recordings are timed on (``init(access:clientIdentifier:clock:)``).
    let clock: ErasedClock

    // MARK: Configuration

    /// The quality frames are captured at (``Preset/high`` until set); inside a batch, the batch's.
    public var sessionPreset: Preset { configuration.preset }
    /// The inputs, at most a camera and a microphone; inside a batch, the batch's.
    public var inputs: [CaptureDeviceInput] { configuration.inputs }
    /// The outputs frames go to, in the order added; inside a batch, the batch's.
    public var outputs: [CaptureOutput] { configuration.outputs }
    /// Whether the session runs, interrupted or not: from ``startRunning()`` until ``stopRunning()``
    /// or a runtime error.
    public var isRunning: Bool { state.withLock { $0.isRunning } }
    /// Whether the running session is interrupted: it runs, but another session or program holds
    /// a device it needs, so no frames flow until that device is free (`isInterrupted`).
    public var isInterrupted: Bool { state.withLock { $0.interruption != nil } }
    /// Why the session is interrupted, while it is.
    public var interruptionReason: InterruptionReason? { state.withLock { $0.interruption } }

    /// Waits, up to `timeout`, until the running session is no longer interrupted — for callers
    /// that would rather give up than wait for a camera another program holds (a command, a
    /// picker page).
    ///
    /// - Throws: ``CaptureError/Code/deviceUnavailable`` naming the reason when the interruption
    ///   lasts past `timeout`; ``CaptureError/Code/notRunning`` when the session is not running.
    public func waitUntilUninterrupted(timeout: Duration) async throws(CaptureError) {
        // Listen before looking, so an end that comes in between is heard.
        let events = self.events
        guard isRunning else { throw .notRunning("the session is not running") }
        guard interruptionReason != nil else { return }
        let ended = await withTimeout(timeout) { () -> Bool? in
            for await event in events {
                switch event {
                case .interruptionEnded: return true
                case .stopped, .runtimeError: return false
                case .started, .wasInterrupted: continue
                }
            }
            return nil
        }
        switch ended {
        case true?: return
        case false?: throw .notRunning("the session stopped while it was interrupted")
        case nil:
            guard isRunning else { throw .notRunning("the session is not running") }
            guard let still = interruptionReason else { return }
            throw .deviceUnavailable("the session is interrupted: \(still.rawValue) (another session or program is using the device)")
        }
    }

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

    /// Sets the quality frames are captured at; the camera switches to the format the preset uses.
    ///
    /// - Throws: ``CaptureError/Code/unsupported`` when the camera cannot capture at `preset` (inside
    ///   a batch, from ``commitConfiguration()``).
    public func setSessionPreset(_ preset: Preset) throws(CaptureError) {
        try change { $0.preset = preset }
    }

    /// Whether ``addInput(_:)`` would take `input`: the session has no input of its media type yet,
    /// and its camera (`input`, if it is one) can capture at the preset.
    public func canAddInput(_ input: CaptureDeviceInput) -> Bool {
        var trial = configuration
        guard !trial.inputs.contains(input), !trial.inputs.contains(where: { $0.device.mediaType == input.device.mediaType }) else { return false }
        trial.inputs.append(input)
        return (try? Self.validate(trial)) != nil
    }

    /// Adds a camera or a microphone (one of each).
    public func addInput(_ input: CaptureDeviceInput) throws(CaptureError) {
        guard canAddInput(input) else {
            throw .cannotAdd(
                "\(input.device.localizedName): the session has a \(input.device.mediaType.rawValue) input already, or cannot use the preset with it")
        }
        try change { $0.inputs.append(input) }
    }

    /// Takes `input` out of the session (or the batch); one that is not in it is ignored.
    public func removeInput(_ input: CaptureDeviceInput) {
        try? change { $0.inputs.removeAll { $0 == input } }
    }

    /// Whether ``addOutput(_:)`` would take `output`: it is in no session yet, and a session has at
    /// most one ``PhotoOutput``.
    public func canAddOutput(_ output: CaptureOutput) -> Bool {
        output.session == nil && !configuration.outputs.contains { $0 === output }
            && !(output is PhotoOutput && configuration.outputs.contains { $0 is PhotoOutput })
    }

    /// Adds an output; it gets frames while the session runs.
    ///
    /// - Throws: ``CaptureError/Code/cannotAdd`` when ``canAddOutput(_:)`` is false.
    public func addOutput(_ output: CaptureOutput) throws(CaptureError) {
        guard canAddOutput(output) else { throw .cannotAdd("\(type(of: output)) is in a session already (or this one has one)") }
        try change { $0.outputs.append(output) }
    }

    /// Takes `output` out of the session (or the batch); one that is not in it is ignored.
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
            configuration.preset.format(on: camera) == nil
        {
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
        Self.claimsChanged.notify()  // a waiting pump looks at its new devices
        for output in old where !configuration.outputs.contains(where: { $0 === output }) { output.detach() }
        for output in configuration.outputs { output.attach(to: self) }
        if let camera = configuration.inputs.first(where: { $0.device.mediaType == .video })?.device,
            let format = configuration.preset.format(on: camera), camera.activeFormat != format
        {
            camera.selectFormat(format)
        }
        _ = running
    }

    // MARK: Running

    /// Starts the flow of frames.
    ///
    /// When another running session holds the camera (or the microphone), the session starts
    /// interrupted: ``events`` says ``Event/started`` then ``Event/wasInterrupted(_:)``, and
    /// frames flow from when the other session lets the device go (``Event/interruptionEnded``).
    ///
    /// A client whose camera (or microphone) access is `notDetermined` is asked first, through
    /// the session's ``CaptureAccessChecking`` (with the library's `Authorization`: its prompter),
    /// and the session starts when the user allows it. While it runs, a decision that changes
    /// (the user revokes the camera in Settings › Privacy) stops it with
    /// ``Event/runtimeError(_:)``.
    ///
    /// - Throws: ``CaptureError/Code/notAuthorized`` when the session's client is not authorized
    ///   for the camera (or the microphone, with an audio input); ``CaptureError/Code/notRunning``
    ///   without a camera input; ``CaptureError/Code/deviceUnavailable`` when the camera is gone.
    public func startRunning() async throws(CaptureError) {
        let configuration = state.withLock { $0.current }
        guard let camera = configuration.inputs.first(where: { $0.device.mediaType == .video })?.device else {
            throw .notRunning("the session has no camera input")
        }
        try await checkAuthorization(needsMicrophone: configuration.inputs.contains { $0.device.mediaType == .audio }, asking: true)
        guard camera.isConnected else { throw .deviceUnavailable("\(camera.localizedName) is disconnected") }
        guard !isRunning else { return }
        let run = UUID()
        let busy = Self.acquire(configuration.inputs.map(\.device), for: run)
        let started = state.withLock { state -> Bool in
            guard !state.isRunning else { return false }
            state.isRunning = true
            state.run = run
            state.interruption = busy.map(Self.reason)
            state.pump = Task.detached { [self] in await pump(run) }
            if let client = clientIdentifier, let access {
                state.accessWatch = Task.detached { [self] in await watchAccess(run, client: client, access: access) }
            }
            // Told under the lock, so they come before anything the pump reports.
            listeners.yield(.started)
            if let reason = state.interruption { listeners.yield(.wasInterrupted(reason)) }
            return true
        }
        if !started { Self.release(run) }
    }

    /// Stops the flow; outputs finish what they were doing (a recording is finished).
    public func stopRunning() async {
        let (pump, run) = state.withLock { state -> (Task<Void, Never>?, UUID?) in
            guard state.isRunning else { return (nil, nil) }
            state.isRunning = false
            state.interruption = nil
            state.accessWatch?.cancel()
            defer {
                state.pump = nil
                state.run = nil
                state.accessWatch = nil
            }
            return (state.pump, state.run)
        }
        guard let pump else {
            if let run { Self.release(run) }
            return
        }
        pump.cancel()
        await pump.value
        // Let the devices go once the pump has closed the camera, so a session waiting for it
        // opens a free device.
        if let run { Self.release(run) }
        for output in outputs { await output.sessionDidStop() }
        emit(.stopped)
    }

    /// Started, stopped, runtime errors and interruptions, from now on.
    public var events: AsyncStream<Event> { listeners.subscribe() }

    private func emit(_ event: Event) {
        listeners.yield(event)
    }

    /// Marks `run` interrupted for `reason`, or no longer interrupted (`nil`), and tells
    /// listeners when that changes. Returns whether it did.
    private func setInterruption(_ reason: InterruptionReason?, run: UUID) -> Bool {
        state.withLock { state in
            guard state.isRunning, state.run == run else { return false }
            let wasInterrupted = state.interruption != nil
            state.interruption = reason
            guard wasInterrupted != (reason != nil) else { return false }
            listeners.yield(reason.map(Event.wasInterrupted) ?? .interruptionEnded)
            return true
        }
    }

    /// The session loses its frames for a while: a recording in progress is finished (its file
    /// kept, as AV Foundation does); photos asked for wait for the next frame; the preview's
    /// frame sequences stay open.
    private func interrupt(_ reason: InterruptionReason, by device: CaptureDevice, run: UUID, outputs: [CaptureOutput]) {
        guard setInterruption(reason, run: run) else { return }
        let error = CaptureError.deviceUnavailable("\(device.localizedName) is in use by another client: the session was interrupted")
        for output in outputs where output is MovieFileOutput { output.sessionDidFail(error) }
    }

    /// Checks the client's access again for the session as configured now: a revoked grant
    /// refuses the next photo or recording at once.
    func checkStillAuthorized() async throws(CaptureError) {
        let needsMicrophone = state.withLock { $0.current.inputs.contains { $0.device.mediaType == .audio } }
        try await checkAuthorization(needsMicrophone: needsMicrophone, asking: false)
    }

    /// Checks the client's camera (and microphone) access; `asking` at start, as iOS asks an
    /// undecided app when its capture session starts.
    private func checkAuthorization(needsMicrophone: Bool, asking: Bool) async throws(CaptureError) {
        guard let client = clientIdentifier else { return }
        guard let access else {
            throw .notAuthorized("a session run by \(client) needs a CaptureAccessChecking to decide its access")
        }
        for mediaType in needsMicrophone ? [CaptureDevice.MediaType.video, .audio] : [.video] {
            try await access.checkAccess(to: mediaType, client: client, asking: asking)
        }
    }

    /// Runs while `run` does: checks the client's access whenever its checker says a decision
    /// changed, and stops the session with a runtime error when it was revoked.
    private func watchAccess(_ run: UUID, client: String, access: any CaptureAccessChecking) async {
        // The first element comes once the checker watches: a decision changed between the
        // start's check and then is seen by the check it triggers.
        var revoked: CaptureError?
        for await _ in access.accessChanges(client: client) {
            do {
                try await checkStillAuthorized()
            } catch {
                revoked = error
                break
            }
        }
        guard let revoked, !Task.isCancelled else { return }
        let pump = state.withLock { $0.run == run ? $0.pump : nil }
        pump?.cancel()
        await pump?.value
        fail(revoked, run: run)
    }

    /// Reads frames from the camera and hands them to the outputs, reopening the source when
    /// the configuration (format, preset) changes.
    private func pump(_ run: UUID) async {
        let started = clock.now()
        var source: (any FrameSource)?
        var openedFor: (generation: Int, format: CaptureDevice.Format?, device: String, frameRate: Double)?
        defer { source?.close() }
        while !Task.isCancelled {
            // Read before looking: a device let go between the look and the wait is not missed.
            let seen = Self.claimsChanged.count
            let (configuration, generation) = state.withLock { ($0.current, $0.generation) }
            // Devices another session holds: wait, interrupted, until a session lets devices go
            // or this one changes its own (the 2 s limit is only a safety net).
            if let busy = Self.acquire(configuration.inputs.map(\.device), for: run) {
                source?.close()
                source = nil
                interrupt(Self.reason(busy), by: busy, run: run, outputs: configuration.outputs)
                await Self.claimsChanged.wait(beyond: seen, until: .now + .seconds(2))
                continue
            }
            guard let camera = configuration.inputs.first(where: { $0.device.mediaType == .video })?.device,
                let format = camera.activeFormat
            else {
                // No camera, or none with a format: until the configuration changes.
                await Self.claimsChanged.wait(beyond: seen, until: .now + .seconds(2))
                continue
            }
            let frameRate = 1 / camera.activeVideoMinFrameDuration.seconds
            if source == nil || openedFor?.format != format || openedFor?.device != camera.uniqueID || openedFor?.frameRate != frameRate {
                source?.close()
                source = nil
                do {
                    switch try camera.backend.openStream(camera, format: format, frameRate: frameRate, clock: clock) {
                    case .opened(let opened):
                        source = opened
                    case .inUseByAnotherClient:
                        // Another program streams from the camera: try again shortly.
                        interrupt(.videoDeviceInUseByAnotherClient, by: camera, run: run, outputs: configuration.outputs)
                        try? await Task.sleep(for: .milliseconds(250))
                        continue
                    }
                } catch {
                    fail(error, run: run)
                    return
                }
            }
            openedFor = (generation, format, camera.uniqueID, frameRate)
            _ = setInterruption(nil, run: run)
            let flash = configuration.outputs.contains { $0.wantsFlashOnNextFrame }
            let sensor = configuration.outputs.contains { $0.wantsSensorDataOnNextFrame }
            do {
                var frame = try await source!.nextFrame(flash: flash, sensor: sensor)
                // Time stamps count from the session's start, across sources reopened for a new format.
                let elapsed = frame.capturedAt - started
                frame = frame.replacing(timestamp: elapsed.seconds)
                if let size = configuration.preset.outputSize {
                    let unscaled = frame
                    frame = try await BlockingPool.shared.run { () throws(CaptureError) -> CaptureFrame in try Self.scaled(unscaled, to: size) }
                }
                // Each output's connection turns or mirrors the frame (once per distinct
                // setting), or holds it back while disabled.
                var turned: [CaptureConnection.Transform: CaptureFrame] = [:]
                for output in configuration.outputs {
                    guard let transform = output.videoConnection.transform(for: camera) else { continue }
                    let delivered: CaptureFrame
                    if let done = turned[transform] {
                        delivered = done
                    } else {
                        let source = frame
                        delivered =
                            transform.quarterTurns == 0 && !transform.mirrored
                            ? source : try await BlockingPool.shared.run { () throws(CaptureError) -> CaptureFrame in try transform.apply(to: source) }
                        turned[transform] = delivered
                    }
                    await output.receive(delivered, from: camera)
                }
            } catch {
                if Task.isCancelled { return }
                fail(error, run: run)
                return
            }
        }
    }

    static func scaled(_ frame: CaptureFrame, to size: PixelSize) throws(CaptureError) -> CaptureFrame {
        do {
            let image = try frame.image.thumbnail(targetSize: size, contentMode: .aspectFit)
            return frame.replacing(image: image)
        } catch {
            throw .captureFailed("cannot scale a frame: \(error.message)", underlying: error)
        }
    }

    /// Stops `run` for `error` (unless it has stopped already) and tells listeners and outputs.
    private func fail(_ error: CaptureError, run: UUID) {
        let failed = state.withLock { state -> Bool in
            guard state.run == run else { return false }
            state.isRunning = false
            state.pump = nil
            state.accessWatch?.cancel()
            state.accessWatch = nil
            state.interruption = nil
            state.run = nil
            return true
        }
        guard failed else { return }
        Self.release(run)
        emit(.runtimeError(error))
        for output in outputs { output.sessionDidFail(error) }
    }
}
