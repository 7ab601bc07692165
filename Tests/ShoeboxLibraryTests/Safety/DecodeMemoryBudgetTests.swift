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
        let waiting = EventRecorder(budget.waitingUpdates)
        let first = try await budget.reserve(60)
        let order = ServedOrder()
        let large = Task { try await budget.withReservation(of: 50) { order.append("large") } }
        try await waitUntil(waiting, is: 1)
        let small = Task { try await budget.withReservation(of: 10) { order.append("small") } }
        // 60 + 10 would fit, but the 50 asked first: the 10 joins the queue instead of starting
        // (only a release, a cancellation or a new capacity takes anyone off it).
        try await waitUntil(waiting, is: 2)
        #expect(budget.reserved == 60 && order.names.isEmpty, "\(order.names) started while 60 of 100 bytes were held and the first waiter needs 50")
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
        let waiting = EventRecorder(budget.waitingUpdates)
        let running = Concurrency()
        let started = EventRecorder<Int>()
        let finish = EventRecorder<Bool>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                group.addTask {
                    try await budget.withReservation(of: 30) {
                        running.enter()
                        started.append(index)
                        // Each holds its 30 bytes until the test has looked.
                        await finish.wait(timeout: .seconds(30)) { !$0.isEmpty }
                        running.leave()
                    }
                }
            }
            // Three run, the other three wait for room.
            #expect(await started.wait { $0.count == 3 })
            try await waitUntil(waiting, is: 3)
            #expect(running.most == 3 && budget.reserved == 90, "three 30-byte decodes fit in 100 bytes; \(running.most) ran at once")
            finish.append(true)
            try await group.waitForAll()
        }
        #expect(running.most == 3, "three 30-byte decodes fit in 100 bytes; \(running.most) ran at once")
        #expect(started.count == 6 && budget.peakReserved == 90)
    }

    /// One decode larger than the whole budget waits until nothing else holds any, then runs
    /// alone: nothing else starts until it ends.
    @Test func oneLargerThanTheBudgetRunsAlone() async throws {
        let budget = DecodeMemoryBudget(capacity: 100)
        let waiting = EventRecorder(budget.waitingUpdates)
        let held = try await budget.reserve(10)
        let order = ServedOrder()
        let started = EventRecorder<Bool>()
        let finish = EventRecorder<Bool>()
        let huge = Task {
            try await budget.withReservation(of: 500) {
                order.append("huge start")
                started.append(true)
                await finish.wait(timeout: .seconds(30)) { !$0.isEmpty }
                order.append("huge end")
            }
        }
        // Queued, not started, while 10 bytes are held: only a release takes it off the queue.
        try await waitUntil(waiting, is: 1)
        #expect(order.names.isEmpty && budget.reserved == 10, "the 500-byte decode started beside a 10-byte one")
        budget.release(held)
        #expect(await started.wait { !$0.isEmpty })
        // It holds the whole budget: one byte more waits until it ends.
        let tiny = Task { try await budget.withReservation(of: 1) { order.append("tiny") } }
        try await waitUntil(waiting, is: 1, after: 2)
        #expect(order.names == ["huge start"] && budget.reserved == 100)
        finish.append(true)
        try await huge.value
        try await tiny.value
        #expect(order.names == ["huge start", "huge end", "tiny"])
        #expect(budget.peakReserved == 100, "a decode larger than the budget takes the whole budget, no more")
    }

    /// A waiter cancelled while it waits leaves the queue with `CancellationError`, holding
    /// nothing, and the waiters it held back start.
    @Test func aCancelledWaiterLeavesAndUnblocksThoseBehind() async throws {
        let budget = DecodeMemoryBudget(capacity: 100)
        let waiting = EventRecorder(budget.waitingUpdates)
        let held = try await budget.reserve(60)
        let blocked = Task { try await budget.withReservation(of: 50) { "ran" } }
        try await waitUntil(waiting, is: 1)
        let behind = Task { try await budget.withReservation(of: 30) { "ran" } }
        try await waitUntil(waiting, is: 2)
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
        let waiting = EventRecorder(budget.waitingUpdates)
        let held = try await budget.reserve(80)
        let waiter = Task { try await budget.withReservation(of: 50) { "ran" } }
        try await waitUntil(waiting, is: 1)
        budget.capacity = 200
        #expect(try await waiter.value == "ran")
        budget.capacity = 90
        let next = Task { try await budget.withReservation(of: 20) { "ran" } }
        try await waitUntil(waiting, is: 1, after: 2)
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
        // Hold all of it (other suites' decodes wait meanwhile too).
        let held = try await budget.reserve(budget.capacity)
        let waiting = EventRecorder(budget.waitingUpdates)
        let finished = Concurrency()
        let importing = Task {
            defer { finished.enter() }
            return try await temporary.importFiles([file])
        }
        // The import queues for room (an import that decoded without asking would finish and
        // never queue; another suite's decode queueing meanwhile only makes this look sooner).
        let queued = await waiting.wait(timeout: .seconds(30)) { ($0.last ?? 0) >= 1 }
        let waitedWhileHeld = finished.most == 0
        budget.release(held)
        #expect(queued, "no decode queued for the held budget: \(waiting.elements)")
        let identifiers = try await importing.value
        #expect(waitedWhileHeld, "the import finished while the whole decode budget was held")
        #expect(try await temporary.library.fetchAssets(withLocalIdentifiers: identifiers).firstObject?.pixelWidth == 400)
    }

    /// Waits until the budget's queue, as its updates tell it, holds `count` decodes — the
    /// `occurrence`-th time it does (a queue that went up to one, down and up again is at its
    /// second) — or fails naming the counts it told.
    private func waitUntil(
        _ waiting: EventRecorder<Int>, is count: Int, after occurrence: Int = 1, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let reached = await waiting.wait { counts in
            zip(counts, counts.dropFirst()).filter { $0.0 != count && $0.1 == count }.count + (counts.first == count ? 1 : 0) >= occurrence
        }
        try #require(reached, "the budget's queue never held \(count) (\(occurrence)×): it told \(waiting.elements)", sourceLocation: sourceLocation)
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
