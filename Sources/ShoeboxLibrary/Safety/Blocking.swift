import NIOPosix

/// Blocking work — libvips decoding and encoding, file copies, SQLite's open — off the
/// cooperative pool and the event loops, on NIO's shared thread pool (one thread per core).
enum Blocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }
}
