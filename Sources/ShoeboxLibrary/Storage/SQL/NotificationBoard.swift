import Synchronization

/// Counts notifications and wakes those waiting for the next one.
final class NotificationBoard: Sendable {
    private struct State {
        var count = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        /// Waits whose deadline or cancellation came before they began waiting.
        var woken: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.count } }

    func notify() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        waiting.forEach { $0.resume() }
    }

    /// Returns once `count` has passed `seen`, at `deadline`, or when the task is cancelled.
    func wait(beyond seen: Int, until deadline: ContinuousClock.Instant) async {
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
