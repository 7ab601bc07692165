import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Synchronization

/// Answers the user's requests for thumbnails already in ``ThumbnailMemoryCache`` straight from
/// the connection's channel pipeline, before Hummingbird makes a task, runs the middleware and
/// routes, and writes the response's bytes itself, past the HTTP encoders. A grid asks for
/// hundreds of these per screen (`shoebox-bench web` measures the gain; BENCHMARKS.md).
///
/// It applies the same rules as the chain, or steps aside: only `GET`, only a `Host` this server
/// answers to, only the user (the key as a bearer token, or the key's cookie), only a request
/// target the thumbnail route has already answered with a versioned thumbnail (the cache's key;
/// no path is parsed here), and only when no earlier request on the connection is still being
/// answered (responses keep their order). Everything else — clients, misses, `HEAD`,
/// `Connection: close`, a pipeline without NIO's HTTP/1 encoder — goes on to Hummingbird
/// untouched. Its responses carry the chain's security headers.
final class ThumbnailFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let server: PhotoLibraryServer
    /// Requests passed on whose responses have not ended.
    private var passedOn = 0
    /// The parts of the current request go on to Hummingbird (else: answered here, dropped).
    private var passingOn = true
    /// The HTTP/1 response encoder's context: bytes written there go straight to the socket.
    private var wire: ChannelHandlerContext?

    init(server: PhotoLibraryServer) {
        self.server = server
    }

    func handlerAdded(context: ChannelHandlerContext) {
        wire = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        wire = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if passedOn == 0, let wire, let (entry, notModified) = cachedEntry(for: request) {
                passingOn = false
                server.state.fastPathAnswers.add(1, ordering: .relaxed)
                wire.write(
                    NIOAny(
                        Self.responseHead(
                            for: entry, notModified: notModified, fixedHeaders: server.state.fastPathHeaders,
                            allocator: context.channel.allocator)), promise: nil)
                if !notModified, entry.location == nil { wire.write(NIOAny(entry.bytes), promise: nil) }
                wire.flush()
                return
            }
            passingOn = true
            passedOn += 1
            context.fireChannelRead(data)
        case .body:
            if passingOn { context.fireChannelRead(data) }
        case .end:
            if passingOn { context.fireChannelRead(data) } else { passingOn = true }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn = max(0, passedOn - 1) }
        context.write(data, promise: promise)
    }

    /// The cached thumbnail `request` may have from this path, and whether the client holds it
    /// already (`If-None-Match`); `nil` passes the request on.
    func cachedEntry(for request: HTTPRequest) -> (ThumbnailMemoryCache.Entry, notModified: Bool)? {
        guard request.method == .get, let target = request.path, target.hasPrefix("/api/assets/") else { return nil }
        // One pass over the fields (each named lookup would be a pass of its own).
        var authorization: String?
        var ifNoneMatch: String?
        for field in request.headerFields {
            switch field.name {
            case .authorization: authorization = field.value
            case .ifNoneMatch: ifNoneMatch = field.value
            case .connection: if field.value.lowercased().contains("close") { return nil }
            default: if field.name.canonicalName == "host" { return nil }  // a second Host: the middleware refuses it
            }
        }
        let state = server.state
        // The middleware's own rule: only what it would take for the user is answered here. The
        // cookies are read lazily from the fields: nothing is collected per request.
        let cookies = request.headerFields.lazy.filter { $0.name == .cookie }.map(\.value)
        guard case .user = state.credentials.verdict(authorization: authorization, cookies: cookies) else { return nil }
        let host = (request.authority ?? "").lowercased()
        guard state.allowedHosts.withLock({ $0.contains(host) }), let entry = state.thumbnails.entry(target) else { return nil }
        return (entry, entry.location == nil && ifNoneMatch == entry.entityTag)
    }

    /// The status line and headers of a `200` (or `304`, or the `302` of a redirect entry) for
    /// `entry`, as they go on the wire.
    static func responseHead(
        for entry: ThumbnailMemoryCache.Entry, notModified: Bool, fixedHeaders: String,
        allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        var head = allocator.buffer(capacity: 1_024)
        if let location = entry.location {
            head.writeString("HTTP/1.1 302 Found\r\n")
            head.writeString(fixedHeaders.replacingOccurrences(of: "max-age=31536000, immutable", with: "max-age=\(entry.redirectMaxAge)"))
            head.writeString("Location: \(location)\r\nDate: \(HTTPDate.now())\r\nContent-Length: 0\r\n\r\n")
            return head
        }
        head.writeString(notModified ? "HTTP/1.1 304 Not Modified\r\n" : "HTTP/1.1 200 OK\r\n")
        head.writeString(fixedHeaders)
        head.writeString("ETag: \(entry.entityTag)\r\nDate: \(HTTPDate.now())\r\n")
        if !notModified {
            head.writeString("Content-Type: \(entry.contentType)\r\nContent-Length: \(entry.bytes.readableBytes)\r\n")
        }
        head.writeString("\r\n")
        return head
    }

    /// What every answer carries: immutable caching, the server's name and the chain's security
    /// headers, one `Name: value\r\n` line each.
    static func fixedHeaders(policy: String) -> String {
        var headers: HTTPFields = [.cacheControl: "private, max-age=31536000, immutable", .server: PhotoLibraryServer.serverName]
        SecurityHeadersMiddleware.apply(to: &headers, policy: policy)
        return headers.map { "\($0.name.rawName): \($0.value)\r\n" }.joined()
    }
}

/// The `Date` header's value (RFC 9110 IMF-fixdate), formatted once a second.
enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: String)>((-1, ""))
    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()

    static func now() -> String {
        let now = Date()
        let second = Int(now.timeIntervalSince1970)
        return cache.withLock { cache in
            if cache.second != second {
                // The formatter is used only here, under the lock.
                cache = (second, formatter.string(from: now))
            }
            return cache.text
        }
    }
}
