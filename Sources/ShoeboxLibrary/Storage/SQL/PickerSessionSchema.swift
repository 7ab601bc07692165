/// The `picker_session` table, the same on SQLite and PostgreSQL but for column types.
enum PickerSessionSchema {
    static func statements(blob: String, date: String, bool: String) -> [String] {
        [
            """
            CREATE TABLE picker_session (
              id TEXT PRIMARY KEY,
              owner TEXT,
              request \(blob) NOT NULL,
              state \(blob) NOT NULL,
              version INTEGER NOT NULL,
              finished \(bool) NOT NULL,
              createdDate \(date) NOT NULL,
              updatedDate \(date) NOT NULL
            )
            """,
            "CREATE INDEX picker_session_updated ON picker_session (updatedDate)",
        ]
    }
}
