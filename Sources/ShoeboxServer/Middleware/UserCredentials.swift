import Foundation

/// How a request proves who it is — the server's key as a bearer token or the key's cookie (the
/// admin), or a person's session cookie —
/// decided in one place for ``CallerMiddleware`` and ``ThumbnailFastPath``, so the fast path
/// cannot let in what the middleware would refuse.
struct UserCredentials: Sendable {
    /// What a request's credentials say.
    enum Verdict {
        /// The user: by the key as a bearer token, or (`cookie`) by the key's cookie.
        case user(cookie: Bool)
        /// A bearer token that is not the key: a client's, or wrong.
        case otherToken(Substring.UTF8View)
        /// A person's session cookie (not checked yet: the catalog says whose, if anyone's).
        case session(String)
        /// No credentials of the user's or anyone's.
        case nobody
    }

    private let key: [UInt8]
    /// `NAME=` of the key's cookie, as bytes.
    private let cookiePrefix: [UInt8]
    /// `NAME=` of the session cookie.
    private let sessionPrefix: String

    init(key: String) {
        self.key = Array(key.utf8)
        cookiePrefix = Array((CallerMiddleware.cookieName(key: key) + "=").utf8)
        sessionPrefix = CallerMiddleware.sessionCookieName(key: key) + "="
    }

    /// A bearer token decides alone (the key is the user; any other token is a client's, or
    /// wrong); with another scheme, or none, the key's cookie decides. Keys compare in constant
    /// time.
    func verdict(authorization: String?, cookies: some Sequence<String>) -> Verdict {
        if let authorization, let token = CallerMiddleware.bearerToken(authorization) {
            return CallerMiddleware.constantTimeEquals(token, key) ? .user(cookie: false) : .otherToken(token)
        }
        if cookies.contains(where: { CallerMiddleware.cookieHeader($0, holds: cookiePrefix, value: key) }) { return .user(cookie: true) }
        if let token = CallerMiddleware.cookieValue(sessionPrefix, in: cookies), !token.isEmpty, token.count <= 128 { return .session(token) }
        return .nobody
    }
}
