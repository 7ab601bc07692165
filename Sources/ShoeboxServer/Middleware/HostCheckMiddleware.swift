import Foundation
import Hummingbird

/// Refuses requests whose `Host` is not this server (a DNS-rebinding page would send its own
/// domain there).
struct HostCheckMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let state: ServerState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let host = (request.head.authority ?? "").lowercased()
        guard state.allowedHosts.withLock({ $0.contains(host) }) else {
            throw APIError(.misdirectedRequest, "badHost", "this server does not answer to Host \"\(host)\"")
        }
        return try await next(request, context)
    }
}
