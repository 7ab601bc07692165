import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Search through the catalog's full-text index (SQLite's FTS5, and PostgreSQL's text search
/// when `scripts/test` runs the library suites on it): file names, cameras, lenses, places from
/// the place table, album titles, dates and kinds, together.
@Suite struct LibrarySearchTests {
    struct Shot {
        let name: String
        let taken: ImageMetadata.DateTime
        var place: (Double, Double)?
        var camera: (String, String)?
        var lens: String?
    }

    /// A library of four photos and a movie:
    /// - `IMG_0001.JPG`: Rome, 10 June 2019, Canon EOS R5 with an RF24-105mm
    /// - `IMG_0002.JPG`: São Paulo, 3 March 2021, NIKON D850
    /// - `DSC_0003.JPG`: no place, 25 December 2020
    /// - `Zürich lake.jpg`: Zürich, 1 August 2019
    /// - `Birthday.mp4`: a movie recorded 4 July 2019 in Rome
    static func library() async throws -> (TemporaryLibrary, [String: String]) {
        try #require(Gazetteer.standard.isAvailable, "the place table is absent: scripts/places install, and SHOEBOX_PLACES=$(scripts/places path)")
        let temporary = try await TemporaryLibrary()
        let shots = [
            Shot(
                name: "IMG_0001.JPG", taken: .init(year: 2019, month: 6, day: 10, hour: 12, minute: 0, second: 0), place: (41.8902, 12.4922),
                camera: ("Canon", "Canon EOS R5"), lens: "RF24-105mm F4 L IS USM"),
            Shot(
                name: "IMG_0002.JPG", taken: .init(year: 2021, month: 3, day: 3, hour: 12, minute: 0, second: 0), place: (-23.5505, -46.6333),
                camera: ("NIKON CORPORATION", "NIKON D850")),
            Shot(name: "DSC_0003.JPG", taken: .init(year: 2020, month: 12, day: 25, hour: 12, minute: 0, second: 0)),
            Shot(name: "Zürich lake.jpg", taken: .init(year: 2019, month: 8, day: 1, hour: 12, minute: 0, second: 0), place: (47.3769, 8.5417)),
        ]
        var identifiers: [String: String] = [:]
        for (index, shot) in shots.enumerated() {
            var metadata = ImageMetadata()
            metadata.dateTimeOriginal = shot.taken
            if let (latitude, longitude) = shot.place { (metadata.latitude, metadata.longitude) = (latitude, longitude) }
            if let (make, model) = shot.camera { (metadata.make, metadata.model) = (make, model) }
            metadata.lensModel = shot.lens
            let url = temporary.folder.appendingPathComponent(shot.name)
            try SyntheticPhoto(width: 64, height: 48, seed: UInt64(index + 1)).image().writingMetadata(metadata).encoded(as: .jpeg).write(to: url)
            identifiers[shot.name] = try #require(try await temporary.importFiles([url]).first)
        }
        var movie = SyntheticMovie(duration: 1, width: 160, height: 120)
        movie.metadata = ["creation_time": "2019-07-04T18:00:00Z", "location": "+41.8902+012.4922/"]
        let movieURL = try movie.write(to: temporary.folder.appendingPathComponent("Birthday.mp4"))
        identifiers["Birthday.mp4"] = try #require(try await temporary.importFiles([movieURL]).first)
        return (temporary, identifiers)
    }

    /// The names of what `text` finds, sorted.
    static func search(_ library: PhotoLibrary, _ text: String) async throws -> [String] {
        let query = SearchQuery(text)
        let found = try await library.fetchAssets(with: FetchOptions(predicate: query.predicate)).allObjects()
        return found.map(\.originalFilename).sorted()
    }

