import Synchronization

/// Counts notifications and wakes those waiting for the next one: the catalog's job and change
/// notifications, capture devices let go. (It lives in the lowest module, so each module above
/// uses the same one.)
///
/// Read ``count`` before looking at what the notifications are about, then wait beyond it: a
/// notification that comes between the look and the wait is not lost.
package final class NotificationBoard: Sendable {
    private struct State {
        var count = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        /// Waits whose deadline or cancellation came before they began waiting.
        var woken: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// How many notifications there were so far.
    package var count: Int { state.withLock { $0.count } }

    /// Counts a notification and wakes every waiter.
    package func notify() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        waiting.forEach { $0.resume() }
    }

    /// Returns once `count` has passed `seen`, at `deadline`, or when the task is cancelled.
    package func wait(beyond seen: Int, until deadline: ContinuousClock.Instant) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [self] in
            guard (try? await Task.sleep(until: deadline)) != nil else { return }
            wake(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.count > seen || state.woken.remove(id) != nil { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            wake(id)
        }
        timer.cancel()
        _ = state.withLock { $0.woken.remove(id) }
    }

    /// Ends wait `id` (its deadline came, or its task was cancelled), or, if it has not begun
    /// waiting yet, makes it return at once when it does.
    private func wake(_ id: UInt64) {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
            state.woken.insert(id)
            return nil
        }?.resume()
    }
}
