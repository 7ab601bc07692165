internal import GRDB

/// The catalog's migrations. Identifiers are append-only; a catalog that has applied one this
/// code does not know was written by a newer Shoebox and is refused.
enum CatalogSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-assets") { db in
            try db.create(table: "asset") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("localIdentifier", .text).notNull().unique()
                table.column("mediaType", .integer).notNull()
                table.column("mediaSubtypes", .integer).notNull().defaults(to: 0)
                table.column("pixelWidth", .integer).notNull()
                table.column("pixelHeight", .integer).notNull()
                table.column("creationDate", .datetime).notNull()
                table.column("modificationDate", .datetime).notNull()
                table.column("addedDate", .datetime).notNull()
                table.column("latitude", .double)
                table.column("longitude", .double)
                table.column("altitude", .double)
                table.column("duration", .double).notNull().defaults(to: 0)
                table.column("isFavorite", .boolean).notNull().defaults(to: false)
                table.column("isHidden", .boolean).notNull().defaults(to: false)
                table.column("trashedDate", .datetime)
                table.column("originalFilename", .text).notNull()
                table.column("contentHash", .text).notNull()
                table.column("uniformTypeIdentifier", .text).notNull()
                table.column("fileSize", .integer).notNull()
                table.column("creatorClient", .text)
            }
            try db.create(index: "asset_creationDate", on: "asset", columns: ["creationDate"])
            try db.create(index: "asset_contentHash", on: "asset", columns: ["contentHash"])
        }
        migrator.registerMigration("v2-collections") { db in
            try db.create(table: "assetCollection") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("localIdentifier", .text).notNull().unique()
                table.column("title", .text).notNull()
                table.column("creationDate", .datetime).notNull()
            }
            try db.create(table: "membership") { table in
                table.column("collectionID", .integer).notNull().references("assetCollection", onDelete: .cascade)
                table.column("assetID", .integer).notNull().references("asset", onDelete: .cascade)
                table.column("position", .integer).notNull()
                table.primaryKey(["collectionID", "assetID"])
            }
            try db.create(index: "membership_asset", on: "membership", columns: ["assetID"])
        }
        migrator.registerMigration("v3-change-log") { db in
            // One row per object a commit touched; `library.changes` polls it, so commits made
            // by other processes are seen too.
            try db.create(table: "changeLog") { table in
                table.autoIncrementedPrimaryKey("sequence")
                table.column("commitID", .text).notNull()
                table.column("date", .datetime).notNull()
                table.column("kind", .text).notNull()  // insert, update, delete, album; grant (a client's decisions)
                table.column("localIdentifier", .text).notNull()
            }
        }
        migrator.registerMigration("v4-editing") { db in
            // The current version of an edited asset: a render in `renders/`, filed by hash.
            // `pixelWidth`, `pixelHeight` and `duration` describe the current version; the
            // original's are kept in `assetEdit` for revert. `contentRevision` counts edits and
            // reverts (derivative caches key on it).
            try db.alter(table: "asset") { table in
                table.add(column: "renderHash", .text)
                table.add(column: "renderUniformTypeIdentifier", .text)
                table.add(column: "renderFileSize", .integer)
                table.add(column: "contentRevision", .integer).notNull().defaults(to: 0)
                table.add(column: "originalAssetIdentifier", .text)
            }
            try db.create(index: "asset_renderHash", on: "asset", columns: ["renderHash"])
            try db.create(table: "assetEdit") { table in
                table.column("assetID", .integer).primaryKey().references("asset", onDelete: .cascade)
                table.column("formatIdentifier", .text).notNull()
                table.column("formatVersion", .text).notNull()
                table.column("data", .blob).notNull()
                table.column("editorClient", .text)
                table.column("date", .datetime).notNull()
                table.column("originalPixelWidth", .integer).notNull()
                table.column("originalPixelHeight", .integer).notNull()
                table.column("originalDuration", .double).notNull()
            }
            // Folders: collections that hold albums and other folders, not assets.
            try db.alter(table: "assetCollection") { table in
                table.add(column: "isFolder", .boolean).notNull().defaults(to: false)
                table.add(column: "parentIdentifier", .text)
            }
            try db.create(table: "setting") { table in
                table.column("key", .text).primaryKey()
                table.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v5-authorization") { db in
            try db.create(table: "client") { table in
                table.column("identifier", .text).primaryKey()
                table.column("manifest", .blob).notNull()  // ClientManifest as JSON
                table.column("registeredDate", .datetime).notNull()
            }
            try db.create(table: "grant") { table in
                table.column("client", .text).notNull()
                table.column("service", .text).notNull()  // Authorization.Service.policyName
                table.column("status", .text).notNull()  // Authorization.Status.rawValue
                table.column("date", .datetime).notNull()
                table.primaryKey(["client", "service"])
            }
            try db.create(table: "limitedSelection") { table in
                table.column("client", .text).notNull()
                table.column("assetID", .integer).notNull().references("asset", onDelete: .cascade)
                table.primaryKey(["client", "assetID"])
            }
            try db.create(table: "accessLog") { table in
                table.autoIncrementedPrimaryKey("sequence")
                table.column("date", .datetime).notNull()
                table.column("client", .text).notNull()
                table.column("action", .text).notNull()
                table.column("localIdentifier", .text).notNull()
                table.column("detail", .text)
            }
            try db.create(index: "accessLog_client", on: "accessLog", columns: ["client", "sequence"])
        }
        migrator.registerMigration("v6-client-tokens") { db in
            // Tokens a client presents over HTTP; only their SHA-256 is kept.
            try db.create(table: "clientToken") { table in
                table.column("tokenHash", .text).primaryKey()
                table.column("client", .text).notNull()
                table.column("date", .datetime).notNull()
            }
            try db.create(index: "clientToken_client", on: "clientToken", columns: ["client"])
        }
        migrator.registerMigration("v7-purged-assets") { db in
            // The last state of purged assets (their row as JSON), kept a day so that a fetch
            // result made before the purge still reads them (a snapshot never traps).
            try db.create(table: "purgedAsset") { table in
                table.column("id", .integer).primaryKey()
                table.column("date", .datetime).notNull()
                table.column("row", .text).notNull()
            }
        }
        migrator.registerMigration("v8-grid-index") { db in
            // One covering index for what grids and smart albums ask most: assets in date order
            // (the row id breaks ties, as every fetch's order does) filtered by the columns the
            // smart albums and the default options test. A 100,000-asset Recents fetch scans it
            // in about 10 ms instead of visiting every row (about 200 ms). It begins with
            // creationDate, so it replaces the plain date index.
            try db.create(
                index: "asset_grid", on: "asset",
                columns: ["creationDate", "id", "isHidden", "trashedDate", "mediaType", "mediaSubtypes", "isFavorite", "addedDate"])
            try db.drop(index: "asset_creationDate")
        }
        migrator.registerMigration("v9-blob-safety") { db in
            // Blobs in flight: a change claims the blobs it is about to file before it files them,
            // and its commit releases the claims. A purge removes a blob only when, in the same
            // transaction that deleted the last asset referring to it, no live claim holds it;
            // it records that decision in `blobDeletion`, and the removal itself happens in a
            // later write transaction that deletes the record. A change that claims a blob whose
            // removal is pending completes the removal first, then files its own copy. So an
            // import never commits a row for bytes a purge is removing, and a purge never removes
            // bytes an import relies on. A claim keeps the row its import would insert, so the
            // next process to open the library can adopt the blob of an import that crashed.
            try db.create(table: "blobClaim") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("claimID", .text).notNull()  // one change
                table.column("kind", .text).notNull()  // BlobKind.rawValue
                table.column("hash", .text).notNull()
                table.column("owner", .text).notNull()  // ProcessIdentity
                table.column("expires", .datetime).notNull()
                table.column("pendingRow", .text)  // the AssetRecord (JSON) an import would insert
            }
            try db.create(index: "blobClaim_blob", on: "blobClaim", columns: ["kind", "hash"])
            try db.create(index: "blobClaim_claim", on: "blobClaim", columns: ["claimID"])
            try db.create(table: "blobDeletion") { table in
                table.column("kind", .text).notNull()
                table.column("hash", .text).notNull()
                table.column("date", .datetime).notNull()
                table.primaryKey(["kind", "hash"])
            }
        }
        migrator.registerMigration("v10-sql-layer") { db in
            // One SQL text for SQLite and PostgreSQL: content hashes are unique (the insertion's
            // `ON CONFLICT` decides duplicates), a removal records who is removing a blob, and
            // column names avoid words PostgreSQL reserves.
            try db.drop(index: "asset_contentHash")
            try db.create(index: "asset_contentHash", on: "asset", columns: ["contentHash"], unique: true)
            try db.alter(table: "blobDeletion") { table in
                table.add(column: "remover", .text)
                table.add(column: "removerExpires", .datetime)
            }
            try db.alter(table: "blobClaim") { table in
                table.rename(column: "pendingRow", to: "pendingRecord")
            }
            try db.alter(table: "purgedAsset") { table in
                table.rename(column: "row", to: "record")
            }
        }
        migrator.registerMigration("v11-asset-summary") { db in
            // How many assets there are per month and per combination of the columns smart
            // albums and the grid filter by, kept by triggers: month sections and smart-album
            // counts read a few hundred rows instead of scanning millions.
            for statement in AssetSummary.sqliteStatements(local: false, bursts: false) { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v12-jobs") { db in
            // The job queue (``BackgroundJob``): one row per kind and subject, claimed under a
            // lease; due jobs are found by state and time.
            try db.execute(
                sql: """
                    CREATE TABLE job (
                      id INTEGER PRIMARY KEY AUTOINCREMENT,
                      kind TEXT NOT NULL,
                      subject TEXT NOT NULL,
                      state TEXT NOT NULL,
                      attempts INTEGER NOT NULL DEFAULT 0,
                      maxAttempts INTEGER NOT NULL,
                      runAfter DATETIME NOT NULL,
                      leaseOwner TEXT,
                      leaseExpires DATETIME,
                      lastError TEXT,
                      createdDate DATETIME NOT NULL,
                      UNIQUE (kind, subject)
                    )
                    """)
            try db.execute(sql: "CREATE INDEX job_due ON job (state, runAfter, id)")
        }
        migrator.registerMigration("v13-prompts") { db in
            // Authorization questions (``AuthorizationPromptRecord``), so any server shows them
            // and takes the answer; at most one pending per client and service.
            for statement in PromptSchema.statements(blob: "BLOB", date: "DATETIME", bool: "BOOLEAN") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v14-picker-sessions") { db in
            // Picker sessions (``PickerSessionRecord``), so any server shows, changes and
            // resolves them, and they outlive the server that made them.
            for statement in PickerSessionSchema.statements(blob: "BLOB", date: "DATETIME", bool: "BOOLEAN") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v15-user-edited-fields") { db in
            // Which metadata the user set (``AssetRecord/EditedFields``), so that reading the
            // file again keeps it.
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN userEditedFields INTEGER")
        }
        migrator.registerMigration("v16-uploads") { db in
            // Resumable uploads (``UploadRecord``), carried on by any server.
            for statement in UploadSchema.statements(blob: "BLOB", date: "DATETIME") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v17-album-creator") { db in
            // The client that made an album or folder (``AssetCollection/creatorClient``).
            try db.execute(sql: "ALTER TABLE assetCollection ADD COLUMN creatorClient TEXT")
        }
        migrator.registerMigration("v18-time-zones") { db in
            // Where a photo was taken, its clock's offset (``CaptureTime``); month sections by
            // that clock's month.
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN timeZoneOffset INTEGER")
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN timeZoneIdentifier TEXT")
            for statement in AssetSummary.dropStatements + AssetSummary.sqliteStatements(local: true, bursts: false).dropFirst() {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v19-deletion-prompts") { db in
            // The assets a client's deletion question is about (one identifier a line).
            try db.execute(sql: "ALTER TABLE prompt ADD COLUMN assets TEXT")
        }
        migrator.registerMigration("v20-companions") { db in
            for statement in CatalogSchema.companionStatements(integer: "INTEGER") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v21-bursts") { db in
            for statement in CatalogSchema.burstStatements(bool: "BOOLEAN", falseValue: "0") { try db.execute(sql: statement) }
            // The summary keeps a burst's other frames apart, so that counts leave them out too.
            for statement in AssetSummary.dropStatements.dropLast() + ["DROP TABLE assetSummary"] + AssetSummary.sqliteStatements() {
                try db.execute(sql: statement)
            }
            // Default fetches leave out a burst's other frames: the grid index covers the two
            // columns that decide it, so Recents still reads no rows.
            try db.drop(index: "asset_grid")
            try db.create(
                index: "asset_grid", on: "asset",
                columns: [
                    "creationDate", "id", "isHidden", "trashedDate", "mediaType", "mediaSubtypes", "isFavorite", "addedDate",
                    "burstIdentifier", "representsBurst",
                ])
        }
        migrator.registerMigration("v22-search") { db in
            for statement in CatalogSchema.searchColumnStatements + CatalogSchema.sqliteSearchStatements { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v23-places") { db in
            for statement in CatalogSchema.placeStatements { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v24-shared-links") { db in
            for statement in SharedLinkSchema.statements(date: "DATETIME", bool: "BOOLEAN") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v25-burst-evidence") { db in
            try db.execute(sql: CatalogSchema.burstEvidenceStatement(falseValue: "0"))
        }
        migrator.registerMigration("v26-drive-mode") { db in
            for statement in CatalogSchema.driveModeStatements(bool: "BOOLEAN", now: "strftime('%Y-%m-%d %H:%M:%f', 'now')") {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v27-people") { db in
            for statement in PeopleSchema.sqlite { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v28-person-keys") { db in
            for statement in PeopleSchema.keyStatements(integer: "INTEGER", date: "DATETIME") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v29-passkeys") { db in
            for statement in PeopleSchema.passkeyStatements(integer: "INTEGER", date: "DATETIME") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v30-apps-per-person") { db in
            for statement in AppsSchema.sqlite { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v31-sign-in-identities") { db in
            for statement in PeopleSchema.identityStatements(integer: "INTEGER", date: "DATETIME") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v32-search-words-only-when-changed") { db in
            for statement in CatalogSchema.sqliteSearchUpdateStatements { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v33-shared-albums") { db in
            for statement in SharedAlbumSchema.statements(integer: "INTEGER", date: "DATETIME") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v34-partner-sharing") { db in
            for statement in PartnerSchema.statements(integer: "INTEGER", date: "DATETIME", bool: "BOOLEAN") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v35-shared-library") { db in
            for statement in SharedLibrarySchema.statements(integer: "INTEGER", date: "DATETIME", bool: "BOOLEAN") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v36-shared-album-adders") { db in
            for statement in SharedAlbumSchema.adderStatements(integer: "INTEGER") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v37-search-key") { db in try db.execute(sql: CatalogSchema.sqliteSearchKeyStatement) }
        migrator.registerMigration("v38-descriptions") { db in
            for statement in CatalogSchema.descriptionStatements(integer: "INTEGER") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v39-file-values") { db in try db.execute(sql: CatalogSchema.fileValuesStatement) }
        return migrator
    }

    /// What a search reads of each match, by row id: the full-text index hands over row ids,
    /// and reading the rows themselves (a kilobyte each) for their date, owner and visibility
    /// read most of the table for a common word; this narrow copy, in row-id order as the index
    /// gives them, reads a tenth of that. (PostgreSQL's GIN index leads to the rows themselves.)
    static let sqliteSearchKeyStatement = """
        CREATE INDEX asset_searchKey ON asset (id, ownerID, creationDate, timeZoneOffset, trashedDate, isHidden, burstIdentifier,
          representsBurst, mediaType, mediaSubtypes, isFavorite)
        """

    /// The lens, and the words search finds an asset by (``AssetSearchText``; `NULL` until the
    /// catalog writes the row again or the `searchIndex` job reaches it). The rows still without
    /// words have an index of their own, empty once all are indexed: a worker's look at start-up
    /// reads nothing.
    static let searchColumnStatements = [
        "ALTER TABLE asset ADD COLUMN lensModel TEXT", "ALTER TABLE asset ADD COLUMN searchText TEXT",
        "CREATE INDEX asset_unindexed ON asset (id) WHERE searchText IS NULL",
    ]

    /// The city and country of each asset with GPS (``AssetRecord/placeName``), grouped by the
    /// Places view through their index. Rows with GPS lose their words so that the `searchIndex`
    /// job writes both again (the words are the same; the place is new).
    static let placeStatements = [
        "ALTER TABLE asset ADD COLUMN placeName TEXT", "ALTER TABLE asset ADD COLUMN placeCountry TEXT",
        "CREATE INDEX asset_place ON asset (placeCountry, placeName)",
        "UPDATE asset SET searchText = NULL WHERE latitude IS NOT NULL",
    ]

    /// SQLite's index of those words: an FTS5 table over `asset.searchText` (external content:
    /// the words are stored once), with prefixes of two and three letters indexed too, kept up to
    /// date by triggers.
    static let sqliteSearchStatements = [
        """
        CREATE VIRTUAL TABLE assetSearch USING fts5(searchText, content='asset', content_rowid='id',
          tokenize='unicode61 remove_diacritics 2', prefix='2 3')
        """,
        """
        CREATE TRIGGER assetSearch_insert AFTER INSERT ON asset BEGIN
          INSERT INTO assetSearch (rowid, searchText) VALUES (new.id, new.searchText);
        END
        """,
        """
        CREATE TRIGGER assetSearch_delete AFTER DELETE ON asset BEGIN
          INSERT INTO assetSearch (assetSearch, rowid, searchText) VALUES ('delete', old.id, old.searchText);
        END
        """,
        """
        CREATE TRIGGER assetSearch_update AFTER UPDATE OF searchText ON asset BEGIN
          INSERT INTO assetSearch (assetSearch, rowid, searchText) VALUES ('delete', old.id, old.searchText);
          INSERT INTO assetSearch (rowid, searchText) VALUES (new.id, new.searchText);
        END
        """,
        // The rows already there, in the index (with no words yet): the triggers' `delete` of a
        // row's old words needs the row to have been indexed.
        "INSERT INTO assetSearch (assetSearch) VALUES ('rebuild')",
    ]

    /// The index's update trigger, taken again only when an asset's words change: writing a row
    /// names every column, so the first trigger took a row's words out of the index and put them
    /// back for every favorite, hide or deletion (most of the cost of a change of many assets).
    static let sqliteSearchUpdateStatements = [
        "DROP TRIGGER assetSearch_update",
        """
        CREATE TRIGGER assetSearch_update AFTER UPDATE OF searchText ON asset WHEN old.searchText IS NOT new.searchText BEGIN
          INSERT INTO assetSearch (assetSearch, rowid, searchText) VALUES ('delete', old.id, old.searchText);
          INSERT INTO assetSearch (rowid, searchText) VALUES (new.id, new.searchText);
        END
        """,
    ]

    /// The camera that took a photo and the burst it belongs to (``AssetRecord/burstIdentifier``).
    /// `representsBurst` marks the one photo of a burst that default fetches show; the index on
    /// the camera's model and the time finds a camera's frames around a new one.
    static func burstStatements(bool: String, falseValue: String) -> [String] {
        ["cameraMake", "cameraModel", "cameraSerialNumber", "burstIdentifier"].map { "ALTER TABLE asset ADD COLUMN \($0) TEXT" }
            + [
                "ALTER TABLE asset ADD COLUMN representsBurst \(bool) NOT NULL DEFAULT \(falseValue)",
                "ALTER TABLE asset ADD COLUMN burstSelectionTypes INTEGER NOT NULL DEFAULT 0",
                "CREATE INDEX asset_burstIdentifier ON asset (burstIdentifier)",
                "CREATE INDEX asset_cameraModel ON asset (cameraModel, creationDate)",
            ]
    }

    /// Takes apart the runs made before runs needed evidence (``SQLCatalogStore/settleBursts``):
    /// a run some of whose frames have no serial and no burst name is no burst, and its frames
    /// show in the timeline again, unless the person chose one as its key photo (then they saw it
    /// as one).
    static func burstEvidenceStatement(falseValue: String) -> String {
        """
        UPDATE asset SET burstIdentifier = NULL, representsBurst = \(falseValue), burstSelectionTypes = 0
        WHERE burstIdentifier IN (
          SELECT burstIdentifier FROM asset WHERE burstIdentifier LIKE 'run:%' GROUP BY burstIdentifier
          HAVING SUM(CASE WHEN cameraSerialNumber IS NULL AND lower(originalFilename) NOT LIKE '%burst%' THEN 1 ELSE 0 END) > 0
             AND MAX(burstSelectionTypes & \(Asset.BurstSelectionTypes.userPick.rawValue)) = 0)
        """
    }

    /// The drive mode a frame was shot in (``AssetRecord/continuousDrive``), and a `metadata` job
    /// for each photo whose maker note may hold it or the body's serial (photos of a named camera
    /// without a serial): the catalog reads them by itself, and runs shot continuously become
    /// bursts. A photo already queued is not queued twice.
    static func driveModeStatements(bool: String, now: String) -> [String] {
        [
            "ALTER TABLE asset ADD COLUMN continuousDrive \(bool)",
            """
            INSERT INTO job (kind, subject, state, attempts, maxAttempts, runAfter, createdDate)
            SELECT '\(BackgroundJob.Kind.metadata.rawValue)', localIdentifier, 'queued', 0, \(BackgroundJob.defaultMaxAttempts), \(now), \(now)
            FROM asset WHERE mediaType = \(Asset.MediaType.image.rawValue) AND cameraModel IS NOT NULL AND cameraSerialNumber IS NULL
            ON CONFLICT (kind, subject) DO NOTHING
            """,
        ]
    }

    /// What a sidecar or the person says of an asset: its title, caption, keywords, rating and
    /// label (``AssetRecord/title`` …), searched through ``AssetRecord/searchText``.
    static func descriptionStatements(integer: String) -> [String] {
        ["title", "caption", "keywords", "label"].map { "ALTER TABLE asset ADD COLUMN \($0) TEXT" }
            + ["ALTER TABLE asset ADD COLUMN rating \(integer)"]
    }

    /// What the file said of a date or place the person replaced (``AssetRecord/fileValues``).
    static let fileValuesStatement = "ALTER TABLE asset ADD COLUMN fileValues TEXT"

    /// A second original kept with an asset (a Live Photo's paired video) and the identifier
    /// that pairs files (``AssetRecord/pairingIdentifier``). A companion's hash is unique like a
    /// content hash: bytes are one asset's.
    static func companionStatements(integer: String) -> [String] {
        ["pairingIdentifier", "companionType", "companionHash", "companionUniformTypeIdentifier", "companionFilename"]
            .map { "ALTER TABLE asset ADD COLUMN \($0) TEXT" }
            + [
                "ALTER TABLE asset ADD COLUMN companionFileSize \(integer)",
                "CREATE INDEX asset_pairingIdentifier ON asset (pairingIdentifier)",
                "CREATE UNIQUE INDEX asset_companionHash ON asset (companionHash)",
            ]
    }
}