    @Test("Names, cameras, lenses, places, dates and kinds, alone and together")
    func findsByEverything() async throws {
        let (temporary, _) = try await Self.library()
        defer { temporary.remove() }
        let library = temporary.library
        #expect(try await Self.search(library, "rome") == ["Birthday.mp4", "IMG_0001.JPG"])
        #expect(try await Self.search(library, "Italy") == ["Birthday.mp4", "IMG_0001.JPG"], "the country's name")
        #expect(try await Self.search(library, "italy 2019 videos") == ["Birthday.mp4"])
        #expect(try await Self.search(library, "italy photos") == ["IMG_0001.JPG"])
        #expect(try await Self.search(library, "italy 2020").isEmpty)
        #expect(try await Self.search(library, "São Paulo") == ["IMG_0002.JPG"])
        #expect(try await Self.search(library, "sao brazil") == ["IMG_0002.JPG"], "without accents, with the country")
        #expect(try await Self.search(library, "zurich") == ["Zürich lake.jpg"])
        #expect(try await Self.search(library, "switzerland lake") == ["Zürich lake.jpg"])
        #expect(try await Self.search(library, "canon") == ["IMG_0001.JPG"])
        #expect(try await Self.search(library, "eos r5") == ["IMG_0001.JPG"])
        #expect(try await Self.search(library, "rf24") == ["IMG_0001.JPG"], "the lens")
        #expect(try await Self.search(library, "d850") == ["IMG_0002.JPG"])
        #expect(try await Self.search(library, "nik") == ["IMG_0002.JPG"], "a word's beginning")
        #expect(try await Self.search(library, "img") == ["IMG_0001.JPG", "IMG_0002.JPG"])
        #expect(try await Self.search(library, "IMG_0002") == ["IMG_0002.JPG"])
        #expect(try await Self.search(library, "birthday") == ["Birthday.mp4"])
        #expect(try await Self.search(library, "2019") == ["Birthday.mp4", "IMG_0001.JPG", "Zürich lake.jpg"])
        #expect(try await Self.search(library, "june 2019") == ["IMG_0001.JPG"])
        #expect(try await Self.search(library, "december") == ["DSC_0003.JPG"])
        #expect(try await Self.search(library, "summer 2019") == ["Birthday.mp4", "IMG_0001.JPG", "Zürich lake.jpg"])
        #expect(try await Self.search(library, "paris").isEmpty)
        #expect(try await Self.search(library, "romex").isEmpty)
    }

    @Test("Album titles find their photos; a renamed album finds them by its new title")
    func albums() async throws {
        let (temporary, identifiers) = try await Self.library()
        defer { temporary.remove() }
        let library = temporary.library
        let assets = try await library.fetchAssets(withLocalIdentifiers: [identifiers["DSC_0003.JPG"]!, identifiers["IMG_0002.JPG"]!]).allObjects()
        try await library.performChanges {
            AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Christmas with Grandma").addAssets(assets)
        }
        #expect(try await Self.search(library, "grandma") == ["DSC_0003.JPG", "IMG_0002.JPG"])
        #expect(try await Self.search(library, "christmas 2020") == ["DSC_0003.JPG"])
        #expect(try await Self.search(library, "grandma brazil") == ["IMG_0002.JPG"], "one word by the album, one by the place")
    }

    @Test("The index follows changes: a new place, a deleted and purged asset")
    func followsChanges() async throws {
        let (temporary, identifiers) = try await Self.library()
        defer { temporary.remove() }
        let library = temporary.library
        let photo = try #require(try await library.fetchAssets(withLocalIdentifiers: [identifiers["IMG_0001.JPG"]!]).firstObject)
        try await library.performChanges {
            AssetChangeRequest(for: photo).location = Asset.Location(latitude: 48.8584, longitude: 2.2945)
        }
        #expect(try await Self.search(library, "paris france") == ["IMG_0001.JPG"])
        #expect(try await Self.search(library, "rome") == ["Birthday.mp4"])
        // A favorite or a hide keeps the words (the index is not written again for them).
        try await library.perform(.favorite, on: [photo])
        try await library.perform(.hide, on: [photo])
        try await library.perform(.unhide, on: [photo])
        #expect(try await Self.search(library, "paris france") == ["IMG_0001.JPG"])
        #expect(try await Self.search(library, "rome") == ["Birthday.mp4"])
        let movie = try #require(try await library.fetchAssets(withLocalIdentifiers: [identifiers["Birthday.mp4"]!]).firstObject)
        try await library.performChanges { AssetChangeRequest.deleteAssets([movie]) }
        #expect(try await Self.search(library, "rome").isEmpty, "in Recently Deleted: not in default fetches")
        let trashed = try await library.fetchAssets(with: FetchOptions(predicate: .all([.isTrashed(true), .text("birthday")]), includeTrashedAssets: true))
        #expect(trashed.count == 1, "Recently Deleted can be searched")
        try await library.performChanges { AssetChangeRequest.purgeAssets([movie]) }
        #expect(try await library.fetchAssets(with: FetchOptions(predicate: .text("birthday"), includeTrashedAssets: true)).count == 0)
    }

