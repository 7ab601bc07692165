/// A device as a session's input (`AVCaptureDeviceInput`).
public final class CaptureDeviceInput: Sendable, Hashable {
    public let device: CaptureDevice

    /// - Throws: ``CaptureError/deviceUnavailable(_:)`` when the device is gone.
    public init(device: CaptureDevice) throws(CaptureError) {
        guard device.isConnected else { throw .deviceUnavailable("\(device.localizedName) is disconnected") }
        self.device = device
    }

    public static func == (lhs: CaptureDeviceInput, rhs: CaptureDeviceInput) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
