import Foundation
internal import GRDB
import ShoeboxSupport
import Synchronization

/// SQLite through GRDB: a `DatabasePool` in WAL mode (readers never wait for the writer),
/// `synchronous = FULL` (a commit that returned survives a power loss), and a 10-second busy
/// timeout for other processes' write locks. Every statement runs on GRDB's own queues, so a
/// busy catalog never blocks a cooperative or event-loop thread.
///
/// A write transaction is `BEGIN IMMEDIATE … COMMIT` on the writer connection, its statements one
/// GRDB access each; this process's transactions take turns (an async lock), other processes'
/// wait on SQLite's lock. A transaction, once begun, runs to its end even if the task that asked
/// for it is cancelled (a change is all or nothing, never cut off mid-way).
///
/// Statements are prepared once per connection and kept (GRDB's statement cache): preparing
/// is most of a short statement's cost (SQLite's parser, and GRDB's authorizer working out
/// what each statement reads), and a change of many assets runs the same few statements
/// thousands of times. Texts of several statements are not kept. The cache is bounded: when
/// more than ``statementCacheLimit`` different texts have been kept, every connection drops
/// its cache and starts again.
final class SQLiteDriver: SQLDriver {
    func libraryCode(for error: any Error) -> LibraryError.Code? {
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .busy
        case .SQLITE_CONSTRAINT: return .constraint
        default: return nil
        }
    }

    let pool: DatabasePool
    let path: String
    /// One writer at a time (the connection's transactions span several accesses).
    let writers = WorkLimiter(limit: 1)
    /// The texts of the statements connections keep prepared (see the type's discussion).
    let cachedTexts: StatementTexts

    /// How many different statement texts the connections keep prepared before they drop them all.
    static let statementCacheLimit = 1_000

    var dialect: SQLDialect { .sqlite }

    /// Opens (creating if needed) the database at `path` and applies `migrator`'s migrations.
    ///
    /// - Throws: ``LibraryError/Code/newerSchema`` when the catalog has
    ///   migrations this code does not know; ``LibraryError/Code/cannotOpen``.
    static func open(path: String, migrator: DatabaseMigrator) async throws(LibraryError) -> SQLiteDriver {
        let pool: DatabasePool
        do {
            pool = try await BlockingPool.shared.run {
                var configuration = Configuration()
                configuration.label = "shoebox.catalog"
                // Other processes may hold the write lock briefly; wait (on GRDB's queue) rather than fail.
                configuration.busyMode = .timeout(10)
                // Transactions span several accesses of the writer connection (see the type's discussion).
                configuration.allowsUnsafeTransactions = true
                let pool = try DatabasePool(path: path, configuration: configuration)
                // Durability: GRDB sets NORMAL with WAL, where the last commits before a power
                // loss may roll back; FULL flushes the WAL at every commit. Only the writer
                // connection writes, so only it needs the setting.
                try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
                return pool
            }
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
        let driver = SQLiteDriver(pool: pool, path: path)
        try await driver.migrate(migrator)
        return driver
    }

    private init(pool: DatabasePool, path: String) {
        self.pool = pool
        self.path = path
        self.cachedTexts = StatementTexts(pool: pool)
    }

    private func migrate(_ migrator: DatabaseMigrator) async throws(LibraryError) {
        let path = self.path
        do {
            let unknown = try await pool.read { db in try migrator.appliedIdentifiers(db).subtracting(migrator.migrations) }
            guard unknown.isEmpty else {
                throw LibraryError.newerSchema(path: path, unknownMigrations: unknown.sorted())
            }
            let pool = self.pool
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                migrator.asyncMigrate(pool) { result in
                    continuation.resume(with: result.map { _ in () })
                }
            }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await body(Session(pool: pool, writes: false, cachedTexts: cachedTexts))
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await writers.acquire()
        defer { writers.release() }
        let pool = self.pool
        // A task of its own, shielded from the caller's cancellation: begun, a transaction ends
        // by commit or rollback.
        let cachedTexts = self.cachedTexts
        return try await Task { try await Self.transaction(pool: pool, cachedTexts: cachedTexts, body: body) }.value
    }

    private static func transaction<T: Sendable>(
        pool: DatabasePool, cachedTexts: StatementTexts, body: @Sendable (any SQLSession) async throws -> T
    ) async throws -> T {
        try await pool.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        do {
            let result = try await body(Session(pool: pool, writes: true, cachedTexts: cachedTexts))
            try await pool.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
            return result
        } catch {
            try? await pool.writeWithoutTransaction { db in
                if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
            }
            throw error
        }
    }

    /// A `flock` on a file beside the database (one machine, which is all a SQLite catalog is
    /// shared by); the kernel drops it if the holder dies.
    func withAdvisoryLock<T: Sendable>(_ name: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
        let path = self.path + ".lock-" + name
        let lock = await BlockingPool.shared.run { () -> FileLock? in
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            return FileLock(tryingExclusiveOn: path)
        }
        guard let lock else { return nil }
        defer { withExtendedLifetime(lock) {} }
        return try await body()
    }

    func close() async {
        try? await pool.writeWithoutTransaction { db in
            if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
        }
    }

    /// Statements on the reader pool, or on the writer inside a transaction.
    struct Session: SQLSession {
        let pool: DatabasePool
        let writes: Bool
        let cachedTexts: StatementTexts

        var dialect: SQLDialect { .sqlite }

        func query(_ statement: SQLStatement) async throws -> [SQLRow] {
            let cached = cachedTexts.keeps(statement.text)
            return try await access { db in
                var rows: [SQLRow] = []
                let arguments = Self.arguments(statement.arguments)
                let cursor =
                    try cached
                    ? Row.fetchCursor(db.cachedStatement(sql: statement.text), arguments: arguments)
                    : Row.fetchCursor(db, sql: statement.text, arguments: arguments)
                var columns: [String]?
                while let row = try cursor.next() {
                    if columns == nil { columns = row.columnNames.map { $0.lowercased() } }
                    rows.append(SQLRow(columns: columns!, values: row.databaseValues.map(Self.value)))
                }
                return rows
            }
        }

        func execute(_ statement: SQLStatement) async throws -> Int {
            let cached = cachedTexts.keeps(statement.text)
            return try await access { db in
                if cached {
                    try db.cachedStatement(sql: statement.text).execute(arguments: Self.arguments(statement.arguments))
                } else {
                    try db.execute(sql: statement.text, arguments: Self.arguments(statement.arguments))
                }
                return db.changesCount
            }
        }

        func integers(_ statement: SQLStatement) async throws -> [Int64] {
            let cached = cachedTexts.keeps(statement.text)
            return try await access { db in
                let arguments = Self.arguments(statement.arguments)
                if cached { return try Int64.fetchAll(db.cachedStatement(sql: statement.text), arguments: arguments) }
                return try Int64.fetchAll(db, sql: statement.text, arguments: arguments)
            }
        }

        func integerArrays(_ statement: SQLStatement) async throws -> [[Int64]] {
            guard let row = try await query(statement).first else { return [] }
            return try row.values.map { value in
                guard case .text(let json) = value else { return [] }
                guard let numbers = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [NSNumber] else {
                    throw LibraryError.invalidArgument("not a JSON array of integers: \(json.prefix(40))")
                }
                return numbers.map(\.int64Value)
            }
        }

        func insertRows(into table: String, columns: [String], rows: [[SQLValue]]) async throws {
            let sql =
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            try await access { db in
                let statement = try db.makeStatement(sql: sql)
                for row in rows {
                    try statement.execute(arguments: Self.arguments(row))
                }
            }
        }

        private func access<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
            if writes {
                return try await pool.writeWithoutTransaction(work)
            }
            return try await pool.read(work)
        }

        static func arguments(_ values: [SQLValue]) -> StatementArguments {
            StatementArguments(
                values.map { value -> DatabaseValue in
                    switch value {
                    case .null: .null
                    case .integer(let number): number.databaseValue
                    case .real(let number): number.databaseValue
                    case .text(let text): text.databaseValue
                    case .blob(let data): data.databaseValue
                    case .bool(let flag): flag.databaseValue
                    case .date(let date): date.databaseValue
                    }
                })
        }

        static func value(_ value: DatabaseValue) -> SQLValue {
            switch value.storage {
            case .null: .null
            case .int64(let number): .integer(number)
            case .double(let number): .real(number)
            case .string(let text): .text(text)
            case .blob(let data): .blob(data)
            }
        }
    }
}

extension SQLiteDriver {
    /// Which statement texts the connections keep prepared: one statement each (a text with a
    /// `;` may hold several, which GRDB's cache does not take), at most
    /// ``SQLiteDriver/statementCacheLimit`` different ones before every connection drops its
    /// cache (texts that embed values would otherwise grow it without end).
    final class StatementTexts: Sendable {
        private let pool: DatabasePool
        private let texts = Mutex(Set<String>())

        init(pool: DatabasePool) {
            self.pool = pool
        }

        /// How many different texts are kept now.
        var count: Int { texts.withLock(\.count) }

        /// Whether `text` runs as a kept statement; counts it among the kept ones if new.
        func keeps(_ text: String) -> Bool {
            guard !text.contains(";") else { return false }
            let overflowed = texts.withLock { texts -> Bool in
                guard texts.insert(text).inserted, texts.count > SQLiteDriver.statementCacheLimit else { return false }
                texts = [text]
                return true
            }
            // The connections empty their caches when they are next free (readers close and
            // reopen); statements that run meanwhile prepare again.
            if overflowed { pool.releaseMemoryEventually() }
            return true
        }
    }
}
