import Foundation
import GRDB

/// The catalog in `catalog.sqlite`, in WAL mode so that several processes (and readers during
/// a write) can use one library, with `synchronous = FULL` so that every commit is on disk when
/// it returns.
final class SQLiteCatalogStore: CatalogStore {
    let database: DatabasePool
    let path: String

    init(path: String) throws(LibraryError) {
        self.path = path
        var configuration = Configuration()
        configuration.label = "shoebox.catalog"
        // Other processes may hold the write lock briefly; wait rather than fail.
        configuration.busyMode = .timeout(10)
        do {
            database = try DatabasePool(path: path, configuration: configuration)
            // Durability: a commit that returned survives a power loss. GRDB sets NORMAL with WAL,
            // where the last commits before a power loss may roll back; FULL flushes the WAL at
            // every commit. Only the writer connection writes, so only it needs the setting.
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
        try migrate()
    }

    private func migrate() throws(LibraryError) {
        let migrator = CatalogSchema.migrator
        do {
            let unknown = try database.read { db in
                try migrator.appliedIdentifiers(db).subtracting(migrator.migrations)
            }
            guard unknown.isEmpty else {
                throw LibraryError.newerSchema(path: path, unknownMigrations: unknown.sorted())
            }
            try migrator.migrate(database)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    func assetRowIDs(matching options: FetchOptions) throws(LibraryError) -> [Int64] {
        try read { db in
            try Self.request(for: options).select(Column("id"), as: Int64.self).fetchAll(db)
        }
    }

    func assets(rowIDs: [Int64]) throws(LibraryError) -> [Int64: Asset] {
        try read { db in
            var found: [Int64: Asset] = [:]
            for row in try AssetRow.filter(keys: rowIDs).fetchAll(db) {
                if let id = row.id { found[id] = row.asset }
            }
            // Purged since the fetch: their last state (a snapshot reads what it found).
            let missing = rowIDs.filter { found[$0] == nil }
            if !missing.isEmpty {
                let decoder = JSONDecoder()
                for json in try String.fetchAll(db, sql: "SELECT row FROM purgedAsset WHERE id IN (\(missing.map { _ in "?" }.joined(separator: ",")))",
                                                arguments: StatementArguments(missing)) {
                    if let row = try? decoder.decode(AssetRow.self, from: Data(json.utf8)), let id = row.id { found[id] = row.asset }
                }
            }
            return found
        }
    }

    func asset(localIdentifier: String) throws(LibraryError) -> Asset? {
        try read { db in try AssetRow.filter(Column("localIdentifier") == localIdentifier).fetchOne(db)?.asset }
    }

    func asset(contentHash: String) throws(LibraryError) -> Asset? {
        try read { db in
            try AssetRow.filter(Column("contentHash") == contentHash).order(Column("id")).fetchOne(db)?.asset
        }
    }

    func apply(_ changes: CatalogChanges, beforeCommit: () -> Void) throws(LibraryError) -> CatalogCommit {
        do {
            return try database.write { db in
                let now = Date()
                var changes = changes
                var commit = CatalogCommit()
                if let claimID = changes.claimID {
                    let held = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blobClaim WHERE claimID = ?", arguments: [claimID]) ?? 0
                    guard held == changes.claimCount else {
                        throw LibraryError.storage("this change's hold on its files lapsed before it could commit (\(held) of \(changes.claimCount) claims left); nothing was saved, try again")
                    }
                    try db.execute(sql: "DELETE FROM blobClaim WHERE claimID = ?", arguments: [claimID])
                }
                var inserted: [AssetRow] = []
                for var row in changes.insertions {
                    if let existing = try Row.fetchOne(
                        db, sql: "SELECT localIdentifier, trashedDate FROM asset WHERE contentHash = ? ORDER BY trashedDate IS NOT NULL, id LIMIT 1",
                        arguments: [row.contentHash]) {
                        let identifier: String = existing["localIdentifier"]
                        changes.aliases[row.localIdentifier] = identifier
                        if existing["trashedDate"] as Date? != nil {
                            // The user imported a photo they had deleted: it comes back (as in Photos),
                            // instead of staying where the next purge would take it.
                            commit.restored[row.localIdentifier] = identifier
                            changes.updates.append(AssetUpdate(localIdentifier: identifier, trashedDate: .some(nil)))
                        } else {
                            commit.duplicates[row.localIdentifier] = identifier
                        }
                        continue
                    }
                    try row.insert(db)
                    inserted.append(row)
                }
                changes.insertions = inserted
                var candidates: [BlobKey] = []
                for update in changes.updates {
                    guard var row = try AssetRow.filter(Column("localIdentifier") == update.localIdentifier).fetchOne(db) else {
                        throw LibraryError.notFound(localIdentifier: update.localIdentifier)
                    }
                    row.apply(update)
                    if let content = update.content {
                        if let previous = row.renderHash { candidates.append(BlobKey(kind: .render, hash: previous)) }
                        try Self.apply(content, to: &row, in: db)
                    }
                    row.modificationDate = now
                    try row.update(db)
                }
                if !changes.purges.isEmpty {
                    let encoder = JSONEncoder()
                    try db.execute(sql: "DELETE FROM purgedAsset WHERE date < ?", arguments: [now.addingTimeInterval(-86_400)])
                    for identifier in changes.purges {
                        // Only what is still in Recently Deleted: an import may have restored it.
                        guard let row = try AssetRow.filter(Column("localIdentifier") == identifier).fetchOne(db), let id = row.id,
                              row.trashedDate != nil else { continue }
                        try db.execute(sql: "INSERT OR REPLACE INTO purgedAsset (id, date, row) VALUES (?, ?, ?)",
                                       arguments: [id, now, String(decoding: try encoder.encode(row), as: UTF8.self)])
                        try AssetRow.deleteOne(db, key: id)
                        commit.purged.append(identifier)
                        candidates.append(BlobKey(kind: .original, hash: row.contentHash))
                        if let render = row.renderHash { candidates.append(BlobKey(kind: .render, hash: render)) }
                    }
                    changes.purges = commit.purged
                }
                try Self.applyAlbumChanges(changes, in: db, now: now)
                try Self.logChanges(changes, in: db, now: now)
                commit.deletions = try Self.markDeletions(of: candidates, in: db, now: now)
                beforeCommit()
                return commit
            }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }

    /// Records or drops an edit; the asset's size and length follow its current version.
    static func apply(_ content: ContentChange, to row: inout AssetRow, in db: Database) throws {
        let original = try Row.fetchOne(
            db, sql: "SELECT originalPixelWidth, originalPixelHeight, originalDuration FROM assetEdit WHERE assetID = ?",
            arguments: [row.id])
        switch content {
        case .edit(let edit):
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO assetEdit
                      (assetID, formatIdentifier, formatVersion, data, editorClient, date, originalPixelWidth, originalPixelHeight, originalDuration)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [row.id, edit.adjustmentData.formatIdentifier, edit.adjustmentData.formatVersion, edit.adjustmentData.data,
                            edit.editorClient, edit.date,
                            original?["originalPixelWidth"] ?? row.pixelWidth, original?["originalPixelHeight"] ?? row.pixelHeight,
                            original?["originalDuration"] ?? row.duration])
            row.renderHash = edit.renderHash
            row.renderUniformTypeIdentifier = edit.renderUniformTypeIdentifier
            row.renderFileSize = edit.renderFileSize
            row.pixelWidth = edit.pixelWidth
            row.pixelHeight = edit.pixelHeight
            row.duration = edit.duration
        case .revert:
            guard let original else { return }  // never edited: nothing to revert
            row.pixelWidth = original["originalPixelWidth"]
            row.pixelHeight = original["originalPixelHeight"]
            row.duration = original["originalDuration"]
            row.renderHash = nil
            row.renderUniformTypeIdentifier = nil
            row.renderFileSize = nil
            try db.execute(sql: "DELETE FROM assetEdit WHERE assetID = ?", arguments: [row.id])
        }
        row.contentRevision += 1
    }

    func contentEdit(localIdentifier: String) throws(LibraryError) -> ContentEdit? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT a.renderHash, a.renderUniformTypeIdentifier, a.renderFileSize, a.pixelWidth, a.pixelHeight, a.duration,
                       e.formatIdentifier, e.formatVersion, e.data, e.editorClient, e.date
                FROM asset a JOIN assetEdit e ON e.assetID = a.id
                WHERE a.localIdentifier = ? AND a.renderHash IS NOT NULL
                """, arguments: [localIdentifier])
            else { return nil }
            return ContentEdit(
                renderHash: row["renderHash"], renderUniformTypeIdentifier: row["renderUniformTypeIdentifier"],
                renderFileSize: row["renderFileSize"], pixelWidth: row["pixelWidth"], pixelHeight: row["pixelHeight"],
                duration: row["duration"],
                adjustmentData: AdjustmentData(formatIdentifier: row["formatIdentifier"], formatVersion: row["formatVersion"], data: row["data"]),
                editorClient: row["editorClient"], date: row["date"])
        }
    }

    func originalDuration(localIdentifier: String) throws(LibraryError) -> Double? {
        try read { db in
            try Double.fetchOne(db, sql: """
                SELECT e.originalDuration FROM assetEdit e JOIN asset a ON a.id = e.assetID WHERE a.localIdentifier = ?
                """, arguments: [localIdentifier])
        }
    }

    func setting(_ key: String) throws(LibraryError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    func setSetting(_ key: String, to value: String?) throws(LibraryError) {
        do {
            try database.write { db in
                if let value {
                    try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
                } else {
                    try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
                }
            }
        } catch {
            throw .storage("\(error)")
        }
    }

    static func logChanges(_ changes: CatalogChanges, in db: Database, now: Date) throws {
        let commit = UUID().uuidString
        func log(_ kind: String, _ identifier: String) throws {
            try db.execute(sql: "INSERT INTO changeLog (commitID, date, kind, localIdentifier) VALUES (?, ?, ?, ?)",
                           arguments: [commit, now, kind, identifier])
        }
        for row in changes.insertions { try log("insert", row.localIdentifier) }
        for update in changes.updates { try log("update", update.localIdentifier) }
        for identifier in changes.purges { try log("delete", identifier) }
        for creation in changes.albumCreations { try log("album", creation.localIdentifier) }
        for (identifier, _) in changes.albumOperations { try log("album", identifier) }
        for identifier in changes.albumDeletions { try log("album", identifier) }
    }

    func latestChangeSequence() throws(LibraryError) -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM changeLog") ?? 0 }
    }

    func changes(after sequence: Int64) throws(LibraryError) -> [ChangeLogEntry] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM changeLog WHERE sequence > ? ORDER BY sequence", arguments: [sequence]).map { row in
                ChangeLogEntry(sequence: row["sequence"], commitID: row["commitID"], date: row["date"], kind: row["kind"], localIdentifier: row["localIdentifier"])
            }
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw .storage("\(error)")
        }
    }

    // MARK: Queries

    static func request(for options: FetchOptions) -> QueryInterfaceRequest<AssetRow> {
        var request = AssetRow.all()
        for condition in conditions(for: options) {
            request = request.filter(condition)
        }
        var orderings: [any SQLOrderingTerm] = options.sortDescriptors.map { descriptor in
            let column = Column(columnName(descriptor.key))
            return descriptor.ascending ? column.asc : column.desc
        }
        orderings.append(Column("id").asc)
        request = request.order(orderings)
        if let limit = options.fetchLimit {
            request = request.limit(max(0, limit))
        }
        return request
    }

    /// What an asset must satisfy to be in the options' fetch (all of them).
    static func conditions(for options: FetchOptions) -> [SQLExpression] {
        var conditions: [SQLExpression] = []
        if !options.includeTrashedAssets {
            conditions.append(Column("trashedDate") == nil)
        }
        if !options.includeHiddenAssets {
            conditions.append(Column("isHidden") == false)
        }
        if let predicate = options.predicate {
            conditions.append(expression(for: predicate))
        }
        if let client = options.visibleToClient {
            conditions.append(SQL("""
                (creatorClient = \(client) OR id IN (SELECT assetID FROM limitedSelection WHERE client = \(client)))
                """).sqlExpression)
        }
        return conditions
    }

    static func columnName(_ key: FetchOptions.SortDescriptor.Key) -> String {
        switch key {
        case .creationDate: "creationDate"
        case .modificationDate: "modificationDate"
        case .addedDate: "addedDate"
        case .filename: "originalFilename"
        case .duration: "duration"
        case .fileSize: "fileSize"
        }
    }

    static func expression(for predicate: FetchOptions.Predicate) -> SQLExpression {
        switch predicate {
        case .mediaType(let type):
            return Column("mediaType") == type.rawValue
        case .creationDate(let from, let to):
            return dateRange(Column("creationDate"), from: from, to: to)
        case .isFavorite(let value):
            return Column("isFavorite") == value
        case .isHidden(let value):
            return Column("isHidden") == value
        case .hasLocation(let value):
            return value ? Column("latitude") != nil : Column("latitude") == nil
        case .inAlbum(let identifier):
            return inAlbum(identifier)
        case .mediaSubtype(let subtypes):
            return SQL("(mediaSubtypes & \(subtypes.rawValue)) = \(subtypes.rawValue)").sqlExpression
        case .addedDate(let from, let to):
            return dateRange(Column("addedDate"), from: from, to: to)
        case .isTrashed(let value):
            return value ? Column("trashedDate") != nil : Column("trashedDate") == nil
        case .creatorClient(let client):
            return Column("creatorClient") == client
        case .filenameContains(let text):
            return Column("originalFilename").like("%\(escapeLike(text))%", escape: "\\")
        case .uniformTypeIdentifier(let types):
            return types.contains(Column("uniformTypeIdentifier"))
        case .fileSize(let maximum):
            return Column("fileSize") <= maximum
        case .duration(let maximum):
            return Column("duration") <= maximum
        case .all(let predicates):
            return predicates.isEmpty ? true.sqlExpression : predicates.map(expression(for:)).joined(operator: .and)
        case .any(let predicates):
            return predicates.isEmpty ? false.sqlExpression : predicates.map(expression(for:)).joined(operator: .or)
        case .not(let inner):
            return !expression(for: inner)
        }
    }

    /// `from <= column < to`, either bound open.
    static func dateRange(_ column: Column, from: Date?, to: Date?) -> SQLExpression {
        var parts: [SQLExpression] = []
        if let from { parts.append(column >= from) }
        if let to { parts.append(column < to) }
        return parts.isEmpty ? true.sqlExpression : parts.joined(operator: .and)
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
