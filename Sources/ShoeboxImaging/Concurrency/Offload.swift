import Dispatch

/// Synchronous, CPU-heavy work — drawing, converting and encoding frames — run on a libdispatch
/// thread instead of the task that asks for it.
///
/// `shoebox serve` makes SwiftNIO's event loops Swift Concurrency's executor, so async code runs
/// on the threads that answer requests: a camera drawing or converting a frame there holds every
/// request that event loop carries for as long (a synthetic 1080p frame held `/api/health` up
/// for seconds). Frame work goes through here, wherever it is called from.
package enum Offload {
    /// Runs `body` on a global dispatch queue and returns its result.
    package static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: body()) }
        }
    }

    /// Runs `body` on a global dispatch queue and returns its result or throws its error (carried
    /// back as a `Result`, through the non-throwing form).
    package static func run<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result: Result<T, Failure> = await run { () -> Result<T, Failure> in Result { () throws(Failure) -> T in try body() } }
        return try result.get()
    }
}
