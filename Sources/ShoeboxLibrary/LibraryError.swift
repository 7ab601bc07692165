import Foundation
import ShoeboxImaging

/// Why a library operation failed.
///
/// An error has a ``code`` to switch on (new codes may come, so switch with a `default`), a
/// ``message`` that names the problem, and the error that caused it as ``underlying``: the
/// ``AuthorizationError`` of a refusal, the ``ObjectStorageError`` of a failed S3 request, the
/// `ImageError` or `MediaError` of a file that could not be read, the database's or file
/// system's error of a storage failure.
///
/// ```swift
/// do {
///     try await library.performChanges { AssetChangeRequest.deleteAssets([asset]) }
/// } catch let error as LibraryError where error.code == .authorization {
///     print("not allowed:", error.authorizationError?.message ?? error.message)
/// } catch {
///     print(error)
/// }
/// ```
public struct LibraryError: ShoeboxError {
    /// A kind of failure. New codes may be added: switch with a `default`.
    public struct Code: ShoeboxErrorCode {
        /// The code's stable name, such as `notFound`.
        public let rawValue: String
        /// The code of this name; any name is accepted, one this version does not define too.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The library folder could not be created or opened.
        public static let cannotOpen = Code(rawValue: "cannotOpen")
        /// The catalog was written by a newer Shoebox; this one refuses to touch it.
        public static let newerSchema = Code(rawValue: "newerSchema")
        /// No asset or album has this identifier.
        public static let notFound = Code(rawValue: "notFound")
        /// An argument is out of range.
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// The catalog (SQLite, PostgreSQL) or the file store failed.
        public static let storage = Code(rawValue: "storage")
        /// The client may not edit this asset's content in place (it did not create it); it can
        /// save a modified version instead.
        public static let notEditable = Code(rawValue: "notEditable")
        /// A client asked to delete an album or folder it did not make: only the user deletes those.
        public static let notDeletable = Code(rawValue: "notDeletable")
        /// An edit, thumbnail or playback rendition could not be rendered.
        public static let renderFailed = Code(rawValue: "renderFailed")
        /// The request was cancelled before it finished.
        public static let cancelled = Code(rawValue: "cancelled")
        /// The library's client is not allowed to do this; ``LibraryError/authorizationError``
        /// says why.
        public static let authorization = Code(rawValue: "authorization")
        /// Too much of this caller's work is waiting already, or the catalog is locked by
        /// another process or transaction; ask again later.
        public static let busy = Code(rawValue: "busy")
        /// The catalog refused a change that breaks one of its rules (a name or key taken, a
        /// row still referenced); nothing was changed. The engine's error is ``LibraryError/underlying``.
        public static let constraint = Code(rawValue: "constraint")
        /// The object store (S3) refused or failed a request; ``LibraryError/objectStorageError``
        /// says how.
        public static let objectStorage = Code(rawValue: "objectStorage")
        /// The catalog's database server did not answer: it is down or restarting, unreachable,
        /// or gave no answer within the call's deadline. A change is all or nothing: it was kept
        /// whole or not at all. Try again shortly.
        public static let catalogUnavailable = Code(rawValue: "catalogUnavailable")
        /// The uploader has as many resumable uploads receiving, or as many bytes declared by
        /// them, as one uploader may (``PhotoLibrary/maximumReceivingUploads``,
        /// ``PhotoLibrary/maximumReceivingUploadBytes``): finish or cancel one first.
        public static let tooManyUploads = Code(rawValue: "tooManyUploads")
        /// The person's assets would hold more bytes than their quota (``Person/quota``): nothing
        /// of the change was kept.
        public static let quotaExceeded = Code(rawValue: "quotaExceeded")
        /// No person of the library has this name or identifier.
        public static let noSuchPerson = Code(rawValue: "noSuchPerson")
        /// The person may see this but not do that (a viewer of a shared album adding to it).
        public static let notPermitted = Code(rawValue: "notPermitted")

        // A file that could not be imported (nothing of the change was kept):

        /// Not a photo or movie Shoebox keeps.
        public static let unsupportedFormat = Code(rawValue: "unsupportedFormat")
        /// A photo with more pixels than the library's limit.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// A damaged or truncated photo or movie.
        public static let corrupt = Code(rawValue: "corrupt")
        /// The file could not be read.
        public static let io = Code(rawValue: "io")
        /// A sidecar or text file (`.xmp`, `.json`, …), skipped by a folder import.
        public static let sidecar = Code(rawValue: "sidecar")
        /// An import or capture committed without its file ever being written.
        public static let missing = Code(rawValue: "missing")
        /// Movies cannot be read here: ffmpeg is not installed.
        public static let toolMissing = Code(rawValue: "toolMissing")
    }

