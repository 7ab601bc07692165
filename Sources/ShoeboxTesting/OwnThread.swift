import Foundation

/// Blocking work for tests (a lock held with `sleep`, a child process waited for) on a thread of
/// its own, never on Swift's cooperative pool, which has one thread per core (two here): blocking
/// one would slow every other test running beside it.
public enum OwnThread {
    /// Runs `body` on a new thread and returns its result, or rethrows its error, once it ends.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
