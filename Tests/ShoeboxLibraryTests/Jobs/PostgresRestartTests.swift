import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// PostgreSQL restarted under a worker and imports (a cluster of its own, on the same port
/// again): a change while it is down fails with a typed error and leaves nothing, and afterwards
/// the same library object and the same worker go on without being restarted. Runs in the
/// PostgreSQL pass of `scripts/test`.
@Suite(.enabled(if: PostgresTestServer.isCatalogUnderTest, "runs in the PostgreSQL pass (SHOEBOX_TEST_CATALOG=postgres)"))
struct PostgresRestartTests {
    @Test func workersAndChangesOutliveARestart() async throws {
        let cluster = try ThrowawayServer(.postgres, name: "pg-restart")
        defer { cluster.remove() }
        let folder = cluster.folder
        let library = try await PhotoLibrary.create(
            at: folder.appendingPathComponent("L.shoebox"),
            configuration: .init(catalog: .postgres(try PostgresURL(cluster.url)), backgroundWork: .queued))
        func photo(_ seed: UInt64) throws -> URL {
            let file = folder.appendingPathComponent("p\(seed).jpg")
            try SyntheticPhoto(width: 400, height: 300, seed: seed).image().write(to: file)
            return file
        }
        let worker = JobWorker(library: library, options: .init(concurrency: 2, pollInterval: .milliseconds(200)))
        let running = Task { await worker.run() }
        defer { worker.stop() }
        var saved: [String] = []
        for seed: UInt64 in 1...3 {
            let file = try photo(seed)
            saved.append(try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: file) }.created[0].localIdentifier)
        }

        // The worker is idle first: a job running when the catalog goes keeps its slot until the
        // catalog has its outcome, and a worker with no free slot does not look for more.
        try await JobQueueTests.drain(library, worker: worker, kinds: [.derivatives])
        let updates = EventRecorder(worker.statisticsUpdates)
        try cluster.halt()
        let looksBeforeTheOutage = worker.statistics.looks
        let down = try photo(50)
        await #expect(throws: LibraryError.self, "a change while the catalog is down fails") {
            try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: down) }
        }
        // The worker meets the outage too: it looks for jobs while the catalog is down.
        // (A look that meets the outage waits up to 11 s for a connection: the pool's 8 s, then a
        // fresh pool's 3 s.)
        #expect(
            await updates.wait(timeout: .seconds(60)) { ($0.last?.looks ?? 0) > looksBeforeTheOutage + 1 },
            "the worker looked \((updates.elements.last?.looks ?? 0) - looksBeforeTheOutage) times while the catalog was down")
        try cluster.start()  // on the same port again, or it throws

        // The same objects go on: the failed change left nothing, new ones commit, jobs drain.
        let assets = try await library.fetchAssets().allObjects()
        #expect(Set(assets.map(\.localIdentifier)) == Set(saved), "nothing of the failed change, all of the saved ones")
        for seed: UInt64 in 4...5 {
            let file = try photo(seed)
            saved.append(try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: file) }.created[0].localIdentifier)
        }
        try await JobQueueTests.drain(library, worker: worker, kinds: [.derivatives])
        #expect(try await library.jobCounts().filter { $0.kind == .derivatives }.isEmpty, "the worker drained the queue after the restart")
        for asset in try await library.fetchAssets().allObjects() {
            #expect(library.derivatives.cached(DerivativeRenderer.grid.key, source: asset.contentHash) != nil, "grid thumbnail of \(asset.localIdentifier)")
        }
        #expect(try await library.doctor().ok)
        worker.stop()
        await running.value
        await library.close()
    }
}
