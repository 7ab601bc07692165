import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `text/event-stream` responses: named events with JSON data, and a comment every 15 seconds so
/// proxies and browsers keep the connection open. The stream ends when the client goes away or
/// the server stops.
enum ServerSentEvents {
    /// Writes events to one response.
    final class Stream: Sendable {
        private let writes: AsyncStream<ByteBuffer>.Continuation

        init(_ writes: AsyncStream<ByteBuffer>.Continuation) {
            self.writes = writes
        }

        /// Sends `event` with `value` as JSON; with `id`, the browser keeps it and sends it back as
        /// `Last-Event-ID` when it connects again.
        func send(_ event: String, _ value: some Encodable, id: String? = nil) async throws {
            let data = try JSONResponse.encoder.encode(value)
            try write("event: \(event)\n\(id.map { "id: \($0)\n" } ?? "")data: \(String(decoding: data, as: UTF8.self))\n\n")
        }

        /// Moves the browser's `Last-Event-ID` on to `id` without an event (a message with an id
        /// and no data is not dispatched, but its id is kept).
        func advance(to id: String) async throws {
            try write("id: \(id)\n\n")
        }

        func heartbeat() async throws {
            while true {
                try await Task.sleep(for: .seconds(15))
                try write(": keep-alive\n\n")
            }
        }

        private func write(_ text: String) throws {
            if case .terminated = writes.yield(ByteBuffer(string: text)) { throw CancellationError() }
        }
    }

    /// A response whose body `produce` writes until it returns or throws (or the client leaves).
    static func response(_ produce: @escaping @Sendable (Stream) async throws -> Void) -> Response {
        let (buffers, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(1_024))
        let body = ResponseBody { writer in
            let producer = Task {
                try? await produce(Stream(continuation))
                continuation.finish()
            }
            continuation.onTermination = { _ in producer.cancel() }
            // An opening comment gets the headers out at once.
            try await writer.write(ByteBuffer(string: ": shoebox\n\n"))
            do {
                // A stopping server (SIGTERM, SIGINT) ends its streams, or it would wait for them.
                try await withGracefulShutdownHandler {
                    for await buffer in buffers { try await writer.write(buffer) }
                } onGracefulShutdown: {
                    continuation.finish()
                }
            } catch {
                producer.cancel()
                throw error
            }
            producer.cancel()
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }
}
