import Foundation
import ShoeboxImaging
import Synchronization

/// A camera or a microphone: `AVCaptureDevice` for Linux. Find one with ``default(for:)`` or a
/// ``DiscoverySession``; change its settings between ``lockForConfiguration()`` and
/// ``unlockForConfiguration()``.
///
/// ```swift
/// guard let camera = CaptureDevice.default(for: .video) else { return }
/// try camera.lockForConfiguration()
/// if camera.hasTorch { try camera.setTorchMode(.on) }
/// try camera.setVideoZoomFactor(2)
/// camera.unlockForConfiguration()
/// ```
///
/// Setting anything without the lock, or to a value the device does not support, throws a
/// ``CaptureError``: where iOS raises an exception, Shoebox never crashes.
public final class CaptureDevice: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// What a device captures (`AVMediaType`): pictures (`video`, a camera) or sound (`audio`, a
    /// microphone).
    public enum MediaType: String, Sendable, Hashable, Codable { case video, audio }
    /// Which way a camera faces (`AVCaptureDevice.Position`): `back` or `front` for the synthetic
    /// cameras, `unspecified` for V4L2 cameras and microphones.
    public enum Position: String, Sendable, Hashable, Codable { case unspecified, back, front }
    /// What kind of device it is (`AVCaptureDevice.DeviceType`): the synthetic cameras are
    /// `builtInWideAngleCamera`.
    public enum DeviceType: String, Sendable, Hashable, Codable {
        /// A built-in camera (`AVCaptureDevice.DeviceType.builtInWideAngleCamera`): the synthetic
        /// back and front cameras.
        case builtInWideAngleCamera
        /// A USB or other external camera (V4L2).
        case external
        /// A microphone (`AVCaptureDevice.DeviceType.microphone`): an ALSA card, a PulseAudio
        /// source or the synthetic microphone.
        case microphone
    }
    /// How the lens is focused (`AVCaptureDevice.FocusMode`): held where it is, focused once and then
    /// locked, or kept in focus.
    public enum FocusMode: String, Sendable, Hashable, Codable { case locked, autoFocus, continuousAutoFocus }
    /// How the exposure is set (`AVCaptureDevice.ExposureMode`): held, metered once and then locked,
    /// metered all the time, or set by hand.
    public enum ExposureMode: String, Sendable, Hashable, Codable {
        /// `locked` holds the exposure time and ISO as they are; `autoExpose` meters until settled,
        /// then turns to `locked`; `continuousAutoExposure` keeps metering (a camera's default
        /// where it has it), as `AVCaptureDevice.ExposureMode`'s cases.
        case locked, autoExpose, continuousAutoExposure
        /// The exposure time and ISO ``setExposureModeCustom(duration:iso:)`` set.
        case custom
    }
    /// How the white balance is set (`AVCaptureDevice.WhiteBalanceMode`): held, settled once and then
    /// locked, or kept adjusting.
    public enum WhiteBalanceMode: String, Sendable, Hashable, Codable { case locked, autoWhiteBalance, continuousAutoWhiteBalance }
    /// Whether the torch, the camera's light kept on, is lit (`AVCaptureDevice.TorchMode`); `auto`
    /// lights it in a dark scene.
    public enum TorchMode: String, Sendable, Hashable, Codable { case off, on, auto }
    /// Whether the flash fires for a photo (`AVCaptureDevice.FlashMode`); `auto` fires it when the
    /// scene is dark and the torch is not lit.
    public enum FlashMode: String, Sendable, Hashable, Codable { case off, on, auto }

    /// What a device can do, as its backend reports it.
    struct Capabilities: Sendable {
        var formats: [Format]
        var hasFlash = false
        var hasTorch = false
        var focusModes: Set<FocusMode> = [.locked]
        var exposureModes: Set<ExposureMode> = [.locked]
        var whiteBalanceModes: Set<WhiteBalanceMode> = [.locked]
        var zoomRange: ClosedRange<Double> = 1...1
        /// Whether the lens can be set to a position (``setFocusModeLocked(lensPosition:)``).
        var lockingFocusWithCustomLensPosition = false
        var focusPointOfInterest = false
        var exposurePointOfInterest = false
        var exposureTargetBiasRange: ClosedRange<Float> = 0...0
        /// Whether white balance gains can be set (``setWhiteBalanceModeLocked(with:)``).
        var lockingWhiteBalanceWithCustomGains = false
        var maxWhiteBalanceGain: Float = 1
        /// What the auto modes choose for the scene (the synthetic camera's), reported while
        /// they run.
        var autoExposure = (duration: Duration.seconds(1.0 / 60), iso: Float(100))
        var autoLensPosition: Float = 0.5
        var autoWhiteBalanceGains = WhiteBalanceGains(redGain: 1, greenGain: 1, blueGain: 1)
        /// Whether the backend says when its auto modes are adjusting (the synthetic camera
        /// does; V4L2 drivers run theirs unseen).
        var reportsAdjustments = false
    }

    /// The settings in force.
    struct Settings: Sendable, Hashable {
        var activeFormat: Format?
        var focusMode: FocusMode
        var exposureMode: ExposureMode
        var whiteBalanceMode: WhiteBalanceMode
        var torchMode: TorchMode = .off
        var videoZoomFactor: Double = 1
        var isLocked = false
        var isConnected = true
        var lensPosition: Float = 0.5
        var focusPointOfInterest = NormalizedPoint.center
        var isAdjustingFocus = false
        var exposureDuration = Duration.seconds(1.0 / 60)
        var iso: Float = 100
        var exposureTargetBias: Float = 0
        var exposurePointOfInterest = NormalizedPoint.center
        var isAdjustingExposure = false
        var whiteBalanceGains = WhiteBalanceGains(redGain: 1, greenGain: 1, blueGain: 1)
        var isAdjustingWhiteBalance = false
        /// `nil`: the active format's fastest (and slowest) rate.
        var minFrameDuration: Duration?
        var maxFrameDuration: Duration?
        /// The zoom a ramp moves to, while one runs.
        var zoomRamp: ZoomRamp?
    }

    /// A zoom ramp under way.
    struct ZoomRamp: Sendable, Hashable {
        let target: Double
        let rate: Double
        let id: UInt64
    }

    /// The identifier ``device(withUniqueID:)`` finds the device by: `synthetic-back`, `v4l2:` and a
    /// camera's bus address (or device path), `alsa:hw:1,0`, `pulse:` and a PulseAudio source's name.
    public let uniqueID: String
    /// A name to show people: the V4L2 driver's card name, the ALSA card's, `Synthetic Back Camera`.
    public let localizedName: String
    /// Which way the camera faces; ``Position/unspecified`` for V4L2 cameras and microphones.
    public let position: Position
    /// The kind of device: ``DeviceType/external`` for a V4L2 camera, ``DeviceType/microphone`` for
    /// a microphone.
    public let deviceType: DeviceType
    /// Whether it is a camera (``MediaType/video``) or a microphone (``MediaType/audio``).
    public let mediaType: MediaType
    let capabilities: Capabilities
    let backend: any CaptureDeviceBackend
    private let state: Mutex<Settings>
    /// Who follows the settings (``updates(of:)``), by token.
    let observers = Mutex<[UInt64: @Sendable (CaptureDevice) -> Void]>([:])
    let nextToken = Atomic<UInt64>(1)
    /// The task moving the zoom for the newest ramp: it ends once the ramp is done or stopped.
    let zoomRampTask = Mutex<Task<Void, Never>?>(nil)

    init(
        uniqueID: String, localizedName: String, position: Position, deviceType: DeviceType, mediaType: MediaType,
        capabilities: Capabilities, backend: any CaptureDeviceBackend
    ) {
        self.uniqueID = uniqueID
        self.localizedName = localizedName
        self.position = position
        self.deviceType = deviceType
        self.mediaType = mediaType
        self.capabilities = capabilities
        self.backend = backend
        state = Mutex(
            Settings(
                activeFormat: capabilities.formats.first,
                focusMode: capabilities.focusModes.contains(.continuousAutoFocus) ? .continuousAutoFocus : .locked,
                exposureMode: capabilities.exposureModes.contains(.continuousAutoExposure) ? .continuousAutoExposure : .locked,
                whiteBalanceMode: capabilities.whiteBalanceModes.contains(.continuousAutoWhiteBalance) ? .continuousAutoWhiteBalance : .locked,
                lensPosition: capabilities.autoLensPosition, exposureDuration: capabilities.autoExposure.duration, iso: capabilities.autoExposure.iso,
                whiteBalanceGains: capabilities.autoWhiteBalanceGains))
    }

    /// The same as ``uniqueID``.
    public var id: String { uniqueID }
    /// The name and the identifier: `Synthetic Back Camera (synthetic-back)`.
    public var description: String { "\(localizedName) (\(uniqueID))" }
    /// Whether both are the same device: equal by ``uniqueID``.
    public static func == (lhs: CaptureDevice, rhs: CaptureDevice) -> Bool { lhs.uniqueID == rhs.uniqueID }
    /// Hashes ``uniqueID``, which equality compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(uniqueID) }

    var settings: Settings { state.withLock { $0 } }

    // MARK: What it can do

    /// Its formats, smallest first.
    public var formats: [Format] { capabilities.formats }
    /// Whether the camera has a flash for photos (`AVCaptureDevice.hasFlash`).
    public var hasFlash: Bool { capabilities.hasFlash }
    /// Whether the camera has a torch, a light that stays on (`AVCaptureDevice.hasTorch`).
    public var hasTorch: Bool { capabilities.hasTorch }
    /// Whether ``setFocusMode(_:)`` takes `mode`.
    public func isFocusModeSupported(_ mode: FocusMode) -> Bool { capabilities.focusModes.contains(mode) }
    /// Whether the device has exposure mode `mode`; for ``ExposureMode/custom``, whether
    /// ``setExposureModeCustom(duration:iso:)`` works.
    public func isExposureModeSupported(_ mode: ExposureMode) -> Bool { capabilities.exposureModes.contains(mode) }
    /// Whether ``setWhiteBalanceMode(_:)`` takes `mode`.
    public func isWhiteBalanceModeSupported(_ mode: WhiteBalanceMode) -> Bool { capabilities.whiteBalanceModes.contains(mode) }
    /// Whether ``setTorchMode(_:)`` takes `mode`: `.off` always, the others with a torch.
    public func isTorchModeSupported(_ mode: TorchMode) -> Bool { mode == .off || hasTorch }
    /// The smallest factor ``setVideoZoomFactor(_:)`` takes: 1, the whole field of view.
    public var minAvailableVideoZoomFactor: Double { capabilities.zoomRange.lowerBound }
    /// The largest factor ``setVideoZoomFactor(_:)`` takes (1 on a camera that cannot zoom).
    public var maxAvailableVideoZoomFactor: Double { capabilities.zoomRange.upperBound }

    // MARK: What it does now

    /// The format frames come in (`nil` for a microphone).
    public var activeFormat: Format? { settings.activeFormat }
    /// The focus mode in force: continuous autofocus at first where the camera has it, else locked.
    public var focusMode: FocusMode { settings.focusMode }
    /// The exposure mode in force: continuous auto exposure at first where the camera has it, else
    /// locked.
    public var exposureMode: ExposureMode { settings.exposureMode }
    /// The white balance mode in force: continuous auto white balance at first where the camera has
    /// it, else locked.
    public var whiteBalanceMode: WhiteBalanceMode { settings.whiteBalanceMode }
    /// The torch mode set (`.off` until set); ``isTorchActive`` says whether the torch is lit.
    public var torchMode: TorchMode { settings.torchMode }
    /// Whether the torch is lit: `.on`, or `.auto` in a dark scene (the synthetic camera's dim
    /// scene; a V4L2 camera whose last frame, when the mode was set, was darker than 30 % grey).
    public var isTorchActive: Bool {
        switch settings.torchMode {
        case .on: true
        case .auto: hasTorch && backend.autoTorchLights(self)
        case .off: false
        }
    }
    /// How many times the centre of the picture is enlarged (`videoZoomFactor`): 1, the whole field
    /// of view, until set; a zoom ramp moves it step by step.
    public var videoZoomFactor: Double { settings.videoZoomFactor }
    /// Whether the device is still there (false after it is unplugged).
    public var isConnected: Bool { settings.isConnected }
    /// Whether someone else has the device now, so a session started on it would wait,
    /// interrupted (`AVCaptureDevice.isInUseByAnotherApplication`): a running capture session in
    /// this process holds it (every client of a Shoebox server counts as an application of its
    /// own, and so does the caller's own running session), or another program streams from it
    /// (a V4L2 camera answering `EBUSY`). Asking opens a V4L2 camera briefly; it never takes it
    /// from the program that has it.
    public var isInUseByAnotherApplication: Bool {
        CaptureSession.isHeld(self) || backend.isInUseByAnotherProgram(self)
    }

    // MARK: Configuring

    /// Takes the configuration lock (`lockForConfiguration()`).
    ///
    /// - Throws: ``CaptureError/Code/deviceUnavailable`` when the device is gone.
    public func lockForConfiguration() throws(CaptureError) {
        try state.withLock { (settings: inout Settings) throws(CaptureError) in
            guard settings.isConnected else { throw .deviceUnavailable("\(localizedName) is disconnected") }
            settings.isLocked = true
        }
    }

    /// Gives the lock back.
    public func unlockForConfiguration() {
        state.withLock { $0.isLocked = false }
    }

    /// Sets the focus mode. An auto mode focuses at ``focusPointOfInterest``: ``isAdjustingFocus``
    /// is true while the lens moves (on cameras that report it), and `.autoFocus` locks once
    /// focused. `.locked` keeps the lens where it is.
    public func setFocusMode(_ mode: FocusMode) throws(CaptureError) {
        try change(isFocusModeSupported(mode), "focus mode \(mode)") { settings in
            settings.focusMode = mode
            settings.isAdjustingFocus = mode != .locked && capabilities.reportsAdjustments
        }
    }

    /// Sets the exposure mode. An auto mode meters at ``exposurePointOfInterest`` with
    /// ``exposureTargetBias``; ``isAdjustingExposure`` is true while it settles, and `.autoExpose`
    /// locks once settled. `.custom` is ``setExposureModeCustom(duration:iso:)``'s.
    public func setExposureMode(_ mode: ExposureMode) throws(CaptureError) {
        guard mode != .custom else { throw .invalidArgument("set a custom exposure with setExposureModeCustom(duration:iso:)") }
        try change(isExposureModeSupported(mode), "exposure mode \(mode)") { settings in
            settings.exposureMode = mode
            settings.isAdjustingExposure = mode != .locked && capabilities.reportsAdjustments
        }
    }

    /// Sets the white balance mode (`.autoWhiteBalance` locks once settled).
    public func setWhiteBalanceMode(_ mode: WhiteBalanceMode) throws(CaptureError) {
        try change(isWhiteBalanceModeSupported(mode), "white balance mode \(mode)") { settings in
            settings.whiteBalanceMode = mode
            settings.isAdjustingWhiteBalance = mode != .locked && capabilities.reportsAdjustments
        }
    }

    /// Sets the torch mode (`.on` and `.auto` need ``hasTorch``); ``isTorchActive`` says whether it
    /// lights.
    public func setTorchMode(_ mode: TorchMode) throws(CaptureError) {
        try change(isTorchModeSupported(mode), "torch") { $0.torchMode = mode }
    }

    /// Zooms (`videoZoomFactor`), within ``minAvailableVideoZoomFactor`` … ``maxAvailableVideoZoomFactor``.
    public func setVideoZoomFactor(_ factor: Double) throws(CaptureError) {
        guard factor.isFinite, capabilities.zoomRange.contains(factor) else {
            throw .unsupported("zoom \(factor) is outside \(capabilities.zoomRange) on \(localizedName)")
        }
        try change { settings in
            settings.videoZoomFactor = factor
            settings.zoomRamp = nil
        }
    }

    /// Chooses the format frames come in; a running session picks it up at the next frame. The
    /// frame durations go back to the format's defaults (its fastest rate), as AV Foundation's do.
    public func setActiveFormat(_ format: Format) throws(CaptureError) {
        guard formats.contains(format) else { throw .unsupported("\(localizedName) has no format \(format)") }
        try change { settings in
            settings.activeFormat = format
            settings.minFrameDuration = nil
            settings.maxFrameDuration = nil
        }
    }

    /// A change the device may not support.
    private func change(_ supported: Bool, _ what: String, _ body: (inout Settings) throws(CaptureError) -> Void) throws(CaptureError) {
        guard supported else { throw .unsupported("\(localizedName) has no \(what)") }
        try change(body)
    }

    /// Applies a change under the lock, and tells the backend (a V4L2 control write, say).
    func change(_ body: (inout Settings) throws(CaptureError) -> Void) throws(CaptureError) {
        let updated = try state.withLock { (settings: inout Settings) throws(CaptureError) -> Settings in
            guard settings.isConnected else { throw .deviceUnavailable("\(localizedName) is disconnected") }
            guard settings.isLocked else { throw .notLockedForConfiguration(device: localizedName) }
            try body(&settings)
            return settings
        }
        try backend.apply(updated, to: self)
        notifyObservers()
    }

    /// A change the device makes itself (an auto mode settling, a zoom ramp's step), without
    /// the configuration lock; `push` also tells the backend. Returns the settings after it.
    @discardableResult
    func update(push: Bool = false, _ body: (inout Settings) -> Void) -> Settings {
        let (before, after) = state.withLock { settings in
            let before = settings
            body(&settings)
            return (before, settings)
        }
        guard before != after else { return after }
        if push { try? backend.apply(after, to: self) }
        notifyObservers()
        return after
    }

    /// Marks the device gone (a backend calls this when it is unplugged).
    func disconnect() {
        state.withLock { $0.isConnected = false }
    }

    /// Chooses a format without the lock, for the session applying a preset (the frame rate goes
    /// back to the format's).
    func selectFormat(_ format: Format) {
        update { settings in
            guard settings.activeFormat != format else { return }
            settings.activeFormat = format
            settings.minFrameDuration = nil
            settings.maxFrameDuration = nil
        }
    }
}
