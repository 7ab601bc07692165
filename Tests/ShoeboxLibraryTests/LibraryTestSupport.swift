import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting

let corpus = Corpus.locate()
let corpusMissing = "the shared corpus (../shared/corpus or $SHOEBOX_CORPUS) is absent"

/// A new, empty library in a temporary folder; `remove()` deletes it.
struct TemporaryLibrary {
    let folder: URL
    let library: PhotoLibrary

    /// - Parameter derivatives: Whether imports make derivatives in the background (off by
    ///   default so that suites not about them do not spend the two cores on thumbnails).
    ///
    /// With `SHOEBOX_TEST_CATALOG=postgres` (how `scripts/test` runs these suites a second time)
    /// the catalog is a fresh PostgreSQL database instead of SQLite: every behaviour test runs on
    /// both.
    init(derivatives: Bool = false) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-library-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Test.shoebox")
        if PostgresTestServer.isCatalogUnderTest {
            let database = try PostgresURL(try PostgresTestServer.freshDatabase())
            library = try await PhotoLibrary.create(at: url, configuration: .init(catalog: .postgres(database)))
        } else {
            library = try await PhotoLibrary.open(at: url)
        }
        library.generatesDerivativesInBackground = derivatives
    }

    /// Whether the catalog is PostgreSQL (see ``init(derivatives:)``).
    var isPostgres: Bool { PostgresTestServer.isCatalogUnderTest }

    /// Writes a generated JPEG whose stored pixels are `width`×`height` and whose EXIF says
    /// `orientation` (so 5…8 display as `height`×`width`).
    func orientedPhoto(_ name: String, seed: UInt64, width: Int, height: Int, orientation: Int) throws -> URL {
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
                bytes[index + 8] = 0; bytes[index + 9] = UInt8(orientation); patched = true; break
            }
            if Array(bytes[index..<index + 8]) == littleEndian {
                bytes[index + 8] = UInt8(orientation); bytes[index + 9] = 0; patched = true; break
            }
        }
        guard patched else { throw ChildProcess.Failure("the encoder wrote no EXIF orientation to patch") }
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Writes a small generated JPEG (distinct per seed) and returns its URL.
    func photo(_ name: String, seed: UInt64, width: Int = 120, height: Int = 80) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try SyntheticPhoto(width: width, height: height, seed: seed).image().write(to: url)
        return url
    }

    /// Imports files one change each; returns their identifiers.
    func importFiles(_ urls: [URL]) async throws -> [String] {
        var identifiers: [String] = []
        for url in urls {
            let result = try await library.performChanges {
                _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url)
            }
            identifiers.append(result.created[0].localIdentifier)
        }
        return identifiers
    }

    func files(in subfolder: String) -> [String] {
        let root = library.url.appendingPathComponent(subfolder)
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var found: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { found.append(url.path) }
        }
        return found
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
