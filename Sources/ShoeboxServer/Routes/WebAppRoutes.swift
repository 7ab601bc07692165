import Foundation
import HTTPTypes
import Hummingbird
import ShoeboxLibrary

/// The pages: the library app at `/` (with `#/privacy`), the picker at `/pick/ID`, and their
/// static files under `/app/`. Opening a page with `?key=KEY` signs the browser in (a cookie) and
/// redirects to the same page without the key.
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
            let path = "/" + context.parameters.getCatchAll().joined(separator: "/")
            guard let file = WebAssets.shared.files[path] else { throw APIError.notFound("no file \(path)") }
            if request.headers[.ifNoneMatch] == file.entityTag { return Response(status: .notModified, headers: [.eTag: file.entityTag]) }
            return Response(
                status: .ok, headers: [.contentType: file.contentType, .eTag: file.entityTag, .cacheControl: "no-cache"],
                body: .init(byteBuffer: file.bytes))
        }
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
    }

    /// A page for the user: signs in with `?key=`, else needs the cookie.
    private func page(_ name: String, request: Request, context: ServerRequestContext) throws -> Response {
        if let key = request.uri.queryParameters.get("key") {
            guard CallerMiddleware.constantTimeEquals(key, server.userKey) else {
                return signInPage(status: .unauthorized, message: "That key is not this server's. Use the URL shoebox serve printed.")
            }
            var response = Response(status: .seeOther, headers: [.location: request.uri.path, .cacheControl: "no-store"])
            response.headers[values: .setCookie] = ["\(cookieName)=\(server.userKey); Path=/; HttpOnly; SameSite=Strict"]
            return response
        }
        guard context.caller.isUser else {
            return signInPage(status: .unauthorized, message: "Open the URL shoebox serve printed (it carries this library's key) to sign in.")
        }
        guard let template = WebAssets.shared.files["/\(name)"]?.text else { throw APIError.notFound("the web app is missing \(name)") }
        let html = template.replacingOccurrences(of: "{{csrf}}", with: state.csrfToken)
            .replacingOccurrences(of: "{{library}}", with: Self.escapeHTML(state.library.url.deletingPathExtension().lastPathComponent))
        return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private func signInPage(status: HTTPResponse.Status, message: String) -> Response {
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shoebox</title>
            <link rel="stylesheet" href="/app/app.css"></head><body class="sign-in"><main><h1>Shoebox</h1><p>\(Self.escapeHTML(message))</p></main></body></html>
            """
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
