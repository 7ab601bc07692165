/// The `sharedLink` and `sharedLinkView` tables (``SharedLink``), the same on SQLite and
/// PostgreSQL but for column types. A link's token is kept only as its SHA-256.
enum SharedLinkSchema {
    static func statements(date: String, bool: String) -> [String] {
        [
            """
            CREATE TABLE sharedLink (
              id TEXT PRIMARY KEY,
              tokenHash TEXT NOT NULL UNIQUE,
              title TEXT NOT NULL,
              album TEXT,
              assets TEXT NOT NULL,
              createdDate \(date) NOT NULL,
              expiresDate \(date),
              password TEXT,
              allowsDownload \(bool) NOT NULL,
              includesMetadata \(bool) NOT NULL,
              revokedDate \(date)
            )
            """,
            """
            CREATE TABLE sharedLinkView (
              link TEXT NOT NULL,
              date \(date) NOT NULL,
              address TEXT NOT NULL,
              what TEXT NOT NULL
            )
            """,
            "CREATE INDEX sharedLinkView_link ON sharedLinkView (link, date)",
        ]
    }
}
