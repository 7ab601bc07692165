import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// The sweeper settles what crashes anywhere leave, once it is older than its grace period; it
/// never deletes an original (it imports it again).
@Suite struct SweeperTests {
    @Test func leftoversOlderThanTheGraceAreSettledAndYoungerOnesLeftAlone() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        _ = try await temporary.importFiles([try temporary.photo("kept.jpg", seed: 1)])
        // What a crash between filing a blob and committing its row leaves, without the claim
        // that names it (a change on another machine whose claim expired, say).
        let original = try temporary.photo("orphan.jpg", seed: 2)
        let originalHash = try #require(await PhotoLibrary.contentHash(of: original))
        try await temporary.plant(original, as: BlobKey(kind: .original, hash: originalHash))
        let render = try temporary.photo("render.jpg", seed: 3)
        let renderHash = try #require(await PhotoLibrary.contentHash(of: render))
        try await temporary.plant(render, as: BlobKey(kind: .render, hash: renderHash))

        let young = try await library.sweep()
        #expect(young.repaired.isEmpty, "a day's grace: \(young.repaired)")
        #expect(try await temporary.blobs(.original).count == 2)
        #expect(try await temporary.blobs(.render).count == 1)

        let swept = try await library.sweep(olderThan: 0)
        #expect(Set(swept.repaired.map(\.kind)) == ["orphanOriginal", "orphanRender"], "\(swept.repaired)")
        #expect(swept.ok, "\(swept.problems)")
        let names = try await library.fetchAssets().allObjects().map(\.originalFilename)
        #expect(names.contains(originalHash), "the orphan original was imported, not deleted")
        #expect(try await temporary.blobs(.render).isEmpty)
        #expect(try await library.doctor(deep: true).ok)
    }

    @Test func unfinishedUploadsAndOrphanDerivativesLeaveTheBucket() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-sweeper-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = try S3URL(try S3TestServer.freshBlobsURL())
        try await S3Client(url: target, credentials: try AWSCredentials.find()).createBucket()
        let library = try await PhotoLibrary.create(at: folder.appendingPathComponent("Sweep.shoebox"), configuration: .init(blobs: .s3(target)))
        let s3 = try #require(library.blobs as? S3BlobStore)
        let mirror = try #require(library.derivatives.mirror)

        // An import makes its derivatives and shares them through the bucket.
        let photo = folder.appendingPathComponent("p.jpg")
        try SyntheticPhoto(width: 1_600, height: 1_200, seed: 9).image().write(to: photo)
        let id = try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: photo) }.created[0].localIdentifier
        await library.derivatives.waitUntilIdle()
        let asset = try await #require(try library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        let shared = try await s3.client.listObjects(prefix: target.key("derivatives/\(asset.contentHash)/")).map(\.key)
        #expect(shared.count == 2, "the preview and the grid thumbnail: \(shared)")

        // A multipart upload a crash left open, and derivatives of a version no asset has.
        let upload = try await s3.client.createMultipartUpload(target.key("originals/ab/ab\(String(repeating: "0", count: 62))"))
        let stray = String(repeating: "cd", count: 32)
        try await s3.client.putObject(mirror.objectKey(source: stray, name: "fill-256x256=256x256.jpg"), data: Data("x".utf8))

        let report = try await library.doctor()
        #expect(report.problems.map(\.kind) == ["orphanDerivative"], "an upload younger than a claim's lease is not stale yet: \(report.problems)")
        let repaired = try await library.doctor(repair: true)
        #expect(repaired.repaired.map(\.kind) == ["orphanDerivative"])
        #expect(try await s3.client.listObjects(prefix: target.key("derivatives/\(stray)/")).isEmpty)
        #expect(try await s3.client.listObjects(prefix: target.key("derivatives/\(asset.contentHash)/")).count == 2, "the asset's own stay")

        let swept = try await library.sweep(olderThan: 0)
        #expect(swept.repaired.map(\.kind) == ["staleUpload"])
        #expect(try await s3.client.listMultipartUploads(prefix: target.prefix).allSatisfy { $0.uploadID != upload })

        // Purging the asset takes its derivatives out of the bucket too.
        try await library.performChanges { AssetChangeRequest.deleteAssets([asset]) }
        try await library.performChanges { AssetChangeRequest.purgeAssets([asset]) }
        await library.derivatives.waitUntilIdle()
        #expect(try await s3.client.listObjects(prefix: target.key("derivatives/\(asset.contentHash)/")).isEmpty)
        #expect(try await s3.client.listObjects(prefix: target.key("originals/")).isEmpty)
        await library.close()
    }

    /// One sweep at a time across processes: while another handle on the library (another
    /// process, another machine) holds the sweeper's lock, a sweep or a repair is refused as
    /// busy, and the sweep job counts as done; once it is released, they run.
    @Test func oneSweepAtATime() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let other = try await PhotoLibrary.open(at: library.url)
        let (held, holding) = AsyncStream<Void>.makeStream()
        let (release, releasing) = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await other.catalog.withAdvisoryLock("sweep") {
                holding.yield()
                for await _ in release { break }
                return true
            }
        }
        for await _ in held { break }
        let refused = await #expect(throws: LibraryError.self) { _ = try await library.sweep(olderThan: 0) }
        #expect(refused?.code == .busy && refused?.message.contains("another sweep") == true, "\(String(describing: refused))")
        let repairRefused = await #expect(throws: LibraryError.self) { _ = try await library.doctor(repair: true) }
        #expect(repairRefused?.code == .busy)
        _ = try await library.doctor()  // looking needs no lock
        // The sweep job, run meanwhile, has nothing to do: the holder sweeps.
        try await library.perform(
            BackgroundJob(
                id: 0, kind: .sweep, subject: "", state: .running, attempts: 1, maxAttempts: 5,
                runAfter: Date(), leaseOwner: nil, leaseExpires: nil, lastError: nil, createdDate: Date()))
        releasing.yield()
        #expect(try await holder.value == true)
        #expect(try await library.sweep(olderThan: 0).ok)
        #expect(try await library.doctor(repair: true).ok)
    }
}
