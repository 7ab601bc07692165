import Synchronization

/// A clock that moves only when a test moves it: code that sleeps on it (a poll, a heartbeat, a
/// timer) waits until ``advance(by:)`` passes its deadline, so a test can run an hour of polling
/// in no time and know exactly what happened — nothing wakes that the test did not wake.
///
/// ```swift
/// let clock = TestClock()
/// let worker = JobWorker(library: library, options: .init(pollInterval: .seconds(2)), clock: clock)
/// let running = Task { await worker.run() }
/// try await clock.waitForSleepers(2)        // the poll and the heartbeat
/// #expect(clock.advance(by: .seconds(2)) == 1)   // woke the poll, and only it
/// ```
///
/// Code under test takes it where it would take `ContinuousClock()`: any API with a
/// `some Clock<Duration>` parameter. ``advance(by:)`` returns how many sleepers it woke;
/// ``waitForSleepers(_:timeout:)`` waits (without polling) until the code under test has gone
/// back to sleep, which is how a test knows a woken task has done its step.
public final class TestClock: Clock, Sendable {
    /// A moment on a ``TestClock``: the time since the clock was made.
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// The time from the clock's start to this moment.
        public var offset: Duration

        /// The moment `offset` after the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The moment `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this moment to `other` (negative when `other` is earlier).
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// `+0.25 seconds`: the offset from the clock's start.
        public var description: String { "+\(offset)" }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        let count: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        /// Sleeps cancelled before they registered: they end at once when they do.
        var cancelled: Set<UInt64> = []
        var watchers: [UInt64: Watcher] = [:]
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }

        /// The watchers whose count of sleepers is reached, removed.
        mutating func satisfiedWatchers() -> [Watcher] {
            let ready = watchers.filter { sleepers.count >= $0.value.count }
            for key in ready.keys { watchers[key] = nil }
            return Array(ready.values)
        }
    }

    private let state = Mutex(State())

    /// A clock at its start (offset zero), with nobody asleep on it.
    public init() {}

    /// The clock's time: its start plus all it was advanced.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: the clock keeps any duration exactly.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on the clock now.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline of those asleep, if any.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.values.map(\.deadline).min() } }

    /// Suspends until ``advance(by:)`` reaches `deadline` (at once if the clock is there), or
    /// throws `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome {
                    case waiting([Watcher])
                    case due, cancelled
                }
                let outcome = state.withLock { state -> Outcome in
                    if state.cancelled.remove(id) != nil { return .cancelled }
                    if deadline <= state.now { return .due }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .waiting(state.satisfiedWatchers())
                }
                switch outcome {
                case .waiting(let watchers): for watcher in watchers { watcher.continuation.resume(returning: true) }
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                if let sleeper = state.sleepers.removeValue(forKey: id) { return sleeper }
                state.cancelled.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // A sleep that ended another way than by its registration leaves no mark behind.
        _ = state.withLock { $0.cancelled.remove(id) }
    }

    /// Moves the clock `duration` on and wakes, earliest deadline first, every sleeper whose
    /// deadline it reaches; returns how many it woke. A sleeper woken goes on in its own task:
    /// ``waitForSleepers(_:timeout:)`` tells when it is asleep again.
    @discardableResult
    public func advance(by duration: Duration) -> Int {
        precondition(duration >= .zero, "a clock cannot go back (advance by \(duration))")
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for key in due.keys { state.sleepers[key] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
        return due.count
    }

    /// Moves the clock to `instant` (no move if it is there or past it), as ``advance(by:)``.
    @discardableResult
    public func advance(to instant: Instant) -> Int {
        advance(by: max(.zero, now.duration(to: instant)))
    }

    /// Waits until at least `count` tasks are asleep on the clock: `true` at once if they are,
    /// or the moment the last of them lies down; `false` when `timeout` (real time) passes
    /// first, so a test whose code never sleeps fails instead of hanging.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(10)) async -> Bool {
        let id = state.withLock { $0.makeID() }
        let timer = Mutex<Task<Void, Never>?>(nil)
        defer { timer.withLock { $0?.cancel() } }
        return await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.watchers[id] = Watcher(count: count, continuation: continuation)
                return false
            }
            if ready { return continuation.resume(returning: true) }
            timer.withLock {
                $0 = Task { [weak self] in
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    self?.state.withLock { $0.watchers.removeValue(forKey: id) }?.continuation.resume(returning: false)
                }
            }
        }
    }
}
