import Foundation
import HTTPTypes
import Hummingbird

/// Adds the Content-Security-Policy and its companions to every response; errors thrown by the
/// routes become JSON here too, so they carry the same headers.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    /// The policy this server sends (``contentSecurityPolicy(mediaOrigin:)``).
    let policy: String

    init(mediaOrigin: String? = nil) {
        policy = Self.contentSecurityPolicy(mediaOrigin: mediaOrigin)
    }

    /// Scripts, styles and everything else from this server only; images and media also from
    /// `blob:` (camera previews, local files before upload) and `data:`, and from `mediaOrigin`
    /// when the server redirects to presigned URLs in object storage.
    static func contentSecurityPolicy(mediaOrigin: String?) -> String {
        let extra = mediaOrigin.map { " " + $0 } ?? ""
        return [
            "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob: data:\(extra)",
            "media-src 'self' blob:\(extra)", "connect-src 'self'", "object-src 'none'", "frame-ancestors 'none'",
            "base-uri 'none'", "form-action 'self'",
        ].joined(separator: "; ")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = try APIError(error).response(from: request, context: context)
        }
        Self.apply(to: &response.headers, policy: policy)
        return response
    }

    /// Sets the policy and its companions on `headers` (``ThumbnailFastPath`` uses it too).
    static func apply(to headers: inout HTTPFields, policy: String) {
        headers[.contentSecurityPolicy] = policy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        headers[.xFrameOptions] = "DENY"
        headers[.crossOriginOpenerPolicy] = "same-origin"
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
    static let csrfToken = Self("X-Shoebox-CSRF")!
    static let contentSHA256 = Self("X-Content-SHA256")!
}
