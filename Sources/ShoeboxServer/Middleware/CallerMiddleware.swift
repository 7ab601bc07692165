import Foundation
import Hummingbird

/// Finds out who is asking: the user (the key's cookie, or the key as a bearer token), a client
/// (its bearer token), or nobody yet. State-changing requests authenticated by the cookie must
/// carry the page's CSRF token and, when the browser sends one, this server's `Origin`.
struct CallerMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    static let cookieName = "shoebox_key"
    let server: ShoeboxServer
    var state: ServerState { server.state }
    var userKey: String { server.userKey }

    /// Cookies are per host, not per port: the port keeps two servers' keys apart.
    static func cookieName(port: Int?) -> String { "\(cookieName)_\(port ?? 0)" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer ") {
            let token = String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
            if Self.constantTimeEquals(token, userKey) {
                context.caller = .user
            } else if let client = try state.authorization.client(forToken: token) {
                context.caller = .client(client)
            } else {
                throw APIError(.unauthorized, "invalidToken", "the bearer token is not one this library issued (or it was revoked)")
            }
        } else if let cookie = request.cookies[Self.cookieName(port: server.port)]?.value, Self.constantTimeEquals(cookie, userKey) {
            context.caller = .user
            context.usesCookie = true
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
