import Foundation
import ShoeboxImaging

extension SQLCatalogStore {
    func apply(_ changes: CatalogChanges, beforeCommit: @escaping @Sendable () -> Void) async throws(LibraryError) -> CatalogCommit {
        // The place table is read before the transaction, when this change names places: new
        // assets with GPS, new locations or what files say. A favorite, a hide or a deletion
        // keeps an asset's words and needs none.
        if changes.insertions.contains(where: { $0.latitude != nil }) || changes.updates.contains(where: \.changesWords) {
            await preparePlaces()
        }
        let writer = self.writer
        let mine = assetOwnerCondition()
        let commit = try await write { db in
            let now = Date()
            var changes = changes
            var commit = CatalogCommit()
            // Whose each updated or purged asset is, for the change log.
            var owners: [String: Int64] = [:]
            if let claimID = changes.claimID {
                let held = try await db.scalar("SELECT COUNT(*) FROM blobClaim WHERE claimID = \(claimID)", as: Int.self) ?? 0
                guard held == changes.claimCount else {
                    throw LibraryError.storage(
                        "this change's hold on its files lapsed before it could commit (\(held) of \(changes.claimCount) claims left); nothing was saved, try again"
                    )
                }
                try await db.execute("DELETE FROM blobClaim WHERE claimID = \(claimID)")
            }
            var inserted: [AssetRecord] = []
            // A person in the Shared Library who chose so imports into it; the same bytes in
            // either of their libraries are a duplicate.
            let destination = changes.insertions.isEmpty || self.owner == nil ? writer : try await Self.newAssetOwner(for: writer, in: db)
            var otherLibrary: Int64?
            if destination != writer {
                otherLibrary = writer
            } else if self.owner != nil, !changes.insertions.isEmpty, try await Self.hasJoined(writer, in: db) {
                otherLibrary = SharedLibrary.ownerRowID
            }
            for var record in changes.insertions.map(self.indexed) {
                record.ownerID = destination
                // The unique content hash decides, inside the transaction: a concurrent import of
                // the same bytes on another server waits for this row and then finds it.
                // On PostgreSQL the row in the way may belong to a purge that commits while this
                // transaction waits for its lock: then it is gone, and the insert is tried again.
                // Bytes a pair keeps as its second file (a Live Photo's movie, a RAW+JPEG's raw)
                // are that asset's. Only the person's own assets count: the same bytes in
                // someone else's library are an asset of theirs.
                var found: SQLRow? = try await db.first(
                    "SELECT localIdentifier, trashedDate FROM asset WHERE companionHash = \(record.contentHash) AND ownerID = \(destination)\(raw: db.dialect.forUpdate)"
                )
                if found == nil, let otherLibrary {
                    found = try await db.first(
                        """
                        SELECT localIdentifier, trashedDate FROM asset WHERE (contentHash = \(record.contentHash) OR companionHash = \(record.contentHash))
                          AND ownerID = \(otherLibrary)\(raw: db.dialect.forUpdate)
                        """)
                }
                var newID: Int64?
                for attempt in 1...5 where found == nil {
                    newID = try await db.scalar(
                        "INSERT INTO asset (\(raw: AssetRecord.columns.joined(separator: ", "))) VALUES \(list: record.values) ON CONFLICT (ownerID, contentHash) DO NOTHING RETURNING id"
                    )
                    if newID != nil { break }
                    found = try await db.first(
                        "SELECT localIdentifier, trashedDate FROM asset WHERE contentHash = \(record.contentHash) AND ownerID = \(destination)\(raw: db.dialect.forUpdate)"
                    )
                    if found != nil { break }
                    if attempt == 5 {
                        throw LibraryError.storage("an asset with the bytes \(record.contentHash) was in the way and then gone, five times over")
                    }
                }
                if let newID {
                    record.id = newID
                    inserted.append(record)
                    if destination == SharedLibrary.ownerRowID {
                        try await db.execute("INSERT INTO sharedLibraryAsset (assetID, addedByID) VALUES (\(newID), \(writer))")
                    }
                    continue
                }
                guard let existing = found else { continue }
                let identifier: String = existing["localIdentifier"]
                changes.aliases[record.localIdentifier] = identifier
                if (existing["trashedDate"] as Date?) != nil {
                    // The user imported a photo they had deleted: it comes back (as in Photos),
                    // instead of staying where the next purge would take it.
                    commit.restored[record.localIdentifier] = identifier
                    changes.updates.append(AssetUpdate(localIdentifier: identifier, trashedDate: .some(nil)))
                } else {
                    commit.duplicates[record.localIdentifier] = identifier
                }
            }
            changes.insertions = inserted
            if !inserted.isEmpty, let quota = try await db.scalar("SELECT quota FROM person WHERE id = \(writer)", as: Int64?.self) ?? nil {
                let used = try await Self.bytesOwned(by: writer, in: db)
                guard used <= quota else {
                    throw LibraryError(
                        .quotaExceeded,
                        "this would hold \(ByteCountFormatter.string(fromByteCount: used, countStyle: .binary)) of photos and movies, more than the quota of \(ByteCountFormatter.string(fromByteCount: quota, countStyle: .binary)); nothing was saved"
                    )
                }
            }
            if self.owner != nil { try await Self.attributeDeletions(changes, restored: Set(commit.restored.values), by: writer, in: db) }
            var candidates: [BlobKey] = []
            // The same flags on many assets (a Select All's favorite, hide or deletion) are one
            // statement per 500 assets; the rest row by row.
            var rowByRow = changes.updates
            if let flags = AssetUpdate.Flags(common: changes.updates) {
                rowByRow = try await Self.applyFlags(flags, to: changes.updates, owners: &owners, mine: mine, now: now, in: db)
            }
            for update in rowByRow {
                guard
                    let row = try await db.first(
                        "SELECT * FROM asset WHERE localIdentifier = \(update.localIdentifier) AND " + mine + "\(raw: db.dialect.forUpdate)")
                else {
                    throw LibraryError.notFound(localIdentifier: update.localIdentifier)
                }
                var record = AssetRecord(row: row)
                owners[record.localIdentifier] = record.ownerID
                record.apply(update)
                if let content = update.content {
                    if let previous = record.renderHash { candidates.append(BlobKey(kind: .render, hash: previous)) }
                    try await Self.apply(content, to: &record, in: db)
                }
                record.modificationDate = now
                if update.changesWords || record.searchText == nil { record = self.indexed(record) }
                try await db.execute(record.updateStatement)
            }
            if !changes.purges.isEmpty {
                try await db.execute("DELETE FROM purgedAsset WHERE date < \(now.addingTimeInterval(-86_400))")
                for identifier in changes.purges {
                    // Only what is still in Recently Deleted: an import may have restored it.
                    guard
                        let row = try await db.first("SELECT * FROM asset WHERE localIdentifier = \(identifier) AND " + mine + "\(raw: db.dialect.forUpdate)")
                    else {
                        continue
                    }
                    let record = AssetRecord(row: row)
                    owners[record.localIdentifier] = record.ownerID
                    guard let id = record.id, record.trashedDate != nil else { continue }
                    try await Self.keepPurgedRecord(record, in: db, now: now)
                    try await db.execute("DELETE FROM asset WHERE id = \(id)")
                    commit.purged.append(identifier)
                    candidates.append(BlobKey(kind: .original, hash: record.contentHash))
                    if let companion = record.companionHash { candidates.append(BlobKey(kind: .original, hash: companion)) }
                    if let render = record.renderHash { candidates.append(BlobKey(kind: .render, hash: render)) }
                }
                changes.purges = commit.purged
            }
            try await Self.pairShots(&changes, commit: &commit, in: db, now: now)
            try await Self.settleBursts(&changes, in: db, now: now)
            if !changes.jobs.isEmpty {
                // A duplicate's asset has its derivatives already; its placeholder names nothing.
                let jobs = changes.jobs.filter { !$0.kind.isPerAsset || changes.aliases[$0.subject] == nil }
                commit.queuedJobs = try await Self.insertJobs(jobs, in: db, now: now)
            }
            try await Self.applyAlbumChanges(changes, in: db, now: now, owner: writer)
            commit.removals = try await Self.markRemovals(of: candidates, in: db, now: now)
            // Last: logging takes the change log's lock, which is held to the commit.
            try await Self.logChanges(changes, in: db, now: now, owner: writer, owners: owners)
            beforeCommit()
            return commit
        }
        if commit.queuedJobs > 0 { jobBoard.notify() }
        return commit
    }

