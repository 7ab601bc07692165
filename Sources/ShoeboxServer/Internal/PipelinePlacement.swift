import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Puts a handler that works on HTTP/1 parts where it belongs in a connection's pipeline, then
/// takes itself out. Hummingbird's additional channel handlers go after the conversion to HTTP
/// types; ``AbsoluteFormTarget`` and ``ThumbnailFastPath`` must see the request before it, so
/// each is handed to Hummingbird wrapped in one of these, which moves it when it is added.
final class PipelinePlacement: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// Where the handler goes.
    enum Anchor {
        /// Right after NIO's HTTP/1 request decoder.
        case afterRequestDecoder
        /// Right before the conversion from HTTP/1 parts to HTTP types.
        case beforeTypesConversion
    }

    private let handler: any RemovableChannelHandler
    private let anchor: Anchor

    init(_ handler: any RemovableChannelHandler, _ anchor: Anchor) {
        self.handler = handler
        self.anchor = anchor
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        switch anchor {
        case .afterRequestDecoder:
            if let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self) {
                try? pipeline.addHandler(handler, position: .after(decoder.handler))
            }
        case .beforeTypesConversion:
            if let codec = try? pipeline.context(handlerType: HTTP1ToHTTPServerCodec.self) {
                try? pipeline.addHandler(handler, position: .before(codec.handler))
            }
        }
        // Its work is done: out of the way of every request that follows.
        pipeline.removeHandler(context: context, promise: nil)
    }
}
