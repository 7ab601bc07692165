internal import Crypto
import Foundation

/// What ``PhotoLibrary/migrateCatalog(ofLibraryAt:to:progress:)`` did.
public struct CatalogMigrationReport: Sendable, Codable {
    /// Rows copied per table.
    public let rows: [String: Int]
    /// The SHA-256 of every asset's identity, content and state, the same in both catalogs.
    public let assetDigest: String
    /// The catalog the library uses now.
    public let catalog: String
    /// How long the migration took, in seconds.
    public let seconds: Double
}

extension PhotoLibrary {
    /// The tables a migration copies, in an order that respects their references. Every other
    /// table of a SQLite catalog must be one the target rebuilds by itself (``derivedTables``):
    /// a migration that meets a table in neither list stops before it copies anything, so a
    /// table added to the schema cannot be left behind unnoticed.
    static let copiedTables = [
        // People first: an album's photos name who added each (membership.addedByID).
        "person",
        "asset", "assetCollection", "membership", "changeLog", "assetEdit", "setting",
        "client", "grant", "limitedSelection", "accessLog", "clientToken", "purgedAsset", "blobDeletion",
        // Queued and failed jobs move with the catalog (running ones too: their workers stop
        // with the old catalog, and the reaper hands their jobs back on the new one).
        "job",
        // Questions, picks and uploads in progress go on after the move.
        "prompt", "picker_session", "upload",
        // The people, how they sign in (sessions stay signed in, keys and passkeys keep working,
        // the throttle remembers recent failures), and their shared links with their visits.
        "personSession", "signInFailure", "personKey", "personPasskey", "personIdentity", "sharedLink", "sharedLinkView",
        // Shared albums: who each is shared with, and their likes, comments and additions.
        "albumShare", "albumActivity",
        // Partner sharing: whose library each person sees, from when, and where they show it.
        "partnerShare",
        // The Shared Library: who is in it or invited, who added and who deleted its photos.
        "sharedLibraryParticipant", "sharedLibraryAsset",
    ]

    /// Tables of a SQLite catalog that are not copied: the search index and the counts (kept by
    /// the target's own triggers as the rows arrive), blob claims (a migration starts only when
    /// none is live; dead ones are what crashed processes left), and the engines' own tables.
    static func isDerived(_ table: String) -> Bool {
        let name = table.lowercased()
        return name == "assetsummary" || name == "blobclaim" || name == "grdb_migrations" || name.hasPrefix("assetsearch")
            || name.hasPrefix("sqlite_")
    }

    /// How a table's values are converted on their way into PostgreSQL, from the target's own
    /// column types: SQLite keeps dates as text and booleans as 0 or 1.
    struct CatalogTable: Sendable {
        /// The table's name as the catalog's code spells it.
        let name: String
        /// Columns (lowercased) PostgreSQL keeps as `timestamptz`.
        let dates: Set<String>
        /// Columns (lowercased) PostgreSQL keeps as `boolean`.
        let booleans: Set<String>
        /// The column PostgreSQL numbers itself (its sequence is moved past the copied ids).
        let identity: String?

        /// The name quoted (`grant` is a keyword), as both engines find it: SQLite's names are
        /// case-insensitive, PostgreSQL folded the unquoted names it was made with.
        var sql: String { "\"\(name.lowercased())\"" }
    }

    /// The copied tables with the target's column types; throws when the source holds a table
    /// that is neither copied nor derived.
    private static func plan(source: any SQLSession, target: any SQLSession) async throws -> [CatalogTable] {
        let known = Set(copiedTables.map { $0.lowercased() })
        let sourceTables = try await source.query("SELECT name FROM sqlite_master WHERE type = 'table'").map { $0["name"] as String }
        if let unknown = sourceTables.first(where: { !known.contains($0.lowercased()) && !isDerived($0) }) {
            throw LibraryError.storage("the migration does not know the catalog's table \(unknown); nothing was copied")
        }
        let columns = try await target.query(
            """
            SELECT table_name, column_name, data_type, is_identity FROM information_schema.columns
            WHERE table_schema = current_schema()
            """)
        var dates: [String: Set<String>] = [:]
        var booleans: [String: Set<String>] = [:]
        var identities: [String: String] = [:]
        for column in columns {
            let table: String = column["table_name"]
            let name: String = column["column_name"]
            switch column["data_type"] as String {
            case "timestamp with time zone", "timestamp without time zone": dates[table, default: []].insert(name)
            case "boolean": booleans[table, default: []].insert(name)
            default: break
            }
            if column["is_identity"] as String == "YES" { identities[table] = name }
        }
        return copiedTables.map { name in
            let key = name.lowercased()
            return CatalogTable(name: name, dates: dates[key] ?? [], booleans: booleans[key] ?? [], identity: identities[key])
        }
    }