    /// Notes who moves Shared Library assets to Recently Deleted; a photo comes back from there
    /// only by the person who added it or who deleted it (or by importing its bytes again:
    /// `restored`).
    ///
    /// - Throws: ``LibraryError/Code/notPermitted`` for a recovery by someone else.
    static func attributeDeletions(_ changes: CatalogChanges, restored: Set<String>, by person: Int64, in db: any SQLSession) async throws {
        let trashed = changes.updates.filter { ($0.trashedDate ?? nil) != nil }.map(\.localIdentifier)
        let recovered = changes.updates.filter { update in update.trashedDate.map { $0 == nil } ?? false }.map(\.localIdentifier)
            .filter { !restored.contains($0) }
        guard !trashed.isEmpty || !recovered.isEmpty else { return }
        guard try await db.first("SELECT 1 FROM sharedLibraryAsset LIMIT 1") != nil else { return }
        for chunk in chunks(recovered) {
            if let theirs = try await db.first(
                """
                SELECT a.localIdentifier FROM asset a JOIN sharedLibraryAsset s ON s.assetID = a.id
                WHERE a.localIdentifier IN \(list: chunk) AND a.trashedDate IS NOT NULL
                  AND COALESCE(s.addedByID, 0) <> \(person) AND COALESCE(s.trashedByID, 0) <> \(person)
                """)
            {
                throw LibraryError.notPermitted(
                    "\(theirs["localIdentifier"] as String) is the Shared Library's: only the person who added it or who deleted it recovers it")
            }
        }
        for chunk in chunks(trashed) {
            try await db.execute(
                """
                UPDATE sharedLibraryAsset SET trashedByID = \(person)
                WHERE assetID IN (SELECT id FROM asset WHERE localIdentifier IN \(list: chunk) AND trashedDate IS NULL)
                """)
        }
    }

