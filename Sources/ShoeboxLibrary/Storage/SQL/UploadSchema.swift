/// The `upload` table, the same on SQLite and PostgreSQL but for column types.
enum UploadSchema {
    static func statements(blob: String, date: String) -> [String] {
        [
            """
            CREATE TABLE upload (
              id TEXT PRIMARY KEY,
              owner TEXT,
              filename TEXT NOT NULL,
              size BIGINT NOT NULL,
              album TEXT,
              received BIGINT NOT NULL,
              pieces \(blob) NOT NULL,
              state TEXT NOT NULL,
              assetIdentifier TEXT,
              createdDate \(date) NOT NULL,
              updatedDate \(date) NOT NULL
            )
            """,
            "CREATE INDEX upload_updated ON upload (updatedDate)",
        ]
    }
}
