import Foundation

extension SQLCatalogStore {
    /// The setting that holds the highest person number ever given.
    static let personNumberSetting = "personNumber"

    func people() async throws(LibraryError) -> [Person] {
        try await read { db in try await db.query("SELECT * FROM person ORDER BY id").map(Self.person) }
    }

    func person(named name: String) async throws(LibraryError) -> Person? {
        try await read { db in
            try await db.first("SELECT * FROM person WHERE name = \(name.lowercased()) OR identifier = \(name)").map(Self.person)
        }
    }

    func person(rowID: Int64) async throws(LibraryError) -> Person? {
        try await read { db in try await db.first("SELECT * FROM person WHERE id = \(rowID)").map(Self.person) }
    }

    func addPerson(name: String, displayName: String, role: Person.Role, passwordHash: String?, quota: Int64?) async throws(LibraryError) -> Person {
        let identifier = RandomToken.hex(words: 2)
        let now = Date()
        return try await write { db in
            // A number is never given twice: a person removed leaves theirs behind (their
            // uploads in flight, a change-log reader's position), which a newcomer must not take.
            let highest = try await db.scalar("SELECT MAX(id) FROM person", as: Int64?.self) ?? nil
            let given = Int64(try await db.scalar("SELECT value FROM setting WHERE key = \(Self.personNumberSetting)", as: String.self) ?? "") ?? 0
            let next = max(highest ?? 0, given, Person.adminRowID - 1) + 1
            try await db.execute(
                """
                INSERT INTO setting (key, value) VALUES (\(Self.personNumberSetting), \(String(next)))
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """)
            try await db.execute(
                """
                INSERT INTO person (id, identifier, name, displayName, role, state, quota, passwordHash, createdDate)
                VALUES (\(next), \(identifier), \(name), \(displayName), \(role.rawValue), \(Person.State.active.rawValue), \(quota), \(passwordHash), \(now))
                """)
            guard let row = try await db.first("SELECT * FROM person WHERE id = \(next)") else {
                throw LibraryError.storage("the person just added is not in the catalog")
            }
            return Self.person(row)
        }
    }

    func updatePerson(
        rowID: Int64, name: String?, displayName: String?, role: Person.Role?, state: Person.State?, quota: Int64??, passwordHash: String?
    ) async throws(LibraryError) -> Person {
        var sets: [SQLStatement] = []
        if let name { sets.append("name = \(name)") }
        if let displayName { sets.append("displayName = \(displayName)") }
        if let role { sets.append("role = \(role.rawValue)") }
        if let state { sets.append("state = \(state.rawValue)") }
        if let quota { sets.append("quota = \(quota)") }
        if let passwordHash { sets.append("passwordHash = \(passwordHash)") }
        // Disabling a person or changing their password ends every session they have.
        if state == .disabled || passwordHash != nil { sets.append("sessionEpoch = sessionEpoch + 1") }
        let assignments = sets
        return try await write { db in
            if !assignments.isEmpty {
                try await db.execute("UPDATE person SET " + SQLStatement.joined(assignments, separator: ", ") + " WHERE id = \(rowID)")
            }
            guard let row = try await db.first("SELECT * FROM person WHERE id = \(rowID)") else {
                throw LibraryError(.noSuchPerson, "no person has the row id \(rowID)")
            }
            return Self.person(row)
        }
    }

    func passwordHash(of rowID: Int64) async throws(LibraryError) -> String? {
        try await read { db in try await db.scalar("SELECT passwordHash FROM person WHERE id = \(rowID)", as: String?.self) ?? nil }
    }

    func sessionEpoch(of rowID: Int64) async throws(LibraryError) -> Int64 {
        try await read { db in try await db.scalar("SELECT sessionEpoch FROM person WHERE id = \(rowID)", as: Int64.self) ?? 0 }
    }

