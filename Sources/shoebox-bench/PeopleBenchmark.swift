import ArgumentParser
import Foundation
import ShoeboxLibrary
import ShoeboxTesting

/// `shoebox-bench people`: a person's timeline on a library of many people against the same on a
/// library of one.
struct PeopleBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "A person's first timeline page and month sections on a library of --people people against a library of one.",
        discussion: """
            Builds once (into .build/bench-input/people-N-P) two catalogs of --assets synthetic \
            assets each, on SQLite and on PostgreSQL (a cluster of scripts/postgres kept in that \
            folder): one whose assets are all the admin's, and one whose assets are dealt in turn \
            to --people people. Then times, as the admin of the first and as a member of the second \
            (each holding --assets / --people of them there), the first grid page by keyset \
            (Recents, newest first, 200) and the month sections: the median of --runs calls after \
            a warm-up, alternating the two libraries. Target: the person's first page within 20 % \
            of the one-person library's.
            """)

    @Option(help: "Assets in each catalog.") var assets = 1_000_000
    @Option(help: "People the assets of the second catalog are dealt to.") var people = 10
    @Option(help: "Calls timed of each; the median counts.") var runs = 51
    @Flag(help: "SQLite only (no PostgreSQL cluster).") var sqliteOnly = false
    @Flag(help: "Print JSON.") var json = false

    struct Measure: Encodable {
        var onePerson = 0.0
        var manyPeople = 0.0
        var ratio: Double { manyPeople / max(onePerson, 0.000_001) }

        enum CodingKeys: String, CodingKey { case onePerson, manyPeople, ratio }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(onePerson, forKey: .onePerson)
            try container.encode(manyPeople, forKey: .manyPeople)
            try container.encode(ratio, forKey: .ratio)
        }
    }

    struct Engine: Encodable {
        var firstPage = Measure()
        var monthSections = Measure()
        var personAssets = 0
    }

    struct Result: Encodable {
        var assets = 0
        var people = 0
        var sqlite: Engine?
        var postgres: Engine?
    }

    func validate() throws {
        guard assets >= people, people >= 2 else { throw ValidationError("--people must be 2 or more, and --assets at least --people") }
        guard runs >= 1 else { throw ValidationError("--runs must be 1 or more") }
    }

    func run() async throws {
        let folder = Corpus.packageRoot().appendingPathComponent(".build/bench-input/people-\(assets)-\(people)")
        let cluster = folder.appendingPathComponent("pg").path
        let database = sqliteOnly ? nil : try CatalogFixture.startCluster(cluster)
        defer { if !sqliteOnly { CatalogFixture.haltCluster(cluster) } }
        // Each engine's pair is built once (a marker says it is whole).
        for postgres in sqliteOnly ? [false] : [false, true] where !FileManager.default.fileExists(atPath: Self.ready(folder, postgres: postgres).path) {
            try await build(folder, postgres: postgres, postgresAdmin: database)
        }
        var result = Result(assets: assets, people: people)
        for postgres in sqliteOnly ? [false] : [false, true] {
            if !json { Progress.note(postgres ? "PostgreSQL" : "SQLite") }
            let (one, many) = try await open(folder, postgresAdmin: postgres ? database : nil)
            let engine = try await measure(one: one, many: many)
            await one.close()
            await many.close()
            if postgres { result.postgres = engine } else { result.sqlite = engine }
        }
        if json {
            try BenchOutput.print(result)
            return
        }
        for (name, engine) in [("SQLite", result.sqlite), ("PostgreSQL", result.postgres)] {
            guard let engine else { continue }
            print("\(name), \(assets) assets; the person holds all of them, or \(engine.personAssets) among \(people) people:")
            for (label, measure) in [("first grid page (keyset, 200)", engine.firstPage), ("month sections", engine.monthSections)] {
                print(
                    String(
                        format: "  %@: one person %.2f ms, %d people %.2f ms (ratio %.2f; target ≤ 1.20)", label, measure.onePerson, people,
                        measure.manyPeople, measure.ratio))
            }
        }
    }

    /// The two libraries of an engine: the one-person library as its admin, and a member of the
    /// many-people library.
    private func open(_ folder: URL, postgresAdmin: String?) async throws -> (PhotoLibrary, PhotoLibrary) {
        let oneURL = folder.appendingPathComponent(postgresAdmin == nil ? "One.shoebox" : "OnePG.shoebox")
        let manyURL = folder.appendingPathComponent(postgresAdmin == nil ? "Many.shoebox" : "ManyPG.shoebox")
        if let postgresAdmin {
            // The cluster's port changes from run to run: point the libraries at it.
            for (url, name) in [(oneURL, "one"), (manyURL, "many")] {
                let database = postgresAdmin.replacingOccurrences(of: "/postgres", with: "/\(name)")
                try PhotoLibrary.Configuration(catalog: .postgres(try PostgresURL(database))).write(toLibraryAt: url)
            }
        }
        let one = try await PhotoLibrary.open(at: oneURL, backgroundWork: .onDemand)
        let many = try await PhotoLibrary.open(at: manyURL, as: "person2", backgroundWork: .onDemand)
        return (one, many)
    }

    /// The marker that an engine's pair of catalogs is whole.
    static func ready(_ folder: URL, postgres: Bool) -> URL {
        folder.appendingPathComponent(postgres ? "ready-postgres" : "ready-sqlite")
    }

    /// Both catalogs of one engine, through the library's bulk insert.
    private func build(_ folder: URL, postgres: Bool, postgresAdmin: String?) async throws {
        if !json { Progress.note("building the \(postgres ? "PostgreSQL" : "SQLite") catalogs into \(folder.path) (once; minutes)") }
        if !postgres {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("One.shoebox"))
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("Many.shoebox"))
        }
        let now = Date()
        let people = Int64(self.people)
        do {
            for dealt in [false, true] {
                let name = (dealt ? "Many" : "One") + (postgres ? "PG" : "")
                if !json { Progress.note("  \(name): \(assets) rows") }
                let url = folder.appendingPathComponent("\(name).shoebox")
                let library: PhotoLibrary
                if let postgresAdmin, postgres {
                    let database = dealt ? "many" : "one"
                    try PostgresTestServer.psql(postgresAdmin, "DROP DATABASE IF EXISTS \(database)")
                    try PostgresTestServer.psql(postgresAdmin, "CREATE DATABASE \(database)")
                    try? FileManager.default.removeItem(at: url)
                    let url2 = postgresAdmin.replacingOccurrences(of: "/postgres", with: "/\(database)")
                    library = try await PhotoLibrary.create(at: url, configuration: .init(catalog: .postgres(try PostgresURL(url2))))
                } else {
                    library = try await PhotoLibrary.open(at: url, backgroundWork: .onDemand)
                }
                if dealt {
                    for index in 2...people { _ = try await library.addPerson(name: "person\(index)") }
                }
                var generator = SplitMix64(seed: 10)
                try await CatalogFixture.insert(count: assets, into: library) { index in
                    var record = CatalogFixture.record(index, &generator, now: now)
                    if dealt { record.ownerID = Int64(index) % people + 1 }
                    return record
                }
                await library.close()
                if let postgresAdmin, postgres {
                    try PostgresTestServer.psql(postgresAdmin.replacingOccurrences(of: "/postgres", with: "/\(dealt ? "many" : "one")"), "VACUUM ANALYZE")
                } else {
                    _ = try ChildProcess.run("sqlite3", [url.appendingPathComponent("catalog.sqlite").path, "ANALYZE"])
                }
            }
        }
        try Data("\(assets) \(self.people)\n".utf8).write(to: Self.ready(folder, postgres: postgres))
    }

    private func measure(one: PhotoLibrary, many: PhotoLibrary) async throws -> Engine {
        let recents = FetchOptions(sortDescriptors: [.init(key: .creationDate, ascending: false)])
        var engine = Engine()
        engine.personAssets = try await many.fetchAssets(with: FetchOptions(includeHiddenAssets: true, includeTrashedAssets: true)).count
        engine.firstPage = try await alternate(one, many) { library in _ = try await library.fetchAssetPage(with: recents, after: nil, limit: 200) }
        engine.monthSections = try await alternate(one, many) { library in _ = try await library.fetchMonthSections(with: recents) }
        return engine
    }

    private func alternate(_ one: PhotoLibrary, _ many: PhotoLibrary, _ body: (PhotoLibrary) async throws -> Void) async throws -> Measure {
        try await Self.alternate(one, many, runs: runs, body)
    }

    /// The median of `runs` calls of `body` on each library, alternating, after two warm-ups each
    /// (`sharing` times its pair the same way).
    static func alternate(_ one: PhotoLibrary, _ many: PhotoLibrary, runs: Int, _ body: (PhotoLibrary) async throws -> Void) async throws -> Measure {
        for _ in 0..<2 {
            try await body(one)
            try await body(many)
        }
        var ones: [Double] = []
        var manys: [Double] = []
        for _ in 0..<runs {
            ones.append(try await CatalogBenchmark.milliseconds { try await body(one) })
            manys.append(try await CatalogBenchmark.milliseconds { try await body(many) })
        }
        return Measure(onePerson: ones.sorted()[runs / 2], manyPeople: manys.sorted()[runs / 2])
    }
}
