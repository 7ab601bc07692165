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
/// absolute-form target is judged by the host it names); ``Installer``, one of Hummingbird's
/// additional channel handlers, puts it there.
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
    /// `Date: …\r\n\r\n` for the second in `dateSecond` (this connection's; no lock).
    private var dateLine = ByteBuffer()
    private var dateSecond = -1

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
                if entry.location != nil {
                    wire.write(
                        NIOAny(
                            Self.responseHead(
                                for: entry, notModified: false, fixedHeaders: server.state.fastPathHeaders,
                                allocator: context.channel.allocator)), promise: nil)
                } else {
                    wire.write(NIOAny(notModified ? answer.notModifiedHead : answer.okHead), promise: nil)
                    wire.write(NIOAny(currentDateLine()), promise: nil)
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

    /// The `Date` line and the blank line that ends the head, made anew when the second changes.
    private func currentDateLine() -> ByteBuffer {
        let second = Int(Date().timeIntervalSince1970)
        if second != dateSecond {
            dateSecond = second
            dateLine.clear()
            dateLine.writeString("Date: \(HTTPDate.now())\r\n\r\n")
        }
        return dateLine
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

    /// The status line and headers of the `302` of a redirect entry (or a `200` or `304`), as
    /// they go on the wire.
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

    /// Installs a ``ThumbnailFastPath`` right before the pipeline's conversion to HTTP types when
    /// it is added, then takes itself out of the pipeline.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart

        private let server: PhotoLibraryServer

        init(server: PhotoLibraryServer) {
            self.server = server
        }

        func handlerAdded(context: ChannelHandlerContext) {
            let pipeline = context.pipeline.syncOperations
            guard let codec = try? pipeline.context(handlerType: HTTP1ToHTTPServerCodec.self) else { return }
            try? pipeline.addHandler(ThumbnailFastPath(server: server), position: .before(codec.handler))
            // Its work is done: out of the way of every request that follows.
            pipeline.removeHandler(context: context, promise: nil)
        }
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
