/// The people of a library (``Person``) and whose each asset, album, change and shared link is:
/// the `person` table, an `ownerID` on `asset`, `assetCollection`, `changeLog` and `sharedLink`,
/// and the signed-in browsers (`personSession`) and failed sign-ins (`signInFailure`). The same on SQLite and
/// PostgreSQL but for column types and how the engine writes "now" and a random identifier.
///
/// Every library has its admin as person 1: a library made before people existed becomes the
/// admin's (the columns' default), with nothing lost. Bytes stay content-addressed for the whole
/// library, but an asset is one person's: the same file imported by two people is two assets, so
/// the hashes are unique per person, and the indexes that find a blob's users by hash alone stay.
enum PeopleSchema {
    /// `integer`, `date`: the engine's column types; `now`, `random`: its expressions for the
    /// current time and a random hex identifier.
    static func statements(integer: String, date: String, now: String, random: String) -> [String] {
        [
            """
            CREATE TABLE person (
              id \(integer) PRIMARY KEY,
              identifier TEXT NOT NULL UNIQUE,
              name TEXT NOT NULL UNIQUE,
              displayName TEXT NOT NULL,
              role TEXT NOT NULL,
              state TEXT NOT NULL,
              quota \(integer),
              passwordHash TEXT,
              createdDate \(date) NOT NULL,
              sessionEpoch \(integer) NOT NULL DEFAULT 0
            )
            """,
            "INSERT INTO person (id, identifier, name, displayName, role, state, createdDate) VALUES (1, \(random), 'admin', 'Admin', 'admin', 'active', \(now))",
            "ALTER TABLE asset ADD COLUMN ownerID \(integer) NOT NULL DEFAULT 1",
            "ALTER TABLE assetCollection ADD COLUMN ownerID \(integer) NOT NULL DEFAULT 1",
            "ALTER TABLE changeLog ADD COLUMN ownerID \(integer) NOT NULL DEFAULT 1",
            "ALTER TABLE sharedLink ADD COLUMN ownerID \(integer) NOT NULL DEFAULT 1",
            "CREATE INDEX assetCollection_owner ON assetCollection (ownerID)",
            // One person's bytes are one asset of theirs; anyone's may be the same bytes.
            "DROP INDEX asset_contentHash",
            "CREATE UNIQUE INDEX asset_contentHash ON asset (ownerID, contentHash)",
            "CREATE INDEX asset_blob ON asset (contentHash)",
            "DROP INDEX asset_companionHash",
            "CREATE UNIQUE INDEX asset_companionHash ON asset (ownerID, companionHash)",
            "CREATE INDEX asset_companionBlob ON asset (companionHash)",
            // Signed-in browsers (``PersonSession``): only the token's SHA-256 is kept.
            """
            CREATE TABLE personSession (
              id TEXT PRIMARY KEY,
              tokenHash TEXT NOT NULL UNIQUE,
              personID \(integer) NOT NULL,
              epoch \(integer) NOT NULL,
              createdDate \(date) NOT NULL,
              lastSeenDate \(date) NOT NULL,
              expiresDate \(date) NOT NULL,
              address TEXT NOT NULL,
              userAgent TEXT NOT NULL
            )
            """,
            "CREATE INDEX personSession_person ON personSession (personID)",
            // Failed sign-ins, for throttling by name and by address on every server.
            "CREATE TABLE signInFailure (name TEXT NOT NULL, address TEXT NOT NULL, date \(date) NOT NULL)",
            "CREATE INDEX signInFailure_name ON signInFailure (name, date)",
            "CREATE INDEX signInFailure_address ON signInFailure (address, date)",
        ]
    }

    /// People's keys for tools (``PersonKey``): migration v28 (SQLite), pg19 (PostgreSQL). Only
    /// the token's SHA-256 is kept.
    static func keyStatements(integer: String, date: String) -> [String] {
        [
            """
            CREATE TABLE personKey (
              id TEXT PRIMARY KEY,
              tokenHash TEXT NOT NULL UNIQUE,
              personID \(integer) NOT NULL,
              name TEXT NOT NULL,
              scope TEXT NOT NULL,
              prefix TEXT NOT NULL,
              createdDate \(date) NOT NULL,
              lastUsedDate \(date)
            )
            """,
            "CREATE INDEX personKey_person ON personKey (personID)",
        ]
    }

    /// People's passkeys (``Passkey``): migration v29 (SQLite), pg20 (PostgreSQL).
    static func passkeyStatements(integer: String, date: String) -> [String] {
        [
            """
            CREATE TABLE personPasskey (
              id TEXT PRIMARY KEY,
              personID \(integer) NOT NULL,
              name TEXT NOT NULL,
              createdDate \(date) NOT NULL,
              lastUsedDate \(date),
              publicKey TEXT NOT NULL,
              algorithm \(integer) NOT NULL,
              signCount \(integer) NOT NULL
            )
            """,
            "CREATE INDEX personPasskey_person ON personPasskey (personID)",
        ]
    }

    /// The accounts of an OpenID Connect provider linked to people (``PhotoLibrary/linkSignIn(issuer:subject:to:)``):
    /// migration v31 (SQLite), pg22 (PostgreSQL). An account (issuer and subject) signs in one
    /// person; a person has at most one account of each provider.
    static func identityStatements(integer: String, date: String) -> [String] {
        [
            """
            CREATE TABLE personIdentity (
              issuer TEXT NOT NULL,
              subject TEXT NOT NULL,
              personID \(integer) NOT NULL,
              email TEXT,
              createdDate \(date) NOT NULL,
              lastUsedDate \(date),
              PRIMARY KEY (issuer, subject)
            )
            """,
            "CREATE UNIQUE INDEX personIdentity_person ON personIdentity (personID, issuer)",
        ]
    }

    /// SQLite's migration v27: the statements above, the grid index per person, and the summary
    /// counted per person.
    static var sqlite: [String] {
        statements(integer: "INTEGER", date: "DATETIME", now: "strftime('%Y-%m-%d %H:%M:%f', 'now')", random: "lower(hex(randomblob(16)))")
            + [
                "DROP INDEX asset_grid",
                """
                CREATE INDEX asset_grid ON asset (ownerID, creationDate, id, isHidden, trashedDate, mediaType, mediaSubtypes,
                  isFavorite, addedDate, burstIdentifier, representsBurst)
                """,
            ]
            + AssetSummary.dropStatements.dropLast() + ["DROP TABLE assetSummary"] + AssetSummary.sqliteStatements(owners: true)
    }

    /// PostgreSQL's migration pg18 (see ``sqlite``).
    static var postgres: [String] {
        statements(integer: "BIGINT", date: "TIMESTAMPTZ", now: "now()", random: "md5(random()::text || clock_timestamp()::text)")
            + [
                "DROP INDEX asset_grid",
                """
                CREATE INDEX asset_grid ON asset (ownerID, creationDate, id)
                  INCLUDE (isHidden, trashedDate, mediaType, mediaSubtypes, isFavorite, addedDate, creatorClient, burstIdentifier, representsBurst)
                """,
                "DROP TRIGGER assetSummary_change ON asset", "DROP FUNCTION shoebox_asset_summary()", "DROP TABLE assetSummary",
            ] + AssetSummary.postgresStatements(owners: true)
    }
}