    /// Moves the catalog of the library at `url` into PostgreSQL and switches the library to it;
    /// the blobs stay where they are.
    ///
    /// The source is read inside one write transaction (other processes' writes wait, so nothing
    /// changes while it is copied); everything is copied in one PostgreSQL transaction, verified
    /// (row counts, and a SHA-256 over every asset's identity, bytes and state, computed on both
    /// sides), and committed; only then is `library.json` replaced, atomically. Interrupted at
    /// any point, the library is untouched and still uses its old catalog; the target is empty
    /// again (its transaction never committed), or — killed between the commit and the switch —
    /// holds exactly this copy, which running the migration again recognises and completes.
    /// `catalog.sqlite` is left as it was, a backup; stop servers and workers on the library
    /// first, since they keep writing to the catalog they opened.
    ///
    /// - Parameters:
    ///   - target: The PostgreSQL database: empty, or the one an interrupted migration of this
    ///     library filled.
    ///   - progress: Called with each table's name and rows copied.
    /// - Throws: ``LibraryError/Code/invalidArgument`` when the library is not on SQLite, or the
    ///   target holds another catalog; ``LibraryError/Code/storage`` when verification fails.
    public static func migrateCatalog(
        ofLibraryAt url: URL, to target: PostgresURL,
        progress: @escaping @Sendable (String, Int) -> Void = { _, _ in }
    ) async throws(LibraryError) -> CatalogMigrationReport {
        let started = Date()
        let root = url.standardizedFileURL
        let configuration = try Configuration.load(fromLibraryAt: root)
        guard case .sqlite = configuration.catalog else {
            throw .invalidArgument("\(root.path) is not on SQLite (\(configuration.catalogDescription)); nothing to migrate")
        }
        // Opening settles what crashed processes left, so the copy is of a healed catalog.
        let source = try await open(at: root)
        guard let sourceDriver = source.catalog.sqlDriver else {
            throw .invalidArgument("the library's catalog cannot be read as SQL")
        }
        if try await source.catalog.blobClaims().contains(where: \.isLive) {
            throw .invalidArgument("a change is in progress on \(root.path); let it finish (or stop the process making it) and try again")
        }
        let targetDriver = try await PostgresDriver.connect(target)
        defer { Task { await targetDriver.close() } }
        try await PostgresSchema.migrate(targetDriver)
        let sourceID = try await libraryIdentity(source)
        let report: CatalogMigrationReport
        do {
            report = try await sourceDriver.write { sourceSession in
                let existing = try await targetDriver.read { db in try await Self.existingCopy(in: db) }
                if let existing, existing != sourceID {
                    throw LibraryError.invalidArgument("\(target) already holds a catalog (of another library); give an empty database")
                }
                let digest = try await Self.assetDigest(sourceSession)
                var rows: [String: Int] = [:]
                if existing == nil {
                    rows = try await targetDriver.write { targetSession in
                        let tables = try await Self.plan(source: sourceSession, target: targetSession)
                        // The target's schema made its own first admin: the library's people
                        // replace it, person 1 among them.
                        try await targetSession.execute("DELETE FROM person")
                        var copied: [String: Int] = [:]
                        for table in tables {
                            copied[table.name] = try await Self.copy(table, from: sourceSession, to: targetSession, progress: progress)
                        }
                        try await targetSession.execute("INSERT INTO setting (key, value) VALUES ('migratedFrom', \(sourceID))")
                        source.faults.crashIfArmed(.duringMigration)
                        try await Self.verify(sourceSession, targetSession, tables: tables, digest: digest)
                        return copied
                    }
                } else {
                    // An earlier run committed the copy and was stopped before it switched.
                    let tables = try await targetDriver.read { targetSession in
                        let tables = try await Self.plan(source: sourceSession, target: targetSession)
                        try await Self.verify(sourceSession, targetSession, tables: tables, digest: digest)
                        return tables
                    }
                    for table in tables {
                        rows[table.name] = try await sourceSession.scalar("SELECT COUNT(*) FROM \(raw: table.sql)", as: Int.self) ?? 0
                    }
                }
                try Configuration(catalog: .postgres(target), blobs: configuration.blobs).write(toLibraryAt: root)
                return CatalogMigrationReport(
                    rows: rows, assetDigest: digest, catalog: target.description,
                    seconds: Date().timeIntervalSince(started))
            }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .storage(PostgresURL.explain(error))
        }
        await source.close()
        return report
    }

    /// A random identity kept in the library's settings, naming it in a migration's target.
    private static func libraryIdentity(_ library: PhotoLibrary) async throws(LibraryError) -> String {
        if let known = try await library.catalog.setting("libraryID") { return known }
        let made = UUID().uuidString
        try await library.catalog.setSetting("libraryID", to: made)
        return made
    }

