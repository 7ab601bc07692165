import Foundation
import ShoeboxImaging

/// The catalog on a SQL engine: one implementation of ``CatalogStore`` whose statements run on
/// SQLite (``SQLiteDriver``) or PostgreSQL (``PostgresDriver``). Where the engines differ — how
/// a month is written, case-insensitive matching, the locks PostgreSQL needs because it runs
/// transactions side by side — the driver's ``SQLDialect`` decides.
final class SQLCatalogStore: CatalogStore {
    let driver: any SQLDriver
    let location: String
    var dialect: SQLDialect { driver.dialect }
    /// Wakes change observers when this process commits (other processes' commits are found by
    /// the poll, or on PostgreSQL by `NOTIFY`).
    let changeBoard: NotificationBoard
    /// Wakes workers waiting for jobs: when this process queues one, and on PostgreSQL when any
    /// process does (`NOTIFY shoebox_jobs`).
    let jobBoard: NotificationBoard
    /// Where search finds the place names of assets (``AssetSearchText``), if anywhere.
    let places: Gazetteer?
    let owner: Int64?

    convenience init(driver: any SQLDriver, location: String, places: Gazetteer? = nil, owner: Int64? = Person.adminRowID) {
        self.init(driver: driver, location: location, places: places, owner: owner, changeBoard: NotificationBoard(), jobBoard: NotificationBoard())
    }

    private init(driver: any SQLDriver, location: String, places: Gazetteer?, owner: Int64?, changeBoard: NotificationBoard, jobBoard: NotificationBoard) {
        self.driver = driver
        self.location = location
        self.places = places
        self.owner = owner
        self.changeBoard = changeBoard
        self.jobBoard = jobBoard
    }

    func scoped(to owner: Int64?) -> any CatalogStore {
        guard owner != self.owner else { return self }
        return SQLCatalogStore(driver: driver, location: location, places: places, owner: owner, changeBoard: changeBoard, jobBoard: jobBoard)
    }

    /// Whose new rows are: the person's this object acts for, the admin's when it acts for everyone.
    var writer: Int64 { owner ?? Person.adminRowID }

    /// `ownerID = …` for this object's person (of the table `alias` when given), or `TRUE` when it
    /// acts for everyone.
    func ownerCondition(_ alias: String = "") -> SQLStatement {
        guard let owner else { return "TRUE" }
        return "\(raw: alias.isEmpty ? "" : alias + ".")ownerID = \(owner)"
    }

    /// `record` with the words search finds it by.
    func indexed(_ record: AssetRecord) -> AssetRecord {
        var record = record
        record.searchText = AssetSearchText.text(for: record, places: places)
        (record.placeName, record.placeCountry) = AssetSearchText.place(for: record, places: places)
        return record
    }

    /// Reads the place table before a transaction that will need it (the first read takes a
    /// fraction of a second on a thread that may block, not inside the transaction).
    func preparePlaces() async {
        guard let places else { return }
        _ = try? await BlockingPool.shared.run { places.isAvailable }
    }

    func close() async {
        await driver.close()
    }

    // MARK: Running statements

