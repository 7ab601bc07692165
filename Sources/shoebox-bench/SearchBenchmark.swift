import ArgumentParser
import Foundation
import GRDB
import ShoeboxLibrary
import ShoeboxTesting

/// `shoebox-bench search`: what the web app's search field costs on a large library, in SQLite
/// (FTS5) and PostgreSQL (a GIN index over `to_tsvector`).
struct SearchBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search on a large catalog: SQLite's FTS5 beside PostgreSQL's text search.",
        discussion: """
            Builds (each run, in a temporary folder) a catalog of --assets synthetic assets with \
            the words search finds them by — file names, one of twelve cameras and eight lenses, \
            half of them placed around thirty cities of the world (the place table names them) — \
            in SQLite and, unless --no-postgres, in PostgreSQL (a cluster of scripts/postgres). \
            Then starts `shoebox serve` (the release build beside this benchmark) on each and asks \
            it, over HTTP on one keep-alive connection, what the web app asks when a person \
            searches Recents: POST /api/fetches (every match, newest first, its count and month \
            sections) and that fetch's first page of 200, --samples times each in rounds of ten \
            alternating with the library's own fetch and sections in this process (the floor: \
            the same catalog, no HTTP), median and p99, for queries of each kind (a place, a \
            country with a year, a camera, a file name, a kind with a place, a season, nothing \
            found). Target: p99 < 50 ms for the search and its first page on 100,000 assets. \
            The Places view's and memories' queries are timed in-process, best of --runs.
            """)

    @Option(help: "Assets in the catalog.") var assets = 100_000
    @Option(help: "Timed searches of each query (after 10 unmeasured).") var samples = 200
    @Option(help: "Runs of the Places and memories queries; the best counts.") var runs = 5
    @Flag(help: "Leave PostgreSQL out.") var noPostgres = false
    @Flag(help: "Print JSON.") var json = false

    static let queries = ["rome", "italy 2019", "canon", "nikon d850", "img 0012345", "videos paris", "summer 2015", "kyoto japan", "zzzz"]

    static let cameras = [
        ("Canon", "Canon EOS R5"), ("Canon", "Canon EOS 5D Mark IV"), ("NIKON CORPORATION", "NIKON D850"),
        ("NIKON CORPORATION", "NIKON Z 6"), ("SONY", "ILCE-7M3"), ("FUJIFILM", "X-T4"), ("Apple", "iPhone 13 Pro"),
        ("Apple", "iPhone 8"), ("samsung", "SM-G991B"), ("Google", "Pixel 7"), ("OLYMPUS CORPORATION", "E-M1MarkII"),
        ("Panasonic", "DC-GH5"),
    ]
    static let lenses = [
        "RF24-105mm F4 L IS USM", "EF50mm f/1.8 STM", "NIKKOR Z 24-70mm f/4 S", "FE 24-70mm F2.8 GM",
        "XF18-55mmF2.8-4 R LM OIS", "iPhone 13 Pro back triple camera 5.7mm f/1.5", "M.Zuiko 12-40mm F2.8", "LUMIX G VARIO 12-35",
    ]
    static let cities = [
        (41.8902, 12.4922), (48.8584, 2.2945), (51.5007, -0.1246), (40.7484, -73.9857), (35.6762, 139.6503),
        (-33.8568, 151.2153), (-23.5505, -46.6333), (30.0444, 31.2357), (52.5163, 13.3777), (40.4168, -3.7038),
        (47.3769, 8.5417), (-1.2921, 36.8219), (28.6139, 77.2090), (39.9042, 116.4074), (55.7558, 37.6173),
        (43.6532, -79.3832), (19.4326, -99.1332), (-33.9249, 18.4241), (64.1466, -21.9426), (13.7563, 100.5018),
        (41.0082, 28.9784), (-34.6037, -58.3816), (38.7223, -9.1393), (48.2082, 16.3738), (50.0755, 14.4378),
        (37.5665, 126.9780), (1.3521, 103.8198), (25.2048, 55.2708), (34.0522, -118.2437), (35.0116, 135.7681),
    ]

    /// One query's timings, milliseconds: `search` is POST /api/fetches over HTTP, `library`
    /// the same fetch and month sections in this process, `firstPage` the fetch's first 200.
    struct QueryTiming: Encodable {
        var query = ""
        var found = 0
        var months = 0
        var search = Percentiles()
        var library = Percentiles()
        var firstPage = Percentiles()
        /// What a person waits for at worst: the search's p99 and its first page's.
        var p99: Double { search.p99 + firstPage.p99 }
        enum CodingKeys: String, CodingKey { case query, found, months, search, library, firstPage, p99 }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(query, forKey: .query)
            try container.encode(found, forKey: .found)
            try container.encode(months, forKey: .months)
            try container.encode(search, forKey: .search)
            try container.encode(library, forKey: .library)
            try container.encode(firstPage, forKey: .firstPage)
            try container.encode(p99, forKey: .p99)
        }
    }

    struct Engine: Encodable {
        var build = 0.0
        var queries: [QueryTiming] = []
        /// What the Places view and the Recents memories ask of the same catalog (best runs, ms):
        /// the countries and cities, map clusters at the world's scale (15°) and a city's
        /// (0.05°), and the memories.
        var places = 0.0
        var clustersWorld = 0.0
        var clustersCity = 0.0
        var memories = 0.0
        /// The largest search p99 plus its first page's p99.
        var slowest: Double { queries.map(\.p99).max() ?? 0 }
        enum CodingKeys: String, CodingKey { case build, queries, slowest, places, clustersWorld, clustersCity, memories }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(build, forKey: .build)
            try container.encode(queries, forKey: .queries)
            try container.encode(slowest, forKey: .slowest)
            try container.encode(places, forKey: .places)
            try container.encode(clustersWorld, forKey: .clustersWorld)
            try container.encode(clustersCity, forKey: .clustersCity)
            try container.encode(memories, forKey: .memories)
        }
    }

    struct Result: Encodable {
        var assets = 0
        var sqlite = Engine()
        var postgres: Engine?
    }

    /// The synthetic asset `index`: a tenth movies, taken over twenty years from 2006.
    static func record(_ index: Int, _ generator: inout SplitMix64, now: Date) -> AssetRecord {
        let random = generator.next()
        let isVideo = random % 10 == 0
        let taken = Date(timeIntervalSince1970: 1_136_073_600 + Double(generator.next() % 631_152_000))
        let camera = cameras[Int(random / 7 % UInt64(cameras.count))]
        let city = random % 2 == 0 ? cities[Int(random / 11 % UInt64(cities.count))] : nil
        let jitterLatitude = (Double(generator.next() % 1_000) - 500) / 10_000
        let jitterLongitude = (Double(generator.next() % 1_000) - 500) / 10_000
        return AssetRecord(
            id: nil, localIdentifier: String(format: "%08X-5EA2-0000-0000-%012X/L0/001", index, index), mediaType: isVideo ? 2 : 1, mediaSubtypes: 0,
            pixelWidth: 4032, pixelHeight: 3024, creationDate: taken, modificationDate: taken, addedDate: min(now, taken.addingTimeInterval(86_400)),
            latitude: city.map { $0.0 + jitterLatitude }, longitude: city.map { $0.1 + jitterLongitude }, altitude: nil, duration: isVideo ? 12 : 0,
            isFavorite: random % 17 == 3, isHidden: false, trashedDate: nil,
            originalFilename: String(format: "IMG_%07d.%@", index, isVideo ? "MOV" : "JPG"), contentHash: String(format: "%064x", index),
            uniformTypeIdentifier: isVideo ? "com.apple.quicktime-movie" : "public.jpeg", fileSize: 3_000_000, creatorClient: nil,
            cameraMake: camera.0, cameraModel: camera.1, lensModel: isVideo ? nil : lenses[Int(random / 13 % UInt64(lenses.count))])
    }

    func records() -> [AssetRecord] {
        let places = Gazetteer.standard
        var generator = SplitMix64(seed: 21)
        let now = Date()
        return (0..<assets).map { index in
            var record = Self.record(index, &generator, now: now)
            record.searchText = AssetSearchText.text(for: record, places: places)
            (record.placeName, record.placeCountry) = AssetSearchText.place(for: record, places: places)
            return record
        }
    }

    func run() async throws {
        guard Gazetteer.standard.isAvailable else {
            throw ValidationError("the place table is missing: scripts/places install, then SHOEBOX_PLACES=$(scripts/places path)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-search-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        if !json { Progress.note("making \(assets) assets' words (places from the place table)") }
        let rows = records()
        var result = Result()
        result.assets = assets

        if !json { Progress.note("SQLite: inserting (the FTS5 index is kept by triggers)") }
        let sqliteURL = folder.appendingPathComponent("SQLite.shoebox")
        var build = try await CatalogBenchmark.milliseconds {
            let library = try await PhotoLibrary.open(at: sqliteURL)
            try await Self.insert(rows, into: library)
            await library.close()
            let queue = try DatabaseQueue(path: sqliteURL.appendingPathComponent("catalog.sqlite").path)
            try await queue.write { db in try db.execute(sql: "ANALYZE") }
            try queue.close()
        }
        result.sqlite = try await measure(sqliteURL)
        result.sqlite.build = build

        if !noPostgres {
            if !json { Progress.note("PostgreSQL: inserting by COPY (the GIN index built as rows come)") }
            let cluster = folder.appendingPathComponent("pg").path
            let started = try ChildProcess.run(CatalogFixture.postgresScript, ["start", cluster])
            guard started.status == 0 else { throw ChildProcess.Failure("cannot start PostgreSQL: \(started.standardError)") }
            defer { _ = try? ChildProcess.run(CatalogFixture.postgresScript, ["halt", cluster], captureOutput: false) }
            let admin = started.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            _ = try PostgresTestServer.psql(admin, "CREATE DATABASE bench")
            let database = admin.replacingOccurrences(of: "/postgres", with: "/bench")
            let postgresURL = folder.appendingPathComponent("Postgres.shoebox")
            build = try await CatalogBenchmark.milliseconds {
                let library = try await PhotoLibrary.create(at: postgresURL, configuration: .init(catalog: .postgres(try PostgresURL(database))))
                try await Self.insert(rows, into: library)
                await library.close()
                _ = try PostgresTestServer.psql(database, "VACUUM ANALYZE")
            }
            var engine = try await measure(postgresURL)
            engine.build = build
            result.postgres = engine
        }
        if json {
            try BenchOutput.print(result)
            return
        }
        for (name, engine) in [("SQLite (FTS5)", result.sqlite), ("PostgreSQL (GIN, to_tsvector)", result.postgres)] {
            guard let engine else { continue }
            print("\(name), \(assets) assets: built in \(String(format: "%.1f s", engine.build / 1000)); median / p99, ms:")
            for query in engine.queries {
                let label = "“\(query.query)”"
                print(
                    "  " + label.padding(toLength: 15, withPad: " ", startingAt: 0)
                        + String(
                            format: "%6d found, %3d months: search %6.2f / %6.2f  first page %6.2f / %6.2f  in-process %6.2f / %6.2f",
                            query.found, query.months, query.search.median, query.search.p99, query.firstPage.median, query.firstPage.p99,
                            query.library.median, query.library.p99))
            }
            print(String(format: "  slowest search (p99 of the search + p99 of its first page): %.2f ms", engine.slowest))
            print(
                String(
                    format: "  places %.2f ms, map clusters at 15° %.2f ms and at 0.05° %.2f ms, memories %.2f ms",
                    engine.places, engine.clustersWorld, engine.clustersCity, engine.memories))
        }
    }

    /// Each query over HTTP against `shoebox serve` on `url`, beside the library's own fetch in
    /// this process; the Places and memories queries best of `runs`.
    func measure(_ url: URL) async throws -> Engine {
        let server = try ServerProcess(library: url)
        defer { server.stop() }
        let connection = try HTTPClientConnection(port: server.port, headers: ["Authorization: Bearer \(server.key)"])
        let library = try await PhotoLibrary.open(at: url)
        var engine = Engine()
        for text in Self.queries {
            if !json { Progress.note("  “\(text)”") }
            var options = FetchOptions(predicate: SearchQuery(text).predicate, sortDescriptors: [.init(key: .creationDate, ascending: false)])
            options.fetchLimit = nil
            var timing = QueryTiming(query: text)
            // What library-view.js posts for a search in Recents.
            let body = try JSONSerialization.data(withJSONObject: ["search": text, "partners": true, "ascending": false])
            let search = try await PairedRounds.measure(samples: samples) {
                try connection.send("POST", "/api/fetches", body: Array(body))
            } reference: { count in
                var times: [Double] = []
                for _ in 0..<count {
                    times.append(
                        try await CatalogBenchmark.milliseconds {
                            _ = try await library.fetchAssets(with: options).count
                            _ = try await library.fetchMonthSections(with: options)
                        })
                }
                return times
            }
            let created = try CatalogBenchmark.object(HTTPClientConnection.Answer(status: 201, body: search.body, milliseconds: 0))
            guard let fetch = created["id"] as? String else { throw ChildProcess.Failure("POST /api/fetches answered \(created)") }
            timing.found = created["count"] as? Int ?? 0
            timing.months = (created["sections"] as? [Any])?.count ?? 0
            let inProcess = try await library.fetchAssets(with: options).count
            guard timing.found == inProcess else {
                throw ChildProcess.Failure("“\(text)”: the server found \(timing.found), the library \(inProcess)")
            }
            timing.search = search.http
            timing.library = search.reference
            var pages: [Double] = []
            for round in 0..<(samples + 10) {
                let answer = try connection.send("GET", "/api/fetches/\(fetch)/assets?offset=0&limit=200")
                _ = try CatalogBenchmark.object(answer)
                if round >= 10 { pages.append(answer.milliseconds) }
            }
            timing.firstPage = Percentiles(pages)
            engine.queries.append(timing)
        }
        func best(_ body: () async throws -> Void) async throws -> Double {
            var times: [Double] = []
            for _ in 0..<runs { times.append(try await CatalogBenchmark.milliseconds { try await body() }) }
            return times.min()!
        }
        engine.places = try await best { _ = try await library.fetchPlaces() }
        engine.clustersWorld = try await best { _ = try await library.fetchMapClusters(cellDegrees: 15) }
        engine.clustersCity = try await best { _ = try await library.fetchMapClusters(cellDegrees: 0.05) }
        engine.memories = try await best { _ = try await library.fetchMemories() }
        await library.close()
        return engine
    }

    /// The rows into the library's catalog through its bulk insert, 50,000 a transaction.
    static func insert(_ rows: [AssetRecord], into library: PhotoLibrary) async throws {
        for start in stride(from: 0, to: rows.count, by: 50_000) {
            _ = try await library.catalog.insertAssets(Array(rows[start..<min(rows.count, start + 50_000)]))
        }
    }
}
