import Foundation

extension SQLCatalogStore {
    func addKey(_ key: PersonKey, tokenHash: String) async throws(LibraryError) {
        try await write { db in
            try await db.execute(
                """
                INSERT INTO personKey (id, tokenHash, personID, name, scope, prefix, createdDate)
                VALUES (\(key.id), \(tokenHash), \(key.personID), \(key.name), \(key.scope.rawValue), \(key.prefix), \(key.createdDate))
                """)
        }
    }

    func key(tokenHash: String) async throws(LibraryError) -> (key: PersonKey, person: Person)? {
        try await read { db in
            guard
                let row = try await db.first(
                    """
                    SELECT k.id AS keyID, k.personID, k.name AS keyName, k.scope, k.prefix, k.createdDate AS keyCreated, k.lastUsedDate, p.*
                    FROM personKey k JOIN person p ON p.id = k.personID WHERE k.tokenHash = \(tokenHash)
                    """)
            else { return nil }
            let key = PersonKey(
                id: row["keyID"], personID: row["personID"], name: row["keyName"], scope: PersonKey.Scope(rawValue: row["scope"]) ?? .read,
                prefix: row["prefix"], createdDate: row["keyCreated"], lastUsedDate: row["lastUsedDate"])
            return (key, Self.person(row))
        }
    }

    func touchKey(id: String, lastUsed: Date) async throws(LibraryError) {
        try await write { db in _ = try await db.execute("UPDATE personKey SET lastUsedDate = \(lastUsed) WHERE id = \(id)") }
    }

    func keys(of personID: Int64) async throws(LibraryError) -> [PersonKey] {
        try await read { db in
            try await db.query("SELECT * FROM personKey WHERE personID = \(personID) ORDER BY createdDate DESC, id").map { row in
                PersonKey(
                    id: row["id"], personID: row["personID"], name: row["name"], scope: PersonKey.Scope(rawValue: row["scope"]) ?? .read,
                    prefix: row["prefix"], createdDate: row["createdDate"], lastUsedDate: row["lastUsedDate"])
            }
        }
    }

    func removeKey(id: String, of personID: Int64) async throws(LibraryError) -> Bool {
        try await write { db in try await db.execute("DELETE FROM personKey WHERE id = \(id) AND personID = \(personID)") > 0 }
    }
}
