import ShoeboxImaging

/// Why a capture operation failed. Every misuse AV Foundation answers with an exception (or a
/// crash) is one of these here.
///
/// An error has a ``code`` to switch on (new codes may come, so switch with a `default`), a
/// ``message`` that names the problem, and, when another error caused it, that error as
/// ``underlying``.
public struct CaptureError: ShoeboxError {
    /// A kind of failure. New codes may be added: switch with a `default`.
    public struct Code: ShoeboxErrorCode {
        /// The code's stable name, such as `notRunning`: what the HTTP API's errors carry.
        public let rawValue: String
        /// The code of this name; any name is accepted, one this version does not define too.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A device setting was changed without ``CaptureDevice/lockForConfiguration()``.
        public static let notLockedForConfiguration = Code(rawValue: "notLockedForConfiguration")
        /// The device cannot do that (a mode, a zoom factor, a format, a torch it lacks).
        public static let unsupported = Code(rawValue: "unsupported")
        /// An input or output cannot join this session (already in one, wrong media type, …).
        public static let cannotAdd = Code(rawValue: "cannotAdd")
        /// The client may not use the camera (or the microphone).
        public static let notAuthorized = Code(rawValue: "notAuthorized")
        /// The device went away (unplugged) or failed.
        public static let deviceUnavailable = Code(rawValue: "deviceUnavailable")
        /// The session is not running, or has no input or output for the request.
        public static let notRunning = Code(rawValue: "notRunning")
        /// An argument is out of range.
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// Encoding or writing the capture failed.
        public static let captureFailed = Code(rawValue: "captureFailed")
    }

    /// The kind of failure, to switch on.
    public let code: Code
    /// A one-line, human-readable explanation that names the problem.
    public let message: String
    /// The error that caused this one (an encoder's, a device's, the library's), if any.
    public let underlying: (any Error)?

    /// An error of `code`, explained by `message`, caused by `underlying`.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    // MARK: Making errors

    /// `device` was changed without being locked for configuration.
    public static func notLockedForConfiguration(device: String) -> CaptureError {
        CaptureError(.notLockedForConfiguration, "\(device) must be locked for configuration (lockForConfiguration()) before it is changed")
    }

    /// The device cannot do what `detail` names.
    public static func unsupported(_ detail: String) -> CaptureError {
        CaptureError(.unsupported, "unsupported: \(detail)")
    }

    /// What `detail` names cannot join the session.
    public static func cannotAdd(_ detail: String) -> CaptureError {
        CaptureError(.cannotAdd, "cannot add: \(detail)")
    }

    /// The client may not use what `detail` names.
    public static func notAuthorized(_ detail: String, underlying: (any Error)? = nil) -> CaptureError {
        CaptureError(.notAuthorized, "not authorized: \(detail)", underlying: underlying)
    }

    /// The device `detail` names went away or failed.
    public static func deviceUnavailable(_ detail: String, underlying: (any Error)? = nil) -> CaptureError {
        CaptureError(.deviceUnavailable, "device unavailable: \(detail)", underlying: underlying)
    }

    /// The session is not running, or lacks what `detail` names.
    public static func notRunning(_ detail: String) -> CaptureError {
        CaptureError(.notRunning, "not running: \(detail)")
    }

    /// An argument out of range; `detail` names it.
    public static func invalidArgument(_ detail: String) -> CaptureError {
        CaptureError(.invalidArgument, "invalid argument: \(detail)")
    }

    /// Encoding or writing failed as `detail` says, because of `underlying` if known.
    public static func captureFailed(_ detail: String, underlying: (any Error)? = nil) -> CaptureError {
        CaptureError(.captureFailed, "capture failed: \(detail)", underlying: underlying)
    }
}

extension CaptureError: Equatable {
    /// Two errors are equal when their codes and messages are (what a test compares);
    /// underlying is not compared.
    public static func == (lhs: CaptureError, rhs: CaptureError) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }
}
