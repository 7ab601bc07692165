import Foundation
import Hummingbird
import ShoeboxLibrary

/// Who is asking.
enum Caller: Sendable {
    case anonymous
    /// A person: signed in at a browser (a session cookie), or the admin by the server's key (its
    /// cookie, or the key as a bearer for Shoebox's own tools).
    case user(Person)
    /// A registered client, by its token, and the person it acts for (whose library it asks to
    /// use, who answers its questions).
    case client(ClientManifest, Person)

    var clientIdentifier: String? {
        if case .client(let manifest, _) = self { return manifest.identifier }
        return nil
    }

    /// Who owns what this caller makes (fetch snapshots): `user:` and the person's row id, or
    /// `client:`, the client's person and its identifier, so no client identifier can name a
    /// person's and one app two people use is two owners.
    var owner: String {
        switch self {
        case .user(let person): "user:\(person.rowID)"
        case .client(let manifest, let person): "client:\(person.rowID)/" + manifest.identifier
        case .anonymous: "anonymous"
        }
    }

    /// The person whose library the caller uses: the person asking, or the one a client acts
    /// for; `nil` for nobody.
    var actingFor: Person? {
        switch self {
        case .user(let person), .client(_, let person): person
        case .anonymous: nil
        }
    }

    /// The person asking, if one is.
    var person: Person? {
        if case .user(let person) = self { return person }
        return nil
    }

    var isUser: Bool { person != nil }

    /// Whether a person is asking who may manage the library: its people, its jobs, its clients.
    var isAdmin: Bool { person?.role == .admin }

    /// Whether the caller is the library's first admin, whose library the server opened (the
    /// thumbnails answered from memory are theirs alone).
    var isFirstAdmin: Bool { person?.rowID == 1 }

    /// For the people's routes: nobody is asked to sign in (`401 authenticationRequired`), a
    /// client is refused (`403 userOnly`, with `message`).
    func requireUser(_ message: String) throws(APIError) {
        switch self {
        case .user: return
        case .anonymous: throw Self.signInFirst
        case .client: throw APIError.forbidden("userOnly", message)
        }
    }

    /// The person asking, or the refusal ``requireUser(_:)`` gives with `message`.
    func requirePerson(_ message: String) throws(APIError) -> Person {
        try requireUser(message)
        guard let person else { throw Self.signInFirst }
        return person
    }

    /// For what only an admin does (people): anyone else is refused (`403 adminOnly`).
    func requireAdmin(_ message: String) throws(APIError) {
        try requireUser(message)
        guard isAdmin else { throw APIError.forbidden("adminOnly", message) }
    }

    /// What a request without credentials gets from every route but the public ones.
    static var signInFirst: APIError {
        APIError(.unauthorized, "authenticationRequired", "sign in (at /, or with the URL shoebox serve printed), or send a client token")
    }
}

/// The request context: Hummingbird's, plus the caller.
package struct ServerRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    var caller: Caller = .anonymous
    /// Whether the caller authenticated with a cookie (and so needs a CSRF token to change things).
    var usesCookie = false
    /// The CSRF token the caller's pages carry: the key's, or the session's.
    var csrfToken: String?
    /// The caller's session, when it signed in at a browser.
    var session: PersonSession?
    /// The person's key the caller sent, when it is a tool acting for a person.
    var key: PersonKey?
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
