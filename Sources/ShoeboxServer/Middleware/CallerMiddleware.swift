import Foundation
import Hummingbird
import ShoeboxLibrary
import Synchronization

/// Finds out who is asking: a person (their session cookie, or one of their keys as a bearer
/// token, held to its scope by ``KeyScopeRule``; the first admin by the server key's cookie or
/// the server key as a bearer token), a client (its bearer token), or nobody yet. State-changing requests authenticated by the cookie must
/// carry the page's CSRF token and, when the browser sends one, this server's `Origin`.
struct CallerMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    static let cookieName = "shoebox_key"
    let server: PhotoLibraryServer
    var state: ServerState { server.state }

    /// Cookies are per host, not per port: a name derived from the key keeps apart the keys of
    /// two servers on one host, and servers given the same `--key` behind one address (several
    /// servers on one library) share the user's cookie.
    static func cookieName(key: String) -> String { "\(cookieName)_\(ServerState.derive("cookie", from: key).prefix(16))" }

    /// The session cookie's name, kept apart per library as the key's is.
    static func sessionCookieName(key: String) -> String { "shoebox_session_\(ServerState.derive("session-cookie", from: key).prefix(16))" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A shared link's pages (`/s/TOKEN…`) act for nobody: whoever opens them, their routes
        // see an anonymous caller and reach only what the link shows.
        if request.uri.path.hasPrefix("/s/") { return try await next(request, context) }
        var context = context
        switch state.credentials.verdict(authorization: request.headers[.authorization], cookies: request.headers[values: .cookie]) {
        case .user(let cookie):
            context.caller = .user(try await state.firstAdmin())
            context.usesCookie = cookie
            context.csrfToken = state.csrfToken
        case .session(let token):
            // A session that ended (signed out, disabled, expired) is nobody: the page asks to
            // sign in again.
            if let (person, session) = try await state.sessions.person(forToken: token, library: state.library) {
                context.caller = .user(person)
                context.session = session
                context.usesCookie = true
                context.csrfToken = ServerState.derive("csrf", from: token)
            }
        case .otherToken(let token) where token.starts(with: PersonKey.tokenPrefix.utf8):
            guard token.count <= 128, let (person, key) = try await state.sessions.person(forKeyToken: String(Substring(token)), library: state.library)
            else {
                throw APIError(.unauthorized, "invalidToken", "the key is not one this library issued (or it was revoked, or its person disabled)")
            }
            try KeyScopeRule.check(key.scope, method: request.method, path: request.uri.path)
            context.caller = .user(person)
            context.key = key
        case .otherToken(let token):
            // A client acts for the person it was registered for, while they may sign in.
            let found: (ClientManifest, Person)?
            do { found = try await state.library.clientAndPerson(forToken: String(decoding: token, as: UTF8.self)) } catch { throw APIError(error) }
            guard let (client, person) = found, person.state == .active
            else {
                throw APIError(.unauthorized, "invalidToken", "the bearer token is not one this library issued (or it was revoked, or its person disabled)")
            }
            context.caller = .client(client, person)
        case .nobody:
            break
        }
        if context.usesCookie, ![.get, .head, .options].contains(request.method) {
            try checkCSRF(request, context: context)
        }
        return try await next(request, context)
    }

    private func checkCSRF(_ request: Request, context: Context) throws {
        guard let token = request.headers[.csrfToken], let expected = context.csrfToken, Self.constantTimeEquals(token, expected) else {
            throw APIError.forbidden("csrf", "this request changes the library and lacks the web app's X-Shoebox-CSRF token")
        }
        if let origin = request.headers[.origin] {
            // Over HTTPS through a proxy, pages are https:// (and the browser says so).
            let schemes = state.configuration.servedOverHTTPS ? ["http://", "https://"] : ["http://"]
            guard let scheme = schemes.first(where: { origin.lowercased().hasPrefix($0) }),
                state.allowedHosts.withLock({ $0.contains(String(origin.dropFirst(scheme.count)).lowercased()) })
            else {
                throw APIError.forbidden("csrf", "requests from \(origin) may not change this library")
            }
        }
    }

    /// The token of a `Bearer` authorization (the scheme in any case; spaces and tabs around the
    /// token dropped), or `nil` for another scheme.
    static func bearerToken(_ authorization: String) -> Substring.UTF8View? {
        let bytes = authorization.utf8
        let scheme = "bearer ".utf8
        // ASCII letters compared without case (`| 0x20` lowers them); the space only as itself.
        guard bytes.count >= scheme.count, zip(bytes, scheme).allSatisfy({ $0 == $1 || ($1 != 0x20 && $0 | 0x20 == $1) }) else { return nil }
        return trimmingSpaces(bytes.dropFirst(scheme.count))
    }

    /// Whether a `Cookie` header's value holds a cookie `name` (`NAME=` as bytes) with `value`,
    /// the value compared in constant time.
    static func cookieHeader(_ header: String, holds name: [UInt8], value: [UInt8]) -> Bool {
        for cookie in header.utf8.split(separator: UInt8(ascii: ";")) {
            let trimmed = trimmingSpaces(cookie)
            if trimmed.starts(with: name), constantTimeEquals(trimmed.dropFirst(name.count), value) { return true }
        }
        return false
    }

    /// The value of the cookie `name` (its `NAME=` as given) in `Cookie` headers, spaces and tabs
    /// around it dropped; `nil` when no header holds it.
    static func cookieValue(_ prefix: String, in headers: some Sequence<String>) -> String? {
        let name = prefix.utf8
        for header in headers {
            for cookie in header.utf8.split(separator: UInt8(ascii: ";")) {
                let trimmed = trimmingSpaces(cookie)
                if trimmed.starts(with: name) { return String(Substring(trimmed.dropFirst(name.count))) }
            }
        }
        return nil
    }

    private static func trimmingSpaces(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        var bytes = bytes
        while bytes.first == UInt8(ascii: " ") || bytes.first == UInt8(ascii: "\t") { bytes.removeFirst() }
        while bytes.last == UInt8(ascii: " ") || bytes.last == UInt8(ascii: "\t") { bytes.removeLast() }
        return bytes
    }

    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        constantTimeEquals(a.utf8, b.utf8)
    }

    /// Equal bytes, compared in a time that depends only on the lengths.
    static func constantTimeEquals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(a, b) { difference |= left ^ right }
        return difference == 0
    }
}
