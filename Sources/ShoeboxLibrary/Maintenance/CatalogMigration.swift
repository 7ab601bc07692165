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
    /// The tables a catalog holds, in an order that respects their references, with the
    /// columns whose values need converting between engines.
    struct CatalogTable: Sendable {
        let name: String
        let dates: Set<String>
        let booleans: Set<String>
        /// Whether PostgreSQL numbers its rows (its sequence is moved past the copied ids).
        let identity: String?
    }

    static let catalogTables: [CatalogTable] = [
        .init(
            name: "asset", dates: ["creationdate", "modificationdate", "addeddate", "trasheddate"], booleans: ["isfavorite", "ishidden", "representsburst"],
            identity: "id"),
        .init(name: "assetCollection", dates: ["creationdate"], booleans: ["isfolder"], identity: "id"),
        .init(name: "membership", dates: [], booleans: [], identity: nil),
        .init(name: "changeLog", dates: ["date"], booleans: [], identity: "sequence"),
        .init(name: "assetEdit", dates: ["date"], booleans: [], identity: nil),
        .init(name: "setting", dates: [], booleans: [], identity: nil),
        .init(name: "client", dates: ["registereddate"], booleans: [], identity: nil),
        .init(name: "\"grant\"", dates: ["date"], booleans: [], identity: nil),
        .init(name: "limitedSelection", dates: [], booleans: [], identity: nil),
        .init(name: "accessLog", dates: ["date"], booleans: [], identity: "sequence"),
        .init(name: "clientToken", dates: ["date"], booleans: [], identity: nil),
        .init(name: "purgedAsset", dates: ["date"], booleans: [], identity: nil),
        .init(name: "blobDeletion", dates: ["date", "removerexpires"], booleans: [], identity: nil),
        // Queued and failed jobs move with the catalog (running ones too: their workers stop
        // with the old catalog, and the reaper hands their jobs back on the new one).
        .init(name: "job", dates: ["runafter", "leaseexpires", "createddate"], booleans: [], identity: "id"),
        // Questions, picks and uploads in progress go on after the move.
        .init(name: "prompt", dates: ["createddate", "expiresdate", "answereddate"], booleans: ["offerslimitedaccess"], identity: nil),
        .init(name: "picker_session", dates: ["createddate", "updateddate"], booleans: ["finished"], identity: nil),
        .init(name: "upload", dates: ["createddate", "updateddate"], booleans: [], identity: nil),
    ]

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
                        var copied: [String: Int] = [:]
                        for table in catalogTables {
                            copied[table.name.replacingOccurrences(of: "\"", with: "")] = try await Self.copy(
                                table, from: sourceSession, to: targetSession, progress: progress)
                        }
                        try await targetSession.execute("INSERT INTO setting (key, value) VALUES ('migratedFrom', \(sourceID))")
                        source.faults.crashIfArmed(.duringMigration)
                        try await Self.verify(sourceSession, targetSession, digest: digest)
                        return copied
                    }
                } else {
                    // An earlier run committed the copy and was stopped before it switched.
                    try await targetDriver.read { targetSession in try await Self.verify(sourceSession, targetSession, digest: digest) }
                    for table in catalogTables {
                        let name = table.name.replacingOccurrences(of: "\"", with: "")
                        rows[name] = try await sourceSession.scalar("SELECT COUNT(*) FROM \(raw: table.name)", as: Int.self) ?? 0
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
        let rows = try await source.query("SELECT * FROM \(raw: table.name)")
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
                "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES "
                + Array(repeating: tuple, count: slice.count).joined(separator: ", ")
            try await target.execute(SQLStatement(text, arguments: arguments))
            copied += slice.count
            progress(table.name.replacingOccurrences(of: "\"", with: ""), copied)
        }
        if let identity = table.identity {
            let name = table.name.lowercased()
            _ = try await target.query(
                "SELECT setval(pg_get_serial_sequence('\(raw: name)', '\(raw: identity.lowercased())'), (SELECT COALESCE(MAX(\(raw: identity)), 0) + 1 FROM \(raw: table.name)), false)"
            )
        }
        return copied
    }

    private static func convert(_ value: SQLValue, column: String, in table: CatalogTable) -> SQLValue {
        if case .null = value { return .null }
        if table.dates.contains(column), let date = Date(sqlValue: value) { return .date(date) }
        if table.booleans.contains(column), let flag = Bool(sqlValue: value) { return .bool(flag) }
        return value
    }

    /// Row counts and the asset digest agree on both sides.
    private static func verify(_ source: any SQLSession, _ target: any SQLSession, digest: String) async throws {
        for table in catalogTables {
            // The target's own note of where it came from is not a copied row.
            let mark = table.name == "setting" ? " WHERE key <> 'migratedFrom'" : ""
            let from = try await source.scalar("SELECT COUNT(*) FROM \(raw: table.name)\(raw: mark)", as: Int.self) ?? 0
            let to = try await target.scalar("SELECT COUNT(*) FROM \(raw: table.name)\(raw: mark)", as: Int.self) ?? 0
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
