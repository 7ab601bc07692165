import Hummingbird
import ShoeboxSupport

/// Marks the work of each request, its handler's and its response body's, as done for that
/// request, so that ``BlockingCheck`` keeps any blocking primitive it reaches on an event loop.
/// Installed only while the check is on (`SHOEBOX_CHECK_BLOCKING=1`, scripts/test's first pass).
struct BlockingCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let label = "\(request.method) \(request.uri.path)"
        var response = try await BlockingCheck.$request.withValue(label) { try await next(request, context) }
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            try await BlockingCheck.$request.withValue(label) { try await body.write(writer) }
        }
        return response
    }
}
