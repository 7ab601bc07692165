import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxLibrary

/// Two servers on two machines share one library: the catalog in PostgreSQL, the blobs in a
/// bucket, each with a folder of its own (caches only). What one imports, the other reads; a
/// thumbnail one made, the other fetches instead of rendering; a purge on one empties the bucket.
@Suite struct TwoServerLibraryTests {
    @Test func twoServersShareTheCatalogAndTheBucket() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-shared-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let blobs = try S3URL(try S3TestServer.freshBlobsURL())
        try await S3Client(url: blobs, credentials: try AWSCredentials.find()).createBucket()
        let configuration = PhotoLibrary.Configuration(catalog: .postgres(try PostgresURL(try PostgresTestServer.freshDatabase())), blobs: .s3(blobs))
        let a = try await PhotoLibrary.create(at: folder.appendingPathComponent("A.shoebox"), configuration: configuration)
        var onDemand = configuration
        onDemand.backgroundWork = .onDemand
        let b = try await PhotoLibrary.create(at: folder.appendingPathComponent("B.shoebox"), configuration: onDemand)

        let photo = folder.appendingPathComponent("shared.jpg")
        try SyntheticPhoto(width: 1_200, height: 800, seed: 31).image().write(to: photo)
        let id = try await a.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: photo) }.created[0].localIdentifier
        await a.derivatives.waitUntilIdle()  // A's preview and grid thumbnail, uploaded

        let seen = try await #require(try b.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        #expect(try Data(contentsOf: try await b.originalURL(for: seen)) == Data(contentsOf: photo))
        let thumbnail = try await ImageManager(library: b).requestDerivativeFile(
            for: seen, targetSize: PixelSize(square: 256),
            options: ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact))
        #expect(b.derivatives.renderCount.load(ordering: .relaxed) == 0, "B fetched A's thumbnail from the bucket")
        #expect(try Image(contentsOfFile: thumbnail.url.path).pixelSize.height == 256)

        try await b.performChanges { AssetChangeRequest.deleteAssets([seen]) }
        try await b.performChanges { AssetChangeRequest.purgeAssets([seen]) }
        await b.derivatives.waitUntilIdle()
        await #expect(try a.fetchAssets(withLocalIdentifiers: [id]).isEmpty)
        let client = S3Client(url: blobs, credentials: try AWSCredentials.find())
        #expect(try await client.listObjects(prefix: blobs.prefix + "/").isEmpty, "nothing left in the bucket")
        await a.close()
        await b.close()
    }
}
