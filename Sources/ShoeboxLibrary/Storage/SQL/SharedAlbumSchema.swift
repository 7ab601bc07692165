/// Shared albums (``SharedAlbum``): who an album is shared with and as what (`albumShare`), and
/// what the people in it did there: likes, comments and additions (`albumActivity`). The same on
/// SQLite and PostgreSQL but for column types. Both go with their album (and an activity with its
/// photo) by foreign keys; a removed person's rows go with them.
enum SharedAlbumSchema {
    /// `integer`, `date`: the engine's column types.
    static func statements(integer: String, date: String) -> [String] {
        [
            """
            CREATE TABLE albumShare (
              collectionID \(integer) NOT NULL REFERENCES assetCollection (id) ON DELETE CASCADE,
              personID \(integer) NOT NULL REFERENCES person (id) ON DELETE CASCADE,
              role TEXT NOT NULL,
              addedDate \(date) NOT NULL,
              PRIMARY KEY (collectionID, personID)
            )
            """,
            "CREATE INDEX albumShare_person ON albumShare (personID)",
            """
            CREATE TABLE albumActivity (
              id TEXT PRIMARY KEY,
              collectionID \(integer) NOT NULL REFERENCES assetCollection (id) ON DELETE CASCADE,
              assetID \(integer) REFERENCES asset (id) ON DELETE CASCADE,
              personID \(integer) NOT NULL REFERENCES person (id) ON DELETE CASCADE,
              kind TEXT NOT NULL,
              text TEXT,
              count \(integer) NOT NULL DEFAULT 0,
              date \(date) NOT NULL
            )
            """,
            "CREATE INDEX albumActivity_album ON albumActivity (collectionID, date)",
            "CREATE INDEX albumActivity_asset ON albumActivity (assetID)",
            // One like a person a photo of an album.
            "CREATE UNIQUE INDEX albumActivity_like ON albumActivity (collectionID, assetID, personID) WHERE kind = 'like'",
        ]
    }

    /// Who put each photo in a shared album (`membership.addedByID`; `NULL` in other albums and
    /// in shared ones before it was kept: the photo's owner put it there). A Shared Library photo
    /// is owned by no one person, so its owner cannot say who added it to an album.
    static func adderStatements(integer: String) -> [String] {
        ["ALTER TABLE membership ADD COLUMN addedByID \(integer) REFERENCES person (id) ON DELETE SET NULL"]
    }
}
