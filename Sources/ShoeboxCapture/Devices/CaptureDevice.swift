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
    public enum MediaType: String, Sendable, Hashable, Codable { case video, audio }
    public enum Position: String, Sendable, Hashable, Codable { case unspecified, back, front }
    public enum DeviceType: String, Sendable, Hashable, Codable {
        case builtInWideAngleCamera
        /// A USB or other external camera (V4L2).
        case external
        case microphone
    }
    public enum FocusMode: String, Sendable, Hashable, Codable { case locked, autoFocus, continuousAutoFocus }
    public enum ExposureMode: String, Sendable, Hashable, Codable { case locked, autoExpose, continuousAutoExposure }
    public enum WhiteBalanceMode: String, Sendable, Hashable, Codable { case locked, autoWhiteBalance, continuousAutoWhiteBalance }
    public enum TorchMode: String, Sendable, Hashable, Codable { case off, on, auto }
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
    }

    public let uniqueID: String
    public let localizedName: String
    public let position: Position
    public let deviceType: DeviceType
    public let mediaType: MediaType
    let capabilities: Capabilities
    let backend: any CaptureDeviceBackend
    private let state: Mutex<Settings>

    init(uniqueID: String, localizedName: String, position: Position, deviceType: DeviceType, mediaType: MediaType,
         capabilities: Capabilities, backend: any CaptureDeviceBackend) {
        self.uniqueID = uniqueID
        self.localizedName = localizedName
        self.position = position
        self.deviceType = deviceType
        self.mediaType = mediaType
        self.capabilities = capabilities
        self.backend = backend
        state = Mutex(Settings(
            activeFormat: capabilities.formats.first,
            focusMode: capabilities.focusModes.contains(.continuousAutoFocus) ? .continuousAutoFocus : .locked,
            exposureMode: capabilities.exposureModes.contains(.continuousAutoExposure) ? .continuousAutoExposure : .locked,
            whiteBalanceMode: capabilities.whiteBalanceModes.contains(.continuousAutoWhiteBalance) ? .continuousAutoWhiteBalance : .locked))
    }

    public var id: String { uniqueID }
    public var description: String { "\(localizedName) (\(uniqueID))" }
    public static func == (lhs: CaptureDevice, rhs: CaptureDevice) -> Bool { lhs.uniqueID == rhs.uniqueID }
    public func hash(into hasher: inout Hasher) { hasher.combine(uniqueID) }

    var settings: Settings { state.withLock { $0 } }

    // MARK: What it can do

    /// Its formats, smallest first.
    public var formats: [Format] { capabilities.formats }
    public var hasFlash: Bool { capabilities.hasFlash }
    public var hasTorch: Bool { capabilities.hasTorch }
    public func isFocusModeSupported(_ mode: FocusMode) -> Bool { capabilities.focusModes.contains(mode) }
    public func isExposureModeSupported(_ mode: ExposureMode) -> Bool { capabilities.exposureModes.contains(mode) }
    public func isWhiteBalanceModeSupported(_ mode: WhiteBalanceMode) -> Bool { capabilities.whiteBalanceModes.contains(mode) }
    public func isTorchModeSupported(_ mode: TorchMode) -> Bool { mode == .off || hasTorch }
    public var minAvailableVideoZoomFactor: Double { capabilities.zoomRange.lowerBound }
    public var maxAvailableVideoZoomFactor: Double { capabilities.zoomRange.upperBound }

    // MARK: What it does now

    /// The format frames come in (`nil` for a microphone).
    public var activeFormat: Format? { settings.activeFormat }
    public var focusMode: FocusMode { settings.focusMode }
    public var exposureMode: ExposureMode { settings.exposureMode }
    public var whiteBalanceMode: WhiteBalanceMode { settings.whiteBalanceMode }
    public var torchMode: TorchMode { settings.torchMode }
    public var isTorchActive: Bool { settings.torchMode == .on }
    public var videoZoomFactor: Double { settings.videoZoomFactor }
    /// Whether the device is still there (false after it is unplugged).
    public var isConnected: Bool { settings.isConnected }

    // MARK: Configuring

    /// Takes the configuration lock (`lockForConfiguration()`).
    ///
    /// - Throws: ``CaptureError/deviceUnavailable(_:)`` when the device is gone.
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

    public func setFocusMode(_ mode: FocusMode) throws(CaptureError) {
        try change(isFocusModeSupported(mode), "focus mode \(mode)") { $0.focusMode = mode }
    }

    public func setExposureMode(_ mode: ExposureMode) throws(CaptureError) {
        try change(isExposureModeSupported(mode), "exposure mode \(mode)") { $0.exposureMode = mode }
    }

    public func setWhiteBalanceMode(_ mode: WhiteBalanceMode) throws(CaptureError) {
        try change(isWhiteBalanceModeSupported(mode), "white balance mode \(mode)") { $0.whiteBalanceMode = mode }
    }

    public func setTorchMode(_ mode: TorchMode) throws(CaptureError) {
        try change(isTorchModeSupported(mode), "torch") { $0.torchMode = mode }
    }

    /// Zooms (`videoZoomFactor`), within ``minAvailableVideoZoomFactor`` … ``maxAvailableVideoZoomFactor``.
    public func setVideoZoomFactor(_ factor: Double) throws(CaptureError) {
        guard factor.isFinite, capabilities.zoomRange.contains(factor) else {
            throw .unsupported("zoom \(factor) is outside \(capabilities.zoomRange) on \(localizedName)")
        }
        try change { $0.videoZoomFactor = factor }
    }

    /// Chooses the format frames come in; a running session picks it up at the next frame.
    public func setActiveFormat(_ format: Format) throws(CaptureError) {
        guard formats.contains(format) else { throw .unsupported("\(localizedName) has no format \(format)") }
        try change { $0.activeFormat = format }
    }

    /// A change the device may not support.
    private func change(_ supported: Bool, _ what: String, _ body: (inout Settings) -> Void) throws(CaptureError) {
        guard supported else { throw .unsupported("\(localizedName) has no \(what)") }
        try change(body)
    }

    /// Applies a change under the lock, and tells the backend (a V4L2 control write, say).
    private func change(_ body: (inout Settings) -> Void) throws(CaptureError) {
        let updated = try state.withLock { (settings: inout Settings) throws(CaptureError) -> Settings in
            guard settings.isConnected else { throw .deviceUnavailable("\(localizedName) is disconnected") }
            guard settings.isLocked else { throw .notLockedForConfiguration(device: localizedName) }
            body(&settings)
            return settings
        }
        try backend.apply(updated, to: self)
    }

    /// Marks the device gone (a backend calls this when it is unplugged).
    func disconnect() {
        state.withLock { $0.isConnected = false }
    }

    /// Chooses a format without the lock, for the session applying a preset.
    func selectFormat(_ format: Format) {
        state.withLock { $0.activeFormat = format }
    }
}
