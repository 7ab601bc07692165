import Foundation

extension SQLCatalogStore {
    func addSession(_ session: PersonSession, tokenHash: String) async throws(LibraryError) {
        try await write { db in
            try await db.execute(
                """
                INSERT INTO personSession (id, tokenHash, personID, epoch, createdDate, lastSeenDate, expiresDate, address, userAgent)
                VALUES (\(session.id), \(tokenHash), \(session.personID), \(session.epoch), \(session.createdDate), \(session.lastSeenDate),
                        \(session.expiresDate), \(session.address), \(session.userAgent))
                """)
        }
    }

    func session(tokenHash: String) async throws(LibraryError) -> (session: PersonSession, person: Person, epoch: Int64)? {
        try await read { db in
            guard
                let row = try await db.first(
                    """
                    SELECT s.id AS sessionID, s.personID, s.epoch AS sessionEpochAtStart, s.createdDate AS sessionCreated, s.lastSeenDate,
                           s.expiresDate, s.address, s.userAgent, p.*
                    FROM personSession s JOIN person p ON p.id = s.personID WHERE s.tokenHash = \(tokenHash)
                    """)
            else { return nil }
            let session = PersonSession(
                id: row["sessionID"], personID: row["personID"], epoch: row["sessionEpochAtStart"], createdDate: row["sessionCreated"],
                lastSeenDate: row["lastSeenDate"], expiresDate: row["expiresDate"], address: row["address"], userAgent: row["userAgent"])
            return (session, Self.person(row), row["sessionEpoch"])
        }
    }

    func touchSession(id: String, lastSeen: Date, expires: Date) async throws(LibraryError) {
        try await write { db in
            _ = try await db.execute("UPDATE personSession SET lastSeenDate = \(lastSeen), expiresDate = \(expires) WHERE id = \(id)")
        }
    }

    func sessions(of personID: Int64, now: Date) async throws(LibraryError) -> [PersonSession] {
        try await write { db in
            try await db.execute("DELETE FROM personSession WHERE expiresDate < \(now)")
            // Sessions of an earlier epoch ended when it grew.
            try await db.execute(
                "DELETE FROM personSession WHERE personID = \(personID) AND epoch < (SELECT sessionEpoch FROM person WHERE id = \(personID))")
            return try await db.query("SELECT * FROM personSession WHERE personID = \(personID) ORDER BY lastSeenDate DESC, id").map { row in
                PersonSession(
                    id: row["id"], personID: row["personID"], epoch: row["epoch"], createdDate: row["createdDate"],
                    lastSeenDate: row["lastSeenDate"], expiresDate: row["expiresDate"], address: row["address"], userAgent: row["userAgent"])
            }
        }
    }

    func removeSession(id: String, of personID: Int64) async throws(LibraryError) -> Bool {
        try await write { db in try await db.execute("DELETE FROM personSession WHERE id = \(id) AND personID = \(personID)") > 0 }
    }

    func logSignInFailure(name: String, address: String, date: Date) async throws(LibraryError) {
        try await write { db in
            try await db.execute("DELETE FROM signInFailure WHERE date < \(date.addingTimeInterval(-86_400))")
            try await db.execute("INSERT INTO signInFailure (name, address, date) VALUES (\(name), \(address), \(date))")
        }
    }

    func signInFailures(name: String, address: String, since: Date) async throws(LibraryError) -> (forName: Int, fromAddress: Int) {
        try await read { db in
            let forName = try await db.scalar("SELECT COUNT(*) FROM signInFailure WHERE name = \(name) AND date >= \(since)", as: Int.self) ?? 0
            let fromAddress = try await db.scalar("SELECT COUNT(*) FROM signInFailure WHERE address = \(address) AND date >= \(since)", as: Int.self) ?? 0
            return (forName, fromAddress)
        }
    }

    // MARK: Accounts of OpenID Connect providers

    func linkIdentity(issuer: String, subject: String, email: String?, to personID: Int64, date: Date) async throws(LibraryError) {
        try await write { db in
            if let holder = try await db.scalar("SELECT personID FROM personIdentity WHERE issuer = \(issuer) AND subject = \(subject)", as: Int64.self),
                holder != personID
            {
                throw LibraryError(.constraint, "that account signs in another person of this library")
            }
            try await db.execute("DELETE FROM personIdentity WHERE personID = \(personID) AND issuer = \(issuer)")
            try await db.execute(
                """
                INSERT INTO personIdentity (issuer, subject, personID, email, createdDate)
                VALUES (\(issuer), \(subject), \(personID), \(email), \(date))
                """)
        }
    }

    func person(issuer: String, subject: String, date: Date) async throws(LibraryError) -> Person? {
        try await write { db in
            guard let id = try await db.scalar("SELECT personID FROM personIdentity WHERE issuer = \(issuer) AND subject = \(subject)", as: Int64.self)
            else { return nil }
            try await db.execute("UPDATE personIdentity SET lastUsedDate = \(date) WHERE issuer = \(issuer) AND subject = \(subject)")
            return try await db.first("SELECT * FROM person WHERE id = \(id)").map(Self.person)
        }
    }

    func identity(of personID: Int64, issuer: String) async throws(LibraryError) -> (subject: String, email: String?)? {
        try await read { db in
            try await db.first("SELECT subject, email FROM personIdentity WHERE personID = \(personID) AND issuer = \(issuer)").map {
                ($0["subject"], $0["email"])
            }
        }
    }

    func unlinkIdentity(of personID: Int64, issuer: String) async throws(LibraryError) -> Bool {
        try await write { db in
            try await db.execute("DELETE FROM personIdentity WHERE personID = \(personID) AND issuer = \(issuer)") > 0
        }
    }
}
