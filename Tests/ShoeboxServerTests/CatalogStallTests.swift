import Foundation
import GRDB
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// A catalog that another process holds locked does not stall the server: writes wait on
/// GRDB's queue, not on an event loop, so `/api/health` and cached thumbnails answer at once.
@Suite struct CatalogStallTests {
    @Test func aLockedCatalogStallsNoEventLoop() async throws {
        let test = try await TestServer.start(photos: 2)
        defer { test.stop() }
        let thumbnail = "/api/assets/\(TestServer.escaped(test.photos[0]))/thumbnail?size=128"
        #expect(try await test.user("GET", thumbnail).status == 200)  // now cached

        // Another process takes the catalog's write lock until the test has measured, 8 s at most:
        // less than SQLite's 10 s busy timeout, so the queued writes succeed however slowly the
        // machine runs, and long enough that a handler blocking an event loop on the lock shows.
        let catalog = test.library.url.appendingPathComponent("catalog.sqlite").path
        let locked = AsyncSignal()
        let release = DispatchSemaphore(value: 0)
        let holder = Task {
            try await OwnThread.run {
                let queue = try DatabaseQueue(path: catalog)
                try queue.inTransaction(.exclusive) { _ in
                    locked.fire()
                    _ = release.wait(timeout: .now() + 8)
                    return .commit
                }
            }
        }
        await locked.wait()
        // Writes from several clients queue up behind the lock (one per event loop and more): one
        // waits for SQLite's lock, five for the writer connection.
        let driver = try #require((test.library.catalog as? SQLCatalogStore)?.driver as? SQLiteDriver)
        let queued = EventRecorder(driver.writers.waitingUpdates)
        let writes = (0..<6).map { index in
            Task { try await test.user("POST", "/api/assets/batch", json: ["action": index % 2 == 0 ? "favorite" : "unfavorite", "assets": [test.photos[1]]]) }
        }
        #expect(await queued.wait(timeout: .seconds(20)) { ($0.last ?? 0) >= 5 }, "the writes did not queue for the writer: \(queued.elements)")
        var slowest = Duration.zero
        for _ in 0..<10 {
            for path in ["/api/health", thumbnail] {
                let start = ContinuousClock.now
                let response = try await test.user("GET", path)
                slowest = max(slowest, ContinuousClock.now - start)
                #expect(response.status == 200, "\(path)")
            }
        }
        // An event loop blocked behind the lock answers only when the lock goes (up to 8 s after
        // the writes queued); an answer on a free loop takes milliseconds alone and up to about
        // 2.3 s measured with the whole server suite running beside it on two cores.
        #expect(slowest < .seconds(4), "the slowest answer took \(slowest) while the catalog was locked")
        release.signal()
        try await holder.value
        for write in writes { #expect(try await write.value.status == 200, "the writes finish once the lock is gone") }
    }
}

/// Fires once; `wait` returns when it has.
final class AsyncSignal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream<Void>.makeStream()
    }

    func fire() {
        continuation.yield()
        continuation.finish()
    }

    func wait() async {
        for await _ in stream { return }
    }
}
