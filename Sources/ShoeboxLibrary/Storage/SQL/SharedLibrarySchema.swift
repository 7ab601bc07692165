/// The Shared Library (``SharedLibrary``): who is in it or invited (`sharedLibraryParticipant`,
/// one row a person; `joinedDate` is set once they join), and who added and who deleted each of
/// its assets (`sharedLibraryAsset`; the asset itself is owned by ``SharedLibrary/ownerRowID``).
/// The same on SQLite and PostgreSQL but for column types; a removed person's participation
/// goes with them, the photos they added stay.
enum SharedLibrarySchema {
    /// `integer`, `date`, `bool`: the engine's column types.
    static func statements(integer: String, date: String, bool: String) -> [String] {
        [
            """
            CREATE TABLE sharedLibraryParticipant (
              personID \(integer) PRIMARY KEY REFERENCES person (id) ON DELETE CASCADE,
              invitedByID \(integer) REFERENCES person (id) ON DELETE SET NULL,
              movesNewAssets \(bool) NOT NULL,
              invitedDate \(date) NOT NULL,
              joinedDate \(date)
            )
            """,
            """
            CREATE TABLE sharedLibraryAsset (
              assetID \(integer) PRIMARY KEY REFERENCES asset (id) ON DELETE CASCADE,
              addedByID \(integer) REFERENCES person (id) ON DELETE SET NULL,
              trashedByID \(integer) REFERENCES person (id) ON DELETE SET NULL
            )
            """,
            "CREATE INDEX sharedLibraryAsset_addedBy ON sharedLibraryAsset (addedByID)",
        ]
    }
}
