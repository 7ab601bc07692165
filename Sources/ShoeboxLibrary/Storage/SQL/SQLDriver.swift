import Foundation

/// Which SQL engine a ``SQLDriver`` speaks: where their SQL differs, the catalog asks.
package enum SQLDialect: Sendable {
    /// SQLite through GRDB: the embedded catalog, one writer at a time.
    case sqlite
    /// PostgreSQL through postgres-nio: a catalog several servers and workers share.
    case postgres

    /// `YYYY-MM` of an asset's creation date as the clock read where it was taken (moved by
    /// its `timeZoneOffset`, when known), for a row whose columns carry `prefix` (`NEW.`).
    func localMonth(prefix: String = "") -> String {
        switch self {
        case .sqlite: "substr(datetime(\(prefix)creationDate, COALESCE(\(prefix)timeZoneOffset, 0) || ' seconds'), 1, 7)"
        case .postgres: "to_char((\(prefix)creationDate + COALESCE(\(prefix)timeZoneOffset, 0) * INTERVAL '1 second') AT TIME ZONE 'UTC', 'YYYY-MM')"
        }
    }

    /// `YYYY-MM-DD` of an asset's creation date as the clock read where it was taken.
    func localDay(prefix: String = "") -> String {
        switch self {
        case .sqlite: "substr(datetime(\(prefix)creationDate, COALESCE(\(prefix)timeZoneOffset, 0) || ' seconds'), 1, 10)"
        case .postgres: "to_char((\(prefix)creationDate + COALESCE(\(prefix)timeZoneOffset, 0) * INTERVAL '1 second') AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
        }
    }

    /// A line break as an expression of the engine's SQL (it has no escapes in literals).
    var newlineText: String {
        switch self {
        case .sqlite: "char(10)"
        case .postgres: "chr(10)"
        }
    }

    /// A case-insensitive `LIKE` (ASCII in SQLite, as its `LIKE` is; full Unicode in PostgreSQL).
    var caseInsensitiveLike: String {
        switch self {
        case .sqlite: "LIKE"
        case .postgres: "ILIKE"
        }
    }
}

/// One engine under the catalog: SQLite through GRDB, PostgreSQL through postgres-nio. A driver
/// runs statements without blocking a cooperative or event-loop thread (SQLite's work runs on
/// GRDB's own queues; PostgreSQL's is network I/O).
package protocol SQLDriver: Sendable {
    /// The engine the driver runs statements on, for the SQL that differs between them.
    var dialect: SQLDialect { get }
    /// Runs `body` with a session for reads (statements may see different snapshots).
    func read<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T
    /// Runs `body` in one write transaction: committed when it returns, rolled back when it
    /// throws. Write transactions of one catalog never interleave.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T
    /// Stops the driver (closes connections).
    func close() async
    /// The library's code for a failure of this engine that has one (``LibraryError/Code/busy``
    /// for a lock another process holds, ``LibraryError/Code/constraint`` for a change that
    /// breaks one of the catalog's rules); `nil` for others, which are ``LibraryError/Code/storage``.
    /// The engine's error stays the ``LibraryError/underlying`` error either way.
    func libraryCode(for error: any Error) -> LibraryError.Code?
    /// The error to report for `error` when it means the engine's server is away (down,
    /// restarting, too slow); `nil` when it does not, or for an engine without a server.
    func outage(for error: any Error) -> CatalogUnavailable?
    /// How other processes' commits reach this one, when the engine can tell (PostgreSQL's
    /// `LISTEN`/`NOTIFY`); `nil` when they are found only by looking.
    var notifier: (any SQLNotifying)? { get }
    /// Runs `body` holding the library-wide lock `name`, or returns `nil` at once when another
    /// process holds it (``CatalogStore/withAdvisoryLock(_:_:)``).
    func withAdvisoryLock<T: Sendable>(_ name: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T?
}

extension SQLDriver {
    /// An engine without a server of its own is never away.
    func outage(for error: any Error) -> CatalogUnavailable? { nil }
    /// An engine that cannot notify: other processes' commits are found by looking.
    var notifier: (any SQLNotifying)? { nil }
}

/// Statements inside a ``SQLDriver`` read or transaction.
package protocol SQLSession: Sendable {
    /// The engine the session's statements run on (its driver's ``SQLDriver/dialect``).
    var dialect: SQLDialect { get }
    /// Runs a query and returns its rows.
    func query(_ statement: SQLStatement) async throws -> [SQLRow]
    /// Runs a statement; returns how many rows it changed.
    @discardableResult
    func execute(_ statement: SQLStatement) async throws -> Int
    /// The first column of every row as integers (large id lists without a row per id).
    func integers(_ statement: SQLStatement) async throws -> [Int64]
    /// The columns of a query's one row, each an array of integers: PostgreSQL's `int8[]`
    /// (`array_agg`), SQLite's JSON arrays (`json_group_array`); an empty array for NULL or
    /// no row. Thousands of values in one cell, not a row each (a search's ids and times).
    func integerArrays(_ statement: SQLStatement) async throws -> [[Int64]]
    /// Appends `rows` (values in `columns`' order) to `table` the engine's fastest way: one
    /// prepared statement on SQLite, `COPY … FROM STDIN` on PostgreSQL. Triggers run as for any
    /// insert. `table` and `columns` are the catalog's own names, never input.
    func insertRows(into table: String, columns: [String], rows: [[SQLValue]]) async throws
}

extension SQLSession {
    /// The first row, if any.
    func first(_ statement: SQLStatement) async throws -> SQLRow? {
        try await query(statement).first
    }

    /// The first column of the first row read as `T` (`nil` when there is no row or it is NULL).
    func scalar<T: SQLReadable>(_ statement: SQLStatement, as type: T.Type = T.self) async throws -> T? {
        guard let row = try await query(statement).first, let value = row.values.first else { return nil }
        return T(sqlValue: value)
    }
}
