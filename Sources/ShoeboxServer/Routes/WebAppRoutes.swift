import Foundation
import HTTPTypes
import Hummingbird
import ShoeboxLibrary
import Synchronization

/// The pages: the library app at `/` (with `#/privacy`), the picker at `/pick/ID`, and their
/// static files under `/app/`. Without a session a page is the sign-in form, which posts to
/// `/signin` (a person's name and password); opening a page with `?key=KEY` signs the browser in
/// as the first admin (a cookie) and redirects to the same page without the key.
struct WebAppRoutes {
    let server: PhotoLibraryServer
    var state: ServerState { server.state }
    var cookieName: String { CallerMiddleware.cookieName(key: server.userKey) }

    func register(on router: Router<ServerRequestContext>) {
        router.get("/") { request, context in try page("index.html", request: request, context: context) }
        router.get("/pick/:session") { request, context in
            let id = try context.parameters.requireDecoded("session")
            guard try await state.pickers.entry(id) != nil else { throw APIError.notFound("no picker session \(id) (it may have finished an hour ago)") }
            return try page("picker.html", request: request, context: context)
        }
        router.get("/app/**") { request, context in
            try Self.asset("/" + context.parameters.getCatchAll().joined(separator: "/"), request: request)
        }
        // The installable app: its manifest and its service worker, which must be at the root
        // to keep the page at `/` (a worker controls only the paths below its own).
        router.get("/manifest.webmanifest") { request, _ in try Self.asset("/manifest.webmanifest", request: request) }
        router.get("/sw.js") { request, _ in try Self.asset("/sw.js", request: request) }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.post("/signin") { request, context in try await signIn(request, context: context) }
    }

    /// A file of the web app by its path in ``WebAssets``, with its entity tag (`304` when the
    /// browser has it).
    private static func asset(_ path: String, request: Request) throws -> Response {
        guard let file = WebAssets.shared.files[path] else { throw APIError.notFound("no file \(path)") }
        if request.headers[.ifNoneMatch] == file.entityTag { return Response(status: .notModified, headers: [.eTag: file.entityTag]) }
        return Response(
            status: .ok, headers: [.contentType: file.contentType, .eTag: file.entityTag, .cacheControl: "no-cache"],
            body: .init(byteBuffer: file.bytes))
    }

    /// A page for the user: signs in with `?key=`, else needs the cookie.
    private func page(_ name: String, request: Request, context: ServerRequestContext) throws -> Response {
        if let key = request.uri.queryParameters.get("key") {
            guard CallerMiddleware.constantTimeEquals(key, server.userKey) else {
                return signInPage(status: .unauthorized, message: "That key is not this server's. Use the URL shoebox serve printed.", next: request.uri.path)
            }
            var response = Response(status: .seeOther, headers: [.location: request.uri.path, .cacheControl: "no-store"])
            response.headers[values: .setCookie] = ["\(cookieName)=\(server.userKey); Path=/; HttpOnly; SameSite=Strict\(state.cookieSecurity)"]
            return response
        }
        guard context.caller.isUser else {
            return signInPage(status: .unauthorized, message: nil, next: request.uri.path)
        }
        guard let template = WebAssets.shared.files["/\(name)"]?.text else { throw APIError.notFound("the web app is missing \(name)") }
        let html = template.replacingOccurrences(of: "{{csrf}}", with: context.csrfToken ?? state.csrfToken)
            .replacingOccurrences(of: "{{library}}", with: Self.escapeHTML(state.library.url.deletingPathExtension().lastPathComponent))
        var response = Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
        // What the service worker keeps as the app's shell: the app, never a sign-in page.
        response.headers[HTTPField.Name("X-Shoebox-Page")!] = name == "index.html" ? "app" : "page"
        return response
    }

