/// A clock reduced to what a timer loop needs — sleeping, and the time since it was made — so a
/// type can keep any `Clock<Duration>` it was given (`ContinuousClock` in use, a test's manual
/// clock in tests) without being generic over it.
struct TimerClock: Sendable {
    /// Sleeps `duration` on the clock; throws `CancellationError` when the task is cancelled.
    let sleep: @Sendable (Duration) async throws -> Void
    /// The time on the clock since this value was made.
    let elapsed: @Sendable () -> Duration

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        sleep = { duration in try await clock.sleep(for: duration) }
        elapsed = { start.duration(to: clock.now) }
    }
}
