import Foundation
import Synchronization

/// Hands each event to every current subscriber: the `events` sequences of capture sessions,
/// movie outputs and picker sessions, a video data output's `frames`, a job worker's statistics.
/// (It lives in the lowest module, so each module above uses the same one.)
///
/// Yielding only queues the event in each subscriber's stream, so it may be called while the
/// owner holds its own lock — the way to keep events in the order of the state changes they
/// report. A subscriber whose task stops iterating is forgotten.
package final class EventFanOut<Element: Sendable>: Sendable {
    private struct State {
        var subscribers: [UInt64: AsyncStream<Element>.Continuation] = [:]
        var nextID: UInt64 = 0
        var isFinished = false
    }

    private let state = Mutex(State())

    package init() {}

    /// Events from now on, after `replaying` (what a new subscriber must be told first). After
    /// ``finish()`` the stream holds `replaying` and ends. `bufferingPolicy` is what a slow
    /// reader keeps (all, by default; `.bufferingNewest(1)` for a value where only the latest counts).
    package func subscribe(
        replaying: [Element] = [], bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: bufferingPolicy)
        for element in replaying { continuation.yield(element) }
        let id = state.withLock { state -> UInt64? in
            guard !state.isFinished else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Whether anyone listens now.
    package var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }

    /// Queues `element` in every current subscriber's stream. Returns to how many streams it
    /// went, and how many of those let an older element go to make room (a stream that keeps
    /// only the newest, read late).
    @discardableResult
    package func yield(_ element: Element) -> (delivered: Int, displaced: Int) {
        var delivered = 0
        var displaced = 0
        for subscriber in state.withLock({ Array($0.subscribers.values) }) {
            switch subscriber.yield(element) {
            case .enqueued: delivered += 1
            case .dropped:
                delivered += 1
                displaced += 1
            case .terminated: break
            @unknown default: break
            }
        }
        return (delivered, displaced)
    }

    /// Ends the streams of the current subscribers; later subscribers are welcome (a capture
    /// output whose session stopped, and may run again).
    package func endSubscriptions() {
        let subscribers = state.withLock { state in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    /// Ends every subscriber's stream after `last`, and the streams of later subscribers at once.
    package func finish(after last: Element? = nil) {
        let subscribers = state.withLock { state in
            state.isFinished = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers {
            if let last { subscriber.yield(last) }
            subscriber.finish()
        }
    }
}
