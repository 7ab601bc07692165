import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Makes a request in absolute form (`GET http://host:port/path HTTP/1.1`) name the host its
/// target names, as RFC 9112 §3.2.2 requires: the target's authority replaces the `Host` header,
/// and the target becomes the path. The HTTP/1 conversion to HTTP types otherwise drops the
/// target's authority and keeps `Host`, so `GET http://evil.example/… ` with a right `Host` would
/// be answered as ours; now the host check sees `evil.example` and refuses it (`421`), while an
/// absolute-form target naming this server is answered as its origin form.
///
/// It sits right after NIO's HTTP/1 request decoder, before the conversion; a
/// ``PipelinePlacement`` among Hummingbird's additional channel handlers puts it there.
final class AbsoluteFormTarget: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), let (target, authority) = Self.originForm(of: head.uri) else {
            context.fireChannelRead(data)
            return
        }
        head.uri = target
        head.headers.replaceOrAdd(name: "Host", value: authority)
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// The origin-form target and the authority of an `http` or `https` absolute-form target
    /// (`nil` for an origin-form target, `*`, or another scheme).
    static func originForm(of uri: String) -> (target: String, authority: String)? {
        guard !uri.hasPrefix("/"), let schemeEnd = uri.range(of: "://") else { return nil }
        let scheme = uri[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = uri[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        // user:password@ is no part of the host.
        let authority = rest[..<authorityEnd].split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        var target = String(rest[authorityEnd...])
        if !target.hasPrefix("/") { target = "/" + target }
        return (target, authority)
    }
}
