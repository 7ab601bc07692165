import Synchronization

/// A lock for async code: one holder at a time, waiters let in in the order they came, and a
/// waiter suspends rather than blocking its thread. (It lives in the lowest module, so each
/// module above uses the same one: the picker's camera and the tests' synthetic-camera lock.)
package final class AsyncGate: Sendable {
    private let state = Mutex<(held: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    package init() {}

    /// Waits until the gate is free and takes it. Pair with ``leave()``.
    package func enter() async {
        await withCheckedContinuation { continuation in
            let acquired = state.withLock { state -> Bool in
                if !state.held {
                    state.held = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if acquired { continuation.resume() }
        }
    }

    /// Hands the gate to the next waiter, or frees it.
    package func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` holding the gate.
    package func run<T>(_ body: () async throws -> T) async rethrows -> T {
        await enter()
        defer { leave() }
        return try await body()
    }
}
