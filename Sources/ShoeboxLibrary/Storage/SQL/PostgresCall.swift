import Foundation
import PostgresNIO
import Synchronization

/// One call on a PostgreSQL connection that always ends: with its answer, with
/// ``CatalogUnavailable`` once the connection is closed under it (postgres-nio drops a statement
/// written to a connection that has just closed, and its caller would wait forever — what hung
/// uploads during a PostgreSQL restart), or once its deadline passes (a server that accepts but
/// does not answer). The call itself is abandoned then, not awaited: it is cancelled, and a
/// connection whose deadline passed is closed, so the server rolls back what it began.
enum PostgresCall {
    /// How often a waiting call looks whether its connection closed.
    static let closeCheck = Duration.milliseconds(200)

    static func run<T: Sendable>(
        on connection: PostgresConnection, location: String, deadline: Duration?,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        if connection.isClosed { throw CatalogUnavailable(location: location, reason: .connectionLost) }
        let outcome = Outcome<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                outcome.arm(continuation)
                outcome.start(
                    work: Task {
                        do {
                            outcome.finish(.success(try await work()))
                        } catch {
                            outcome.finish(.failure(error))
                        }
                    },
                    watch: Task {
                        let start = ContinuousClock.now
                        var closedSince: ContinuousClock.Instant?
                        while !Task.isCancelled {
                            guard (try? await Task.sleep(for: closeCheck)) != nil else { return }
                            if let deadline, ContinuousClock.now - start >= deadline {
                                if outcome.finish(.failure(CatalogUnavailable(location: location, reason: .deadline(deadline)))) {
                                    // The server may still be working on it: closing the connection ends that.
                                    connection.close().whenComplete { _ in }
                                }
                                return
                            }
                            if connection.isClosed {
                                // The statement's own error (the server's "terminating connection") comes first
                                // when it comes at all: a moment for it.
                                let since = closedSince ?? ContinuousClock.now
                                closedSince = since
                                if ContinuousClock.now - since >= closeCheck {
                                    outcome.finish(.failure(CatalogUnavailable(location: location, reason: .connectionLost)))
                                    return
                                }
                            }
                        }
                    })
            }
        } onCancel: {
            outcome.finish(.failure(CancellationError()))
        }
    }

    /// The result of a call, delivered once: by the call, the watch, or cancellation, whichever
    /// comes first; the others then stop.
    final class Outcome<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var early: Result<T, any Error>?
            var finished = false
            var tasks: [Task<Void, Never>] = []
        }
        private let state = Mutex(State())

        func arm(_ continuation: CheckedContinuation<T, any Error>) {
            let early: Result<T, any Error>? = state.withLock { state in
                if let early = state.early { return early }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(with: early) }
        }

        func start(work: Task<Void, Never>, watch: Task<Void, Never>) {
            let cancel = state.withLock { state in
                state.tasks = [work, watch]
                return state.finished
            }
            if cancel {
                work.cancel()
                watch.cancel()
            }
        }

        /// Delivers `result` unless one was delivered; `true` when this one was.
        @discardableResult
        func finish(_ result: Result<T, any Error>) -> Bool {
            let (continuation, tasks, first): (CheckedContinuation<T, any Error>?, [Task<Void, Never>], Bool) = state.withLock { state in
                guard !state.finished else { return (nil, [], false) }
                state.finished = true
                defer {
                    state.continuation = nil
                    state.tasks = []
                }
                if state.continuation == nil { state.early = result }
                return (state.continuation, state.tasks, true)
            }
            continuation?.resume(with: result)
            for task in tasks { task.cancel() }
            return first
        }
    }
}
