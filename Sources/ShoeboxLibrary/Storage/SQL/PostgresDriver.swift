import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import ShoeboxImaging
import Synchronization

/// PostgreSQL through postgres-nio: a connection pool (`PostgresClient`), statements with bound
/// parameters over the extended protocol (binary rows), transactions on one leased connection,
/// and `LISTEN`/`NOTIFY` to wake change observers on every server when any of them commits.
final class PostgresDriver: SQLDriver, SQLNotifying {
    func libraryCode(for error: any Error) -> LibraryError.Code? {
        guard let state = (error as? PostgresFailure)?.sqlState ?? (error as? PSQLError)?.serverInfo?[.sqlState] else { return nil }
        // Class 23: integrity constraint violations. 40001, 40P01: serialization failure and
        // deadlock; 55P03: a lock not available (NOWAIT).
        if state.hasPrefix("23") { return .constraint }
        if ["40001", "40P01", "55P03"].contains(state) { return .busy }
        return nil
    }

    let location: String
    /// Where the server is, for messages: `host:port` or the socket folder (no credentials).
    let address: String
    private let configuration: PostgresClient.Configuration
    /// The connection pool, replaced when it has given up on a server that is back (see
    /// ``withConnection(_:)``), and the task running it.
    private let pool: Mutex<(client: PostgresClient, runner: Task<Void, Never>)>
    private let recovery = Recovery()
    /// The pool in use.
    var client: PostgresClient { pool.withLock { $0.client } }
    private let logger: Logger
    private let notifications = NotificationBoard()
    private let listener = Mutex<Task<Void, Never>?>(nil)
    private let channelListeners = Mutex<[String: Task<Void, Never>]>([:])

    var dialect: SQLDialect { .postgres }

    /// How often a waiting observer reads the change log when no notification comes.
    static let fallbackPoll = Duration.seconds(5)

    /// Connects to the catalog at `url` and checks that it answers.
    ///
    /// - Throws: ``LibraryError/Code/cannotOpen`` naming what failed: the server cannot
    ///   be reached, refused the credentials, or has no such database.
    static func connect(_ url: PostgresURL) async throws(LibraryError) -> PostgresDriver {
        let address = url.host.hasPrefix("/") ? url.host : "\(url.host.contains(":") ? "[\(url.host)]" : url.host):\(url.port)"
        let driver = PostgresDriver(configuration: url.clientConfiguration, location: url.description, address: address)
        do {
            _ = try await driver.read { db in try await db.query("SELECT 1") }
        } catch {
            await driver.close()
            throw .cannotOpen(path: url.description, reason: PostgresURL.explain(error))
        }
        return driver
    }

    private init(configuration: PostgresClient.Configuration, location: String, address: String) {
        var logger = Logger(label: "shoebox.catalog.postgres")
        logger.logLevel = .critical
        self.logger = logger
        self.location = location
        self.address = address
        self.configuration = configuration
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        pool = Mutex((client, Task { await client.run() }))
    }

    func close() async {
        listener.withLock { $0?.cancel() }
        channelListeners.withLock { listeners in listeners.values.forEach { $0.cancel() } }
        let runner = pool.withLock { $0.runner }
        runner.cancel()
        await runner.value
    }

