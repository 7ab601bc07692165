import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Issue 39 item G(c): a thumbnail job that failed because the bucket was away is tried again by
/// itself, with backoff, until the bucket is back — even past its attempts — while a job that
/// failed because of its file stays failed (`JobQueueTests.failuresBackOffThenStayFailedUntilRetried`).
/// On a SeaweedFS of its own, stopped and started again.
@Suite struct TransientJobFailureTests {
    @Test func aJobThatMetABucketOutageIsRetriedByItself() async throws {
        _ = try S3TestServer.endpoint()  // the identity in the environment
        let store = try ThrowawayServer(.s3, name: "s3-outage")
        defer { store.remove() }
        let folder = store.folder
        let bucket = try S3URL("s3://outage/t?endpoint=\(store.url)&region=us-east-1")
        try await S3Client(url: bucket, credentials: try AWSCredentials.find()).createBucket()

        let url = folder.appendingPathComponent("L.shoebox")
        var library = try await PhotoLibrary.create(at: url, configuration: .init(blobs: .s3(bucket)))
        let photo = folder.appendingPathComponent("p.jpg")
        try SyntheticPhoto(width: 400, height: 300, seed: 9).image().write(to: photo)
        let id = try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: photo) }.created[0].localIdentifier
        let asset = try #require(try await library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        // Nothing of it on this machine: rendering needs the bucket.
        await library.close()
        try? FileManager.default.removeItem(at: url.appendingPathComponent("cache"))
        library = try await PhotoLibrary.open(at: url)
        library.derivatives.removeAll(forSource: asset.contentHash)

        try store.halt()
        // One attempt only: before, the first failure was the last.
        try await library.enqueue([BackgroundJob.Request(kind: .derivatives, subject: id, maxAttempts: 1)])
        let worker = JobWorker(library: library, options: .init(concurrency: 1, kinds: [.derivatives], pollInterval: .milliseconds(200)))
        let updates = EventRecorder(worker.statisticsUpdates)
        let running = Task { await worker.run() }
        defer { worker.stop() }
        #expect(await updates.wait(timeout: .seconds(60)) { ($0.last?.failedAttempts ?? 0) >= 1 }, "the job did not meet the outage")
        let waiting = try await library.jobs(in: [.queued, .failed]).filter { $0.kind == .derivatives }
        #expect(waiting.map(\.state) == [.queued], "after the outage's failure the job waits for its retry: \(waiting.map(\.state))")
        #expect(waiting.first?.lastError?.contains("object storage") == true, "\(waiting.first?.lastError ?? "")")

        try store.start()
        try await JobQueueTests.drain(library, worker: worker, kinds: [.derivatives])
        #expect(try await library.jobs(in: [.failed]).isEmpty, "the job stayed failed")
        #expect(library.derivatives.cached(DerivativeRenderer.grid.key, source: asset.contentHash) != nil, "no grid thumbnail")
        worker.stop()
        await running.value
        await library.close()
    }
}
