import Foundation
import ShoeboxImaging

/// Why the picker refused something: a configuration the environment cannot honour, a selection
/// the configuration forbids, an edit out of bounds, or a failure while delivering results.
///
/// The seeds' `UIImagePickerController` raises an exception (and a camera property set at the
/// wrong time can crash the app); Shoebox throws this error instead, with a ``code`` to switch on
/// and a ``message`` that names the problem.
///
/// ```swift
/// do {
///     try picker.setMediaTypes([])
/// } catch {
///     print(error.code, error.message)   // invalidMediaTypes, "mediaTypes must not be empty; …"
/// }
/// ```
public struct PickerError: ShoeboxError, Hashable {
    /// A kind of failure. New codes may be added: switch with a `default`.
    public struct Code: ShoeboxErrorCode {
        /// The code's stable name, such as `invalidMediaTypes`: what the HTTP API's errors carry.
        public let rawValue: String
        /// The code of this name; any name is accepted, one this version does not define too.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The source type is not available here (no library open, no camera).
        public static let sourceTypeUnavailable = Code(rawValue: "sourceTypeUnavailable")
        /// `mediaTypes` is empty or names types the source does not offer.
        public static let invalidMediaTypes = Code(rawValue: "invalidMediaTypes")
        /// A camera option was set while the source is not the camera, or for a camera or mode
        /// that does not exist.
        public static let cameraUnavailable = Code(rawValue: "cameraUnavailable")
        /// A value outside its allowed range (a crop that is not square, a trim past the end, …).
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// A size below a documented minimum.
        public static let sizeTooSmall = Code(rawValue: "sizeTooSmall")
        /// The selection would pass `selectionLimit`.
        public static let selectionLimitReached = Code(rawValue: "selectionLimitReached")
        /// Fewer items are selected than the configuration's minimum.
        public static let selectionTooSmall = Code(rawValue: "selectionTooSmall")
        /// The asset is not one the configuration allows (media type or filter).
        public static let notAllowed = Code(rawValue: "notAllowed")
        /// No such asset, album or item in this picker.
        public static let notFound = Code(rawValue: "notFound")
        /// The session has finished (picked or cancelled); nothing more can change.
        public static let finished = Code(rawValue: "finished")
        /// The operation does not fit the session's state (e.g. stopping a recording that never
        /// started, Use Photo with nothing to review).
        public static let invalidState = Code(rawValue: "invalidState")
        /// The client may not use the camera or microphone.
        public static let notAuthorized = Code(rawValue: "notAuthorized")
        /// The camera failed to take a picture or record.
        public static let captureFailed = Code(rawValue: "captureFailed")
        /// Delivering a pick failed (copying, cropping, trimming or converting).
        public static let deliveryFailed = Code(rawValue: "deliveryFailed")
        /// The library failed.
        public static let library = Code(rawValue: "library")
        /// The server a picker was asked of over HTTP (``ShoeboxServer``'s `RemotePickerClient`)
        /// could not be reached, stopped, or refused: the message says which, in plain words.
        public static let server = Code(rawValue: "server")
    }

    /// The kind of failure, to switch on.
    public let code: Code
    /// A one-line, human-readable explanation that names the problem.
    public let message: String
    /// The error that caused this one (the library's, the camera's, ffmpeg's), if any.
    public let underlying: (any Error)?

    /// An error of `code`, explained by `message`, caused by `underlying`.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// Two errors are equal when their codes and messages are (what a test compares);
    /// ``underlying`` is not compared.
    public static func == (lhs: PickerError, rhs: PickerError) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }

    /// Hashes the ``code`` and the ``message``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }

    /// `code: message`, as `invalidMediaTypes: mediaTypes must not be empty; …`.
    public var description: String { "\(code): \(message)" }
}
