import ArgumentParser
import Foundation
import GRDB
import ShoeboxLibrary
import ShoeboxTesting

/// `catalog-fixture FOLDER --assets N`: the catalogs `shoebox-bench catalog` reads — the same
/// synthetic rows in SQLite and in PostgreSQL (a cluster of `scripts/postgres` in FOLDER/pg).
struct CatalogFixture: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "catalog-fixture", shouldDisplay: false)
    @Argument var folder: String
    @Option var assets = 10_000_000

    static var postgresScript: String { Corpus.packageRoot().appendingPathComponent("scripts/postgres").path }

    /// Starts (`scripts/postgres start`) the cluster kept in the folder `cluster` and returns its
    /// admin URL. The cluster runs as the postgres user, who must reach it: the folders above it
    /// up to `.build/bench-input` are made readable first (a library opened there makes its
    /// folders private).
    static func startCluster(_ cluster: String) throws -> String {
        let inputs = Corpus.packageRoot().appendingPathComponent(".build/bench-input").standardizedFileURL.path
        var folder = URL(fileURLWithPath: cluster).standardizedFileURL.deletingLastPathComponent()
        while folder.path.hasPrefix(inputs) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            folder = folder.deletingLastPathComponent()
        }
        let started = try ChildProcess.run(postgresScript, ["start", cluster])
        guard started.status == 0 else { throw ChildProcess.Failure("cannot start PostgreSQL: \(started.standardError)") }
        return started.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the cluster ``startCluster(_:)`` started (its data stays).
    static func haltCluster(_ cluster: String) {
        _ = try? ChildProcess.run(postgresScript, ["halt", cluster], captureOutput: false)
    }

    /// One synthetic asset: a tenth movies, 1 in 17 a favorite, 1 in 101 hidden, 1 in 200 in
    /// Recently Deleted (deleted within the last 20 days, so nothing is due for purging), 1 in 50
    /// a screenshot and 1 in 80 a panorama; taken over twenty years, each added to the library
    /// within two years of being taken (never in the future). Its search words are written as
    /// the library writes them (with the place table when it is installed), so a server opened
    /// on the catalog has no background work to do.
    static func record(_ index: Int, _ generator: inout SplitMix64, now: Date) -> AssetRecord {
        let random = generator.next()
        let isVideo = random % 10 == 0
        let base = Date(timeIntervalSince1970: 1_136_073_600)  // 2006
        let taken = base.addingTimeInterval(Double(generator.next() % 631_152_000))
        let added = min(now, taken.addingTimeInterval(Double(generator.next() % 63_072_000)))
        let subtypes = isVideo ? 0 : (random % 50 == 1 ? 4 : (random % 80 == 2 ? 1 : 0))
        let located = random % 3 == 0
        var record = AssetRecord(
            id: nil, localIdentifier: String(format: "%08X-BE7C-0000-0000-%012X/L0/001", index, index), mediaType: isVideo ? 2 : 1,
            mediaSubtypes: subtypes, pixelWidth: 4032, pixelHeight: 3024, creationDate: taken, modificationDate: taken, addedDate: added,
            latitude: located ? 40 + Double(random % 1000) / 100 : nil, longitude: located ? -3 + Double(random % 700) / 100 : nil,
            altitude: nil, duration: isVideo ? Double(random % 120 + 1) : 0.0, isFavorite: random % 17 == 3, isHidden: random % 101 == 5,
            trashedDate: random % 200 == 7 ? now.addingTimeInterval(-Double(random % 1_728_000)) : nil,
            originalFilename: String(format: "IMG_%07d.%@", index, isVideo ? "MOV" : "HEIC"), contentHash: String(format: "%064x", index),
            uniformTypeIdentifier: isVideo ? "com.apple.quicktime-movie" : "public.heic", fileSize: Int(random % 5_000_000) + 500_000,
            creatorClient: nil)
        let places = Gazetteer.standard.isAvailable ? Gazetteer.standard : nil
        record.searchText = AssetSearchText.text(for: record, places: places)
        (record.placeName, record.placeCountry) = AssetSearchText.place(for: record, places: places)
        return record
    }

    func run() async throws {
        let root = URL(fileURLWithPath: folder)
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let now = Date()
        Progress.note("SQLite: \(assets) rows")
        let sqlite = try await PhotoLibrary.open(at: root.appendingPathComponent("SQLite.shoebox"))
        try await fill(sqlite, now: now)
        await sqlite.close()
        let queue = try DatabaseQueue(path: root.appendingPathComponent("SQLite.shoebox/catalog.sqlite").path)
        try await queue.write { db in try db.execute(sql: "ANALYZE") }
        try queue.close()
        try await postgres(root, now: now)
        try Data("\(assets)\n".utf8).write(to: root.appendingPathComponent("ready"))
    }

    /// The synthetic rows into `library`'s catalog through its bulk insert, 50,000 a transaction.
    func fill(_ library: PhotoLibrary, now: Date) async throws {
        var generator = SplitMix64(seed: 10)
        try await Self.insert(count: assets, into: library) { Self.record($0, &generator, now: now) }
    }

    /// `count` records made by `make` into `library`'s catalog, in transactions of 50,000 rows.
    static func insert(count: Int, into library: PhotoLibrary, _ make: (Int) -> AssetRecord) async throws {
        var batch: [AssetRecord] = []
        batch.reserveCapacity(50_000)
        for index in 0..<count {
            batch.append(make(index))
            if batch.count == 50_000 || index == count - 1 {
                _ = try await library.catalog.insertAssets(batch)
                batch.removeAll(keepingCapacity: true)
            }
            if index % 1_000_000 == 999_999 { Progress.note("  \(index + 1)") }
        }
    }

    private func postgres(_ root: URL, now: Date) async throws {
        Progress.note("PostgreSQL: \(assets) rows (COPY)")
        let cluster = root.appendingPathComponent("pg").path
        let admin = try Self.startCluster(cluster)
        defer { Self.haltCluster(cluster) }
        try PostgresTestServer.psql(admin, "CREATE DATABASE bench")
        let database = admin.replacingOccurrences(of: "/postgres", with: "/bench")
        let library = try await PhotoLibrary.create(
            at: root.appendingPathComponent("Postgres.shoebox"),
            configuration: .init(catalog: .postgres(try PostgresURL(database))))
        try await fill(library, now: now)
        await library.close()
        try PostgresTestServer.psql(database, "VACUUM ANALYZE")
    }
}

enum BenchOutput {
    static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        Swift.print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
