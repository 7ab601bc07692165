import Foundation
import ShoeboxImaging
import Synchronization

/// An async semaphore: at most `limit` holders at once; waiting is cancellable.
final class WorkLimiter: Sendable {
    private struct State {
        var available: Int
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>
    /// Who listens to ``waitingUpdates``; told under the state lock, so in order.
    private let waitingListeners = EventFanOut<Int>()

    init(limit: Int) {
        state = Mutex(State(available: Swift.max(1, limit)))
    }

    /// How many wait for a slot now, then again at each change, until the stream is dropped: for
    /// a test to await the queue (writes behind a locked catalog) instead of sleeping.
    var waitingUpdates: AsyncStream<Int> {
        state.withLock { state in waitingListeners.subscribe(replaying: [state.waiters.count]) }
    }

    /// Tells ``waitingUpdates``' listeners, if there are any, the count in `state`.
    private func report(_ state: State) {
        if waitingListeners.hasSubscribers { waitingListeners.yield(state.waiters.count) }
    }

    /// Waits for a slot. Throws `CancellationError` if the task is cancelled first.
    func acquire() async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.available > 0 {
                        state.available -= 1
                        return true
                    }
                    state.waiters.append((id, continuation))
                    report(state)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                defer { report(state) }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Gives a slot back (to the longest waiter, if any).
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            defer { report(state) }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }

    /// Runs `body` holding a slot.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }
}
