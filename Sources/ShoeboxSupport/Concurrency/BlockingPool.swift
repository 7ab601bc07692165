import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The one home of blocking work: file reads, writes and copies, libvips decodes and encodes,
/// child processes, device discovery, opening a SQLite catalog. Nothing else in Shoebox runs work
/// that waits on the disk, a process or the kernel from async code. (SQLite's statements run on
/// GRDB's own queues, its writer's and its readers', which are GRDB's home for the same purpose.)
///
/// Under `shoebox serve` SwiftNIO's event loops are Swift Concurrency's executor, so async code
/// runs on the threads that answer requests: a file copy or a libvips read there holds every
/// request that event loop carries for as long. Work goes to a pool of threads of its own
/// instead, and the caller's task waits without holding a thread.
///
/// The pool has twice as many threads as the machine has cores, at least 4: much of this work
/// waits on the disk rather than using a core, and a 4 GiB copy must not queue a thumbnail read
/// behind it. How much memory decodes may hold at once is bounded apart from the threads
/// (`DecodeMemoryBudget` in ShoeboxLibrary). The threads start on first use and live as long as
/// the process.
package struct BlockingPool: Sendable {
    /// The process's pool.
    package static let shared = BlockingPool(threads: max(4, 2 * System.coreCount))

    private let pool: NIOThreadPool

    private init(threads: Int) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    /// Runs `body` on one of the pool's threads and returns its result.
    package func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            // The pools are never shut down, so every item runs (its state is always `.active`).
            pool.submit { _ in continuation.resume(returning: body()) }
        }
    }

    /// Runs `body` on one of the pool's threads and returns its result or throws its error
    /// (carried back as a `Result`, through the non-throwing form).
    package func run<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result: Result<T, Failure> = await run { () -> Result<T, Failure> in Result { () throws(Failure) -> T in try body() } }
        return try result.get()
    }

    /// Like ``run(_:)-(()->T)``, for work that may take the cores for seconds (renders of large
    /// photos): the pool thread runs it at a lower scheduling priority (nice 10), so that when
    /// the cores are full the event loops — warm thumbnails, `/api/health`, every other request
    /// — still get them at once. The thread's priority is restored afterwards where the process
    /// may raise it again (as root); elsewhere the pool thread stays polite.
    package func runInBackground<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        try await run { () throws(Failure) -> T in
            let thread = Self.currentThreadID()
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