    @Test("A SQLite catalog from before search gains the index; a worker fills it")
    func migration() async throws {
        let (temporary, _) = try await Self.library()
        defer { temporary.remove() }
        guard !temporary.isPostgres, !temporary.isS3 else { return }  // SQLite's migration; PostgreSQL's adds a plain index
        let url = temporary.library.url
        // Back to the schema before search: no index, no columns, the migration not yet run.
        let store = try #require(temporary.library.catalog as? SQLCatalogStore)
        _ = try await store.write { db in
            for statement in [
                "DROP TRIGGER assetSearch_insert", "DROP TRIGGER assetSearch_delete", "DROP TRIGGER assetSearch_update",
                "DROP TABLE assetSearch", "DROP INDEX asset_unindexed", "ALTER TABLE asset DROP COLUMN searchText", "ALTER TABLE asset DROP COLUMN lensModel",
                "DELETE FROM grdb_migrations WHERE identifier = 'v22-search'",
            ] {
                try await db.execute(SQLStatement(statement))
            }
        }
        await temporary.library.close()
        let reopened = try await PhotoLibrary.open(at: url, configuration: .init(places: .standard))
        #expect(try await Self.search(reopened, "rome").isEmpty, "not indexed yet")
        let worker = JobWorker(library: reopened, options: .init(concurrency: 1, kinds: [.searchIndex]))
        let running = Task { await worker.run() }
        defer { running.cancel() }
        var found: [String] = []
        for _ in 0..<200 {
            found = try await Self.search(reopened, "rome")
            if !found.isEmpty { break }
            await reopened.catalog.waitForJobs(timeout: .milliseconds(50))
        }
        #expect(found == ["Birthday.mp4", "IMG_0001.JPG"])
        worker.stop()
        await running.value
        // The index keeps up after it: a change of place moves the photo.
        let photo = try #require(try await reopened.fetchAssets(with: FetchOptions(predicate: .text("eos"))).firstObject)
        try await reopened.performChanges { AssetChangeRequest(for: photo).location = Asset.Location(latitude: 48.8584, longitude: 2.2945) }
        #expect(try await Self.search(reopened, "paris") == ["IMG_0001.JPG"])
        await reopened.close()
    }

    @Test("Rows from before search are indexed by the searchIndex job")
    func backfill() async throws {
        let (temporary, _) = try await Self.library()
        defer { temporary.remove() }
        let library = temporary.library
        let store = try #require(library.catalog as? SQLCatalogStore)
        _ = try await store.write { db in try await db.execute("UPDATE asset SET searchText = NULL") }
        #expect(try await Self.search(library, "rome").isEmpty, "nothing is indexed")
        #expect(try await library.enqueueMissingWork() > 0)
        #expect(try await Self.search(library, "rome") == ["Birthday.mp4", "IMG_0001.JPG"], "the first batch, at once")
        let job = try #require(try await library.jobs().first { $0.kind == .searchIndex }, "and the job for the rest")
        try await library.perform(job)
        #expect(try await store.fillSearchText(limit: 500) == 0, "nothing is left")
    }

    @Test("A day finds that day's photos; a region and a continent find the photos taken in them")
    func daysRegionsAndContinents() async throws {
        let (temporary, _) = try await Self.library()
        defer { temporary.remove() }
        let library = temporary.library
        for text in ["10 june 2019", "june 10 2019", "2019-06-10", "10/06/2019", "June 10th"] {
            #expect(try await Self.search(library, text) == ["IMG_0001.JPG"], "\(text)")
        }
        #expect(try await Self.search(library, "25/12/2020") == ["DSC_0003.JPG"])
        #expect(try await Self.search(library, "11 june 2019").isEmpty)
        #expect(try await Self.search(library, "europe") == ["Birthday.mp4", "IMG_0001.JPG", "Zürich lake.jpg"])
        #expect(try await Self.search(library, "south america") == ["IMG_0002.JPG"])
        #expect(try await Self.search(library, "latium") == ["Birthday.mp4", "IMG_0001.JPG"], "Rome's region")
        #expect(try await Self.search(library, "europe 2019 videos") == ["Birthday.mp4"])
    }

    @Test("A city is found in its outskirts by its region: madrid finds a photo in the far north of Fuencarral")
    func outskirts() async throws {
        try #require(Gazetteer.standard.isAvailable, "the place table is absent: scripts/places install")
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        // Monte de El Pardo, in the city of Madrid's district of Fuencarral-El Pardo, 22 km north
        // of the centre: more than 20 km from Madrid's point in the table.
        var metadata = ImageMetadata()
        (metadata.latitude, metadata.longitude) = (40.615, -3.745)
        let url = temporary.folder.appendingPathComponent("pardo.jpg")
        try SyntheticPhoto(width: 64, height: 48, seed: 7).image().writingMetadata(metadata).encoded(as: .jpeg).write(to: url)
        _ = try await temporary.importFiles([url])
        #expect(try await Self.search(temporary.library, "madrid") == ["pardo.jpg"])
        #expect(try await Self.search(temporary.library, "spain europe") == ["pardo.jpg"])
    }
}
