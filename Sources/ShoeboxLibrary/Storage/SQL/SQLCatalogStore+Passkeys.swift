import Foundation

extension SQLCatalogStore {
    func addPasskey(_ passkey: Passkey) async throws(LibraryError) {
        try await write { db in
            if try await db.scalar("SELECT COUNT(*) FROM personPasskey WHERE id = \(passkey.id)", as: Int.self) ?? 0 > 0 {
                throw LibraryError(.constraint, "this passkey is registered already")
            }
            try await db.execute(
                """
                INSERT INTO personPasskey (id, personID, name, createdDate, publicKey, algorithm, signCount)
                VALUES (\(passkey.id), \(passkey.personID), \(passkey.name), \(passkey.createdDate), \(passkey.publicKey.base64EncodedString()),
                        \(Int64(passkey.algorithm)), \(Int64(passkey.signCount)))
                """)
        }
    }

    func passkey(id: String) async throws(LibraryError) -> (passkey: Passkey, person: Person)? {
        try await read { db in
            guard
                let row = try await db.first(
                    """
                    SELECT k.id AS passkeyID, k.personID, k.name AS passkeyName, k.createdDate AS passkeyCreated, k.lastUsedDate,
                           k.publicKey, k.algorithm, k.signCount, p.*
                    FROM personPasskey k JOIN person p ON p.id = k.personID WHERE k.id = \(id)
                    """)
            else { return nil }
            let passkey = Passkey(
                id: row["passkeyID"], personID: row["personID"], name: row["passkeyName"], createdDate: row["passkeyCreated"],
                lastUsedDate: row["lastUsedDate"], publicKey: Data(base64Encoded: row["publicKey"] as String) ?? Data(),
                algorithm: Int(row["algorithm"] as Int64), signCount: UInt32(clamping: row["signCount"] as Int64))
            return (passkey, Self.person(row))
        }
    }

    func notePasskeyUse(id: String, signCount: UInt32, date: Date) async throws(LibraryError) {
        try await write { db in
            _ = try await db.execute("UPDATE personPasskey SET signCount = \(Int64(signCount)), lastUsedDate = \(date) WHERE id = \(id)")
        }
    }

    func passkeys(of personID: Int64) async throws(LibraryError) -> [Passkey] {
        try await read { db in
            try await db.query("SELECT * FROM personPasskey WHERE personID = \(personID) ORDER BY createdDate, id").map { row in
                Passkey(
                    id: row["id"], personID: row["personID"], name: row["name"], createdDate: row["createdDate"], lastUsedDate: row["lastUsedDate"],
                    publicKey: Data(base64Encoded: row["publicKey"] as String) ?? Data(), algorithm: Int(row["algorithm"] as Int64),
                    signCount: UInt32(clamping: row["signCount"] as Int64))
            }
        }
    }

    func removePasskey(id: String, of personID: Int64) async throws(LibraryError) -> Bool {
        try await write { db in try await db.execute("DELETE FROM personPasskey WHERE id = \(id) AND personID = \(personID)") > 0 }
    }
}
