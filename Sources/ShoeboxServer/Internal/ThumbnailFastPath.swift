import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Synchronization

/// Answers the user's requests for thumbnails already in ``ThumbnailMemoryCache`` straight from
/// the connection's channel pipeline, before the request is turned into HTTP types and before
/// Hummingbird makes a task, runs the middleware and routes; it writes the response's bytes itself,
/// past the HTTP encoders: the heads made when the thumbnail was kept, a `Date` line made once a
/// second, and the bytes. A grid asks for hundreds of these per screen (`shoebox-bench web`
/// measures the gain; BENCHMARKS.md).
///
/// It applies the same rules as the chain, or steps aside: only `GET` over HTTP/1.1 on a
/// connection kept alive, only one `Host` and one this server answers to, only the user (the key
/// as a bearer token, or the key's cookie), only a request target the thumbnail route has already
/// answered with a versioned thumbnail (the cache's key; no path is parsed here), and only when no
/// earlier request on the connection is still being answered (responses keep their order).
/// Everything else — clients, misses, `HEAD`, `Connection: close`, HTTP/1.0, a pipeline without
/// NIO's HTTP/1 encoder — goes on untouched. Its responses carry the chain's security headers.
///
/// It sits right before the conversion to HTTP types (after ``AbsoluteFormTarget``, so an
/// absolute-form target is judged by the host it names); a ``PipelinePlacement`` among
/// Hummingbird's additional channel handlers puts it there.
final class ThumbnailFastPath: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: PhotoLibraryServer
    /// Requests passed on whose responses have not ended.
    private var passedOn = 0
    /// The parts of the current request go on (else: answered here, dropped).
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
            if passedOn == 0, let wire, let (answer, notModified) = cachedAnswer(for: request) {
                passingOn = false
                server.state.fastPathAnswers.add(1, ordering: .relaxed)
                let entry = answer.entry
                if let location = entry.location {
                    let head = Self.redirectHead(
                        to: location, maxAge: entry.redirectMaxAge, fixedHeaders: server.state.fastPathHeaders,
                        allocator: context.channel.allocator)
                    wire.write(NIOAny(head), promise: nil)
                    wire.write(NIOAny(HTTPDate.headEnd()), promise: nil)
                } else {
                    wire.write(NIOAny(notModified ? answer.notModifiedHead : answer.okHead), promise: nil)
                    wire.write(NIOAny(HTTPDate.headEnd()), promise: nil)
                    if !notModified { wire.write(NIOAny(entry.bytes), promise: nil) }
                }
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
    func cachedAnswer(for request: HTTPRequestHead) -> (ThumbnailMemoryCache.Answer, notModified: Bool)? {
        guard request.method == .GET, request.version == .http1_1, request.uri.hasPrefix("/api/assets/") else { return nil }
        // One pass over the fields (each named lookup would be a pass of its own).
        var authorization: String?
        var ifNoneMatch: String?
        var host: String?
        var hosts = 0
        for (name, value) in request.headers {
            if Self.name(name, is: "host") {
                host = value
                hosts += 1
            } else if Self.name(name, is: "authorization") {
                authorization = value
            } else if Self.name(name, is: "if-none-match") {
                ifNoneMatch = value
            } else if Self.name(name, is: "connection"), value.lowercased().contains("close") {
                return nil
            }
        }
        // A second Host: the middleware refuses it.
        guard hosts == 1, let host else { return nil }
        let state = server.state
        // The middleware's own rule: only what it would take for the user is answered here. The
        // cookies are read lazily from the fields: nothing is collected per request.
        let cookies = request.headers.lazy.filter { Self.name($0.name, is: "cookie") }.map(\.value)
        guard case .user = state.credentials.verdict(authorization: authorization, cookies: cookies) else { return nil }
        guard state.allowedHosts.withLock({ $0.contains(host.lowercased()) }), let answer = state.thumbnails.answer(request.uri) else {
            return nil
        }
        return (answer, answer.entry.location == nil && ifNoneMatch == answer.entry.entityTag)
    }

    /// Whether a field's `name` is `lowercase` in any case (ASCII), without making a string.
    static func name(_ name: String, is lowercase: StaticString) -> Bool {
        guard name.utf8.count == lowercase.utf8CodeUnitCount else { return false }
        var expected = lowercase.utf8Start
        for byte in name.utf8 {
            let folded = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            guard folded == expected.pointee else { return false }
            expected += 1
        }
        return true
    }

    /// The status line and headers of a redirect entry's `302` but `Date`, as they go on the wire.
    static func redirectHead(to location: String, maxAge: Int, fixedHeaders: String, allocator: ByteBufferAllocator) -> ByteBuffer {
        var head = allocator.buffer(capacity: 1_024)
        head.writeString("HTTP/1.1 302 Found\r\n")
        head.writeString(fixedHeaders.replacingOccurrences(of: "max-age=31536000, immutable", with: "max-age=\(maxAge)"))
        head.writeString("Location: \(location)\r\nContent-Length: 0\r\n")
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

/// The `Date` line that ends a response head (RFC 9110 IMF-fixdate, then the blank line), made
/// once a second.
enum HTTPDate {
    private static let cache = Mutex<(second: Int, line: ByteBuffer)>((-1, ByteBuffer()))
    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()

    /// `Date: …\r\n\r\n` for now.
    static func headEnd() -> ByteBuffer {
        let now = Date()
        let second = Int(now.timeIntervalSince1970)
        return cache.withLock { cache in
            if cache.second != second {
                // The formatter is used only here, under the lock.
                cache = (second, ByteBuffer(string: "Date: \(formatter.string(from: now))\r\n\r\n"))
            }
            return cache.line
        }
    }
}