    /// The library an earlier migration copied into this database, `nil` when it is empty.
    private static func existingCopy(in db: any SQLSession) async throws -> String? {
        let assets = try await db.scalar("SELECT COUNT(*) FROM asset", as: Int.self) ?? 0
        let settings = try await db.scalar("SELECT COUNT(*) FROM setting", as: Int.self) ?? 0
        let from: String? = try await db.scalar("SELECT value FROM setting WHERE key = 'migratedFrom'")
        if assets == 0, settings == 0 { return nil }
        return from ?? "another library"
    }

    /// Copies one table, a thousand rows per statement, converting dates and booleans.
    private static func copy(
        _ table: CatalogTable, from source: any SQLSession, to target: any SQLSession,
        progress: @Sendable (String, Int) -> Void
    ) async throws -> Int {
        let rows = try await source.query("SELECT * FROM \(raw: table.sql)")
        guard let columns = rows.first?.columns else {
            progress(table.name, 0)
            return 0
        }
        let batch = max(1, 30_000 / columns.count)
        var copied = 0
        for start in stride(from: 0, to: rows.count, by: batch) {
            let slice = rows[start..<min(start + batch, rows.count)]
            var arguments: [SQLValue] = []
            arguments.reserveCapacity(slice.count * columns.count)
            for row in slice {
                for (column, value) in zip(columns, row.values) {
                    arguments.append(convert(value, column: column, in: table))
                }
            }
            let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            let text =
                "INSERT INTO \(table.sql) (\(columns.joined(separator: ", "))) VALUES "
                + Array(repeating: tuple, count: slice.count).joined(separator: ", ")
            try await target.execute(SQLStatement(text, arguments: arguments))
            copied += slice.count
            progress(table.name, copied)
        }
        if let identity = table.identity {
            _ = try await target.query(
                "SELECT setval(pg_get_serial_sequence('\(raw: table.sql)', '\(raw: identity)'), (SELECT COALESCE(MAX(\(raw: identity)), 0) + 1 FROM \(raw: table.sql)), false)"
            )
        }
        return copied
    }

    private static func convert(_ value: SQLValue, column: String, in table: CatalogTable) -> SQLValue {
        if case .null = value { return .null }
        let column = column.lowercased()
        if table.dates.contains(column), let date = Date(sqlValue: value) { return .date(date) }
        if table.booleans.contains(column), let flag = Bool(sqlValue: value) { return .bool(flag) }
        return value
    }

    /// Row counts and the asset digest agree on both sides.
    private static func verify(_ source: any SQLSession, _ target: any SQLSession, tables: [CatalogTable], digest: String) async throws {
        for table in tables {
            // The target's own note of where it came from is not a copied row.
            let mark = table.name == "setting" ? " WHERE key <> 'migratedFrom'" : ""
            let from = try await source.scalar("SELECT COUNT(*) FROM \(raw: table.sql)\(raw: mark)", as: Int.self) ?? 0
            let to = try await target.scalar("SELECT COUNT(*) FROM \(raw: table.sql)\(raw: mark)", as: Int.self) ?? 0
            guard from == to else {
                throw LibraryError.storage("verification failed: \(table.name) has \(from) rows in SQLite and \(to) in PostgreSQL; nothing was switched")
            }
        }
        let copied = try await assetDigest(target)
        guard copied == digest else {
            throw LibraryError.storage("verification failed: the assets' digest differs (\(digest) in SQLite, \(copied) in PostgreSQL); nothing was switched")
        }
    }

    /// SHA-256 over every asset's id, identifier, hashes, trash date (to the nearest millisecond: SQLite keeps milliseconds, and the two sides decode them into floating point differently) and
    /// favorite/hidden flags, in id order.
    private static func assetDigest(_ db: any SQLSession) async throws -> String {
        var hasher = SHA256()
        var last: Int64 = -1
        while true {
            let rows = try await db.query(
                "SELECT id, localIdentifier, contentHash, renderHash, trashedDate, isFavorite, isHidden FROM asset WHERE id > \(last) ORDER BY id LIMIT 50000")
            guard !rows.isEmpty else { break }
            for row in rows {
                let trashed = (row["trashedDate"] as Date?).map { String(Int64(($0.timeIntervalSince1970 * 1000).rounded())) } ?? "-"
                let line =
                    "\(row["id"] as Int64)|\(row["localIdentifier"] as String)|\(row["contentHash"] as String)|\(row["renderHash"] as String? ?? "-")|\(trashed)|\(row["isFavorite"] as Bool)|\(row["isHidden"] as Bool)\n"
                hasher.update(data: Data(line.utf8))
                last = row["id"]
            }
        }
        return Hex.encode(hasher.finalize())
    }
}
