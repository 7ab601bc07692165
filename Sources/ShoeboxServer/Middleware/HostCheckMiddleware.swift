import Foundation
import Hummingbird
import Synchronization

/// Refuses requests whose `Host` is not this server (a DNS-rebinding page would send its own
/// domain there), and requests with more than one `Host`. (An absolute-form target reaches
/// here as its path alone: the HTTP/1 codec drops its authority, so it is answered as its
/// `Host` says.)
struct HostCheckMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let state: ServerState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // HTTP/1's first Host becomes the authority; any other stays among the fields.
        guard !request.headers.contains(where: { $0.name.canonicalName == "host" }) else {
            throw APIError(.badRequest, "badHost", "the request has more than one Host header")
        }
        let host = (request.head.authority ?? "").lowercased()
        guard state.allowedHosts.withLock({ $0.contains(host) }) else {
            throw APIError(.misdirectedRequest, "badHost", "this server does not answer to Host \"\(host)\"")
        }
        return try await next(request, context)
    }
}
