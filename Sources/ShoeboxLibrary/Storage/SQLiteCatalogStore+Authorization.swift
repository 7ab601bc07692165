import Foundation
import GRDB

extension SQLiteCatalogStore {
    func register(_ manifest: ClientManifest) throws(LibraryError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(manifest)
        } catch {
            throw .invalidArgument("cannot encode the manifest of \(manifest.identifier): \(error)")
        }
        try write { db in
            try db.execute(sql: """
                INSERT INTO client (identifier, manifest, registeredDate) VALUES (?, ?, ?)
                ON CONFLICT(identifier) DO UPDATE SET manifest = excluded.manifest
                """, arguments: [manifest.identifier, data, Date()])
        }
    }

    func client(_ identifier: String) throws(LibraryError) -> ClientManifest? {
        try read { db in
            try Data.fetchOne(db, sql: "SELECT manifest FROM client WHERE identifier = ?", arguments: [identifier])
                .flatMap { try? JSONDecoder().decode(ClientManifest.self, from: $0) }
        }
    }

    func clients() throws(LibraryError) -> [ClientManifest] {
        try read { db in
            try Data.fetchAll(db, sql: "SELECT manifest FROM client ORDER BY identifier").compactMap {
                try? JSONDecoder().decode(ClientManifest.self, from: $0)
            }
        }
    }

    func grant(client: String, service: String) throws(LibraryError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT status FROM \"grant\" WHERE client = ? AND service = ?", arguments: [client, service])
        }
    }

    func setGrant(client: String, service: String, status: String?) throws(LibraryError) {
        try write { db in
            if let status {
                try db.execute(sql: "INSERT OR REPLACE INTO \"grant\" (client, service, status, date) VALUES (?, ?, ?, ?)",
                               arguments: [client, service, status, Date()])
            } else {
                try db.execute(sql: "DELETE FROM \"grant\" WHERE client = ? AND service = ?", arguments: [client, service])
            }
        }
    }

    func limitedSelection(client: String) throws(LibraryError) -> [String] {
        try read { db in
            try String.fetchAll(db, sql: """
                SELECT a.localIdentifier FROM limitedSelection s JOIN asset a ON a.id = s.assetID
                WHERE s.client = ? ORDER BY a.id
                """, arguments: [client])
        }
    }

    func setLimitedSelection(_ assets: [String], client: String) throws(LibraryError) {
        try write { db in
            try db.execute(sql: "DELETE FROM limitedSelection WHERE client = ?", arguments: [client])
            for identifier in assets {
                guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM asset WHERE localIdentifier = ?", arguments: [identifier]) else {
                    throw LibraryError.notFound(localIdentifier: identifier)
                }
                try db.execute(sql: "INSERT OR IGNORE INTO limitedSelection (client, assetID) VALUES (?, ?)", arguments: [client, id])
            }
        }
    }

    func logAccess(_ entries: [AccessLogEntry]) throws(LibraryError) {
        guard !entries.isEmpty else { return }
        try write { db in
            for entry in entries {
                try db.execute(sql: "INSERT INTO accessLog (date, client, action, localIdentifier, detail) VALUES (?, ?, ?, ?, ?)",
                               arguments: [entry.date, entry.client, entry.action, entry.localIdentifier, entry.detail])
            }
        }
    }

    func accessLog(client: String, limit: Int) throws(LibraryError) -> [AccessLogEntry] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM accessLog WHERE client = ? ORDER BY sequence DESC LIMIT ?", arguments: [client, limit]).map {
                AccessLogEntry(date: $0["date"], client: $0["client"], action: $0["action"], localIdentifier: $0["localIdentifier"], detail: $0["detail"])
            }
        }
    }

    func addClientToken(hash: String, client: String) throws(LibraryError) {
        try write { db in
            try db.execute(sql: "INSERT INTO clientToken (tokenHash, client, date) VALUES (?, ?, ?)", arguments: [hash, client, Date()])
        }
    }

    func client(forTokenHash hash: String) throws(LibraryError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT client FROM clientToken WHERE tokenHash = ?", arguments: [hash])
        }
    }

    func removeClientTokens(client: String) throws(LibraryError) {
        try write { db in
            try db.execute(sql: "DELETE FROM clientToken WHERE client = ?", arguments: [client])
        }
    }

    private func write(_ body: (Database) throws -> Void) throws(LibraryError) {
        do {
            try database.write(body)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }
}
