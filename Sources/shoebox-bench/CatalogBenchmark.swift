import ArgumentParser
import Foundation
import GRDB
import ShoeboxLibrary
import ShoeboxTesting

/// `shoebox-bench catalog`: a large catalog in PostgreSQL beside the same in SQLite, asked over
/// HTTP as the web app asks, each beside the same SQL in an open database session.
struct CatalogBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "The catalog at scale over HTTP: the same assets in SQLite and in PostgreSQL, each beside its SQL in an open session.",
        discussion: """
            Builds once (into .build/bench-input/catalog-N, in a child process) a catalog of \
            --assets synthetic assets in SQLite and the same rows in PostgreSQL (a cluster of \
            scripts/postgres kept in that folder; VACUUM ANALYZE). For each engine it starts \
            `shoebox serve` (the release build beside this one) on it and asks, on one keep-alive \
            connection, what the web app asks: the first grid page (GET /api/assets?limit=200), \
            the page after a cursor, a fetch's first page by offset (the grid's own), a new fetch \
            with its count and month sections (POST /api/fetches), and the smart albums with their \
            counts (GET /api/albums); each timed from the request's first byte written to the \
            answer's last byte read, --samples times after warming up (slow ones stop after 10 s). \
            The reference, alternating with them in the same run: the same SQL in one open \
            session — psql's \\timing for PostgreSQL, a GRDB connection in this process for \
            SQLite (every row read into memory). Reported: the median and p99 of each. Targets \
            (issue 43): the first page's p50 at most 3x its SQL's and its p99 under 10 ms.
            """)

    @Option(help: "Assets in each catalog.") var assets = 1_000_000
    @Option(help: "Timed requests of each kind (after 10 unmeasured).") var samples = 300
    @Flag(help: "Print JSON.") var json = false

    struct Timing: Encodable {
        var http = Percentiles()
        var sql = Percentiles()
        var bytes = 0
    }

    struct Engine: Encodable {
        var firstPage = Timing()
        var nextPage = Timing()
        var fetchPage = Timing()
        var newFetch = Timing()
        var smartAlbums = Timing()
        var months = 0
        var count = 0
    }

    struct Result: Encodable {
        var assets = 0
        var sqlite = Engine()
        var postgres = Engine()
    }

    /// One operation: its HTTP request and the SQL it stands on.
    struct Operation {
        var label: String
        var method = "GET"
        var path: String
        var body = ""
        var sql: [String]
        var keyPath: WritableKeyPath<Engine, Timing>
    }

    func run() async throws {
        let folder = Corpus.packageRoot().appendingPathComponent(".build/bench-input/catalog-\(assets)")
        if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("ready").path) {
            if !json { Progress.note("building the \(assets)-asset catalogs into \(folder.path) (once; minutes)") }
            let build = try ChildProcess.run(BenchInput.executable, ["catalog-fixture", folder.path, "--assets", "\(assets)"], captureOutput: json)
            guard build.status == 0 else { throw ChildProcess.Failure("building the catalogs failed: \(build.standardError)") }
        }
        let cluster = folder.appendingPathComponent("pg").path
        let admin = try CatalogFixture.startCluster(cluster)
        defer { CatalogFixture.haltCluster(cluster) }
        let database = admin.replacingOccurrences(of: "/postgres", with: "/bench")
        // The cluster's port changes from run to run: point the library at it.
        let postgresLibrary = folder.appendingPathComponent("Postgres.shoebox")
        try PhotoLibrary.Configuration(catalog: .postgres(try PostgresURL(database))).write(toLibraryAt: postgresLibrary)

        var result = Result()
        result.assets = assets
        if !json { Progress.note("SQLite") }
        let sqlitePath = folder.appendingPathComponent("SQLite.shoebox/catalog.sqlite").path
        let queue = try DatabaseQueue(
            path: sqlitePath,
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }())
        result.sqlite = try await measure(library: folder.appendingPathComponent("SQLite.shoebox"), postgres: false) { sql, count in
            try Self.grdb(queue, sql, count: count)
        }
        try queue.close()
        if !json { Progress.note("PostgreSQL") }
        result.postgres = try await measure(library: postgresLibrary, postgres: true) { sql, count in try Self.psql(database, sql, count: count) }
        if json {
            try BenchOutput.print(result)
            return
        }
        for (name, engine) in [("SQLite", result.sqlite), ("PostgreSQL", result.postgres)] {
            print("\(name), \(assets) assets (\(engine.count) in Recents, \(engine.months) months), median / p99:")
            for (label, timing) in [
                ("first grid page (200)", engine.firstPage), ("page after a cursor", engine.nextPage), ("a fetch's first page", engine.fetchPage),
                ("new fetch: count, months", engine.newFetch), ("smart albums and counts", engine.smartAlbums),
            ] {
                print(
                    "  \(label.padding(toLength: 26, withPad: " ", startingAt: 0)) HTTP \(Self.ms(timing.http.median)) / \(Self.ms(timing.http.p99))"
                        + "  SQL \(Self.ms(timing.sql.median)) / \(Self.ms(timing.sql.p99))"
                        + String(format: "  p50 %.2fx  (%d bytes)", timing.http.median / max(timing.sql.median, 0.001), timing.bytes))
            }
        }
    }

    static func ms(_ value: Double) -> String { String(format: "%7.2f ms", value) }

    /// The timings of one engine, its server started on `url`; `session` runs SQL statements
    /// `count` times each in one open session and answers each run's milliseconds.
    func measure(library url: URL, postgres: Bool, session: (_ sql: [String], _ count: Int) throws -> [Double]) async throws -> Engine {
        let server = try ServerProcess(library: url)
        defer { server.stop() }
        let connection = try HTTPClientConnection(port: server.port, headers: ["Authorization: Bearer \(server.key)"])
        let falseValue = postgres ? "false" : "0"
        let trueValue = postgres ? "true" : "1"
        // The library's own conditions for Recents: the person's, neither deleted nor hidden, a burst as its key photo.
        let visible =
            "ownerID = 1 AND trashedDate IS NULL AND isHidden = \(falseValue) AND (burstIdentifier IS NULL OR representsBurst = \(trueValue) OR trashedDate IS NOT NULL OR isHidden = \(trueValue))"
        let page = "SELECT * FROM asset WHERE \(visible) ORDER BY creationDate DESC, id DESC LIMIT 201"

        // The cursor and the fetch the operations use.
        let first = try Self.object(try connection.send("GET", "/api/assets?limit=200"))
        guard let assets = first["assets"] as? [[String: Any]], let last = assets.last, let cursor = last["localIdentifier"] as? String,
            let lastDate = last["creationDate"] as? String
        else { throw ChildProcess.Failure("the first page has no assets") }
        let created = try Self.object(try connection.send("POST", "/api/fetches", body: Array("{}".utf8)))
        guard let fetch = created["id"] as? String else { throw ChildProcess.Failure("POST /api/fetches answered \(created)") }
        var engine = Engine()
        engine.count = created["count"] as? Int ?? 0
        engine.months = (created["sections"] as? [Any])?.count ?? 0
        let encoded = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
        let date = Self.sqlDate(lastDate, postgres: postgres)
        let recentlyAdded = Self.sqlDate(Date().addingTimeInterval(-PhotoLibrary.recentlyAddedInterval), postgres: postgres)
        let operations = [
            Operation(label: "first page", path: "/api/assets?limit=200", sql: [page], keyPath: \.firstPage),
            Operation(
                label: "next page", path: "/api/assets?limit=200&after=\(encoded)",
                sql: [
                    "SELECT * FROM asset WHERE localIdentifier = '\(cursor)'",
                    "SELECT * FROM asset WHERE \(visible) AND (creationDate < '\(date)' OR (creationDate = '\(date)' AND id < (SELECT id FROM asset WHERE localIdentifier = '\(cursor)'))) ORDER BY creationDate DESC, id DESC LIMIT 201",
                ], keyPath: \.nextPage),
            Operation(label: "fetch page", path: "/api/fetches/\(fetch)/assets?offset=0&limit=200", sql: [page], keyPath: \.fetchPage),
            Operation(
                label: "new fetch", method: "POST", path: "/api/fetches", body: "{}",
                sql: [
                    "SELECT id FROM asset WHERE \(visible) ORDER BY creationDate DESC, id DESC",
                    "SELECT month, CAST(SUM(count) AS BIGINT) FROM assetSummary WHERE ownerID = 1 AND isCollapsedFrame = \(falseValue) AND isTrashed = \(falseValue) AND isHidden = \(falseValue) GROUP BY month HAVING SUM(count) > 0 ORDER BY 1 DESC",
                ], keyPath: \.newFetch),
            Operation(
                label: "albums", path: "/api/albums",
                sql: [
                    "SELECT SUM(count) FILTER (WHERE isTrashed = \(falseValue) AND isHidden = \(falseValue)), SUM(count) FILTER (WHERE isFavorite AND NOT isTrashed AND NOT isHidden), SUM(count) FILTER (WHERE mediaType = 2 AND NOT isTrashed AND NOT isHidden), SUM(count) FILTER (WHERE isHidden AND NOT isTrashed), SUM(count) FILTER (WHERE isTrashed) FROM assetSummary WHERE ownerID = 1 AND isCollapsedFrame = \(falseValue)",
                    "SELECT COUNT(*) FROM asset WHERE \(visible) AND addedDate >= '\(recentlyAdded)'",
                ], keyPath: \.smartAlbums),
        ]
        for operation in operations {
            if !json { Progress.note("  \(operation.label)") }
            let outcome = try await PairedRounds.measure(samples: samples) {
                try connection.send(operation.method, operation.path, body: Array(operation.body.utf8))
            } reference: { count in
                try session(operation.sql, count)
            }
            engine[keyPath: operation.keyPath] = Timing(http: outcome.http, sql: outcome.reference, bytes: outcome.body.count)
        }
        return engine
    }

    static func object(_ answer: HTTPClientConnection.Answer) throws -> [String: Any] {
        guard answer.status / 100 == 2, let object = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any] else {
            throw ChildProcess.Failure("the server answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return object
    }

    static func milliseconds(_ body: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// An ISO 8601 date as the catalog stores it.
    static func sqlDate(_ iso: String, postgres: Bool) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = formatter.date(from: iso) ?? ISO8601DateFormatter().date(from: iso) ?? Date()
        return sqlDate(date, postgres: postgres)
    }

    static func sqlDate(_ date: Date, postgres: Bool) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = postgres ? "yyyy-MM-dd HH:mm:ss.SSS'+00'" : "yyyy-MM-dd HH:mm:ss.SSS"
        return formatter.string(from: date)
    }

    /// The statements `count` times in one GRDB connection, every row read: each round's
    /// milliseconds (all the statements of a round together).
    static func grdb(_ queue: DatabaseQueue, _ statements: [String], count: Int) throws -> [Double] {
        try queue.read { db in
            try (0..<count).map { _ in
                let start = DispatchTime.now().uptimeNanoseconds
                for sql in statements { _ = try Row.fetchAll(db, sql: sql) }
                return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            }
        }
    }

    /// The statements `count` times in one psql session (`\timing`, rows discarded): each
    /// round's milliseconds (its statements' times added).
    static func psql(_ url: String, _ statements: [String], count: Int) throws -> [Double] {
        let script = (["\\timing on"] + Array(repeating: statements.map { $0 + ";" }, count: count).flatMap { $0 }).joined(separator: "\n") + "\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-psql-\(UUID().uuidString).sql")
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try ChildProcess.run("psql", ["-X", "-At", "-o", "/dev/null", url, "-f", file.path])
        guard run.status == 0 else { throw ChildProcess.Failure("psql failed: \(run.standardError)") }
        let times = run.standardOutput.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("Time: ") else { return nil }
            return Double(line.dropFirst("Time: ".count).split(separator: " ")[0])
        }
        guard times.count == statements.count * count else { throw ChildProcess.Failure("psql printed \(times.count) times: \(run.standardOutput)") }
        return stride(from: 0, to: times.count, by: statements.count).map { times[$0..<$0 + statements.count].reduce(0, +) }
    }
}