    /// The sign-in form: a person's name and password (with `message` above it: why the last
    /// try failed), posting to `/signin`, which returns to `next`.
    func signInPage(status: HTTPResponse.Status, message: String?, next: String, name: String = "") -> Response {
        // The API's messages as a sentence: a capital first, a full stop last.
        let sentence = message.map { $0.prefix(1).uppercased() + $0.dropFirst() + ($0.hasSuffix(".") ? "" : ".") }
        let note = sentence.map { "<p class=\"sign-in-error\" role=\"alert\">\(Self.escapeHTML($0))</p>" } ?? ""
        // The form carries a value only this browser's cookie matches: a form posted from another
        // site cannot sign this browser in as someone else (login CSRF).
        let nonce = RandomToken.base64URL(bytes: 18)
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Sign in — Shoebox</title><link rel="stylesheet" href="/app/app.css"></head><body class="sign-in"><main>
            <h1>Shoebox</h1><p class="hint">\(Self.escapeHTML(state.library.url.deletingPathExtension().lastPathComponent))</p>\(note)
            <form class="sign-in-form" method="post" action="/signin">
            <input type="hidden" name="next" value="\(Self.escapeHTML(next))">
            <input type="hidden" name="form" value="\(signInFormValue(nonce))">
            <label>Name <input name="name" autocomplete="username" autocapitalize="none" spellcheck="false" required maxlength="64" value="\(Self.escapeHTML(name))"></label>
            <label>Password <input name="password" type="password" autocomplete="current-password" required maxlength="1024"></label>
            <button type="submit" class="button primary">Sign In</button>
            </form>
            \(singleSignOn(next: next))<button type="button" class="button passkey-sign-in" hidden>Sign In with a Passkey</button>
            <p class="passkey-note hint" role="status" hidden></p>
            <p class="hint">The admin can also open the URL <code>shoebox serve</code> printed.</p>
            </main><script type="module" src="/app/js/signin.js"></script></body></html>
            """
        var response = Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
        response.headers[values: .setCookie] = ["\(signInCookieName)=\(nonce); Path=/signin; HttpOnly; SameSite=Strict; Max-Age=3600\(state.cookieSecurity)"]
        return response
    }

    /// The provider's button (a link to `/signin/oidc`), when the server has one.
    private func singleSignOn(next: String) -> String {
        guard let provider = state.openID else { return "" }
        let target = "/signin/oidc?next=" + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "/")
        return "<a class=\"button oidc-sign-in\" href=\"\(Self.escapeHTML(target))\">Sign In with \(Self.escapeHTML(provider.configuration.displayName))</a>"
    }

    private var signInCookieName: String { "shoebox_signin_\(ServerState.derive("signin-cookie", from: server.userKey).prefix(16))" }

    /// What the form carries for the cookie `nonce`.
    private func signInFormValue(_ nonce: String) -> String { ServerState.derive("signin|" + nonce, from: server.userKey) }

    /// `POST /signin` from the form: a session cookie and back to the page, or the form again
    /// with why (a wrong name or password, too many tries).
    private func signIn(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 16 << 10)
        var fields: [String: String] = [:]
        var components = URLComponents()
        components.percentEncodedQuery = String(buffer: body).replacingOccurrences(of: "+", with: "%20")
        for item in components.queryItems ?? [] { fields[item.name] = item.value ?? "" }
        // A form posted from another site would sign this browser in as someone else: the form's
        // value must match this browser's cookie from the page that showed the form.
        let nonce = CallerMiddleware.cookieValue(signInCookieName + "=", in: request.headers[values: .cookie])
        guard let nonce, let value = fields["form"], CallerMiddleware.constantTimeEquals(value, signInFormValue(nonce)) else {
            return signInPage(status: .forbidden, message: "That sign-in form has expired: sign in again here.", next: "/")
        }
        var next = fields["next"] ?? "/"
        // Only a page of this server: never an address elsewhere.
        if !next.hasPrefix("/") || next.hasPrefix("//") || next.contains("\\") { next = "/" }
        let name = fields["name"] ?? ""
        do {
            let (_, token) = try await PeopleRoutes(server: server).signIn(
                name: name, password: fields["password"] ?? "", request: request, context: context)
            var response = Response(status: .seeOther, headers: [.location: next, .cacheControl: "no-store"])
            response.headers[values: .setCookie] = [PeopleRoutes(server: server).sessionCookie(token)]
            return response
        } catch let error as APIError {
            var page = signInPage(status: error.status, message: error.message, next: next, name: name)
            if let wait = error.headers[.retryAfter] { page.headers[.retryAfter] = wait }
            return page
        }
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
