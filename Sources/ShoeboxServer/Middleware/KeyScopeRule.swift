import HTTPTypes
import ShoeboxLibrary

/// What a person's key (``PersonKey``) may ask, by its scope, decided once for every route
/// before the route runs. Keys are for the API (`/api/…`), not for pages. No key reaches sign-in itself (keys, sessions, passwords): a stolen
/// key cannot make another or lock its person out. A `read` key sends `GET` and `HEAD` (and
/// `POST /api/fetches`, which makes a snapshot of a listing and changes nothing, and `POST
/// /api/assets/known`); an `upload` key only adds (`POST /api/assets`, the resumable uploads),
/// may ask which files the library holds already (`POST /api/assets/known`, which an upload of
/// those bytes would tell anyway) and who it is (`GET /api/me`); a `write` key does everything else its person may.
enum KeyScopeRule {
    static func check(_ scope: PersonKey.Scope, method: HTTPRequest.Method, path: String) throws(APIError) {
        // As the router reads it: empty components (`//`) count for nothing.
        let parts = path.split(separator: "/").map(String.init)
        // Pages (the web app, the picker) are for browsers, which sign in with a session.
        guard parts.first == "api" else {
            throw APIError.forbidden("keyNotAllowed", "a key is for the API (/api/…); pages are for a browser that signs in")
        }
        if isSignIn(parts) {
            throw APIError.forbidden("keyNotAllowed", "a key cannot manage sign-in (keys, passkeys, sessions, passwords): sign in at a browser for that")
        }
        switch scope {
        case .write:
            return
        case .read:
            if method == .get || method == .head || (method == .post && (parts == ["api", "fetches"] || parts == ["api", "assets", "known"])) { return }
            throw APIError.forbidden("insufficientScope", "this key may only read (its scope is read)")
        case .upload:
            let adds =
                (method == .post && (parts == ["api", "assets"] || parts == ["api", "uploads"] || parts == ["api", "assets", "known"]))
                || ([.get, .head, .put, .delete].contains(method) && parts.count == 3 && parts.starts(with: ["api", "uploads"]))
                || (method == .get && parts == ["api", "me"])
            if adds { return }
            throw APIError.forbidden("insufficientScope", "this key may only add photos and movies (its scope is upload)")
        }
    }

    /// `/api/keys…`, `/api/session…`, `/api/sessions…`, `/api/passkeys…`, `/api/me/password`,
    /// `/api/me/oidc` (the account a person signs in with), `/api/people/NAME/password`.
    private static func isSignIn(_ parts: [String]) -> Bool {
        guard parts.first == "api", parts.count >= 2 else { return false }
        switch parts[1] {
        case "keys", "session", "sessions", "passkeys": return true
        case "me": return parts.count >= 3 && ["password", "oidc"].contains(parts[2])
        case "people": return parts.count >= 4 && parts[3] == "password"
        default: return false
        }
    }
}
