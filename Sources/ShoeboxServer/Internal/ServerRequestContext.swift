import Foundation
import Hummingbird
import ShoeboxLibrary

/// Who is asking.
enum Caller: Sendable {
    case anonymous
    /// The person at the browser (the key's cookie), or Shoebox's own tools (the key as a bearer).
    case user
    /// A registered client, by its token.
    case client(ClientManifest)

    var clientIdentifier: String? {
        if case .client(let manifest) = self { return manifest.identifier }
        return nil
    }

    /// Who owns what this caller makes (fetch snapshots): `user`, or `client:` and the client's
    /// identifier, so no client identifier can name the user's.
    var owner: String {
        clientIdentifier.map { "client:" + $0 } ?? "user"
    }

    var isUser: Bool {
        if case .user = self { return true }
        return false
    }

    /// For the user's routes: nobody is asked to sign in (`401 authenticationRequired`), a client
    /// is refused (`403 userOnly`, with `message`).
    func requireUser(_ message: String) throws(APIError) {
        switch self {
        case .user: return
        case .anonymous: throw Self.signInFirst
        case .client: throw APIError.forbidden("userOnly", message)
        }
    }

    /// What a request without credentials gets from every route but the public ones.
    static var signInFirst: APIError {
        APIError(.unauthorized, "authenticationRequired", "sign in with the URL shoebox serve printed, or send a client token")
    }
}

/// The request context: Hummingbird's, plus the caller.
package struct ServerRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    var caller: Caller = .anonymous
    /// Whether the caller authenticated with a cookie (and so needs a CSRF token to change things).
    var usesCookie = false
    /// The address the request came from (for the log of a shared link's views).
    var remoteAddress: String

    package init(source: Source) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// Bodies are streamed by the upload routes and collected with explicit limits elsewhere.
    package var maxUploadSize: Int { 1 << 20 }
}

extension Parameters {
    /// A path parameter, percent-decoded (asset identifiers contain `/`, sent as `%2F`; the
    /// router matches the raw path).
    func requireDecoded(_ name: String) throws -> String {
        let raw = try require(name)
        guard let decoded = raw.removingPercentEncoding else { throw APIError.badRequest("\(name) is not valid percent-encoding") }
        return decoded
    }
}
