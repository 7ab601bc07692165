import Foundation

/// A PostgreSQL cluster or an S3 server (SeaweedFS) of one test's own, started with the project's
/// `scripts/postgres` or `scripts/s3` in a temporary folder, for tests that take it away and
/// bring it back (an outage) without touching the server the rest of the suite shares.
///
/// ```swift
/// let postgres = try ThrowawayServer(.postgres, name: "pg-outage")
/// defer { postgres.remove() }
/// let library = try await PhotoLibrary.create(at: postgres.folder.appendingPathComponent("L.shoebox"),
///                                             configuration: .init(catalog: .postgres(try PostgresURL(postgres.url))))
/// try postgres.halt()    // gone at once, as a crash leaves it
/// try postgres.start()   // back, on the same port
/// ```
public final class ThrowawayServer: Sendable {
    /// Which server.
    public enum Kind: String, Sendable {
        /// A PostgreSQL cluster (`scripts/postgres`); ``ThrowawayServer/url`` is a `postgres://` URL.
        case postgres
        /// SeaweedFS's S3 gateway (`scripts/s3`); ``ThrowawayServer/url`` is its `http://` endpoint.
        case s3
    }

    /// The temporary folder that holds the server's data and is removed with it; tests keep their
    /// own files (a library) in it too.
    public let folder: URL
    /// Where the server answers: what the script printed when it first started.
    public let url: String
    private let script: String
    private let data: String

    /// Starts a server of `kind` in a new temporary folder named after `name`.
    ///
    /// - Throws: ``ChildProcess/Failure`` naming what the script printed when it did not start.
    public init(_ kind: Kind, name: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        script = Corpus.packageRoot().appendingPathComponent("scripts/\(kind.rawValue)").path
        data = folder.appendingPathComponent(kind.rawValue).path
        let started = try ChildProcess.run(script, ["start", data])
        guard started.status == 0 else {
            try? FileManager.default.removeItem(at: folder)
            throw ChildProcess.Failure("scripts/\(kind.rawValue) start failed (\(started.status)): \(started.standardError)")
        }
        url = started.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Takes the server away, its data kept (PostgreSQL's fast shutdown, which ends every
    /// connection; SeaweedFS's process ended), as an outage would.
    public func halt() throws {
        try run("halt")
    }

    /// Starts the server again on its port and data.
    public func start() throws {
        let again = try run("start")
        guard again == url else { throw ChildProcess.Failure("the server came back at \(again), not \(url)") }
    }

    /// Stops the server and removes its folder; nothing is thrown (a `defer` calls it).
    public func remove() {
        _ = try? ChildProcess.run(script, ["stop", data])
        try? FileManager.default.removeItem(at: folder)
    }

    @discardableResult
    private func run(_ command: String) throws -> String {
        let result = try ChildProcess.run(script, [command, data])
        guard result.status == 0 else {
            throw ChildProcess.Failure("\((script as NSString).lastPathComponent) \(command) failed (\(result.status)): \(result.standardError)")
        }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
