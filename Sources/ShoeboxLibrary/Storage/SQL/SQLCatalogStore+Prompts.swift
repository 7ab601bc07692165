import Foundation
import ShoeboxImaging

/// Authorization questions in the catalog's `prompt` table (see ``AuthorizationPromptRecord``).
/// A question is its person's (``AppsSchema``): asked of them, listed and answered by them alone.
extension SQLCatalogStore {
    /// Settled questions are kept this long (for a server that raised one to read the answer).
    static let settledPromptRetention: TimeInterval = 86_400

    func addPrompt(_ prompt: AuthorizationPromptRecord) async throws(LibraryError) -> AuthorizationPromptRecord {
        let now = Date()
        let person = writer
        return try await write { db in
            try await db.execute("UPDATE prompt SET state = 'expired' WHERE state = 'pending' AND expiresDate <= \(now)")
            try await db.execute("DELETE FROM prompt WHERE state <> 'pending' AND createdDate < \(now.addingTimeInterval(-Self.settledPromptRetention))")
            try await db.execute(
                """
                INSERT INTO prompt (id, personID, client, clientName, service, usageDescription, offersLimitedAccess, assets, createdDate, expiresDate, state)
                VALUES (\(prompt.id), \(person), \(prompt.client), \(prompt.clientName), \(prompt.service), \(prompt.usageDescription),
                        \(prompt.offersLimitedAccess), \(prompt.assets.map { $0.joined(separator: "\n") }), \(prompt.createdDate),
                        \(prompt.expiresDate), 'pending')
                ON CONFLICT DO NOTHING
                """)
            let rows = try await db.query(
                """
                SELECT * FROM prompt WHERE personID = \(person) AND client = \(prompt.client) AND service = \(prompt.service) AND state = 'pending'
                """)
            guard let row = rows.first else { throw LibraryError.storage("the question \(prompt.id) was neither added nor found") }
            var question = Self.prompt(from: row)
            // A new question for a service the user has decided on meanwhile (a question answered
            // between the asker's read of the status and now) is not asked: the decision is the
            // answer. Read after the insert, which waits for an answer under way on PostgreSQL.
            if question.id == prompt.id, !prompt.isDeletion,
                let status: String = try await db.scalar(
                    "SELECT status FROM \"grant\" WHERE personID = \(person) AND client = \(prompt.client) AND service = \(prompt.service)")
            {
                let answer: AuthorizationPromptRecord.Answer
                switch status {
                case "denied": answer = .init(.deny)
                case "limited": answer = .init(.selectPhotos(try await Self.readLimitedSelection(client: prompt.client, person: person, in: db)))
                default: answer = .init(.allow)
                }
                try await db.execute("DELETE FROM prompt WHERE id = \(prompt.id)")
                question.state = .answered
                question.answer = answer
                question.answeredDate = now
            }
            return question
        }
    }

    func prompt(id: String) async throws(LibraryError) -> AuthorizationPromptRecord? {
        try await read { db in
            try await db.query("SELECT * FROM prompt WHERE id = \(id) AND personID = \(self.writer)").first.map(Self.prompt(from:))
        }
    }

    func pendingPrompts(now: Date) async throws(LibraryError) -> [AuthorizationPromptRecord] {
        try await read { db in
            try await db.query(
                """
                SELECT * FROM prompt WHERE personID = \(self.writer) AND state = 'pending' AND expiresDate > \(now) ORDER BY createdDate, id
                """
            ).map(Self.prompt(from:))
        }
    }

    func answerPrompt(
        id: String, answer: AuthorizationPromptRecord.Answer, now: Date, recording grant: (status: String, selection: [String]?)?
    ) async throws(LibraryError) -> Bool {
        let data: Data
        do {
            data = try JSONEncoder().encode(answer)
        } catch {
            throw .invalidArgument("cannot encode the answer to \(id): \(error)")
        }
        let person = writer
        return try await write { db in
            let answered = try await db.query(
                """
                UPDATE prompt SET state = 'answered', answer = \(data), answeredDate = \(now)
                WHERE id = \(id) AND personID = \(person) AND state = 'pending' AND expiresDate > \(now) RETURNING client, service
                """)
            guard let question = answered.first else { return false }
            guard let grant else { return true }
            let client: String = question["client"]
            if let selection = grant.selection { try await Self.writeLimitedSelection(selection, client: client, person: person, in: db) }
            try await Self.writeGrant(client: client, service: question["service"], status: grant.status, person: person, in: db)
            return true
        }
    }

    func expirePrompt(id: String) async throws(LibraryError) -> Bool {
        try await write { db in
            try await db.execute("UPDATE prompt SET state = 'expired' WHERE id = \(id) AND personID = \(self.writer) AND state = 'pending'") > 0
        }
    }

    static func prompt(from row: SQLRow) -> AuthorizationPromptRecord {
        let answer = (row["answer"] as Data?).flatMap { try? JSONDecoder().decode(AuthorizationPromptRecord.Answer.self, from: $0) }
        return AuthorizationPromptRecord(
            id: row["id"], client: row["client"], clientName: row["clientName"], service: row["service"],
            usageDescription: row["usageDescription"], offersLimitedAccess: row["offersLimitedAccess"],
            assets: (row["assets"] as String?).map { $0.split(separator: "\n").map(String.init) }, createdDate: row["createdDate"],
            expiresDate: row["expiresDate"],
            state: AuthorizationPromptRecord.State(rawValue: row["state"]) ?? .expired, answer: answer, answeredDate: row["answeredDate"])
    }
}
