import ShoeboxTesting
import Synchronization
import Testing

/// The manual clock tests drive time with: sleepers wake only when it is moved past their
/// deadline, in deadline order, and cancelled sleepers leave.
@Suite struct TestClockTests {
    @Test func sleepersWakeOnlyWhenTheClockPassesTheirDeadline() async throws {
        let clock = TestClock()
        let woke = EventRecorder<String>()
        for (name, delay) in [("late", 300), ("early", 100), ("middle", 200)] {
            Task {
                try await clock.sleep(for: .milliseconds(delay))
                woke.append(name)
            }
        }
        #expect(await clock.waitForSleepers(3))
        #expect(clock.nextDeadline == TestClock.Instant(offset: .milliseconds(100)))
        #expect(clock.advance(by: .milliseconds(99)) == 0)
        #expect(clock.sleepers == 3 && woke.elements.isEmpty)
        #expect(clock.advance(by: .milliseconds(1)) == 1)
        #expect(await woke.wait { $0 == ["early"] })
        #expect(clock.advance(by: .milliseconds(250)) == 2)
        #expect(await woke.wait { Set($0) == ["early", "middle", "late"] })
        #expect(clock.now == TestClock.Instant(offset: .milliseconds(350)) && clock.sleepers == 0)
    }

    @Test func aDeadlineAlreadyPassedReturnsAtOnce() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: TestClock.Instant(offset: .seconds(2)))
        try await clock.sleep(for: .zero)
        #expect(clock.sleepers == 0)
        #expect(clock.advance(to: TestClock.Instant(offset: .seconds(1))) == 0, "advancing to the past moves nothing")
        #expect(clock.now.offset == .seconds(5))
    }

    @Test func aCancelledSleeperThrowsAndLeaves() async throws {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        #expect(await clock.waitForSleepers(1))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleepers == 0)
        #expect(clock.advance(by: .seconds(60)) == 0)
        // Cancelled before it began to sleep: it throws at once too.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await early.value }
    }

    /// A loop that sleeps on the clock runs once per advance past its interval: the way a test
    /// counts a poll's rounds without waiting for them.
    @Test func aLoopOnTheClockRunsOncePerInterval() async throws {
        let clock = TestClock()
        let rounds = EventRecorder<Int>()
        let loop = Task {
            var round = 0
            while true {
                try await clock.sleep(for: .seconds(2))
                round += 1
                rounds.append(round)
            }
        }
        for round in 1...10 {
            #expect(await clock.waitForSleepers(1))
            #expect(clock.advance(by: .seconds(2)) == 1)
            #expect(await rounds.wait { $0.last == round })
        }
        #expect(await clock.waitForSleepers(1))
        #expect(rounds.count == 10 && clock.now.offset == .seconds(20))
        loop.cancel()
    }

    @Test func waitingForSleepersThatNeverComeAnswersFalse() async {
        let clock = TestClock()
        #expect(await clock.waitForSleepers(1, timeout: .milliseconds(50)) == false)
    }
}
