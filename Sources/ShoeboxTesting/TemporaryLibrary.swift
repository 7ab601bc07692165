import Foundation
import ShoeboxImaging
import ShoeboxLibrary

/// A new, empty library in a temporary folder, for tests of code that uses a photo library;
/// `remove()` deletes it.
///
/// ```swift
/// let temporary = try await TemporaryLibrary()
/// defer { temporary.remove() }
/// let ids = try await temporary.importFiles([try temporary.photo("a.jpg", seed: 1)])
/// ```
public struct TemporaryLibrary: Sendable {
    /// The temporary folder; the library is `Test.shoebox` inside it.
    public let folder: URL
    /// The library.
    public let library: PhotoLibrary

    /// - Parameter backgroundWork: How changes do their work after they commit: on demand by
    ///   default, so that suites not about derivatives do not spend the two cores on thumbnails
    ///   (``ShoeboxLibrary/PhotoLibrary/BackgroundWork``).
    ///
    /// With `SHOEBOX_TEST_CATALOG=postgres` (how `scripts/test` runs these suites a second time)
    /// the catalog is a fresh PostgreSQL database instead of SQLite: every behaviour test runs on
    /// both.
    ///   `places` is where time zones of places come from (the machine's table by default).
    public init(backgroundWork: PhotoLibrary.BackgroundWork = .onDemand, places: Gazetteer? = Gazetteer.standard) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Test.shoebox")
        library = try await Self.makeLibrary(at: url, places: places, backgroundWork: backgroundWork)
    }

    /// A library whose imports make their derivatives in this process after each change
    /// (`derivatives`), or only when asked for.
    public init(derivatives: Bool, places: Gazetteer? = Gazetteer.standard) async throws {
        try await self.init(backgroundWork: derivatives ? .inProcess : .onDemand, places: places)
    }

    /// A new library at `url` on the catalog and blob store this test run is about
    /// (`SHOEBOX_TEST_CATALOG=postgres`, `SHOEBOX_TEST_BLOBS=s3`), else SQLite and files.
    public static func makeLibrary(
        at url: URL, places: Gazetteer? = Gazetteer.standard, backgroundWork: PhotoLibrary.BackgroundWork = .inProcess
    ) async throws -> PhotoLibrary {
        var configuration = PhotoLibrary.Configuration(places: places, backgroundWork: backgroundWork)
        if PostgresTestServer.isCatalogUnderTest {
            configuration.catalog = .postgres(try PostgresURL(try PostgresTestServer.freshDatabase()))
        }
        if S3TestServer.isBlobStoreUnderTest {
            let s3 = try S3URL("s3://\(S3TestServer.bucket)/\(S3TestServer.freshPrefix())?endpoint=\(try S3TestServer.endpoint())&region=us-east-1")
            try await S3Client(url: s3, credentials: try AWSCredentials.find()).createBucket()
            configuration.blobs = .s3(s3)
        }
        if case .sqlite = configuration.catalog, configuration.blobs == .files {
            return try await PhotoLibrary.open(at: url, configuration: configuration)
        }
        return try await PhotoLibrary.create(at: url, configuration: configuration)
    }

    /// Whether the blobs are in S3 (see ``init(backgroundWork:places:)``).
    public var isS3: Bool { S3TestServer.isBlobStoreUnderTest }

    /// Whether the catalog is PostgreSQL (see ``init(backgroundWork:places:)``).
    public var isPostgres: Bool { PostgresTestServer.isCatalogUnderTest }

    /// Writes a generated JPEG whose stored pixels are `width`×`height` and whose EXIF says
    /// `orientation` (so 5…8 display as `height`×`width`).
    public func orientedPhoto(_ name: String, seed: UInt64, width: Int, height: Int, orientation: Int) throws -> URL {
        var metadata = ImageMetadata()
        metadata.make = "Shoebox"
        let data = try SyntheticPhoto(width: width, height: height, seed: seed).image(metadata: metadata)
            .encoded(as: .jpeg, options: ImageEncodingOptions(keepsMetadata: true))
        var bytes = [UInt8](data)
        // The Orientation entry (tag 0x0112, SHORT, count 1), big- or little-endian.
        let bigEndian: [UInt8] = [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01]
        let littleEndian: [UInt8] = [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00]
        var patched = false
        for index in 0..<(bytes.count - 10) {
            if Array(bytes[index..<index + 8]) == bigEndian {
                bytes[index + 8] = 0
                bytes[index + 9] = UInt8(orientation)
                patched = true
                break
            }
            if Array(bytes[index..<index + 8]) == littleEndian {
                bytes[index + 8] = UInt8(orientation)
                bytes[index + 9] = 0
                patched = true
                break
            }
        }
        guard patched else { throw ChildProcess.Failure("the encoder wrote no EXIF orientation to patch") }
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Writes a small generated JPEG (distinct per seed) and returns its URL.
    public func photo(_ name: String, seed: UInt64, width: Int = 120, height: Int = 80) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try SyntheticPhoto(width: width, height: height, seed: seed).image().write(to: url)
        return url
    }

    /// Imports files one change each; returns their identifiers.
    public func importFiles(_ urls: [URL]) async throws -> [String] {
        var identifiers: [String] = []
        for url in urls {
            let result = try await library.performChanges {
                _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url)
            }
            identifiers.append(result.created[0].localIdentifier)
        }
        return identifiers
    }

    /// The regular files under the library's `subfolder` (all the way down).
    public func files(in subfolder: String) -> [String] {
        let root = library.url.appendingPathComponent(subfolder)
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var found: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { found.append(url.path) }
        }
        return found
    }

    /// The blobs of `kind` the library's store holds (files in the library, or objects in S3).
    package func blobs(_ kind: BlobKind) async throws -> [StoredBlob] {
        try await library.blobs.list(kind)
    }

    /// Removes a stored blob behind the library's back (loss).
    package func lose(_ key: BlobKey) async throws {
        try await library.blobs.remove(key)
    }

    /// Deletes the folder and the library in it.
    public func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
