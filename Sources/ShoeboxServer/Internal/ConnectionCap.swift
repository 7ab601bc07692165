import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Holds the server's open connections to a number, without ever turning the user away: when a
/// connection arrives over the cap, the connections that have waited longest without a request
/// being answered — idle keep-alives, and headers trickled byte by byte (slowloris), which never
/// become a request — are closed to make room. A connection with a response under way (an event
/// stream, a download, a picker poll) is never cut for it; when every connection is busy the new
/// one is kept over the cap, and the raised descriptor limit (``ProcessLimits``) is the bound.
///
/// One per server; each connection's pipeline has a ``Handler`` reporting to it.
final class ConnectionCap: Sendable {
    /// Connections kept before the longest-idle are closed.
    let limit: Int
    private let connections = Mutex<[ObjectIdentifier: Connection]>([:])
    /// Connections closed to make room, since the server started.
    let evictions = Atomic<Int>(0)

    private struct Connection {
        let channel: any Channel
        /// Requests passed on whose responses have not ended.
        var busy = 0
        /// When the connection opened or last began or finished a request.
        var lastActivity: NIODeadline
    }

    init(limit: Int) {
        precondition(limit > 0, "a connection cap must allow at least one connection")
        self.limit = limit
    }

    /// The connections open now.
    var count: Int { connections.withLock { $0.count } }

    /// A new connection: over the cap, the longest-idle others are closed.
    func opened(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let victims = connections.withLock { connections -> [any Channel] in
            connections[id] = Connection(channel: channel, lastActivity: .now())
            let excess = connections.count - limit
            guard excess > 0 else { return [] }
            let idle = connections.filter { $0.key != id && $0.value.busy == 0 }
                .sorted { $0.value.lastActivity < $1.value.lastActivity }
                .prefix(excess)
            for (key, _) in idle { connections[key] = nil }
            return idle.map(\.value.channel)
        }
        evictions.add(victims.count, ordering: .relaxed)
        for channel in victims { channel.close(promise: nil) }
    }

    func closed(_ channel: any Channel) {
        _ = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    fileprivate func update(_ channel: any Channel, busy change: Int) {
        connections.withLock { connections in
            guard var connection = connections[ObjectIdentifier(channel)] else { return }
            connection.busy = max(0, connection.busy + change)
            connection.lastActivity = .now()
            connections[ObjectIdentifier(channel)] = connection
        }
    }

    /// Reports a connection's opening, requests and closing to its ``ConnectionCap``. It sits
    /// after ``ThumbnailFastPath``, so it sees the requests Hummingbird answers (the fast path's
    /// answers are written at once and never leave a connection busy).
    final class Handler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart

        private let cap: ConnectionCap

        init(cap: ConnectionCap) {
            self.cap = cap
        }

        func handlerAdded(context: ChannelHandlerContext) {
            cap.opened(context.channel)
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            cap.closed(context.channel)
        }

        func channelInactive(context: ChannelHandlerContext) {
            cap.closed(context.channel)
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head = unwrapInboundIn(data) { cap.update(context.channel, busy: 1) }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data) { cap.update(context.channel, busy: -1) }
            context.write(data, promise: promise)
        }
    }
}
