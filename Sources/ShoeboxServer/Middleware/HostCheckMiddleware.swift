import Foundation
import Hummingbird

/// Refuses requests whose `Host` is not this server (a DNS-rebinding page would send its own
/// domain there), requests with more than one `Host`, and absolute-form targets naming another
/// authority than their `Host` (a proxy-style request smuggling a foreign host past the check).
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
        if let target = request.head.path, !target.hasPrefix("/"), target != "*" {
            guard let components = URLComponents(string: target), let named = components.host,
                  "\(named)\(components.port.map { ":\($0)" } ?? "")".lowercased() == host else {
                throw APIError(.misdirectedRequest, "badHost", "the request target names another host than its Host header")
            }
        }
        return try await next(request, context)
    }
}