    func endSessions(of rowID: Int64) async throws(LibraryError) {
        try await write { db in
            _ = try await db.execute("UPDATE person SET sessionEpoch = sessionEpoch + 1 WHERE id = \(rowID)")
            _ = try await db.execute("DELETE FROM personSession WHERE personID = \(rowID)")
        }
    }

    func removePerson(rowID: Int64) async throws(LibraryError) {
        try await write { db in
            let assets = try await db.scalar("SELECT COUNT(*) FROM asset WHERE ownerID = \(rowID)", as: Int.self) ?? 0
            let albums = try await db.scalar("SELECT COUNT(*) FROM assetCollection WHERE ownerID = \(rowID)", as: Int.self) ?? 0
            guard assets == 0, albums == 0 else {
                throw LibraryError.invalidArgument("the person still has \(assets) photos and movies and \(albums) albums and folders")
            }
            try await db.execute("DELETE FROM changeLog WHERE ownerID = \(rowID)")
            try await db.execute("DELETE FROM personSession WHERE personID = \(rowID)")
            try await db.execute("DELETE FROM personKey WHERE personID = \(rowID)")
            try await db.execute("DELETE FROM personPasskey WHERE personID = \(rowID)")
            try await db.execute("DELETE FROM personIdentity WHERE personID = \(rowID)")
            // Their links show nothing now (their library is empty): they go, with their visits,
            // and so do their settings (the memories they hid, their browser's cameras).
            try await db.execute("DELETE FROM sharedLinkView WHERE link IN (SELECT id FROM sharedLink WHERE ownerID = \(rowID))")
            try await db.execute("DELETE FROM sharedLink WHERE ownerID = \(rowID)")
            for key in PhotoLibrary.personSettings(of: rowID) {
                try await db.execute("DELETE FROM setting WHERE key = \(key)")
            }
            try await db.execute("DELETE FROM person WHERE id = \(rowID)")
        }
    }

    func usage() async throws(LibraryError) -> [Int64: PersonUsage] {
        try await read { db in
            var usage: [Int64: PersonUsage] = [:]
            var albums: [Int64: Int] = [:]
            for row in try await db.query("SELECT ownerID, COUNT(*) AS n FROM assetCollection GROUP BY ownerID") {
                albums[row["ownerID"]] = row["n"]
            }
            let assets = try await db.query(
                """
                SELECT p.id, p.identifier, COUNT(a.id) AS n,
                       CAST(COALESCE(SUM(a.fileSize + COALESCE(a.companionFileSize, 0) + COALESCE(a.renderFileSize, 0)), 0) AS BIGINT) AS bytes
                FROM person p LEFT JOIN asset a ON a.ownerID = p.id GROUP BY p.id, p.identifier
                """)
            for row in assets {
                let id: Int64 = row["id"]
                usage[id] = PersonUsage(person: row["identifier"], assetCount: row["n"], albumCount: albums[id] ?? 0, byteCount: row["bytes"])
            }
            return usage
        }
    }

    /// The bytes a person's assets hold, as their quota counts them.
    static func bytesOwned(by owner: Int64, in db: any SQLSession) async throws -> Int64 {
        try await db.scalar(
            """
            SELECT CAST(COALESCE(SUM(fileSize + COALESCE(companionFileSize, 0) + COALESCE(renderFileSize, 0)), 0) AS BIGINT)
            FROM asset WHERE ownerID = \(owner) OR id IN (SELECT assetID FROM sharedLibraryAsset WHERE addedByID = \(owner))
            """, as: Int64.self) ?? 0
    }

    static func person(_ row: SQLRow) -> Person {
        Person(
            rowID: row["id"], id: row["identifier"], name: row["name"], displayName: row["displayName"],
            role: Person.Role(rawValue: row["role"]) ?? .member, state: Person.State(rawValue: row["state"]) ?? .disabled,
            quota: row["quota"], createdDate: row["createdDate"], hasPassword: (row["passwordHash"] as String?) != nil)
    }
}
