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

    /// The columns written, in order.
    static let columns = [
        "localIdentifier", "mediaType", "mediaSubtypes", "pixelWidth", "pixelHeight", "creationDate", "modificationDate",
        "addedDate", "latitude", "longitude", "duration", "isFavorite", "isHidden", "trashedDate", "originalFilename",
        "contentHash", "uniformTypeIdentifier", "fileSize",
    ]

    /// One synthetic asset: a tenth movies, 1 in 17 a favorite, 1 in 101 hidden, 1 in 200 in
    /// Recently Deleted, 1 in 50 a screenshot and 1 in 80 a panorama; taken over twenty years,
    /// each added to the library within two years of being taken (never in the future).
    struct Row {
        let values: [Any?]

        init(_ index: Int, _ generator: inout SplitMix64, now: Date) {
            let random = generator.next()
            let isVideo = random % 10 == 0
            let base = Date(timeIntervalSince1970: 1_136_073_600)  // 2006
            let taken = base.addingTimeInterval(Double(generator.next() % 631_152_000))
            let added = min(now, taken.addingTimeInterval(Double(generator.next() % 63_072_000)))
            let subtypes = isVideo ? 0 : (random % 50 == 1 ? 4 : (random % 80 == 2 ? 1 : 0))
            let located = random % 3 == 0
            values = [
                String(format: "%08X-BE7C-0000-0000-%012X/L0/001", index, index), isVideo ? 2 : 1, subtypes, 4032, 3024, taken, taken, added,
                located ? 40 + Double(random % 1000) / 100 : nil, located ? -3 + Double(random % 700) / 100 : nil,
                isVideo ? Double(random % 120 + 1) : 0.0, random % 17 == 3, random % 101 == 5,
                random % 200 == 7 ? taken.addingTimeInterval(86_400) as Date? : nil,
                String(format: "IMG_%07d.%@", index, isVideo ? "MOV" : "HEIC"), String(format: "%064x", index),
                isVideo ? "com.apple.quicktime-movie" : "public.heic", Int(random % 5_000_000) + 500_000,
            ]
        }
    }

    func run() async throws {
        let root = URL(fileURLWithPath: folder)
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let now = Date()
        try await sqlite(root.appendingPathComponent("SQLite.shoebox"), now: now)
        try await postgres(root, now: now)
        try Data("\(assets)\n".utf8).write(to: root.appendingPathComponent("ready"))
    }

    private func sqlite(_ url: URL, now: Date) async throws {
        Progress.note("SQLite: \(assets) rows")
        let schema = try await PhotoLibrary.open(at: url)  // creates the schema
        await schema.close()
        let queue = try DatabaseQueue(path: url.appendingPathComponent("catalog.sqlite").path)
        try await queue.write { db in
            let statement = try db.makeStatement(
                sql:
                    "INSERT INTO asset (\(Self.columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: Self.columns.count).joined(separator: ", ")))"
            )
            var generator = SplitMix64(seed: 10)
            for index in 0..<assets {
                let row = Row(index, &generator, now: now)
                try statement.execute(
                    arguments: StatementArguments(row.values.map { value -> DatabaseValue in (value as? any DatabaseValueConvertible)?.databaseValue ?? .null })
                )
                if index % 1_000_000 == 999_999 { Progress.note("  \(index + 1)") }
            }
        }
        try await queue.write { db in try db.execute(sql: "ANALYZE") }
        try queue.close()
    }

    private func postgres(_ root: URL, now: Date) async throws {
        Progress.note("PostgreSQL: \(assets) rows by COPY")
        let cluster = root.appendingPathComponent("pg").path
        let started = try ChildProcess.run(Self.postgresScript, ["start", cluster])
        guard started.status == 0 else { throw ChildProcess.Failure("cannot start PostgreSQL: \(started.standardError)") }
        defer { _ = try? ChildProcess.run(Self.postgresScript, ["halt", cluster], captureOutput: false) }
        let admin = started.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        try PostgresTestServer.psql(admin, "CREATE DATABASE bench")
        let database = admin.replacingOccurrences(of: "/postgres", with: "/bench")
        let schema = try await PhotoLibrary.create(
            at: root.appendingPathComponent("Postgres.shoebox"),
            configuration: .init(catalog: .postgres(try PostgresURL(database))))
        await schema.close()
        try PostgresTestServer.psql(database, "ALTER TABLE asset DISABLE TRIGGER assetSummary_change")
        // COPY from a pipe: the rows are written as CSV while psql reads them.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = ["-X", "-q", database, "-c", "\\copy asset (\(Self.columns.joined(separator: ", "))) FROM STDIN WITH (FORMAT csv)"]
        let pipe = Pipe()
        process.standardInput = pipe
        try process.run()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SplitMix64(seed: 10)
        var buffer = ""
        buffer.reserveCapacity(1 << 20)
        for index in 0..<assets {
            let row = Row(index, &generator, now: now)
            buffer += row.values.map { value -> String in
                switch value {
                case nil: ""
                case let date as Date: formatter.string(from: date)
                case let flag as Bool: flag ? "t" : "f"
                case let some?: "\(some)"
                }
            }.joined(separator: ",")
            buffer += "\n"
            if buffer.utf8.count > 1 << 20 {
                try pipe.fileHandleForWriting.write(contentsOf: Data(buffer.utf8))
                buffer.removeAll(keepingCapacity: true)
            }
            if index % 1_000_000 == 999_999 { Progress.note("  \(index + 1)") }
        }
        try pipe.fileHandleForWriting.write(contentsOf: Data(buffer.utf8))
        try pipe.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ChildProcess.Failure("COPY failed") }
        Progress.note("  the summary table, VACUUM ANALYZE")
        try PostgresTestServer.psql(
            database,
            """
            DELETE FROM assetSummary;
            INSERT INTO assetSummary
              SELECT to_char(creationDate AT TIME ZONE 'UTC', 'YYYY-MM'), mediaType, mediaSubtypes, isFavorite, isHidden, trashedDate IS NOT NULL, COUNT(*), FALSE
              FROM asset GROUP BY 1, 2, 3, 4, 5, 6;
            ALTER TABLE asset ENABLE TRIGGER assetSummary_change;
            SELECT setval(pg_get_serial_sequence('asset', 'id'), (SELECT MAX(id) FROM asset));
            """)
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
