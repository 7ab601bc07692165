import Foundation
import ShoeboxImaging
import Synchronization

/// An async semaphore that is fair between owners: at most `limit` holders at once, waiters
/// queued per owner (the user, each client, background work) and served in turn, one owner
/// after another, so that a client asking for a hundred renders delays the user's next
/// thumbnail by at most one render per slot, never by a hundred. An owner may have at most
/// `maximumWaiting` waiters; past that, ``acquire(owner:)`` refuses at once.
final class FairWorkLimiter: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var available: Int
        var queues: [String: [Waiter]] = [:]
        /// Owners with waiters, in the order they are served.
        var turn: [String] = []
        var nextID: UInt64 = 0

        var waiting: Int { queues.values.reduce(0) { $0 + $1.count } }
    }

    private let state: Mutex<State>
    /// Who listens to ``waitingUpdates``; told under the state lock, so in order.
    private let waitingListeners = EventFanOut<Int>()
    let maximumWaiting: Int

    init(limit: Int, maximumWaiting: Int = 64) {
        state = Mutex(State(available: Swift.max(1, limit)))
        self.maximumWaiting = maximumWaiting
    }

    /// How many wait now, in all.
    var waiting: Int { state.withLock { $0.waiting } }

    /// ``waiting`` now, then again at each change, until the stream is dropped: for a test (or a
    /// status display) to await the queue's state instead of polling it.
    var waitingUpdates: AsyncStream<Int> {
        state.withLock { state in waitingListeners.subscribe(replaying: [state.waiting]) }
    }

    /// Tells ``waitingUpdates``' listeners, if there are any, the count in `state`.
    private func report(_ state: State) {
        if waitingListeners.hasSubscribers { waitingListeners.yield(state.waiting) }
    }

    /// Waits for a slot in `owner`'s turn.
    ///
    /// - Throws: `CancellationError` if the task is cancelled first; ``LibraryError/Code/busy``
    ///   when `owner` already has ``maximumWaiting`` waiters.
    func acquire(owner: String) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case now, queued, refused }
                let outcome = state.withLock { state -> Outcome in
                    if state.available > 0, state.turn.isEmpty {
                        state.available -= 1
                        return .now
                    }
                    if state.queues[owner, default: []].count >= maximumWaiting { return .refused }
                    if state.queues[owner, default: []].isEmpty { state.turn.append(owner) }
                    state.queues[owner, default: []].append(Waiter(id: id, continuation: continuation))
                    report(state)
                    return .queued
                }
                switch outcome {
                case .now: continuation.resume()
                case .queued: break
                case .refused:
                    continuation.resume(throwing: LibraryError.busy("\(owner) has \(maximumWaiting) renders waiting already; ask again when they are done"))
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard var queue = state.queues[owner], let index = queue.firstIndex(where: { $0.id == id }) else { return nil }
                let waiter = queue.remove(at: index)
                state.queues[owner] = queue.isEmpty ? nil : queue
                if queue.isEmpty { state.turn.removeAll { $0 == owner } }
                report(state)
                return waiter
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Gives a slot back: to the first waiter of the owner whose turn it is.
    func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.turn.isEmpty else {
                state.available += 1
                return nil
            }
            let owner = state.turn.removeFirst()
            var queue = state.queues[owner] ?? []
            let waiter = queue.removeFirst()
            if queue.isEmpty {
                state.queues[owner] = nil
            } else {
                state.queues[owner] = queue
                state.turn.append(owner)  // its next waiter comes after the other owners'
            }
            report(state)
            return waiter
        }
        next?.continuation.resume()
    }
}
