import ArgumentParser
import Foundation
import ShoeboxLibrary
import ShoeboxTesting

/// `shoebox-bench sharing`: a person's timeline that holds their own photos, a Shared Library's
/// and a partner's, against a one-person library of as many.
struct SharingBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sharing",
        abstract: "A person's timeline of own, Shared Library and partner photos against a one-person library of as many.",
        discussion: """
            Builds once (into .build/bench-input/sharing-N) two catalogs of 3 × --assets synthetic \
            assets each, on SQLite and on PostgreSQL (a cluster of scripts/postgres kept in that \
            folder): one whose assets are all the admin's, and a household's whose assets are dealt \
            in turn to person2 (their own), to the Shared Library that the admin and person2 are \
            in, and to the admin, who shares their whole library with person2 as a partner (shown \
            in person2's Recents). Then times, as the admin of the first and as person2 of the \
            second (who sees all 3 × --assets, less the admin's hidden ones), Recents newest first: \
            the first grid page by keyset (200), the month sections, the snapshot a grid opens \
            (the fetch and its count), and a scrubber jump (200 assets from the middle of an open \
            snapshot, on pages it has not read yet): the median of --runs calls after two warm-ups, alternating the two \
            libraries. Target (issue 42 item 8): the first page and the jump within 20 % of the \
            one-person library's.
            """)

    @Option(help: "Assets of each kind (own, Shared Library, partner's); the one-person library holds three times as many.")
    var assets = 100_000
    @Option(help: "Calls timed of each; the median counts.") var runs = 31
    @Flag(help: "SQLite only (no PostgreSQL cluster).") var sqliteOnly = false
    @Flag(help: "Print JSON.") var json = false

    struct Engine: Encodable {
        var firstPage = PeopleBenchmark.Measure()
        var monthSections = PeopleBenchmark.Measure()
        var snapshot = PeopleBenchmark.Measure()
        var jump = PeopleBenchmark.Measure()
        var personSees = 0
    }

    struct Result: Encodable {
        var assetsEach = 0
        var sqlite: Engine?
        var postgres: Engine?
    }

    func validate() throws {
        guard assets >= 1_000 else { throw ValidationError("--assets must be 1000 or more") }
        guard runs >= 1 else { throw ValidationError("--runs must be 1 or more") }
    }

    func run() async throws {
        let folder = Corpus.packageRoot().appendingPathComponent(".build/bench-input/sharing-\(assets)")
        let cluster = folder.appendingPathComponent("pg").path
        let database = sqliteOnly ? nil : try CatalogFixture.startCluster(cluster)
        defer { if !sqliteOnly { CatalogFixture.haltCluster(cluster) } }
        for postgres in sqliteOnly ? [false] : [false, true]
        where !FileManager.default.fileExists(atPath: PeopleBenchmark.ready(folder, postgres: postgres).path) {
            try await build(folder, postgresAdmin: postgres ? database : nil)
        }
        var result = Result(assetsEach: assets)
        for postgres in sqliteOnly ? [false] : [false, true] {
            if !json { Progress.note(postgres ? "PostgreSQL" : "SQLite") }
            let (one, household) = try await open(folder, postgresAdmin: postgres ? database : nil)
            let engine = try await measure(one: one, household: household)
            await one.close()
            await household.close()
            if postgres { result.postgres = engine } else { result.sqlite = engine }
        }
        if json {
            try BenchOutput.print(result)
            return
        }
        for (name, engine) in [("SQLite", result.sqlite), ("PostgreSQL", result.postgres)] {
            guard let engine else { continue }
            print(
                "\(name): one person's \(3 * assets) assets, or \(assets) own + \(assets) Shared Library + \(assets) a partner's (\(engine.personSees) seen):")
            for (label, measure) in [
                ("first grid page (keyset, 200)", engine.firstPage), ("scrubber jump (200 from the middle)", engine.jump),
                ("month sections", engine.monthSections), ("snapshot (fetch and count)", engine.snapshot),
            ] {
                print(
                    String(
                        format: "  %@: one person %.2f ms, shared %.2f ms (ratio %.2f)", label, measure.onePerson, measure.manyPeople, measure.ratio))
            }
        }
    }

    /// Recents, newest first, with the partner's photos shown (as person2 chose).
    static var recents: FetchOptions {
        var options = FetchOptions(sortDescriptors: [.init(key: .creationDate, ascending: false)])
        options.includePartnerAssets = true
        return options
    }

    private func open(_ folder: URL, postgresAdmin: String?) async throws -> (PhotoLibrary, PhotoLibrary) {
        let oneURL = folder.appendingPathComponent(postgresAdmin == nil ? "One.shoebox" : "OnePG.shoebox")
        let householdURL = folder.appendingPathComponent(postgresAdmin == nil ? "Household.shoebox" : "HouseholdPG.shoebox")
        if let postgresAdmin {
            for (url, name) in [(oneURL, "one"), (householdURL, "household")] {
                let database = postgresAdmin.replacingOccurrences(of: "/postgres", with: "/\(name)")
                try PhotoLibrary.Configuration(catalog: .postgres(try PostgresURL(database))).write(toLibraryAt: url)
            }
        }
        let one = try await PhotoLibrary.open(at: oneURL, backgroundWork: .onDemand)
        let household = try await PhotoLibrary.open(at: householdURL, as: "person2", backgroundWork: .onDemand)
        return (one, household)
    }

    /// Both catalogs of one engine, through the library's bulk insert; the household's sharing
    /// through the library's own calls.
    private func build(_ folder: URL, postgresAdmin: String?) async throws {
        let postgres = postgresAdmin != nil
        if !json { Progress.note("building the \(postgres ? "PostgreSQL" : "SQLite") catalogs into \(folder.path) (once; minutes)") }
        let now = Date()
        for household in [false, true] {
            let name = (household ? "Household" : "One") + (postgres ? "PG" : "")
            let url = folder.appendingPathComponent("\(name).shoebox")
            try? FileManager.default.removeItem(at: url)
            if !json { Progress.note("  \(name): \(3 * assets) rows") }
            let library: PhotoLibrary
            if let postgresAdmin {
                let database = household ? "household" : "one"
                try PostgresTestServer.psql(postgresAdmin, "DROP DATABASE IF EXISTS \(database)")
                try PostgresTestServer.psql(postgresAdmin, "CREATE DATABASE \(database)")
                let address = postgresAdmin.replacingOccurrences(of: "/postgres", with: "/\(database)")
                library = try await PhotoLibrary.create(at: url, configuration: .init(catalog: .postgres(try PostgresURL(address))))
            } else {
                library = try await PhotoLibrary.open(at: url, backgroundWork: .onDemand)
            }
            var owners: [Int64] = [Person.adminRowID]
            if household {
                let bob = try await library.addPerson(name: "person2")
                let bobs = library.forPerson(bob)
                try await library.inviteToSharedLibrary("person2")
                try await bobs.joinSharedLibrary(moving: .nothing)
                try await library.sharePartnerLibrary(with: "person2", from: nil)
                guard let admin = try await library.person() else { throw ValidationError("the household's library has no admin") }
                try await bobs.showPartnerAssetsInTimeline(true, from: admin.name)
                owners = [bob.rowID, SharedLibrary.ownerRowID, Person.adminRowID]
            }
            var generator = SplitMix64(seed: 10)
            try await CatalogFixture.insert(count: 3 * assets, into: library) { index in
                var record = CatalogFixture.record(index, &generator, now: now)
                record.ownerID = owners[index % owners.count]
                return record
            }
            await library.close()
            if let postgresAdmin {
                try PostgresTestServer.psql(postgresAdmin.replacingOccurrences(of: "/postgres", with: "/\(household ? "household" : "one")"), "VACUUM ANALYZE")
            } else {
                _ = try ChildProcess.run("sqlite3", [url.appendingPathComponent("catalog.sqlite").path, "ANALYZE"])
            }
        }
        try Data("\(assets)\n".utf8).write(to: PeopleBenchmark.ready(folder, postgres: postgres))
    }

    private func measure(one: PhotoLibrary, household: PhotoLibrary) async throws -> Engine {
        let recents = Self.recents
        var engine = Engine()
        engine.personSees = try await household.fetchAssets(with: recents).count
        engine.firstPage = try await PeopleBenchmark.alternate(one, household, runs: runs) { library in
            _ = try await library.fetchAssetPage(with: recents, after: nil, limit: 200)
        }
        engine.monthSections = try await PeopleBenchmark.alternate(one, household, runs: runs) { library in
            _ = try await library.fetchMonthSections(with: recents)
        }
        engine.snapshot = try await PeopleBenchmark.alternate(one, household, runs: runs) { library in
            _ = try await library.fetchAssets(with: recents).count
        }
        let oneOpen = try await one.fetchAssets(with: recents)
        let householdOpen = try await household.fetchAssets(with: recents)
        // Each jump lands on pages not read before (a snapshot keeps the pages it read), from
        // the middle on.
        var jumps = [ObjectIdentifier(one): 0, ObjectIdentifier(household): 0]
        engine.jump = try await PeopleBenchmark.alternate(one, household, runs: runs) { library in
            let open = library === one ? oneOpen : householdOpen
            let start = (open.count / 2 + jumps[ObjectIdentifier(library), default: 0] * 1_000) % max(1, open.count - 200)
            jumps[ObjectIdentifier(library), default: 0] += 1
            _ = try await open.objects(in: start..<min(open.count, start + 200))
        }
        return engine
    }
}
