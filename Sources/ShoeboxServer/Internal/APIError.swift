import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import ShoeboxPicker

/// An error as the API reports it: an HTTP status and `{"error": {"code", "message"}}`. Domain
/// errors become API errors here, in one place.
package struct APIError: Error, HTTPResponseError {
    package let status: HTTPResponse.Status
    let code: String
    private(set) var message: String
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, "invalidArgument", message) }
    static func notFound(_ message: String) -> APIError { APIError(.notFound, "notFound", message) }
    static func forbidden(_ code: String, _ message: String) -> APIError { APIError(.forbidden, code, message) }

    init(library error: LibraryError) {
        if error.code == .catalogUnavailable {
            // Where the catalog is and what it said are the operator's, in the log; the caller
            // learns that it is a passing outage and when to ask again.
            Self.log("catalog unavailable: \(error.message)")
            self.init(
                .serviceUnavailable, error.code.rawValue,
                "the library's catalog is not answering (its database is down or restarting); nothing was changed, try again shortly")
            headers[.retryAfter] = String(Self.catalogRetryAfter)
            return
        }
        if [.storage, .constraint, .busy].contains(error.code), Self.namesDatabaseInternals(error.message) {
            let reference = Self.reference()
            Self.log("\(error.code) failure \(reference): \(error.message)")
            switch error.code {
            case .constraint:
                self.init(
                    .conflict, error.code.rawValue, "the library's catalog refused the change, nothing was changed (reference \(reference) in the server's log)"
                )
            case .busy:
                self.init(
                    .serviceUnavailable, error.code.rawValue, "the library's catalog is busy; try again shortly (reference \(reference) in the server's log)")
            default:
                self.init(.internalServerError, error.code.rawValue, "the library's catalog failed (reference \(reference) in the server's log)")
            }
            return
        }
        self.init(libraryError: error)
        message = Self.withoutPaths(message)
    }

    /// Seconds a client is told to wait (`Retry-After`) when the catalog is not answering: about
    /// what a database restart takes.
    static let catalogRetryAfter = 5

    /// Whether a storage failure's message carries the database's own words (SQL, driver types),
    /// which stay in the server's log.
    static func namesDatabaseInternals(_ message: String) -> Bool {
        ["PostgreSQL", "PSQLError", "SQLite", "SQLSTATE", "SELECT ", "INSERT ", "UPDATE ", "DELETE "].contains { message.contains($0) }
    }

    static func reference() -> String { String(RandomToken.hex(words: 1).prefix(8)) }

    /// A line in the server's log (standard error).
    static func log(_ line: String) {
        FileHandle.standardError.write(Data("shoebox: \(line)\n".utf8))
    }

    /// `text` with the server's file paths cut to their last component (`cannot import
    /// /srv/Photos.shoebox/staging/import-…/notes.jpg` → `cannot import notes.jpg`): what the
    /// library, libvips and ffmpeg say names files on the server, which are not the caller's
    /// business.
    static func withoutPaths(_ text: String) -> String {
        guard text.contains("/") else { return text }
        let pattern = #"(?:file:)?/(?:[^\s/:()"']+/)+([^\s/:()"']*)"#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return text }
        let range = NSRange(text.startIndex..., in: text)
        return expression.stringByReplacingMatches(in: text, range: range, withTemplate: "$1")
    }

    /// The statuses of the library's codes; an import's failures (`corrupt`, `io`, `sidecar`, …)
    /// and codes this table does not name are 422. A refusal answers with the
    /// ``AuthorizationError``'s own code; an object store's failure is `objectStorage`, its
    /// message saying which (docs/API.md).
    private init(libraryError error: LibraryError) {
        if let authorization = error.authorizationError {
            self.init(authorization: authorization)
            return
        }
        let status: HTTPResponse.Status =
            switch error.code {
            case .notFound, .noSuchPerson: .notFound
            case .invalidArgument: .badRequest
            case .quotaExceeded: .contentTooLarge
            case .notEditable, .notDeletable, .authorization, .notPermitted: .forbidden
            case .unsupportedFormat: .unsupportedMediaType
            case .tooLarge: .contentTooLarge
            case .tooManyUploads, .constraint: .conflict
            case .cancelled, .busy: .serviceUnavailable
            case .objectStorage: .badGateway
            case .cannotOpen, .newerSchema, .storage, .renderFailed: .internalServerError
            default: .unprocessableContent
            }
        self.init(status, error.code.rawValue, error.message)
    }

    init(authorization error: AuthorizationError) {
        let status: HTTPResponse.Status =
            switch error.code {
            case .unknownClient: .notFound
            case .missingUsageDescription: .badRequest
            case .cannotPrompt: .serviceUnavailable
            default: .forbidden
            }
        self.init(status, error.code.rawValue, error.message)
    }

    init(picker error: PickerError) {
        let status: HTTPResponse.Status =
            switch error.code {
            case .notFound: .notFound
            case .finished, .invalidState, .selectionLimitReached, .selectionTooSmall: .conflict
            case .notAuthorized: .forbidden
            case .deliveryFailed, .captureFailed, .library: .internalServerError
            case .sourceTypeUnavailable, .cameraUnavailable: .unprocessableContent
            default: .badRequest
            }
        self.init(status, error.code.rawValue, error.message)
    }

    init(capture error: CaptureError) {
        let status: HTTPResponse.Status =
            switch error.code {
            case .notAuthorized: .forbidden
            case .invalidArgument, .unsupported: .badRequest
            case .deviceUnavailable: .serviceUnavailable
            case .notRunning, .notLockedForConfiguration, .cannotAdd: .conflict
            default: .internalServerError
            }
        self.init(status, error.code.rawValue, Self.withoutPaths(error.message))
    }

    /// Any error thrown by a route.
    init(_ error: any Error) {
        switch error {
        case let error as APIError: self = error
        case let error as LibraryError: self.init(library: error)
        case let error as PickerError: self.init(picker: error)
        case let error as AuthorizationError: self.init(authorization: error)
        case let error as CaptureError: self.init(capture: error)
        case let error as ImageError: self.init(.unprocessableContent, error.code.rawValue, Self.withoutPaths(error.message))
        case let error as MediaError: self.init(.unprocessableContent, error.code.rawValue, Self.withoutPaths(error.message))
        case let error as HTTPError: self.init(error.status, "http", error.body ?? error.status.reasonPhrase)
        case let error as DecodingError: self.init(.badRequest, "invalidJSON", "the request body is not the JSON expected: \(Self.describe(error))")
        case is NIOTooManyBytesError: self.init(.contentTooLarge, "tooLarge", "the request body is larger than this request takes")
        case HTTPParserError.invalidEOFState:
            // The connection closed before the body its Content-Length announced: whatever came is dropped.
            self.init(.badRequest, "incompleteBody", "the connection ended before the whole body arrived; nothing was kept")
        case let error as HTTPParserError:
            self.init(.badRequest, "badRequest", "the request is not valid HTTP/1.1: \(error.debugDescription)")
        default:
            // The details stay in the server's log: they name internals (types, paths, SQL).
            let reference = Self.reference()
            Self.log("internal error \(reference): \(error)")
            self.init(.internalServerError, "internal", "an internal error occurred (reference \(reference) in the server's log)")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "missing \(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            (context.codingPath.map(\.stringValue).joined(separator: ".") + " " + context.debugDescription).trimmingCharacters(in: .whitespaces)
        @unknown default: "\(error)"
        }
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = (try? JSONSerialization.data(withJSONObject: ["error": ["code": code, "message": message]], options: [.sortedKeys])) ?? Data()
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
