import Foundation
import ShoeboxImaging

extension SQLCatalogStore {
    func register(_ manifest: ClientManifest) async throws(LibraryError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(manifest)
        } catch {
            throw .invalidArgument("cannot encode the manifest of \(manifest.identifier): \(error)")
        }
        try await write { db in
            try await db.execute(
                """
                INSERT INTO client (identifier, manifest, registeredDate) VALUES (\(manifest.identifier), \(data), \(Date()))
                ON CONFLICT (identifier) DO UPDATE SET manifest = excluded.manifest
                """)
        }
    }

    func client(_ identifier: String) async throws(LibraryError) -> ClientManifest? {
        try await read { db in
            try await db.scalar("SELECT manifest FROM client WHERE identifier = \(identifier)", as: Data.self)
                .flatMap { try? JSONDecoder().decode(ClientManifest.self, from: $0) }
        }
    }

    func clients() async throws(LibraryError) -> [ClientManifest] {
        try await read { db in
            try await db.query("SELECT manifest FROM client ORDER BY identifier").compactMap {
                try? JSONDecoder().decode(ClientManifest.self, from: $0["manifest"] as Data)
            }
        }
    }

    func grant(client: String, service: String) async throws(LibraryError) -> String? {
        try await read { db in
            try await db.scalar("SELECT status FROM \"grant\" WHERE client = \(client) AND service = \(service)")
        }
    }

    func setGrant(client: String, service: String, status: String?) async throws(LibraryError) {
        try await write { db in try await Self.writeGrant(client: client, service: service, status: status, in: db) }
    }

    /// Sets (or, with `nil`, clears) a client's decision for a service in the transaction `db`.
    static func writeGrant(client: String, service: String, status: String?, in db: any SQLSession) async throws {
        if let status {
            try await db.execute(
                """
                INSERT INTO "grant" (client, service, status, date) VALUES (\(client), \(service), \(status), \(Date()))
                ON CONFLICT (client, service) DO UPDATE SET status = excluded.status, date = excluded.date
                """)
        } else {
            try await db.execute("DELETE FROM \"grant\" WHERE client = \(client) AND service = \(service)")
        }
        try await logEntries([("grant", client)], in: db, now: Date())
    }

    func limitedSelection(client: String) async throws(LibraryError) -> [String] {
        try await read { db in try await Self.readLimitedSelection(client: client, in: db) }
    }

    /// The assets a client with limited access may see, read in `db`.
    static func readLimitedSelection(client: String, in db: any SQLSession) async throws -> [String] {
        try await db.query(
            """
            SELECT a.localIdentifier FROM limitedSelection s JOIN asset a ON a.id = s.assetID
            WHERE s.client = \(client) ORDER BY a.id
            """
        ).map { $0["localIdentifier"] }
    }

    func setLimitedSelection(_ assets: [String], client: String) async throws(LibraryError) {
        try await write { db in try await Self.writeLimitedSelection(assets, client: client, in: db) }
    }

    /// Replaces a client's limited selection in the transaction `db`.
    static func writeLimitedSelection(_ assets: [String], client: String, in db: any SQLSession) async throws {
        try await db.execute("DELETE FROM limitedSelection WHERE client = \(client)")
        for identifier in assets {
            guard let id = try await db.scalar("SELECT id FROM asset WHERE localIdentifier = \(identifier)", as: Int64.self) else {
                throw LibraryError.notFound(localIdentifier: identifier)
            }
            try await db.execute("INSERT INTO limitedSelection (client, assetID) VALUES (\(client), \(id)) ON CONFLICT (client, assetID) DO NOTHING")
        }
        try await logEntries([("grant", client)], in: db, now: Date())
    }

    func logAccess(_ entries: [AccessLogEntry]) async throws(LibraryError) {
        guard !entries.isEmpty else { return }
        try await write { db in
            for entry in entries {
                try await db.execute(
                    """
                    INSERT INTO accessLog (date, client, action, localIdentifier, detail)
                    VALUES (\(entry.date), \(entry.client), \(entry.action), \(entry.localIdentifier), \(entry.detail))
                    """)
            }
        }
    }

    func accessLog(client: String, limit: Int) async throws(LibraryError) -> [AccessLogEntry] {
        try await read { db in
            try await db.query("SELECT * FROM accessLog WHERE client = \(client) ORDER BY sequence DESC LIMIT \(limit)").map {
                AccessLogEntry(date: $0["date"], client: $0["client"], action: $0["action"], localIdentifier: $0["localIdentifier"], detail: $0["detail"])
            }
        }
    }

    func addClientToken(hash: String, client: String) async throws(LibraryError) {
        try await write { db in
            try await db.execute("INSERT INTO clientToken (tokenHash, client, date) VALUES (\(hash), \(client), \(Date()))")
        }
    }

    func client(forTokenHash hash: String) async throws(LibraryError) -> String? {
        try await read { db in try await db.scalar("SELECT client FROM clientToken WHERE tokenHash = \(hash)") }
    }

    func removeClientTokens(client: String) async throws(LibraryError) {
        try await write { db in
            try await db.execute("DELETE FROM clientToken WHERE client = \(client)")
        }
    }

    func clientTokenCount(client: String) async throws(LibraryError) -> Int {
        try await read { db in
            try await db.integers("SELECT COUNT(*) FROM clientToken WHERE client = \(client)").first.map(Int.init) ?? 0
        }
    }

    func removeClient(_ identifier: String) async throws(LibraryError) {
        try await write { db in
            try await db.execute("DELETE FROM clientToken WHERE client = \(identifier)")
            try await db.execute("DELETE FROM \"grant\" WHERE client = \(identifier)")
            try await db.execute("DELETE FROM limitedSelection WHERE client = \(identifier)")
            try await db.execute("DELETE FROM client WHERE identifier = \(identifier)")
            try await Self.logEntries([("grant", identifier)], in: db, now: Date())
        }
    }
}
