import Foundation

/// Why a library operation failed.
public enum LibraryError: Error, Sendable, CustomStringConvertible {
    /// The library folder could not be created or opened.
    case cannotOpen(path: String, reason: String)
    /// The catalog was written by a newer Shoebox; this one refuses to touch it.
    case newerSchema(path: String, unknownMigrations: [String])
    /// A file could not be imported; nothing of the change was kept.
    case importFailed(path: String, code: String, message: String)
    /// No asset or album has this identifier.
    case notFound(localIdentifier: String)
    /// An argument is out of range.
    case invalidArgument(String)
    /// The catalog (SQLite) or the file store failed.
    case storage(String)
    /// The client may not edit this asset's content in place (it did not create it); it can
    /// save a modified version instead.
    case notEditable(localIdentifier: String, client: String?)
    /// A client asked to delete an album or folder it did not make: only the user deletes those.
    case notDeletable(localIdentifier: String, title: String, client: String)
    /// An edit, thumbnail or playback rendition could not be rendered.
    case renderFailed(String)
    /// The request was cancelled before it finished.
    case cancelled
    /// The library's client is not allowed to do this.
    case authorization(AuthorizationError)
    /// Too much of this caller's work is waiting already; ask again later.
    case busy(String)
    /// The object store (S3) refused or failed a request.
    case objectStorage(ObjectStorageError)

    /// A stable, machine-readable name for the case.
    public var code: String {
        switch self {
        case .cannotOpen: "cannotOpen"
        case .newerSchema: "newerSchema"
        case .importFailed(_, let code, _): code
        case .notFound: "notFound"
        case .invalidArgument: "invalidArgument"
        case .storage: "storage"
        case .notEditable: "notEditable"
        case .notDeletable: "notDeletable"
        case .renderFailed: "renderFailed"
        case .cancelled: "cancelled"
        case .authorization(let error): error.code
        case .busy: "busy"
        case .objectStorage(let error): error.code.rawValue
        }
    }

    /// A one-line, human-readable explanation.
    public var message: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open the library at \(path): \(reason)"
        case .newerSchema(let path, let unknown):
            "the library at \(path) was written by a newer Shoebox (schema \(unknown.joined(separator: ", "))); upgrade Shoebox to open it"
        case .importFailed(let path, _, let message): "cannot import \(path): \(message)"
        case .notFound(let id): "no asset or album \(id)"
        case .invalidArgument(let detail): "invalid argument: \(detail)"
        case .storage(let detail): "storage failure: \(detail)"
        case .notDeletable(_, let title, let client):
            "\(client) did not make the album \(title) and may not delete it: only the user deletes the user's albums"
        case .notEditable(let id, let client):
            "\(client ?? "this client") did not create \(id) and may not edit it in place; save a modified version instead"
        case .renderFailed(let detail): "cannot render: \(detail)"
        case .cancelled: "cancelled"
        case .authorization(let error): error.message
        case .busy(let detail): "busy: \(detail)"
        case .objectStorage(let error): "object storage: \(error.message)"
        }
    }

    /// The same as ``message``.
    public var description: String { message }
}
