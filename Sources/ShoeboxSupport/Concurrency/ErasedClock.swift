/// Any `Clock<Duration>` behind one type, so that a type can keep the clock it was given —
/// `ContinuousClock` in use, a test's manual clock in tests — without being generic over it: a
/// capture session's frames, a job worker's polls and heartbeat.
///
/// Its instants are `ContinuousClock` instants counted from when it was made, so times taken on
/// any clock compare and subtract alike.
package struct ErasedClock: Sendable {
    private let currentTime: @Sendable () -> ContinuousClock.Instant
    private let sleeper: @Sendable (ContinuousClock.Instant) async throws -> Void
    /// When it was made: ``elapsed()`` counts from here.
    private let origin: ContinuousClock.Instant

    package init<C: Clock>(_ clock: C) where C.Duration == Duration {
        if clock is ContinuousClock {
            currentTime = { .now }
            sleeper = { deadline in try await Task.sleep(until: deadline, clock: .continuous) }
        } else {
            let origin = ContinuousClock.now
            let start = clock.now
            currentTime = { origin.advanced(by: start.duration(to: clock.now)) }
            sleeper = { deadline in try await clock.sleep(until: start.advanced(by: origin.duration(to: deadline)), tolerance: nil) }
        }
        origin = currentTime()
    }

    /// The process's continuous clock.
    package static let continuous = ErasedClock(ContinuousClock())

    /// The time now, on the clock.
    package func now() -> ContinuousClock.Instant { currentTime() }

    /// The time on the clock since this value was made.
    package func elapsed() -> Duration { origin.duration(to: currentTime()) }

    /// Sleeps until `deadline` on the clock; throws `CancellationError` when the task is cancelled.
    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await sleeper(deadline)
    }

    /// Sleeps `duration` on the clock; throws `CancellationError` when the task is cancelled.
    package func sleep(for duration: Duration) async throws {
        try await sleeper(currentTime().advanced(by: duration))
    }
}
