import Foundation
import ShoeboxImaging

/// Clients are each person's (``AppsSchema``): every statement here reads and writes the rows of
/// this object's person (``writer``: the first admin's when it acts for everyone), but for the
/// token lookup, which finds a token's client and person from its hash alone.
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
                INSERT INTO client (personID, identifier, manifest, registeredDate) VALUES (\(self.writer), \(manifest.identifier), \(data), \(Date()))
                ON CONFLICT (personID, identifier) DO UPDATE SET manifest = excluded.manifest
                """)
        }
    }

    func client(_ identifier: String) async throws(LibraryError) -> ClientManifest? {
        try await read { db in
            try await db.scalar("SELECT manifest FROM client WHERE personID = \(self.writer) AND identifier = \(identifier)", as: Data.self)
                .flatMap { try? JSONDecoder().decode(ClientManifest.self, from: $0) }
        }
    }

    func clients() async throws(LibraryError) -> [ClientManifest] {
        try await read { db in
            try await db.query("SELECT manifest FROM client WHERE personID = \(self.writer) ORDER BY identifier").compactMap {
                try? JSONDecoder().decode(ClientManifest.self, from: $0["manifest"] as Data)
            }
        }
    }

    func grant(client: String, service: String) async throws(LibraryError) -> String? {
        try await read { db in
            try await db.scalar("SELECT status FROM \"grant\" WHERE personID = \(self.writer) AND client = \(client) AND service = \(service)")
        }
    }

    func setGrant(client: String, service: String, status: String?) async throws(LibraryError) {
        try await write { db in try await Self.writeGrant(client: client, service: service, status: status, person: self.writer, in: db) }
    }

    /// Sets (or, with `nil`, clears) `person`'s decision for a client and service in the
    /// transaction `db`; the change-log entry is theirs.
    static func writeGrant(client: String, service: String, status: String?, person: Int64, in db: any SQLSession) async throws {
        if let status {
            try await db.execute(
                """
                INSERT INTO "grant" (personID, client, service, status, date) VALUES (\(person), \(client), \(service), \(status), \(Date()))
                ON CONFLICT (personID, client, service) DO UPDATE SET status = excluded.status, date = excluded.date
                """)
        } else {
            try await db.execute("DELETE FROM \"grant\" WHERE personID = \(person) AND client = \(client) AND service = \(service)")
        }
        try await logEntries([("grant", client, person)], in: db, now: Date())
    }

    func limitedSelection(client: String) async throws(LibraryError) -> [String] {
        try await read { db in try await Self.readLimitedSelection(client: client, person: self.writer, in: db) }
    }

    /// The assets of `person` their client with limited access may see, read in `db`.
    static func readLimitedSelection(client: String, person: Int64, in db: any SQLSession) async throws -> [String] {
        try await db.query(
            """
            SELECT a.localIdentifier FROM limitedSelection s JOIN asset a ON a.id = s.assetID
            WHERE s.client = \(client) AND \(assetOwnerCondition(person: person, alias: "a")) ORDER BY a.id
            """
        ).map { $0["localIdentifier"] }
    }

    func setLimitedSelection(_ assets: [String], client: String) async throws(LibraryError) {
        try await write { db in try await Self.writeLimitedSelection(assets, client: client, person: self.writer, in: db) }
    }

    /// Replaces the limited selection `person` gave their client, in the transaction `db`: only
    /// their own assets can be in it (another's is not found).
    static func writeLimitedSelection(_ assets: [String], client: String, person: Int64, in db: any SQLSession) async throws {
        try await db.execute(
            "DELETE FROM limitedSelection WHERE client = \(client) AND assetID IN (SELECT id FROM asset WHERE \(assetOwnerCondition(person: person)))")
        for identifier in assets {
            guard
                let id = try await db.scalar(
                    "SELECT id FROM asset WHERE localIdentifier = \(identifier) AND \(assetOwnerCondition(person: person))", as: Int64.self)
            else {
                throw LibraryError.notFound(localIdentifier: identifier)
            }
            try await db.execute("INSERT INTO limitedSelection (client, assetID) VALUES (\(client), \(id)) ON CONFLICT (client, assetID) DO NOTHING")
        }
        try await logEntries([("grant", client, person)], in: db, now: Date())
    }

    func logAccess(_ entries: [AccessLogEntry]) async throws(LibraryError) {
        guard !entries.isEmpty else { return }
        try await write { db in
            for entry in entries {
                try await db.execute(
                    """
                    INSERT INTO accessLog (personID, date, client, action, localIdentifier, detail)
                    VALUES (\(self.writer), \(entry.date), \(entry.client), \(entry.action), \(entry.localIdentifier), \(entry.detail))
                    """)
            }
        }
    }

    func accessLog(client: String, limit: Int) async throws(LibraryError) -> [AccessLogEntry] {
        try await read { db in
            try await db.query(
                "SELECT * FROM accessLog WHERE personID = \(self.writer) AND client = \(client) ORDER BY sequence DESC LIMIT \(limit)"
            ).map {
                AccessLogEntry(date: $0["date"], client: $0["client"], action: $0["action"], localIdentifier: $0["localIdentifier"], detail: $0["detail"])
            }
        }
    }

    func addClientToken(hash: String, client: String) async throws(LibraryError) {
        try await write { db in
            try await db.execute("INSERT INTO clientToken (tokenHash, personID, client, date) VALUES (\(hash), \(self.writer), \(client), \(Date()))")
        }
    }

    func client(forTokenHash hash: String) async throws(LibraryError) -> (client: String, person: Int64)? {
        try await read { db in
            try await db.first("SELECT client, personID FROM clientToken WHERE tokenHash = \(hash)").map { ($0["client"], $0["personID"]) }
        }
    }

    func removeClientTokens(client: String) async throws(LibraryError) {
        try await write { db in
            try await db.execute("DELETE FROM clientToken WHERE personID = \(self.writer) AND client = \(client)")
        }
    }

    func clientTokenCount(client: String) async throws(LibraryError) -> Int {
        try await read { db in
            try await db.integers("SELECT COUNT(*) FROM clientToken WHERE personID = \(self.writer) AND client = \(client)").first.map(Int.init) ?? 0
        }
    }

    func removeClient(_ identifier: String) async throws(LibraryError) {
        try await write { db in
            let person = self.writer
            try await db.execute("DELETE FROM clientToken WHERE personID = \(person) AND client = \(identifier)")
            try await db.execute("DELETE FROM \"grant\" WHERE personID = \(person) AND client = \(identifier)")
            try await db.execute(
                "DELETE FROM limitedSelection WHERE client = \(identifier) AND assetID IN (SELECT id FROM asset WHERE \(Self.assetOwnerCondition(person: person)))"
            )
            try await db.execute("DELETE FROM client WHERE personID = \(person) AND identifier = \(identifier)")
            try await Self.logEntries([("grant", identifier, self.writer)], in: db, now: Date())
        }
    }
}
