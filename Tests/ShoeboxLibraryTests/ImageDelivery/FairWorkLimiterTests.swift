import Foundation
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxLibrary

@Suite struct FairWorkLimiterTests {
    /// A client with twenty renders queued delays the user's one by a single turn, not twenty.
    @Test func ownersAreServedInTurn() async throws {
        let limiter = FairWorkLimiter(limit: 1)
        let waiting = EventRecorder(limiter.waitingUpdates)
        try await limiter.acquire(owner: "holder")
        let order = ServedOrder()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await limiter.acquire(owner: "com.example.flood")
                    order.append("flood")
                    limiter.release()
                }
            }
            try #require(await waiting.wait { $0.last == 20 })
            group.addTask {
                try await limiter.acquire(owner: "user")
                order.append("user")
                limiter.release()
            }
            try #require(await waiting.wait { $0.last == 21 })
            limiter.release()
            try await group.waitForAll()
        }
        let served = order.names
        #expect(served.count == 21)
        #expect(served.firstIndex(of: "user")! <= 1, "the user waited for \(served.firstIndex(of: "user")!) renders: \(served)")
    }

    @Test func anOwnerWithTooManyWaitingIsRefused() async throws {
        let limiter = FairWorkLimiter(limit: 1, maximumWaiting: 3)
        let waiting = EventRecorder(limiter.waitingUpdates)
        try await limiter.acquire(owner: "holder")
        let waiters = (0..<3).map { _ in Task { try await limiter.acquire(owner: "client") } }
        try #require(await waiting.wait { $0.last == 3 })
        await #expect(throws: LibraryError.self) { try await limiter.acquire(owner: "client") }
        // Others are not refused, and cancelled waiters leave.
        waiters.forEach { $0.cancel() }
        for waiter in waiters { _ = try? await waiter.value }
        #expect(limiter.waiting == 0)
        #expect(await waiting.wait { $0.last == 0 }, "the waiting count told: \(waiting.elements)")
        limiter.release()
        try await limiter.acquire(owner: "user")
        limiter.release()
    }
}

final class ServedOrder: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ name: String) { storage.withLock { $0.append(name) } }
    var names: [String] { storage.withLock { $0 } }
}
