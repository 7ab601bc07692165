import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import Synchronization

/// PostgreSQL through postgres-nio: a connection pool (`PostgresClient`), statements with bound
/// parameters over the extended protocol (binary rows), transactions on one leased connection,
/// and `LISTEN`/`NOTIFY` to wake change observers on every server when any of them commits.
final class PostgresDriver: SQLDriver, SQLNotifying {
    let client: PostgresClient
    let location: String
    private let runner: Task<Void, Never>
    private let logger: Logger
    private let notifications = NotificationBoard()
    private let listener = Mutex<Task<Void, Never>?>(nil)
    private let channelListeners = Mutex<[String: Task<Void, Never>]>([:])

    var dialect: SQLDialect { .postgres }

    /// How often a waiting observer reads the change log when no notification comes.
    static let fallbackPoll = Duration.seconds(5)

    /// Connects to the catalog at `url` and checks that it answers.
    ///
    /// - Throws: ``LibraryError/cannotOpen(path:reason:)`` naming what failed: the server cannot
    ///   be reached, refused the credentials, or has no such database.
    static func connect(_ url: PostgresURL) async throws(LibraryError) -> PostgresDriver {
        let driver = PostgresDriver(configuration: url.clientConfiguration, location: url.description)
        do {
            _ = try await driver.read { db in try await db.query("SELECT 1") }
        } catch {
            await driver.close()
            throw .cannotOpen(path: url.description, reason: PostgresURL.explain(error))
        }
        return driver
    }

    private init(configuration: PostgresClient.Configuration, location: String) {
        var logger = Logger(label: "shoebox.catalog.postgres")
        logger.logLevel = .critical
        self.logger = logger
        self.location = location
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
    }

    func close() async {
        listener.withLock { $0?.cancel() }
        channelListeners.withLock { listeners in listeners.values.forEach { $0.cancel() } }
        runner.cancel()
        await runner.value
    }

    func read<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        try await body(PoolSession(client: client))
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws -> T {
        let client = self.client
        let logger = self.logger
        // A task of its own, shielded from the caller's cancellation: begun, a transaction ends
        // by commit or rollback.
        return try await Task {
            try await client.withConnection { connection in
                try await connection.query("BEGIN", logger: logger)
                do {
                    let result = try await body(ConnectionSession(connection: connection, logger: logger))
                    try await connection.query("COMMIT", logger: logger)
                    return result
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        }.value
    }

    /// Runs `body` on one connection outside any transaction (migrations: session-level locks).
    func withDedicatedConnection<T: Sendable>(_ body: @Sendable (any SQLSession) async throws -> T) async throws -> T {
        let logger = self.logger
        return try await client.withConnection { connection in
            try await body(ConnectionSession(connection: connection, logger: logger))
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

    private func startListening() {
        listener.withLock { task in
            guard task == nil else { return }
            let client = self.client
            let board = notifications
            task = Task {
                while !Task.isCancelled {
                    do {
                        try await client.withConnection { connection in
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
            let client = self.client
            listeners[channel] = Task {
                while !Task.isCancelled {
                    do {
                        try await client.withConnection { connection in
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
        let client: PostgresClient
        var dialect: SQLDialect { .postgres }

        func query(_ statement: SQLStatement) async throws -> [SQLRow] {
            try await client.withConnection { connection in
                try await ConnectionSession(connection: connection, logger: PostgresDriver.quiet).query(statement)
            }
        }

        func execute(_ statement: SQLStatement) async throws -> Int {
            try await client.withConnection { connection in
                try await ConnectionSession(connection: connection, logger: PostgresDriver.quiet).execute(statement)
            }
        }

        func integers(_ statement: SQLStatement) async throws -> [Int64] {
            try await client.withConnection { connection in
                try await ConnectionSession(connection: connection, logger: PostgresDriver.quiet).integers(statement)
            }
        }
    }

    struct ConnectionSession: SQLSession {
        let connection: PostgresConnection
        let logger: Logger
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
            var found: [Int64] = []
            for try await row in try await connection.query(try Self.query(statement), logger: logger) {
                let value = try row.decode(Int64.self)
                found.append(value)
            }
            return found
        }

        private func run(_ statement: SQLStatement) async throws -> PostgresQueryResult {
            do {
                return try await connection.query(try Self.query(statement), logger: logger).get()
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

    init(_ error: PSQLError, statement: String? = nil) {
        let context = statement.map { " in: " + $0.prefix(160).replacingOccurrences(of: "\n", with: " ") } ?? ""
        if let message = error.serverInfo?[.message] {
            let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            description = "PostgreSQL: \(message)\(code)\(context)"
        } else {
            description = "PostgreSQL: \(String(reflecting: error))\(context)"
        }
    }
}

/// Counts notifications and wakes those waiting for the next one.
final class NotificationBoard: Sendable {
    private struct State {
        var count = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.count } }

    func notify() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        waiting.forEach { $0.resume() }
    }

    /// Returns once `count` has passed `seen`, or at `deadline`.
    func wait(beyond seen: Int, until deadline: ContinuousClock.Instant) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.count > seen { return true }
                state.waiters[id] = continuation
                return false
            }
            if resumeNow {
                continuation.resume()
                return
            }
            Task { [self] in
                try? await Task.sleep(until: deadline)
                state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }
    }
}
