import ShoeboxTesting
import Testing

/// Every capture suite, one test at a time: cameras are process-wide and a camera streams to one
/// running session at a time. The picker's camera tests (another target, the same process) take
/// the same lock.
@Suite(.serialized, .usesSyntheticCamera) enum CaptureSuites {}

/// Holds ``SyntheticCameraLock`` around each test.
struct SyntheticCameraTrait: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // Each test case (a plain test has one) holds the lock; suites and tests just pass through.
        guard testCase != nil else { return try await function() }
        try await SyntheticCameraLock.shared.run { try await function() }
    }
}

extension Trait where Self == SyntheticCameraTrait {
    static var usesSyntheticCamera: Self { Self() }
}
