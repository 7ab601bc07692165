import Foundation
import Hummingbird
import ShoeboxLibrary
import Synchronization

/// Finds out who is asking: the user (the key's cookie, or the key as a bearer token), a client
/// (its bearer token), or nobody yet. State-changing requests authenticated by the cookie must
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

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A shared link's pages (`/s/TOKEN…`) act for nobody: whoever opens them, their routes
        // see an anonymous caller and reach only what the link shows.
        if request.uri.path.hasPrefix("/s/") { return try await next(request, context) }
        var context = context
        switch state.credentials.verdict(authorization: request.headers[.authorization], cookies: request.headers[values: .cookie]) {
        case .user(let cookie):
            context.caller = .user
            context.usesCookie = cookie
        case .otherToken(let token):
            guard let client = try await state.authorization.client(forToken: String(decoding: token, as: UTF8.self)) else {
                throw APIError(.unauthorized, "invalidToken", "the bearer token is not one this library issued (or it was revoked)")
            }
            context.caller = .client(client)
        case .nobody:
            break
        }
        if context.usesCookie, ![.get, .head, .options].contains(request.method) {
            try checkCSRF(request)
        }
        return try await next(request, context)
    }

    private func checkCSRF(_ request: Request) throws {
        guard let token = request.headers[.csrfToken], Self.constantTimeEquals(token, state.csrfToken) else {
            throw APIError.forbidden("csrf", "this request changes the library and lacks the web app's X-Shoebox-CSRF token")
        }
        if let origin = request.headers[.origin] {
            let host = origin.replacingOccurrences(of: "http://", with: "").lowercased()
            guard origin.hasPrefix("http://"), state.allowedHosts.withLock({ $0.contains(host) }) else {
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
