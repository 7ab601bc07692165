import Foundation
import ShoeboxImaging
import ShoeboxServer
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxLibrary

/// A client asking for a hundred sizes of one large photo at once (issue 17 item 14) gets its
/// renders in a bounded queue of its own: past 64 waiting it is told to come back (503 busy),
/// the server answers the user meanwhile, and the user's render waits a turn, not a hundred.
@Suite struct RenderFloodTests {
    final class Tally: Sendable {
        let order = Mutex<[String]>([])
        let statuses = Mutex<[Int: Int]>([:])
        func finished(_ what: String) { order.withLock { $0.append(what) } }
        func answered(_ status: Int) { statuses.withLock { $0[status, default: 0] += 1 } }
    }

    @Test func aClientsFloodOfSizesDoesNotStarveTheUser() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let flooded = try await test.addPhoto(seed: 41, width: 3000, height: 2000)
        let users = try await test.addPhoto(seed: 42, width: 3000, height: 2000)
        let token = try await test.register("com.example.flood")
        #expect(try await test.user("PUT", "/api/clients/com.example.flood/limited", json: ["assets": [flooded]]).status == 200)
        #expect(try await test.user("PUT", "/api/clients/com.example.flood/services/photoLibrary", json: ["status": "limited"]).status == 200)

        let tally = Tally()
        let waiting = EventRecorder(test.library.derivatives.limiter.waitingUpdates)
        let path = "/api/assets/\(TestServer.escaped(flooded))/thumbnail?mode=fit&size="
        let flood = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for size in 900..<1_000 {
                    group.addTask {
                        let response = try await test.client(token, "GET", path + "\(size)")
                        tally.answered(response.status)
                        if response.status == 200 { tally.finished("client") }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Once the client's renders are queued (32 of them wait), the user asks for a size nothing
        // has made yet.
        #expect(await waiting.wait(timeout: .seconds(60)) { $0.contains { $0 >= 32 } }, "the client's renders never queued: \(waiting.elements.max() ?? 0)")
        let health = try await test.user("GET", "/api/health")
        #expect(health.status == 200)
        let mine = try await test.user("GET", "/api/assets/\(TestServer.escaped(users))/thumbnail?mode=fit&size=777")
        #expect(mine.status == 200)
        tally.finished("user")
        try await flood.value

        let counts = tally.statuses.withLock { $0 }
        #expect(Set(counts.keys).isSubset(of: [200, 503]), "only renders and come-back-laters: \(counts)")
        #expect(counts[503, default: 0] >= 1, "the client's queue is bounded (64 waiting): \(counts)")
        let order = tally.order.withLock { $0 }
        let after = order.count - 1 - (order.firstIndex(of: "user") ?? order.count)
        #expect(after >= 20, "the user's render waited for \(order.count - 1 - after) of the client's \(order.count - 1); it should wait a turn")
    }
}
