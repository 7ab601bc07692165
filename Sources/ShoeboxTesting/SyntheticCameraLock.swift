import ShoeboxImaging

/// One holder at a time for the process-wide synthetic cameras: a camera streams to one running
/// session at a time, and test suites in different targets run in one process.
///
/// ```swift
/// try await SyntheticCameraLock.shared.run { try await takeAPicture() }
/// ```
public final class SyntheticCameraLock: Sendable {
    /// The one lock of the process, which every test suite that streams from a synthetic camera takes.
    public static let shared = SyntheticCameraLock()

    private let gate = AsyncGate()

    /// Runs `body` while holding the lock; waiters go in the order they came.
    public func run<T>(_ body: () async throws -> T) async rethrows -> T {
        try await gate.run(body)
    }
}
