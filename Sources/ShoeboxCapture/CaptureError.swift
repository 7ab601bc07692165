/// Why a capture operation failed. Every misuse AV Foundation answers with an exception (or a
/// crash) is one of these here.
public enum CaptureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A device setting was changed without ``CaptureDevice/lockForConfiguration()``.
    case notLockedForConfiguration(device: String)
    /// The device cannot do that (a mode, a zoom factor, a format, a torch it lacks).
    case unsupported(String)
    /// An input or output cannot join this session (already in one, wrong media type, …).
    case cannotAdd(String)
    /// The client may not use the camera (or the microphone).
    case notAuthorized(String)
    /// The device went away (unplugged) or failed.
    case deviceUnavailable(String)
    /// The session is not running, or has no input or output for the request.
    case notRunning(String)
    /// An argument is out of range.
    case invalidArgument(String)
    /// Encoding or writing the capture failed.
    case captureFailed(String)

    /// A stable, machine-readable name for the case.
    public var code: String {
        switch self {
        case .notLockedForConfiguration: "notLockedForConfiguration"
        case .unsupported: "unsupported"
        case .cannotAdd: "cannotAdd"
        case .notAuthorized: "notAuthorized"
        case .deviceUnavailable: "deviceUnavailable"
        case .notRunning: "notRunning"
        case .invalidArgument: "invalidArgument"
        case .captureFailed: "captureFailed"
        }
    }

    /// A one-line, human-readable explanation, with the detail the case carries.
    public var message: String {
        switch self {
        case .notLockedForConfiguration(let device): "\(device) must be locked for configuration (lockForConfiguration()) before it is changed"
        case .unsupported(let detail): "unsupported: \(detail)"
        case .cannotAdd(let detail): "cannot add: \(detail)"
        case .notAuthorized(let detail): "not authorized: \(detail)"
        case .deviceUnavailable(let detail): "device unavailable: \(detail)"
        case .notRunning(let detail): "not running: \(detail)"
        case .invalidArgument(let detail): "invalid argument: \(detail)"
        case .captureFailed(let detail): "capture failed: \(detail)"
        }
    }

    /// The same as ``message``.
    public var description: String { message }
}
