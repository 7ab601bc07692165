/// The `prompt` table, the same on SQLite and PostgreSQL but for column types.
enum PromptSchema {
    static func statements(blob: String, date: String, bool: String) -> [String] {
        [
            """
            CREATE TABLE prompt (
              id TEXT PRIMARY KEY,
              client TEXT NOT NULL,
              clientName TEXT NOT NULL,
              service TEXT NOT NULL,
              usageDescription TEXT NOT NULL,
              offersLimitedAccess \(bool) NOT NULL,
              createdDate \(date) NOT NULL,
              expiresDate \(date) NOT NULL,
              state TEXT NOT NULL,
              answer \(blob),
              answeredDate \(date)
            )
            """,
            // One pending question per client and service: a second server asking at the same
            // time finds the first one's.
            "CREATE UNIQUE INDEX prompt_pending ON prompt (client, service) WHERE state = 'pending'",
            "CREATE INDEX prompt_created ON prompt (state, createdDate)",
        ]
    }
}