    func read<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws(LibraryError) -> T {
        do {
            return try await driver.read(body)
        } catch {
            throw libraryError(error)
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws(LibraryError) -> T {
        do {
            let result = try await driver.write(body)
            // Observers look at the change log's end: a write that logged nothing costs them one
            // indexed query.
            changeBoard.notify()
            return result
        } catch {
            throw libraryError(error)
        }
    }

    /// `error` as the library reports it; the server away (down, restarting, too slow) is
    /// ``LibraryError/Code/catalogUnavailable``, naming where it is.
    func libraryError(_ error: any Error) -> LibraryError {
        if !(error is CatalogUnavailable), let outage = driver.outage(for: error) {
            return Self.libraryError(outage)
        }
        if !(error is LibraryError), let code = driver.libraryCode(for: error) {
            let what = code == .constraint ? "the catalog refused the change" : "the catalog is busy (another process holds a lock)"
            return LibraryError(code, "\(what): \(error)", underlying: error)
        }
        return Self.libraryError(error)
    }

    /// `error` as the library reports it, without the engine's codes: the engine's error stays
    /// its ``LibraryError/underlying`` error.
    static func libraryError(_ error: any Error) -> LibraryError {
        if let error = error as? LibraryError { return error }
        if error is CancellationError { return .cancelled }
        if let error = error as? CatalogUnavailable { return .catalogUnavailable(error.description, underlying: error) }
        return .storage(String(describing: error), underlying: error)
    }

    // MARK: Settings

    func setting(_ key: String) async throws(LibraryError) -> String? {
        try await read { db in try await db.scalar("SELECT value FROM setting WHERE key = \(key)") }
    }

    func setting(_ key: String, default value: String) async throws(LibraryError) -> String {
        try await write { db in
            try await db.execute("INSERT INTO setting (key, value) VALUES (\(key), \(value)) ON CONFLICT (key) DO NOTHING")
            return try await db.scalar("SELECT value FROM setting WHERE key = \(key)", as: String.self) ?? value
        }
    }

    func setSetting(_ key: String, to value: String?) async throws(LibraryError) {
        try await write { db in
            if let value {
                try await db.execute("INSERT INTO setting (key, value) VALUES (\(key), \(value)) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            } else {
                try await db.execute("DELETE FROM setting WHERE key = \(key)")
            }
        }
    }

    // MARK: Change log

    func latestChangeSequence() async throws(LibraryError) -> Int64 {
        try await read { db in try await db.scalar("SELECT MAX(sequence) FROM changeLog", as: Int64?.self) ?? nil } ?? 0
    }

    func changes(after sequence: Int64) async throws(LibraryError) -> [ChangeLogEntry] {
        // The person's entries and, while they are in it, the Shared Library's; and, as
        // `partnerAsset` entries that name nothing, that the photos of someone who shares with
        // them as a partner changed (an open fetch that shows them is read again, and shows what
        // the share lets it: a hidden photo's identifier never leaves the catalog).
        let mine = assetOwnerCondition()
        var statement: SQLStatement = "SELECT * FROM changeLog WHERE sequence > \(sequence) AND " + mine + " ORDER BY sequence"
        if let me = owner {
            statement =
                "SELECT sequence, commitID, date, CASE WHEN " + mine + " THEN kind ELSE \(ChangeLogEntry.partnerAssetKind) END AS kind, "
                + "CASE WHEN " + mine + " THEN localIdentifier ELSE '' END AS localIdentifier FROM changeLog WHERE sequence > \(sequence) AND ("
                + mine + """
                     OR (kind IN ('insert', 'update', 'delete') AND ownerID IN (SELECT ownerID FROM partnerShare WHERE partnerID = \(me)))) \
                    ORDER BY sequence
                    """
        }
        let query = statement
        return try await read { db in
            try await db.query(query).map { row in
                ChangeLogEntry(
                    sequence: row["sequence"], commitID: row["commitID"], date: row["date"], kind: row["kind"],
                    localIdentifier: row["localIdentifier"])
            }
        }
    }

    var localWrites: NotificationBoard { changeBoard }

    var hearsOtherProcessesCommits: Bool { driver.notifier != nil }

    var sqlDriver: (any SQLDriver)? { driver }

    func waitForChanges(after sequence: Int64, timeout: Duration) async {
        if let notifying = driver.notifier {
            await notifying.waitForNotification(after: sequence, timeout: timeout, latest: { [self] in try await latestChangeSequence() })
            return
        }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, !Task.isCancelled {
            let seen = changeBoard.count
            if let latest = try? await latestChangeSequence(), latest > sequence { return }
            await changeBoard.wait(beyond: seen, until: deadline)
        }
    }

    /// One change-log entry per object the change touched, each for the person whose object it
    /// is (`owners`: by identifier; `owner` for the rest); PostgreSQL also notifies listeners.
    static func logChanges(_ changes: CatalogChanges, in db: any SQLSession, now: Date, owner: Int64, owners: [String: Int64] = [:]) async throws {
        var entries: [(String, String)] = []
        entries += changes.insertions.map { ("insert", $0.localIdentifier) }
        entries += changes.updates.map { ("update", $0.localIdentifier) }
        entries += changes.purges.map { ("delete", $0) }
        entries += changes.albumCreations.map { ("album", $0.localIdentifier) }
        entries += changes.albumOperations.map { ("album", $0.localIdentifier) }
        entries += changes.albumDeletions.map { ("album", $0) }
        var owners = owners
        for record in changes.insertions { owners[record.localIdentifier] = record.ownerID }
        // Updates the change made along the way (a burst's other frames, a pair's halves) are of
        // their assets' owners.
        let unknown = changes.updates.map(\.localIdentifier).filter { owners[$0] == nil }
        for start in stride(from: 0, to: unknown.count, by: 500) {
            let chunk = Array(unknown[start..<min(start + 500, unknown.count)])
            for row in try await db.query("SELECT localIdentifier, ownerID FROM asset WHERE localIdentifier IN \(list: chunk)") {
                owners[row["localIdentifier"]] = row["ownerID"]
            }
        }
        try await logEntries(entries.map { ($0.0, $0.1, owners[$0.1] ?? owner) }, in: db, now: now)
    }

    /// `update` entries for assets, each for its owner (assets that are gone are left out).
    static func logAssetUpdates(_ identifiers: [String], in db: any SQLSession, now: Date) async throws {
        guard !identifiers.isEmpty else { return }
        var entries: [(kind: String, localIdentifier: String, owner: Int64)] = []
        for start in stride(from: 0, to: identifiers.count, by: 500) {
            let chunk = Array(identifiers[start..<min(start + 500, identifiers.count)])
            for row in try await db.query("SELECT localIdentifier, ownerID FROM asset WHERE localIdentifier IN \(list: chunk)") {
                entries.append(("update", row["localIdentifier"], row["ownerID"]))
            }
        }
        try await logEntries(entries, in: db, now: now)
    }

    /// Change-log entries of one commit; PostgreSQL also notifies listeners.
    ///
    /// On PostgreSQL the entries' sequence numbers must become visible in order: a reader that
    /// has seen sequence 11 never goes back for 10, so a transaction that took 10 and commits
    /// after the one that took 11 would be lost to it. Writers of the log therefore take one
    /// transaction-level lock first and hold it until they commit; it is the last lock a
    /// transaction takes (callers log last), so it cannot close a cycle with another.
    /// Each entry's `owner` is the person whose object it is: only they are told of it.
    static func logEntries(_ entries: [(kind: String, localIdentifier: String, owner: Int64)], in db: any SQLSession, now: Date) async throws {
        guard !entries.isEmpty else { return }
        if db.dialect == .postgres {
            _ = try await db.query("SELECT pg_advisory_xact_lock(hashtextextended('shoebox.changeLog', 0))")
        }
        let commit = UUID().uuidString
        // 200 entries a statement (a change of 10,000 assets logs 10,000), as ordinary statements:
        // on PostgreSQL they keep the statement deadline that ends a call to a server that went
        // away (a COPY has none).
        for start in stride(from: 0, to: entries.count, by: 200) {
            let rows = entries[start..<min(start + 200, entries.count)].map { entry -> SQLStatement in
                "(\(commit), \(now), \(entry.kind), \(entry.localIdentifier), \(entry.owner))"
            }
            try await db.execute(
                "INSERT INTO changeLog (commitID, date, kind, localIdentifier, ownerID) VALUES " + SQLStatement.joined(rows, separator: ", "))
        }
        if db.dialect == .postgres {
            try await db.execute("SELECT pg_notify('shoebox_changes', \(commit))")
        }
    }
}
