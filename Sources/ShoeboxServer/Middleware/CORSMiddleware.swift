import Foundation
import Hummingbird

/// Cross-origin calls from the configured origins only (none by default): bearer-token API use
/// from a web page elsewhere. Cookies never travel cross-origin (they are same-site).
struct AllowedOriginsMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let origins: Set<String>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], origins.contains(origin) else {
            return try await next(request, context)
        }
        var response: Response
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            response = Response(status: .noContent)
            response.headers[.accessControlAllowMethods] = "GET, POST, PUT, PATCH, DELETE"
            response.headers[.accessControlAllowHeaders] = "Authorization, Content-Type, X-Content-SHA256, Range"
            response.headers[.accessControlMaxAge] = "600"
        } else {
            response = try await next(request, context)
        }
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.vary] = "Origin"
        response.headers[.accessControlExposeHeaders] = "Content-Range, Content-Length, ETag"
        return response
    }
}
