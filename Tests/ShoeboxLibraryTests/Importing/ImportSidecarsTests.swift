import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Issue 44 item 2: an import brings each photo's XMP sidecar in with it (the sidecar wins over
/// the file), names the sidecars it has no photo for, and keeps what they say searchable.
@Suite struct ImportSidecarsTests {
    /// A JPEG whose EXIF says it was taken on 1 January 2018 at noon UTC, in London.
    private func photo(seed: UInt64) throws -> Data {
        var metadata = ImageMetadata()
        metadata.dateTimeOriginal = ImageMetadata.DateTime(year: 2018, month: 1, day: 1, hour: 12, minute: 0, second: 0, utcOffset: 0)
        metadata.latitude = 51.5
        metadata.longitude = -0.12
        return try Image.embeddingMetadata(metadata, in: SyntheticPhoto(width: 60, height: 40, seed: seed).image().encoded(as: .jpeg))
    }

    @Test func aSidecarWinsOverItsFileAndIsSearchable() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let folder = temporary.folder.appendingPathComponent("Lightroom")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try photo(seed: 401).write(to: folder.appendingPathComponent("IMG_1.JPG"))
        try XMPSidecarTests.lightroom.write(to: folder.appendingPathComponent("IMG_1.JPG.xmp"))
        try photo(seed: 402).write(to: folder.appendingPathComponent("IMG_2.jpg"))
        try Data("<not xmp".utf8).write(to: folder.appendingPathComponent("IMG_2.xmp"))
        try XMPSidecarTests.lightroom.write(to: folder.appendingPathComponent("IMG_9.CR2.xmp"))

        let report = await temporary.library.importItems(at: [folder])
        #expect(report.imported == 2 && report.sidecars == 1 && report.skipped.isEmpty, "\(report)")
        #expect(report.waitingSidecars.map(\.photo) == ["IMG_9.CR2"])
        #expect(report.failed.count == 1 && report.failed.first?.path.hasSuffix("IMG_2.xmp") == true, "the broken sidecar is named; its photo is in")
        #expect(report.failed.first?.message.contains("not well-formed XML") == true, "\(report.failed)")

        let assets = try await temporary.library.fetchAssets().allObjects()
        let one = try #require(assets.first { $0.originalFilename == "IMG_1.JPG" })
        let two = try #require(assets.first { $0.originalFilename == "IMG_2.jpg" })
        #expect(one.title == "Colosseum at dusk" && one.caption == "The arches lit up" && one.rating == 4 && one.label == "Red")
        #expect(one.keywords == ["Places/Italy/Rome", "holiday"])
        // The sidecar's place and its clock time, read in that place's zone (Rome, summer: +2 h).
        #expect(abs((one.location?.latitude ?? 0) - 41.89) < 1e-9)
        #expect(one.timeZoneOffset == 7_200 && one.creationDate == ISO8601DateFormatter().date(from: "2019-06-14T16:30:00Z"))
        #expect(two.title == nil && two.keywords.isEmpty && two.creationDate == ISO8601DateFormatter().date(from: "2018-01-01T12:00:00Z"))

        for words in ["colosseum", "arches", "italy holiday", "red"] {
            let found = try await temporary.library.fetchAssets(with: FetchOptions(predicate: .text(words))).allObjects()
            #expect(found.map(\.localIdentifier) == [one.localIdentifier], "“\(words)”")
        }

        // Reading the file again (the metadata job) keeps the sidecar's date and place.
        try await temporary.library.rereadMetadata(of: one.localIdentifier)
        let reread = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: [one.localIdentifier]).firstObject)
        #expect(reread.creationDate == one.creationDate && reread.location == one.location && reread.title == one.title)
    }

    /// A photo already in the library gets what a sidecar imported with it again says, where it
    /// has nothing; what it has stays.
    @Test func aDuplicateGetsOnlyWhatItLacks() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let folder = temporary.folder.appendingPathComponent("Again")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("IMG_1.jpg")
        try photo(seed: 403).write(to: file)
        let first = await temporary.library.importItems(at: [file])
        let asset = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: first.assets).firstObject)
        try await temporary.library.performChanges { AssetChangeRequest(for: asset).title = "Mine" }

        try XMPSidecarTests.lightroom.write(to: folder.appendingPathComponent("IMG_1.xmp"))
        let again = await temporary.library.importItems(at: [folder])
        #expect(again.duplicates == 1 && again.sidecars == 1 && again.failed.isEmpty, "\(again)")
        let filled = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: first.assets).firstObject)
        #expect(filled.title == "Mine", "the person's title stays")
        #expect(filled.rating == 4 && filled.keywords == ["Places/Italy/Rome", "holiday"] && filled.caption == "The arches lit up")
        #expect(filled.creationDate == asset.creationDate && filled.location == asset.location, "its own date and place stay")
    }

    /// The same on a PostgreSQL catalog: its columns, and its full-text search over the words.
    @Test func onPostgreSQLTheSameIsKeptAndFound() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-xmp-pg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = folder.appendingPathComponent("Photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try photo(seed: 404).write(to: photos.appendingPathComponent("IMG_1.jpg"))
        try XMPSidecarTests.lightroom.write(to: photos.appendingPathComponent("IMG_1.xmp"))
        let database = try PostgresURL(try PostgresTestServer.freshDatabase())
        let library = try await PhotoLibrary.open(
            at: folder.appendingPathComponent("PG.shoebox"), configuration: .init(catalog: .postgres(database), backgroundWork: .onDemand))
        let report = await library.importItems(at: [photos])
        #expect(report.imported == 1 && report.sidecars == 1, "\(report)")
        let found = try await library.fetchAssets(with: FetchOptions(predicate: .text("rome colosseum"))).allObjects()
        #expect(found.map(\.title) == ["Colosseum at dusk"] && found.first?.keywords == ["Places/Italy/Rome", "holiday"] && found.first?.rating == 4)
        await library.close()
    }
}