    /// Sets `flags` on the assets `updates` name, 500 a statement, and their modification date;
    /// notes each one's owner for the change log. Returns the updates left for the row-by-row
    /// path: those of assets without search words yet, which that path indexes as it writes.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` for the first asset that is not the writer's.
    static func applyFlags(
        _ flags: AssetUpdate.Flags, to updates: [AssetUpdate], owners: inout [String: Int64], mine: SQLStatement, now: Date, in db: any SQLSession
    ) async throws -> [AssetUpdate] {
        var unindexed: Set<String> = []
        var sets: [SQLStatement] = ["modificationDate = \(now)"]
        if let value = flags.isFavorite { sets.append("isFavorite = \(value)") }
        if let value = flags.isHidden { sets.append("isHidden = \(value)") }
        if let value = flags.trashedDate { sets.append("trashedDate = \(value)") }
        for chunk in chunks(updates.map(\.localIdentifier)) {
            var found: Set<String> = []
            for row in try await db.query(
                "SELECT localIdentifier, ownerID, searchText IS NULL AS unindexed FROM asset WHERE localIdentifier IN \(list: chunk) AND "
                    + mine + "\(raw: db.dialect.forUpdate)")
            {
                let identifier: String = row["localIdentifier"]
                found.insert(identifier)
                owners[identifier] = row["ownerID"]
                if row["unindexed"] as Bool { unindexed.insert(identifier) }
            }
            if let missing = chunk.first(where: { !found.contains($0) }) { throw LibraryError.notFound(localIdentifier: missing) }
            let indexed = chunk.filter { !unindexed.contains($0) }
            guard !indexed.isEmpty else { continue }
            _ = try await db.execute(
                "UPDATE asset SET " + SQLStatement.joined(sets, separator: ", ") + " WHERE localIdentifier IN \(list: indexed) AND " + mine)
        }
        return updates.filter { unindexed.contains($0.localIdentifier) }
    }

    /// Keeps the last state of an asset that is going for good a day, so that a fetch result
    /// made before still reads it (a snapshot never traps).
    static func keepPurgedRecord(_ record: AssetRecord, in db: any SQLSession, now: Date) async throws {
        let json = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        try await db.execute(
            """
            INSERT INTO purgedAsset (id, date, record) VALUES (\(record.id ?? 0), \(now), \(json))
            ON CONFLICT (id) DO UPDATE SET date = excluded.date, record = excluded.record
            """)
    }

    /// Records or drops an edit; the asset's size and length follow its current version.
    static func apply(_ content: ContentChange, to record: inout AssetRecord, in db: any SQLSession) async throws {
        let id = record.id ?? 0
        let original = try await db.first("SELECT originalPixelWidth, originalPixelHeight, originalDuration FROM assetEdit WHERE assetID = \(id)")
        switch content {
        case .edit(let edit):
            let width: Int = original?["originalPixelWidth"] ?? record.pixelWidth
            let height: Int = original?["originalPixelHeight"] ?? record.pixelHeight
            let duration: Double = original?["originalDuration"] ?? record.duration
            let adjustment = edit.adjustmentData
            try await db.execute(
                """
                INSERT INTO assetEdit
                  (assetID, formatIdentifier, formatVersion, data, editorClient, date, originalPixelWidth, originalPixelHeight, originalDuration)
                VALUES (\(id), \(adjustment.formatIdentifier), \(adjustment.formatVersion), \(adjustment.data), \(edit.editorClient),
                        \(edit.date), \(width), \(height), \(duration))
                ON CONFLICT (assetID) DO UPDATE SET formatIdentifier = excluded.formatIdentifier, formatVersion = excluded.formatVersion,
                  data = excluded.data, editorClient = excluded.editorClient, date = excluded.date
                """)
            record.renderHash = edit.renderHash
            record.renderUniformTypeIdentifier = edit.renderUniformTypeIdentifier
            record.renderFileSize = edit.renderFileSize
            record.pixelWidth = edit.pixelWidth
            record.pixelHeight = edit.pixelHeight
            record.duration = edit.duration
        case .revert:
            guard let original else { return }  // never edited: nothing to revert
            record.pixelWidth = original["originalPixelWidth"]
            record.pixelHeight = original["originalPixelHeight"]
            record.duration = original["originalDuration"]
            record.renderHash = nil
            record.renderUniformTypeIdentifier = nil
            record.renderFileSize = nil
            try await db.execute("DELETE FROM assetEdit WHERE assetID = \(id)")
        }
        record.contentRevision += 1
    }
}

extension SQLDialect {
    /// ` FOR UPDATE` where rows must be locked against concurrent transactions (PostgreSQL);
    /// nothing in SQLite, whose writer is alone.
    var forUpdate: String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR UPDATE"
        }
    }
}
