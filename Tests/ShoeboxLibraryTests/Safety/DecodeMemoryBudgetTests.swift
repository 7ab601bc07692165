import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxLibrary

@Suite struct DecodeMemoryBudgetTests {
    /// First come, first served: a small decode that would fit does not pass a large one that
    /// waits before it, so large decodes are never starved.
    @Test func reservationsStartInTheOrderAsked() async throws {
        let budget = DecodeMemoryBudget(capacity: 100)
        let first = try await budget.reserve(60)
        let order = ServedOrder()
        let large = Task { try await budget.withReservation(of: 50) { order.append("large") } }
        try await waitUntil { budget.waiting == 1 }
        let small = Task { try await budget.withReservation(of: 10) { order.append("small") } }
        try await waitUntil { budget.waiting == 2 }
        // 60 + 10 would fit, but the 50 asked first.
        try await Task.sleep(for: .milliseconds(50))
        #expect(order.names.isEmpty, "\(order.names) started while 60 of 100 bytes were held and the first waiter needs 50")
        budget.release(first)
        try await large.value
        try await small.value
        // Both then fit together and are resumed by the same release: which body runs first is
        // the scheduler's choice, so only that both ran is checked here (the order of starts is
        // what the wait above proved).
        #expect(Set(order.names) == ["large", "small"])
        #expect(budget.reserved == 0 && budget.peakReserved == 60)
    }

    /// Decodes run side by side while they fit.
    @Test func decodesThatFitRunTogether() async throws {
        let budget = DecodeMemoryBudget(capacity: 100)
        let running = Concurrency()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    try await budget.withReservation(of: 30) {
                        running.enter()
                        try await Task.sleep(for: .milliseconds(40))
                        running.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(running.most == 3, "three 30-byte decodes fit in 100 bytes; \(running.most) ran at once")
        #expect(budget.peakReserved == 90)
    }

    /// One decode larger than the whole budget waits until nothing else holds any, then runs
    /// alone: nothing else starts until it ends.
    @Test func oneLargerThanTheBudgetRunsAlone() async throws {
        let budget = DecodeMemoryBudget(capacity: 100)
        let held = try await budget.reserve(10)
        let order = ServedOrder()
        let huge = Task {
            try await budget.withReservation(of: 500) {
                order.append("huge start")
                try await Task.sleep(for: .milliseconds(80))
                order.append("huge end")
            }
        }
        try await waitUntil { budget.waiting == 1 }
        try await Task.sleep(for: .milliseconds(30))
        #expect(order.names.isEmpty, "the 500-byte decode started beside a 10-byte one")
        budget.release(held)
        try await waitUntil { order.names == ["huge start"] }
        let tiny = Task { try await budget.withReservation(of: 1) { order.append("tiny") } }
        try await huge.value
        try await tiny.value
        #expect(order.names == ["huge start", "huge end", "tiny"])
        #expect(budget.peakReserved == 100, "a decode larger than the budget takes the whole budget, no more")
    }

    /// A waiter cancelled while it waits leaves the queue with `CancellationError`, holding
    /// nothing, and the waiters it held back start.
    @Test func aCancelledWaiterLeavesAndUnblocksThoseBehind() async throws {
        let budget = DecodeMemoryBudget(capacity: 100)
        let held = try await budget.reserve(60)
        let blocked = Task { try await budget.withReservation(of: 50) { "ran" } }
        try await waitUntil { budget.waiting == 1 }
        let behind = Task { try await budget.withReservation(of: 30) { "ran" } }
        try await waitUntil { budget.waiting == 2 }
        blocked.cancel()
        await #expect(throws: CancellationError.self) { try await blocked.value }
        // 60 + 30 fits once the 50 ahead of it is gone.
        #expect(try await behind.value == "ran")
        #expect(budget.waiting == 0 && budget.reserved == 60)
        budget.release(held)
        #expect(budget.reserved == 0)
    }

    /// Raising the capacity starts waiters that now fit; lowering it holds new ones.
    @Test func changingTheCapacityAppliesAtOnce() async throws {
        let budget = DecodeMemoryBudget(capacity: 100)
        let held = try await budget.reserve(80)
        let waiter = Task { try await budget.withReservation(of: 50) { "ran" } }
        try await waitUntil { budget.waiting == 1 }
        budget.capacity = 200
        #expect(try await waiter.value == "ran")
        budget.capacity = 90
        let next = Task { try await budget.withReservation(of: 20) { "ran" } }
        try await waitUntil { budget.waiting == 1 }
        budget.release(held)
        #expect(try await next.value == "ran")
        #expect(budget.reserved == 0)
    }

    /// An import reserves its decode from the process's budget before decoding: while the
    /// budget is held, the import waits (its file staged, nothing decoded), and it completes once
    /// the budget is given back.
    @Test func anImportWaitsForRoomInTheSharedBudget() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let file = try temporary.photo("wait.png", seed: 41, width: 400, height: 300)
        let budget = DecodeMemoryBudget.shared
        // Hold all of it (other suites' decodes wait these few hundred milliseconds too).
        let held = try await budget.reserve(budget.capacity)
        let finished = Concurrency()
        let importing = Task {
            defer { finished.enter() }
            return try await temporary.importFiles([file])
        }
        try await Task.sleep(for: .milliseconds(400))
        let waitedWhileHeld = finished.most == 0
        budget.release(held)
        let identifiers = try await importing.value
        #expect(waitedWhileHeld, "the import finished while the whole decode budget was held")
        #expect(try await temporary.library.fetchAssets(withLocalIdentifiers: identifiers).firstObject?.pixelWidth == 400)
    }

    private func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw RawHTTP.Failure(description: "waited 10 s for the budget to reach the state at \(sourceLocation)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Counts tasks inside a section and the most at once.
private final class Concurrency: Sendable {
    private let state = Mutex<(now: Int, most: Int)>((0, 0))
    func enter() {
        state.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
        }
    }
    func leave() { state.withLock { $0.now -= 1 } }
    var most: Int { state.withLock { $0.most } }
}