    /// A connection from the pool for `body`. A pool that cannot reach the server queues
    /// requests while it retries with a growing backoff (up to a minute), and after a minute of
    /// failures refuses them at once ("circuit breaker"), even once the server is back. So a
    /// request that gets no connection within ``acquireTimeout`` (or is refused that way) tries a
    /// fresh pool: if the server answers it, the fresh pool takes over and `body` runs there;
    /// if not, the request fails with the pool's error. `body` never runs twice: it starts only
    /// once a connection is handed out, and an abandoned request never starts it.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let client = self.client
        if recovery.failedRecently {
            // The server was away a moment ago: a fresh connection attempt (refused at once while
            // it is down) answers sooner than waiting for the old pool.
            guard await recovery.replace(client, in: self) else { throw unavailable(.noConnection(Self.acquireTimeout)) }
            return try await Self.withConnection(from: self.client, within: Self.acquireTimeout, body)
        }
        do {
            return try await Self.withConnection(from: client, within: Self.acquireTimeout, body)
        } catch  where Self.isPoolGivingUp(error) {
            guard await recovery.replace(client, in: self) else { throw unavailable(.noConnection(Self.acquireTimeout)) }
            do {
                return try await Self.withConnection(from: self.client, within: Self.acquireTimeout, body)
            } catch  where Self.isPoolGivingUp(error) {
                throw unavailable(.noConnection(Self.acquireTimeout))
            }
        }
    }

    func unavailable(_ reason: CatalogUnavailable.Reason) -> CatalogUnavailable {
        CatalogUnavailable(location: address, reason: reason)
    }

    func outage(for error: any Error) -> CatalogUnavailable? {
        guard CatalogUnavailable.isOutage(error) else { return nil }
        return unavailable(.server(CatalogUnavailable.words(for: error)))
    }

    var notifier: (any SQLNotifying)? { self }

    /// A session advisory lock (any machine), held on a connection of its own while `body` runs;
    /// the server drops it if the holder dies.
    func withAdvisoryLock<T: Sendable>(_ name: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
        let key = "shoebox:" + name
        return try await withDedicatedConnection { db in
            guard try await db.scalar("SELECT pg_try_advisory_lock(hashtext(\(key)))", as: Bool.self) == true else { return nil }
            do {
                let result = try await body()
                _ = try? await db.query("SELECT pg_advisory_unlock(hashtext(\(key)))")
                return result
            } catch {
                _ = try? await db.query("SELECT pg_advisory_unlock(hashtext(\(key)))")
                throw error
            }
        }
    }

    /// How long one statement may take before the call gives up with ``CatalogUnavailable``
    /// (and closes its connection): the deadline of every catalog call once it has a connection.
    static let statementDeadline = Duration.seconds(30)

    /// Runs `work` (one call on `connection`) so that it ends within `deadline`, or as soon as
    /// the connection is lost (see ``PostgresCall``).
    func call<T: Sendable>(
        _ connection: PostgresConnection, deadline: Duration? = PostgresDriver.statementDeadline,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await PostgresCall.run(on: connection, location: address, deadline: deadline, work)
    }

    /// How long a request waits for a connection before a fresh pool is tried.
    static let acquireTimeout = Duration.seconds(8)

    private final class Phase: Sendable {
        let value = Atomic<Int>(0)
    }

    struct NoConnectionInTime: Error, CustomStringConvertible {
        var description: String {
            "the catalog's connection pool handed out no connection within \(PostgresDriver.acquireTimeout) (connectionCreationCircuitBreakerTripped or unreachable)"
        }
    }

    fileprivate static func withConnection<T: Sendable>(
        from client: PostgresClient, within timeout: Duration,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        // 0: waiting, 1: handed out (body runs), 2: abandoned (body must not run)
        let phase = Phase()
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.withConnection { connection in
                    guard phase.value.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else {
                        throw NoConnectionInTime()
                    }
                    return try await body(connection)
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                if phase.value.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged {
                    throw NoConnectionInTime()
                }
                return nil  // handed out in time: the other task's result counts
            }
            while let result = try await group.next() {
                if let result {
                    group.cancelAll()
                    return result
                }
            }
            throw NoConnectionInTime()
        }
    }

    /// Whether `error` says the connection went under the call (not that none could be had).
    static func isLostConnection(_ error: any Error) -> Bool {
        if let error = error as? CatalogUnavailable { return error.isConnectionLost }
        return CatalogUnavailable.isOutage(error)
    }

    static func isPoolGivingUp(_ error: any Error) -> Bool {
        error is NoConnectionInTime || String(describing: error).contains("connectionCreationCircuitBreakerTripped")
    }

    /// Replaces a pool that gave up: one attempt at a time (those asking meanwhile share its
    /// result), each a fresh pool that must answer `SELECT 1` before it takes over.
    actor Recovery {
        private var attempt: Task<Bool, Never>?
        /// When the last attempt failed (uptime nanoseconds; 0: it did not).
        private nonisolated let lastFailure = Atomic<UInt64>(0)

        /// Whether an attempt failed within the last ten seconds.
        nonisolated var failedRecently: Bool {
            let failed = lastFailure.load(ordering: .relaxed)
            return failed != 0 && DispatchTime.now().uptimeNanoseconds - failed < 10_000_000_000
        }

        func replace(_ failed: PostgresClient, in driver: PostgresDriver) async -> Bool {
            if driver.client !== failed { return true }  // replaced meanwhile
            if let attempt { return await attempt.value }
            let attempt = Task { await Self.attempt(driver) }
            self.attempt = attempt
            let replaced = await attempt.value
            self.attempt = nil
            lastFailure.store(replaced ? 0 : DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            return replaced
        }

        private static func attempt(_ driver: PostgresDriver) async -> Bool {
            let fresh = PostgresClient(configuration: driver.configuration, backgroundLogger: driver.logger)
            let runner = Task { await fresh.run() }
            do {
                // A fresh pool that cannot connect would queue the probe for a minute too.
                let logger = driver.logger
                _ = try await PostgresDriver.withConnection(from: fresh, within: .seconds(3)) { connection in
                    try await driver.call(connection, deadline: .seconds(3)) {
                        _ = try await connection.query("SELECT 1", logger: logger).get()
                    }
                    return true
                }
            } catch {
                runner.cancel()
                return false
            }
            let old = driver.pool.withLock { pool in
                defer { pool = (fresh, runner) }
                return pool.runner
            }
            // Connections the old pool still lends finish their work first.
            Task {
                try? await Task.sleep(for: .seconds(120))
                old.cancel()
            }
            return true
        }
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        // A read changes nothing: one that met a lost connection (the server restarting) is
        // tried again once, after a moment, on a fresh connection.
        do {
            return try await body(PoolSession(driver: self))
        } catch  where Self.isLostConnection(error) {
            try await Task.sleep(for: .milliseconds(500))
            return try await body(PoolSession(driver: self))
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        let logger = self.logger
        // A task of its own, shielded from the caller's cancellation: begun, a transaction ends
        // by commit or rollback.
        return try await Task {
            try await self.withConnection { connection in
                try await self.call(connection) { _ = try await connection.query("BEGIN", logger: logger) }
                do {
                    let result = try await body(ConnectionSession(driver: self, connection: connection, logger: logger))
                    try await self.call(connection) { _ = try await connection.query("COMMIT", logger: logger) }
                    return result
                } catch {
                    _ = try? await self.call(connection) { _ = try await connection.query("ROLLBACK", logger: logger) }
                    throw error
                }
            }
        }.value
    }

    /// Runs `body` on one connection outside any transaction (migrations: session-level locks).
    func withDedicatedConnection<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        let logger = self.logger
        return try await withConnection { connection in
            // Migrations may take long: no deadline, but a lost connection still ends the call.
            try await body(ConnectionSession(driver: self, connection: connection, logger: logger, deadline: nil))
        }
    }

    // MARK: Notifications

    func waitForNotification(after sequence: Int64, timeout: Duration, latest: @escaping @Sendable () async throws -> Int64) async {
        startListening()
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, !Task.isCancelled {
            let seen = notifications.count
            if let current = try? await latest(), current > sequence { return }
            // Until a notification, or five seconds at most: a notification sent while the
            // listener was reconnecting is missed, and this slow poll catches it.
            await notifications.wait(beyond: seen, until: min(deadline, ContinuousClock.now + Self.fallbackPoll))
        }
    }

    /// Returns once the change listener has its `LISTEN` in place (it notifies the board as it
    /// begins), or after `timeout`: for a test that must commit after it, not before.
    func waitUntilListening(timeout: Duration) async {
        await notifications.wait(beyond: 0, until: .now + timeout)
    }

    private func startListening() {
        listener.withLock { task in
            guard task == nil else { return }
            let board = notifications
            task = Task { [self] in
                while !Task.isCancelled {
                    do {
                        try await withConnection { connection in
                            try await connection.listen(on: "shoebox_changes") { sequence in
                                board.notify()  // listening now: whatever came before is found by the poll
                                for try await _ in sequence { board.notify() }
                            }
                        }
                    } catch {
                        try? await Task.sleep(for: .seconds(1))
                    }
                }
            }
        }
    }

    /// Notifies `board` of every `NOTIFY` on `channel` from now on (once per channel; the
    /// listener reconnects after a lost connection).
    func listen(on channel: String, board: NotificationBoard) {
        channelListeners.withLock { listeners in
            guard listeners[channel] == nil else { return }
            listeners[channel] = Task { [self] in
                while !Task.isCancelled {
                    do {
                        try await withConnection { connection in
                            try await connection.listen(on: channel) { sequence in
                                for try await _ in sequence { board.notify() }
                            }
                        }
                    } catch {
                        try? await Task.sleep(for: .seconds(1))
                    }
                }
            }
        }
    }

    // MARK: Sessions

    struct PoolSession: SQLSession {
        let driver: PostgresDriver
        var dialect: SQLDialect { .postgres }

        func query(_ statement: SQLStatement) async throws -> [SQLRow] {
            try await driver.withConnection { connection in
                try await ConnectionSession(driver: driver, connection: connection, logger: PostgresDriver.quiet).query(statement)
            }
        }

        func execute(_ statement: SQLStatement) async throws -> Int {
            try await driver.withConnection { connection in
                try await ConnectionSession(driver: driver, connection: connection, logger: PostgresDriver.quiet).execute(statement)
            }
        }

        func integers(_ statement: SQLStatement) async throws -> [Int64] {
            try await driver.withConnection { connection in
                try await ConnectionSession(driver: driver, connection: connection, logger: PostgresDriver.quiet).integers(statement)
            }
        }

        func integerArrays(_ statement: SQLStatement) async throws -> [[Int64]] {
            try await driver.withConnection { connection in
                try await ConnectionSession(driver: driver, connection: connection, logger: PostgresDriver.quiet).integerArrays(statement)
            }
        }

        func insertRows(into table: String, columns: [String], rows: [[SQLValue]]) async throws {
            try await driver.withConnection { connection in
                try await ConnectionSession(driver: driver, connection: connection, logger: PostgresDriver.quiet)
                    .insertRows(into: table, columns: columns, rows: rows)
            }
        }
    }

    struct ConnectionSession: SQLSession {
        let driver: PostgresDriver
        let connection: PostgresConnection
        let logger: Logger
        var deadline: Duration? = PostgresDriver.statementDeadline
        var dialect: SQLDialect { .postgres }

        func query(_ statement: SQLStatement) async throws -> [SQLRow] {
            let result = try await run(statement)
            var columns: [String]?
            return try result.rows.map { row in
                var values: [SQLValue] = []
                var names: [String] = []
                for cell in row {
                    if columns == nil { names.append(cell.columnName.lowercased()) }
                    values.append(try Self.value(of: cell))
                }
                if columns == nil { columns = names }
                return SQLRow(columns: columns!, values: values)
            }
        }

        func execute(_ statement: SQLStatement) async throws -> Int {
            try await run(statement).metadata.rows ?? 0
        }

        func integers(_ statement: SQLStatement) async throws -> [Int64] {
            let query = try Self.query(statement)
            let (connection, logger) = (self.connection, self.logger)
            do {
                return try await driver.call(connection, deadline: deadline) {
                    var found: [Int64] = []
                    for try await row in try await connection.query(query, logger: logger) {
                        let value = try row.decode(Int64.self)
                        found.append(value)
                    }
                    return found
                }
            } catch let error as PSQLError {
                throw PostgresFailure(error, statement: statement.text)
            }
        }

        func integerArrays(_ statement: SQLStatement) async throws -> [[Int64]] {
            guard let row = try await run(statement).rows.first else { return [] }
            return try row.map { cell in cell.bytes == nil ? [] : try cell.decode([Int64].self) }
        }

        func insertRows(into table: String, columns: [String], rows: [[SQLValue]]) async throws {
            let (connection, logger) = (self.connection, self.logger)
            do {
                // postgres-nio quotes the names; the schema's are unquoted, so folded to lower case
                // (the table's as well as the columns': `changeLog` is `changelog`).
                try await connection.copyFrom(table: table.lowercased(), columns: columns.map { $0.lowercased() }, logger: logger) { writer in
                    var buffer = ByteBuffer()
                    for row in rows {
                        PostgresCopyText.append(row, to: &buffer)
                        if buffer.readableBytes >= 1 << 20 {
                            try await writer.write(buffer)
                            buffer.clear()
                        }
                    }
                    if buffer.readableBytes > 0 { try await writer.write(buffer) }
                }
            } catch let error as PSQLError {
                throw PostgresFailure(error, statement: "COPY \(table)")
            }
        }

        private func run(_ statement: SQLStatement) async throws -> PostgresQueryResult {
            let query = try Self.query(statement)
            let (connection, logger) = (self.connection, self.logger)
            do {
                return try await driver.call(connection, deadline: deadline) { try await connection.query(query, logger: logger).get() }
            } catch let error as PSQLError {
                throw PostgresFailure(error, statement: statement.text)
            }
        }

        static func query(_ statement: SQLStatement) throws -> PostgresQuery {
            var bindings = PostgresBindings(capacity: statement.arguments.count)
            for argument in statement.arguments {
                switch argument {
                case .null: bindings.appendNull()
                case .integer(let number): bindings.append(number)
                case .real(let number): bindings.append(number)
                case .text(let text): bindings.append(text)
                case .blob(let data): try bindings.append(data)
                case .bool(let flag): bindings.append(flag)
                case .date(let date): bindings.append(date)
                }
            }
            return PostgresQuery(unsafeSQL: statement.numberedText, binds: bindings)
        }

        static func value(of cell: PostgresCell) throws -> SQLValue {
            guard cell.bytes != nil else { return .null }
            switch cell.dataType {
            case .int8, .int4, .int2, .oid: return .integer(try cell.decode(Int64.self))
            case .float8, .float4, .numeric: return .real(try cell.decode(Double.self))
            case .bool: return .bool(try cell.decode(Bool.self))
            case .bytea: return .blob(try cell.decode(Data.self))
            case .timestamptz, .timestamp, .date: return .date(try cell.decode(Date.self))
            case .void: return .null
            default: return .text(try cell.decode(String.self))
            }
        }
    }

    static let quiet: Logger = {
        var logger = Logger(label: "shoebox.catalog.postgres")
        logger.logLevel = .critical
        return logger
    }()
}

/// A PostgreSQL error with the server's own message (postgres-nio's description hides it).
struct PostgresFailure: Error, CustomStringConvertible {
    let description: String
    /// Whether the error means the server is away (``CatalogUnavailable/isOutage(_:)``).
    let isOutage: Bool
    /// The server's SQLSTATE, when it answered.
    let sqlState: String?
    /// postgres-nio's error.
    let underlying: PSQLError

    init(_ error: PSQLError, statement: String? = nil) {
        isOutage = CatalogUnavailable.isOutage(error)
        sqlState = error.serverInfo?[.sqlState]
        underlying = error
        let context = statement.map { " in: " + $0.prefix(160).replacingOccurrences(of: "\n", with: " ") } ?? ""
        if let message = error.serverInfo?[.message] {
            let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            description = "PostgreSQL: \(message)\(code)\(context)"
        } else {
            description = "PostgreSQL: \(String(reflecting: error))\(context)"
        }
    }
}
