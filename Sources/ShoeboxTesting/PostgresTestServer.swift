import Foundation
import Synchronization

/// The PostgreSQL cluster tests use: the one `scripts/test` started (`SHOEBOX_TEST_POSTGRES`,
/// a `postgres://` URL), or else one this process starts with `scripts/postgres` and stops when
/// it exits. A test that needs PostgreSQL and cannot get one fails: it never skips silently.
///
/// ```swift
/// let url = try PostgresTestServer.freshDatabase()   // postgres://shoebox@127.0.0.1:PORT/t_…
/// ```
public enum PostgresTestServer {
    private static let started = Mutex<Result<String, ChildProcess.Failure>?>(nil)

    /// Whether the library tests run on PostgreSQL (`SHOEBOX_TEST_CATALOG=postgres`) rather
    /// than SQLite: `scripts/test` runs them both ways.
    public static var isCatalogUnderTest: Bool {
        ProcessInfo.processInfo.environment["SHOEBOX_TEST_CATALOG"] == "postgres"
    }

    /// The server's administrative URL (database `postgres`).
    public static func url() throws -> String {
        if let given = ProcessInfo.processInfo.environment["SHOEBOX_TEST_POSTGRES"], !given.isEmpty { return given }
        let result = started.withLock { current -> Result<String, ChildProcess.Failure> in
            if let current { return current }
            let outcome = Result { () throws(ChildProcess.Failure) -> String in try start() }
            current = outcome
            return outcome
        }
        return try result.get()
    }

    /// A new, empty database on the server, for one test.
    public static func freshDatabase() throws -> String {
        let admin = try url()
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let created = try ChildProcess.run("psql", [admin, "-v", "ON_ERROR_STOP=1", "-q", "-c", "CREATE DATABASE \(name)"])
        guard created.status == 0 else {
            throw ChildProcess.Failure("cannot create a test database on \(admin): \(created.standardError)")
        }
        return admin.replacingOccurrences(of: "/postgres", with: "/\(name)")
    }

    /// Runs SQL on a database with psql; returns what it printed (unaligned, tuples only).
    @discardableResult
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let run = try ChildProcess.run("psql", [url, "-v", "ON_ERROR_STOP=1", "-q", "-At", "-c", sql])
        guard run.status == 0 else { throw ChildProcess.Failure("psql failed: \(run.standardError)") }
        return run.standardOutput
    }

    private static func start() throws(ChildProcess.Failure) -> String {
        let script = Corpus.packageRoot().appendingPathComponent("scripts/postgres").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-postgres-test-\(UUID().uuidString)").path
        let run: ChildProcess.Result
        do {
            run = try ChildProcess.run(script, ["start", folder])
        } catch {
            throw ChildProcess.Failure("cannot run \(script): \(error)")
        }
        guard run.status == 0 else {
            throw ChildProcess.Failure("PostgreSQL is needed and could not be started (\(script) start): \(run.standardError)")
        }
        stopAtExit(script: script, folder: folder)
        return run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static let toStop = Mutex<[(String, String)]>([])

    private static func stopAtExit(script: String, folder: String) {
        let first = toStop.withLock { list in
            list.append((script, folder))
            return list.count == 1
        }
        if first {
            atexit {
                for (script, folder) in PostgresTestServer.toStop.withLock({ $0 }) {
                    _ = try? ChildProcess.run(script, ["stop", folder], captureOutput: false)
                }
            }
        }
    }
}
