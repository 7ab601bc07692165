/// A device as a session's input (`AVCaptureDeviceInput`).
public final class CaptureDeviceInput: Sendable, Hashable {
    /// The camera or microphone this input brings to a session.
    public let device: CaptureDevice

    /// - Throws: ``CaptureError/Code/deviceUnavailable`` when the device is gone.
    public init(device: CaptureDevice) throws(CaptureError) {
        guard device.isConnected else { throw .deviceUnavailable("\(device.localizedName) is disconnected") }
        self.device = device
    }

    /// Whether both are the same input object (two inputs of one device are not equal).
    public static func == (lhs: CaptureDeviceInput, rhs: CaptureDeviceInput) -> Bool { lhs === rhs }
    /// Hashes the object's identity, which equality compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
