import Foundation
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// Blocking work — libvips decoding and encoding, file copies, SQLite's open — off the
/// cooperative pool and the event loops, on NIO's shared thread pool (one thread per core).
package enum Blocking {
    package static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }

    /// Like ``run(_:)``, for work that may take the cores for seconds (renders of large photos):
    /// the pool thread runs it at a lower scheduling priority (nice 10), so that when the cores
    /// are full the event loops — warm thumbnails, `/api/health`, every other request — still
    /// get them at once. The thread's priority is restored afterwards where the process may
    /// raise it again (as root); elsewhere the pool thread stays polite.
    package static func runInBackground<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive {
            let thread = currentThreadID()
            if let thread { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(thread), 10) }
            defer { if let thread { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(thread), 0) } }
            return try body()
        }
    }

    /// The kernel's id of the calling thread (`/proc/thread-self` is `PID/task/TID`).
    private static func currentThreadID() -> Int32? {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { Int32($0) }
    }
}