    /// The kind of failure, to switch on.
    public let code: Code
    /// A one-line, human-readable explanation that names the problem.
    public let message: String
    /// The error that caused this one, if any.
    public let underlying: (any Error)?
    /// The file a failed import concerns (as the caller named it), if the error is one.
    public let path: String?

    /// An error of `code`, explained by `message`, caused by `underlying`.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.path = path
    }

    /// The refusal behind an ``Code/authorization`` error.
    public var authorizationError: AuthorizationError? { underlying as? AuthorizationError }

    /// The object store's error behind an ``Code/objectStorage`` error.
    public var objectStorageError: ObjectStorageError? { underlying as? ObjectStorageError }

    // MARK: Making errors

    /// The library at `path` could not be created or opened, for `reason`.
    public static func cannotOpen(path: String, reason: String, underlying: (any Error)? = nil) -> LibraryError {
        LibraryError(.cannotOpen, "cannot open the library at \(path): \(reason)", underlying: underlying)
    }

    /// The catalog at `path` has migrations this Shoebox does not know.
    public static func newerSchema(path: String, unknownMigrations: [String]) -> LibraryError {
        LibraryError(
            .newerSchema,
            "the library at \(path) was written by a newer Shoebox (schema \(unknownMigrations.joined(separator: ", "))); upgrade Shoebox to open it")
    }

    /// The file at `path` could not be imported: `code` says how (``Code/unsupportedFormat``,
    /// ``Code/corrupt``, …) and `message` in words; `underlying` is the reader's error, if any.
    public static func importFailed(path: String, code: Code, message: String, underlying: (any Error)? = nil) -> LibraryError {
        LibraryError(code, "cannot import \(path): \(message)", underlying: underlying, path: path)
    }

    /// No asset or album `localIdentifier`.
    public static func notFound(localIdentifier: String) -> LibraryError {
        LibraryError(.notFound, "no asset or album \(localIdentifier)")
    }

    /// What the person asked is not theirs to do; `detail` says what.
    public static func notPermitted(_ detail: String) -> LibraryError {
        LibraryError(.notPermitted, detail)
    }

    /// An argument out of range; `detail` names it.
    public static func invalidArgument(_ detail: String, underlying: (any Error)? = nil) -> LibraryError {
        LibraryError(.invalidArgument, "invalid argument: \(detail)", underlying: underlying)
    }

    /// The catalog or the file store failed as `detail` says, because of `underlying` if known.
    public static func storage(_ detail: String, underlying: (any Error)? = nil) -> LibraryError {
        LibraryError(.storage, "storage failure: \(detail)", underlying: underlying)
    }

    /// `client` (the user when `nil`) did not create `localIdentifier` and may not edit it in place.
    public static func notEditable(localIdentifier: String, client: String?) -> LibraryError {
        LibraryError(.notEditable, "\(client ?? "this client") did not create \(localIdentifier) and may not edit it in place; save a modified version instead")
    }

    /// `client` did not make the album `title` and may not delete it.
    public static func notDeletable(localIdentifier: String, title: String, client: String) -> LibraryError {
        LibraryError(.notDeletable, "\(client) did not make the album \(title) and may not delete it: only the user deletes the user's albums")
    }

    /// Rendering failed as `detail` says, because of `underlying` if known.
    public static func renderFailed(_ detail: String, underlying: (any Error)? = nil) -> LibraryError {
        LibraryError(.renderFailed, "cannot render: \(detail)", underlying: underlying)
    }

    /// The request was cancelled.
    public static let cancelled = LibraryError(.cancelled, "cancelled")

    /// The library's client was refused: `error` says why.
    public static func authorization(_ error: AuthorizationError) -> LibraryError {
        LibraryError(.authorization, error.message, underlying: error)
    }

    /// Too much of this caller's work is waiting; `detail` says what.
    public static func busy(_ detail: String) -> LibraryError {
        LibraryError(.busy, "busy: \(detail)")
    }

    /// The catalog's database server did not answer, as `detail` says (where it is, and how
    /// long the call waited).
    public static func catalogUnavailable(_ detail: String, underlying: (any Error)? = nil) -> LibraryError {
        LibraryError(.catalogUnavailable, detail, underlying: underlying)
    }

    /// The object store failed a request: `error` says how.
    public static func objectStorage(_ error: ObjectStorageError) -> LibraryError {
        LibraryError(.objectStorage, "object storage: \(error.message)", underlying: error)
    }
}

extension LibraryError: Equatable {
    /// Two errors are equal when their codes and messages are (what a test compares);
    /// underlying is not compared.
    public static func == (lhs: LibraryError, rhs: LibraryError) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }
}
