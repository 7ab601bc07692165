/// The clock a session paces and stamps its frames on (the role of `AVCaptureSession`'s
/// `synchronizationClock`): `ContinuousClock` in use, or the `Clock<Duration>` a session was given
/// — a test's, which only moves when the test says.
///
/// Its instants are `ContinuousClock` instants counted from when it was made, so frames, photo
/// requests and recordings compare and subtract their times alike whatever clock runs them.
struct CaptureClock: Sendable {
    /// The time now, on the clock.
    let now: @Sendable () -> ContinuousClock.Instant
    /// Sleeps until `deadline` on the clock; throws `CancellationError` when the task is cancelled.
    let sleep: @Sendable (_ deadline: ContinuousClock.Instant) async throws -> Void
    /// Whether this is the process's continuous clock, which real devices (a microphone) keep to.
    let isContinuous: Bool

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        if clock is ContinuousClock {
            now = { .now }
            sleep = { deadline in try await Task.sleep(until: deadline, clock: .continuous) }
            isContinuous = true
            return
        }
        let origin = ContinuousClock.now
        let start = clock.now
        now = { origin.advanced(by: start.duration(to: clock.now)) }
        sleep = { deadline in try await clock.sleep(until: start.advanced(by: origin.duration(to: deadline)), tolerance: nil) }
        isContinuous = false
    }

    /// The process's continuous clock.
    static let continuous = CaptureClock(ContinuousClock())
}
