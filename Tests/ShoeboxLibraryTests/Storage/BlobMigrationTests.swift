import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxLibrary

/// `shoebox migrate --blobs`: a library of files moves to a bucket and loses nothing.
@Suite struct BlobMigrationTests {
    /// A library of files (whatever the suites' blob store) with three photos, one edited and one
    /// in Recently Deleted.
    struct Fixture {
        let folder: URL
        let url: URL
        let sources: [String: Data]
        let ids: [String]

        init() async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-blob-migration-\(UUID().uuidString)")
            url = folder.appendingPathComponent("Move.shoebox")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var configuration = PhotoLibrary.Configuration()
            if PostgresTestServer.isCatalogUnderTest {
                configuration.catalog = .postgres(try PostgresURL(try PostgresTestServer.freshDatabase()))
            }
            configuration.backgroundWork = .onDemand
            let library = try await PhotoLibrary.create(at: url, configuration: configuration)
            var sources: [String: Data] = [:]
            var ids: [String] = []
            for index in 0..<3 {
                let photo = folder.appendingPathComponent("p\(index).jpg")
                try SyntheticPhoto(width: 200, height: 150, seed: UInt64(70 + index)).image().write(to: photo)
                ids.append(try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: photo) }.created[0].localIdentifier)
                sources[ids.last!] = try Data(contentsOf: photo)
            }
            let assets = try await library.fetchAssets(withLocalIdentifiers: ids).allObjects()
            _ = try await library.applyAdjustments(Adjustments(rotation: 90), to: assets.first { $0.localIdentifier == ids[0] }!)
            try await library.performChanges { AssetChangeRequest.deleteAssets([assets.first { $0.localIdentifier == ids[2] }!]) }
            await library.close()
            self.sources = sources
            self.ids = ids
        }

        func localBlobs() async throws -> [StoredBlob] {
            let files = FileBlobStore(root: url)
            return try await files.list(.original) + files.list(.render)
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    static func bucket() async throws -> S3URL {
        let target = try S3URL(try S3TestServer.freshBlobsURL())
        try await S3Client(url: target, credentials: try AWSCredentials.find()).createBucket()
        return target
    }

    @Test func aLibraryMovesToABucketAndThenLetsGoOfItsFiles() async throws {
        let fixture = try await Fixture()
        defer { fixture.remove() }
        let target = try await Self.bucket()
        let steps = Steps()
        let report = try await PhotoLibrary.migrateBlobs(ofLibraryAt: fixture.url, to: target) { steps.add($0) }
        #expect(report.copied == 4, "three originals and a render")
        #expect(report.alreadyThere == 0 && report.deletedLocal == 0)
        #expect(steps.last?.done == 4 && steps.last?.total == 4)
        #expect(try await fixture.localBlobs().count == 4, "nothing local is removed without --delete-local")

        // The library now reads everything from the bucket.
        let library = try await PhotoLibrary.open(at: fixture.url)
        #expect(library.configuration.blobs == .s3(target))
        for asset in try await library.fetchAssets(with: FetchOptions(includeTrashedAssets: true)).allObjects() {
            #expect(try Data(contentsOf: try await library.originalURL(for: asset)) == fixture.sources[asset.localIdentifier])
            #expect(try await library.storesOriginal(of: asset))
        }
        let report2 = try await library.doctor(deep: true)
        #expect(report2.ok, "\(report2.problems)")
        await library.close()

        // Again, letting go of the local copies: nothing is sent twice, each object is checked.
        let second = try await PhotoLibrary.migrateBlobs(ofLibraryAt: fixture.url, to: target, deletingLocalCopies: true)
        #expect(second.copied == 0 && second.alreadyThere == 4 && second.deletedLocal == 4)
        #expect(try await fixture.localBlobs().isEmpty)
        let reopened = try await PhotoLibrary.open(at: fixture.url)
        // The cache of downloads is not the library's copy: drop it and read from the bucket.
        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("cache/blobs"))
        let edited = try await #require(try reopened.fetchAssets(withLocalIdentifiers: [fixture.ids[0]]).firstObject)
        #expect(edited.hasAdjustments)
        #expect(try await PhotoLibrary.contentHash(of: reopened.currentURL(for: edited)) == edited.resources.last?.contentHash)
        #expect(try await reopened.doctor(deep: true).ok)
        await reopened.close()
    }

    @Test func aDamagedLocalFileStopsTheMoveBeforeTheSwitch() async throws {
        let fixture = try await Fixture()
        defer { fixture.remove() }
        let target = try await Self.bucket()
        let victim = try #require(try await fixture.localBlobs().first)
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: victim.name))
        await #expect {
            _ = try await PhotoLibrary.migrateBlobs(ofLibraryAt: fixture.url, to: target)
        } throws: { error in
            guard let error = error as? LibraryError, error.code == .storage else { return false }
            let message = error.message
            return message.contains("doctor --deep") && message.contains("nothing was switched")
        }
        #expect(try PhotoLibrary.Configuration.load(fromLibraryAt: fixture.url).blobs == .files, "the library still uses its files")
    }

    @Test func aLibraryInAnotherBucketIsNotMoved() async throws {
        let fixture = try await Fixture()
        defer { fixture.remove() }
        let first = try await Self.bucket()
        let second = try await Self.bucket()
        _ = try await PhotoLibrary.migrateBlobs(ofLibraryAt: fixture.url, to: first)
        await #expect(throws: LibraryError.self) { _ = try await PhotoLibrary.migrateBlobs(ofLibraryAt: fixture.url, to: second) }
        #expect(try PhotoLibrary.Configuration.load(fromLibraryAt: fixture.url).blobs == .s3(first))
    }
}

/// Progress reports, kept in order.
final class Steps: Sendable {
    private let steps = Mutex<[BlobMigrationProgress]>([])
    func add(_ step: BlobMigrationProgress) { steps.withLock { $0.append(step) } }
    var last: BlobMigrationProgress? { steps.withLock { $0.max { $0.done < $1.done } } }
}
