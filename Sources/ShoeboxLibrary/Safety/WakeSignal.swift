import Synchronization

/// Wakes one waiting loop: ``signal()`` resumes the task in ``wait()``, or, when none waits yet,
/// makes the next ``wait()`` return at once, so a wake-up that comes between a loop's last look
/// and its wait is never lost.
final class WakeSignal: Sendable {
    private struct State {
        var sleeper: CheckedContinuation<Void, Never>?
        var requested = false
    }

    private let state = Mutex(State())

    func signal() {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let sleeper = state.sleeper else {
                state.requested = true
                return nil
            }
            state.sleeper = nil
            return sleeper
        }?.resume()
    }

    /// Returns at the next ``signal()``, or at once if one came since the last wait. One task
    /// waits at a time.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.requested {
                    state.requested = false
                    return true
                }
                state.sleeper = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}
