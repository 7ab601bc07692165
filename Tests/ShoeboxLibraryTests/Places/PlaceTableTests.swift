import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// A library records which place table named its photos; when a table appears or changes, its
/// worker names them again by itself (the `places` job), place names, search words and local
/// times alike.
@Suite struct PlaceTableTests {
    /// Writes a table of one city (and `countries.tsv` beside it) into `folder`, each file
    /// renamed into place as `scripts/places install` does.
    static func writeTable(in folder: URL, city: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "IT\tItaly\n".write(to: folder.appendingPathComponent("countries.tsv"), atomically: true, encoding: .utf8)
        try "41.89193\t12.51133\t\(city)\tIT\t07\tEurope/Rome\t2318895\n".write(
            to: folder.appendingPathComponent("places.tsv"), atomically: true, encoding: .utf8)
    }

    /// The asset as the catalog has it now.
    static func asset(_ library: PhotoLibrary, _ localIdentifier: String) async throws -> Asset {
        try #require(try await library.fetchAssets(withLocalIdentifiers: [localIdentifier]).firstObject)
    }

    /// A library with no place table yet (it will be `tables/places.tsv`) holding one photo taken
    /// in Rome at 15:56 in July, the file recording no offset.
    struct RomePhoto {
        let tables: URL
        let places: Gazetteer
        let temporary: TemporaryLibrary
        let identifier: String

        init() async throws {
            tables = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString)")
            places = Gazetteer(searching: [tables.appendingPathComponent("places.tsv").path])
            temporary = try await TemporaryLibrary(places: places)
            var metadata = ImageMetadata()
            metadata.dateTimeOriginal = .init(year: 2021, month: 7, day: 4, hour: 15, minute: 56, second: 0)
            (metadata.latitude, metadata.longitude) = (41.9, 12.5)
            let url = temporary.folder.appendingPathComponent("IMG_0001.JPG")
            try SyntheticPhoto(width: 64, height: 48, seed: 1).image().writingMetadata(metadata).encoded(as: .jpeg).write(to: url)
            identifier = try #require(try await temporary.importFiles([url]).first)
        }

        func remove() {
            temporary.remove()
            try? FileManager.default.removeItem(at: tables)
        }
    }

    @Test("A library opened before the place table appears names its photos once it appears, and again when it changes, unasked")
    func namesPhotosWhenTheTableAppears() async throws {
        let rome = try await RomePhoto()
        defer { rome.remove() }
        let (tables, places, library, identifier) = (rome.tables, rome.places, rome.temporary.library, rome.identifier)
        #expect(try await library.catalog.setting(PhotoLibrary.placeTableSetting) == "none", "a new library records that it has no table")

        // Without a table, no place and no zone.
        let before = try await Self.asset(library, identifier)
        #expect(before.timeZoneOffset == nil && before.creationDate == CaptureTimeTests.utc("2021-07-04T15:56:00Z"))
        #expect(try await LibrarySearchTests.search(library, "rome").isEmpty)
        #expect(try await library.fetchPlaces().isEmpty)

        // The worker a server runs; it looks at the table every 0.1 s here (every minute by default).
        let worker = JobWorker(
            library: library,
            options: .init(concurrency: 1, kinds: [.places, .searchIndex, .metadata], pollInterval: .milliseconds(50), placeTableInterval: .milliseconds(100)))
        let running = Task { await worker.run() }
        defer { running.cancel() }
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await library.jobs().isEmpty, "nothing to do while there is no table")

        try Self.writeTable(in: tables, city: "Rome")
        var named = before
        for _ in 0..<400 {
            named = try await Self.asset(library, identifier)
            if named.timeZoneIdentifier != nil, try await !LibrarySearchTests.search(library, "rome").isEmpty { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(named.timeZoneIdentifier == "Europe/Rome" && named.timeZoneOffset == 7_200, "the local time from the place")
        #expect(named.creationDate == CaptureTimeTests.utc("2021-07-04T13:56:00Z"))
        #expect(named.captureTime.localDateString == "2021-07-04T15:56:00")
        #expect(try await LibrarySearchTests.search(library, "rome") == ["IMG_0001.JPG"])
        #expect(try await LibrarySearchTests.search(library, "italy") == ["IMG_0001.JPG"])
        #expect(try await library.fetchPlaces().first?.cities.map(\.name) == ["Rome"])
        #expect(try await library.catalog.setting(PhotoLibrary.placeTableSetting) == places.fingerprint)

        // A new table (the city renamed): the photo follows it.
        try Self.writeTable(in: tables, city: "Roma")
        for _ in 0..<400 {
            if try await !LibrarySearchTests.search(library, "roma").isEmpty { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try await LibrarySearchTests.search(library, "roma") == ["IMG_0001.JPG"])
        #expect(try await LibrarySearchTests.search(library, "rome").isEmpty)
        #expect(try await library.fetchPlaces().first?.cities.map(\.name) == ["Roma"])
        worker.stop()
        await running.value
    }

    @Test("A library reopened after the table appeared queues the renaming job when served")
    func reopenedLibraryQueuesTheJob() async throws {
        let rome = try await RomePhoto()
        defer { rome.remove() }
        let (tables, temporary, identifier) = (rome.tables, rome.temporary, rome.identifier)
        try await temporary.library.scheduleRepeatingJobs()
        #expect(try await !temporary.library.jobs().contains { $0.kind == .places }, "the same table (none): nothing to do")

        try Self.writeTable(in: tables, city: "Rome")
        try await temporary.library.scheduleRepeatingJobs()  // as `shoebox serve` does at start
        let job = try #require(try await temporary.library.jobs().first { $0.kind == .places })
        try await temporary.library.perform(job)
        #expect(try await LibrarySearchTests.search(temporary.library, "rome") == ["IMG_0001.JPG"], "named at once (a first batch)")
        let reread = try #require(try await temporary.library.jobs().first { $0.kind == .metadata }, "its local time is read again")
        #expect(reread.subject == identifier)
        try await temporary.library.perform(reread)
        #expect(try await Self.asset(temporary.library, identifier).timeZoneIdentifier == "Europe/Rome")
        #expect(try await temporary.library.placeTableChanged() == false, "recorded: nothing more to do")
    }
}
