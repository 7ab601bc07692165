import Synchronization

/// One holder at a time for the process-wide synthetic cameras: a camera streams to one running
/// session at a time, and test suites in different targets run in one process.
///
/// ```swift
/// try await SyntheticCameraLock.shared.run { try await takeAPicture() }
/// ```
public final class SyntheticCameraLock: Sendable {
    /// The one lock of the process, which every test suite that streams from a synthetic camera takes.
    public static let shared = SyntheticCameraLock()

    private let state = Mutex<(held: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Runs `body` while holding the lock; waiters go in the order they came.
    public func run<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
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

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
