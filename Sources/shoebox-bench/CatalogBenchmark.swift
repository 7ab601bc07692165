import ArgumentParser
import Foundation
import ShoeboxLibrary
import ShoeboxTesting

/// `shoebox-bench catalog`: a ten-million-asset catalog in PostgreSQL beside the same in SQLite.
struct CatalogBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "The catalog at scale: the same assets in SQLite and in PostgreSQL, each beside sqlite3 and psql.",
        discussion: """
            Builds once (into .build/bench-input/catalog-N, in a child process) a catalog of \
            --assets synthetic assets in SQLite (inserted in one transaction) and the same rows in \
            PostgreSQL (COPY into a cluster of scripts/postgres kept in that folder; the summary \
            table rebuilt once; VACUUM ANALYZE), then times, best of --runs, on each: opening the \
            library; the first grid page by keyset (Recents, newest first, 200); month sections; \
            the smart albums with their counts; a fetch of every image's id; an asset by \
            identifier — each beside the sqlite3 or psql shell running the same SQL (their own \
            timers: .timer and \\timing) in the same run. Peak RSS is this process's own (the \
            fixture is built in a child). Targets: first page < 10 ms and within 2× of the raw \
            query; month sections < 300 ms; peak RSS < 300 MB.
            """)

    @Option(help: "Assets in each catalog.") var assets = 10_000_000
    @Option(help: "Runs; the best counts.") var runs = 5
    @Flag(help: "Print JSON.") var json = false

    struct Timing: Encodable {
        var shoebox = 0.0
        var shell = 0.0
    }

    struct Engine: Encodable {
        var open = 0.0
        var firstPage = Timing()
        var monthSections = Timing()
        var smartAlbums = Timing()
        var everyImageID = Timing()
        var assetByIdentifier = Timing()
        var images = 0
        var months = 0
    }

    struct Result: Encodable {
        var assets = 0
        var sqlite = Engine()
        var postgres = Engine()
        var peakMemoryMB = 0.0
    }

    func run() async throws {
        let folder = Corpus.packageRoot().appendingPathComponent(".build/bench-input/catalog-\(assets)")
        if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("ready").path) {
            if !json { Progress.note("building the \(assets)-asset catalogs into \(folder.path) (once; minutes)") }
            let build = try ChildProcess.run(BenchInput.executable, ["catalog-fixture", folder.path, "--assets", "\(assets)"], captureOutput: json)
            guard build.status == 0 else { throw ChildProcess.Failure("building the catalogs failed: \(build.standardError)") }
        }
        let cluster = folder.appendingPathComponent("pg").path
        let started = try ChildProcess.run(CatalogFixture.postgresScript, ["start", cluster])
        guard started.status == 0 else { throw ChildProcess.Failure("cannot start PostgreSQL: \(started.standardError)") }
        defer { _ = try? ChildProcess.run(CatalogFixture.postgresScript, ["halt", cluster], captureOutput: false) }
        let admin = started.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let database = admin.replacingOccurrences(of: "/postgres", with: "/bench")
        // The cluster's port changes from run to run: point the library at it.
        let postgresLibrary = folder.appendingPathComponent("Postgres.shoebox")
        try PhotoLibrary.Configuration(catalog: .postgres(try PostgresURL(database))).write(toLibraryAt: postgresLibrary)

        var result = Result()
        result.assets = assets
        if !json { Progress.note("SQLite") }
        result.sqlite = try await measure(library: folder.appendingPathComponent("SQLite.shoebox")) { sql in
            try Self.sqlite3(folder.appendingPathComponent("SQLite.shoebox/catalog.sqlite").path, sql)
        }
        if !json { Progress.note("PostgreSQL") }
        result.postgres = try await measure(library: postgresLibrary) { sql in try Self.psql(database, sql) }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        result.peakMemoryMB = Double(usage.ru_maxrss) / 1024
        if json {
            try BenchOutput.print(result)
        } else {
            for (name, engine) in [("SQLite", result.sqlite), ("PostgreSQL", result.postgres)] {
                print("\(name), \(assets) assets (\(engine.images) images, \(engine.months) months): open \(Self.ms(engine.open))")
                for (label, timing) in [
                    ("first grid page (keyset, 200)", engine.firstPage), ("month sections", engine.monthSections),
                    ("smart albums and counts", engine.smartAlbums), ("every image's id", engine.everyImageID),
                    ("asset by identifier", engine.assetByIdentifier),
                ] {
                    print(
                        "  \(label): \(Self.ms(timing.shoebox)) (shell \(Self.ms(timing.shell)), ratio \(String(format: "%.2f", timing.shoebox / max(timing.shell, 0.001))))"
                    )
                }
            }
            print(String(format: "peak RSS %.1f MB", result.peakMemoryMB))
        }
    }

    static func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }

    /// The timings of one engine; `shell` runs SQL in sqlite3 or psql and answers its own timer's milliseconds.
    func measure(library url: URL, shell: (String) throws -> Double) async throws -> Engine {
        var engine = Engine()
        var library: PhotoLibrary!
        var opens: [Double] = []
        for _ in 0..<runs {
            if let library { await library.close() }
            opens.append(try await Self.milliseconds { library = try await PhotoLibrary.open(at: url) })
        }
        engine.open = opens.min()!
        let isPostgres: Bool
        if case .postgres = library.configuration.catalog { isPostgres = true } else { isPostgres = false }
        let falseValue = isPostgres ? "false" : "0"
        let recents = FetchOptions(sortDescriptors: [.init(key: .creationDate, ascending: false)])
        let images = FetchOptions(predicate: .mediaType(.image))
        let probe = try await library.fetchAssetPage(with: recents, after: nil, limit: 1).assets[0].localIdentifier

        engine.firstPage = try await time {
            _ = try await library.fetchAssetPage(with: recents, after: nil, limit: 200)
        } shell: {
            try shell("SELECT * FROM asset WHERE trashedDate IS NULL AND isHidden = \(falseValue) ORDER BY creationDate DESC, id ASC LIMIT 200")
        }
        engine.monthSections = try await time {
            engine.months = try await library.fetchMonthSections(with: recents).count
        } shell: {
            try shell(
                "SELECT month, CAST(SUM(count) AS BIGINT) FROM assetSummary WHERE isTrashed = \(falseValue) AND isHidden = \(falseValue) GROUP BY month HAVING SUM(count) > 0 ORDER BY 1 DESC"
            )
        }
        let recentlyAdded = Date().addingTimeInterval(-PhotoLibrary.recentlyAddedInterval)
        engine.smartAlbums = try await time {
            _ = try await library.fetchAssetCollections(with: .smartAlbum).allObjects()
        } shell: {
            let summary = try shell(
                "SELECT SUM(count) FILTER (WHERE isTrashed = \(falseValue) AND isHidden = \(falseValue)), SUM(count) FILTER (WHERE isFavorite AND NOT isTrashed AND NOT isHidden), SUM(count) FILTER (WHERE mediaType = 2 AND NOT isTrashed AND NOT isHidden), SUM(count) FILTER (WHERE isHidden AND NOT isTrashed), SUM(count) FILTER (WHERE isTrashed) FROM assetSummary"
            )
            let added = try shell(
                "SELECT COUNT(*) FROM asset WHERE trashedDate IS NULL AND isHidden = \(falseValue) AND addedDate >= '\(Self.sqlDate(recentlyAdded, postgres: isPostgres))'"
            )
            return summary + added
        }
        engine.everyImageID = try await time {
            engine.images = try await library.fetchAssets(with: images).count
        } shell: {
            try shell("SELECT id FROM asset WHERE trashedDate IS NULL AND isHidden = \(falseValue) AND mediaType = 1 ORDER BY creationDate ASC, id ASC")
        }
        engine.assetByIdentifier = try await time {
            _ = try await library.fetchAssets(withLocalIdentifiers: [probe]).firstObject
        } shell: {
            try shell("SELECT * FROM asset WHERE localIdentifier IN ('\(probe)')")
        }
        await library.close()
        return engine
    }

    /// Best of `runs` of `body` (in this process) and of `shell` (its own timer).
    func time(_ body: () async throws -> Void, shell: () throws -> Double) async throws -> Timing {
        var ours: [Double] = []
        var theirs: [Double] = []
        for _ in 0..<runs {
            ours.append(try await Self.milliseconds(body))
            theirs.append(try shell())
        }
        return Timing(shoebox: ours.min()!, shell: theirs.min()!)
    }

    static func milliseconds(_ body: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    static func sqlDate(_ date: Date, postgres: Bool) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = postgres ? "yyyy-MM-dd HH:mm:ss.SSS'+00'" : "yyyy-MM-dd HH:mm:ss.SSS"
        return formatter.string(from: date)
    }

    /// sqlite3's own timer (`.timer on`, its "real" time) for `sql`, output discarded.
    static func sqlite3(_ path: String, _ sql: String) throws -> Double {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-sqlite3-\(UUID().uuidString).sql")
        try ".timer on\n.output /dev/null\n\(sql);\n".write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let run = try ChildProcess.run("sh", ["-c", "sqlite3 \"$0\" < \"$1\"", path, script.path])
        guard run.status == 0 else { throw ChildProcess.Failure("sqlite3 failed: \(run.standardError)") }
        let times = run.standardOutput.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("Run Time: real ") else { return nil }
            return Double(line.dropFirst("Run Time: real ".count).split(separator: " ")[0]).map { $0 * 1000 }
        }
        guard let total = times.last else { throw ChildProcess.Failure("sqlite3 printed no time: \(run.standardOutput)") }
        return total
    }

    /// psql's own timer (`\timing`) for `sql`, rows discarded.
    static func psql(_ url: String, _ sql: String) throws -> Double {
        let run = try ChildProcess.run("psql", ["-X", "-At", "-o", "/dev/null", url, "-c", "\\timing on", "-c", sql])
        guard run.status == 0 else { throw ChildProcess.Failure("psql failed: \(run.standardError)") }
        let times = run.standardOutput.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("Time: ") else { return nil }
            return Double(line.dropFirst("Time: ".count).split(separator: " ")[0])
        }
        guard let total = times.last else { throw ChildProcess.Failure("psql printed no time: \(run.standardOutput)") }
        return total
    }
}
