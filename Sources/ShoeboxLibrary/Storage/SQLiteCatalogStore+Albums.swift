import Foundation
import GRDB

/// The `assetCollection` table's row.
struct AlbumRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "assetCollection"
    var id: Int64?
    var localIdentifier: String
    var title: String
    var creationDate: Date
    var isFolder: Bool = false
    var parentIdentifier: String? = nil

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension SQLiteCatalogStore {
    func albums() throws(LibraryError) -> [AssetCollection] {
        try readAlbums { db in
            try AlbumRow.order(Column("title").collating(.localizedCaseInsensitiveCompare), Column("id")).fetchAll(db)
        }
    }

    func album(localIdentifier: String) throws(LibraryError) -> AssetCollection? {
        try readAlbums { db in try AlbumRow.filter(Column("localIdentifier") == localIdentifier).fetchAll(db) }.first
    }

    private func readAlbums(_ rows: (Database) throws -> [AlbumRow]) throws(LibraryError) -> [AssetCollection] {
        do {
            return try database.read { db in
                try rows(db).map { row in
                    let count = row.isFolder
                        ? try AlbumRow.filter(Column("parentIdentifier") == row.localIdentifier).fetchCount(db)
                        : try Self.request(for: FetchOptions()).filter(Self.inAlbum(row.localIdentifier)).fetchCount(db)
                    return AssetCollection(
                        localIdentifier: row.localIdentifier, assetCollectionType: row.isFolder ? .folder : .album,
                        assetCollectionSubtype: row.isFolder ? .regularFolder : .albumRegular,
                        localizedTitle: row.title, estimatedAssetCount: count, creationDate: row.creationDate,
                        parentFolderIdentifier: row.parentIdentifier, rowID: row.id ?? 0)
                }
            }
        } catch {
            throw .storage("\(error)")
        }
    }

    func assetRowIDs(inAlbum localIdentifier: String, options: FetchOptions) throws(LibraryError) -> [Int64] {
        var filtered = options
        filtered.sortDescriptors = []
        filtered.fetchLimit = nil
        do {
            return try database.read { db in
                let allowed = Set(try Self.request(for: filtered).filter(Self.inAlbum(localIdentifier))
                    .select(Column("id"), as: Int64.self).fetchAll(db))
                let ordered = try Int64.fetchAll(db, sql: """
                    SELECT m.assetID FROM membership m JOIN assetCollection c ON c.id = m.collectionID
                    WHERE c.localIdentifier = ? ORDER BY m.position, m.assetID
                    """, arguments: [localIdentifier])
                let ids = ordered.filter(allowed.contains)
                return options.fetchLimit.map { Array(ids.prefix(max(0, $0))) } ?? ids
            }
        } catch {
            throw .storage("\(error)")
        }
    }

    func count(matching options: FetchOptions) throws(LibraryError) -> Int {
        do {
            return try database.read { db in try Self.request(for: options).fetchCount(db) }
        } catch {
            throw .storage("\(error)")
        }
    }

    /// How many assets each of `list` fetches, counted in one pass over the catalog (the smart
    /// albums' counts: one scan of the grid index instead of one per album).
    func counts(matching list: [FetchOptions]) throws(LibraryError) -> [Int] {
        guard !list.isEmpty else { return [] }
        let selection: [any SQLSelectable] = list.enumerated().map { index, options in
            let condition = Self.conditions(for: options).joined(operator: .and)
            return SQL("COUNT(*) FILTER (WHERE \(condition))").forKey("c\(index)")
        }
        do {
            return try database.read { db in
                guard let row = try AssetRow.select(selection).asRequest(of: Row.self).fetchOne(db) else { return list.map { _ in 0 } }
                return list.indices.map { row["c\($0)"] as Int }
            }
        } catch {
            throw .storage("\(error)")
        }
    }

    /// `id IN (the album's assets)`.
    static func inAlbum(_ localIdentifier: String) -> SQLExpression {
        SQL("""
            id IN (SELECT m.assetID FROM membership m JOIN assetCollection c ON c.id = m.collectionID
                   WHERE c.localIdentifier = \(localIdentifier))
            """).sqlExpression
    }

    /// Applies album changes inside the catalog's write transaction.
    static func applyAlbumChanges(_ changes: CatalogChanges, in db: Database, now: Date) throws {
        for creation in changes.albumCreations {
            var row = AlbumRow(id: nil, localIdentifier: creation.localIdentifier, title: creation.title, creationDate: now,
                               isFolder: creation.isFolder)
            try row.insert(db)
        }
        for (identifier, operations) in changes.albumOperations {
            guard var album = try AlbumRow.filter(Column("localIdentifier") == identifier).fetchOne(db), let albumID = album.id else {
                throw LibraryError.notFound(localIdentifier: identifier)
            }
            for operation in operations {
                if album.isFolder {
                    switch operation {
                    case .add, .remove, .move:
                        throw LibraryError.invalidArgument("\(album.title) is a folder: folders hold albums, not assets")
                    case .rename, .moveToFolder:
                        break
                    }
                }
                switch operation {
                case .rename(let title):
                    album.title = title
                    try album.update(db)
                case .moveToFolder(let folder):
                    if let folder {
                        // Walk up from the destination: reaching the album itself would make a cycle.
                        var cursor: String? = folder
                        while let current = cursor {
                            guard current != identifier else {
                                throw LibraryError.invalidArgument("\(album.title) cannot go inside itself")
                            }
                            guard let parent = try AlbumRow.filter(Column("localIdentifier") == current).fetchOne(db), parent.isFolder else {
                                throw LibraryError.invalidArgument("\(current) is not a folder")
                            }
                            cursor = parent.parentIdentifier
                        }
                    }
                    album.parentIdentifier = folder
                    try album.update(db)
                case .add(let identifiers):
                    var next = (try Int.fetchOne(db, sql: "SELECT MAX(position) FROM membership WHERE collectionID = ?", arguments: [albumID]) ?? -1) + 1
                    for assetIdentifier in identifiers {
                        let resolved = changes.resolve(assetIdentifier)
                        guard let assetID = try Int64.fetchOne(db, sql: "SELECT id FROM asset WHERE localIdentifier = ?", arguments: [resolved]) else {
                            throw LibraryError.notFound(localIdentifier: assetIdentifier)
                        }
                        try db.execute(sql: "INSERT OR IGNORE INTO membership (collectionID, assetID, position) VALUES (?, ?, ?)",
                                       arguments: [albumID, assetID, next])
                        next += 1
                    }
                case .remove(let identifiers):
                    for assetIdentifier in identifiers {
                        try db.execute(sql: """
                            DELETE FROM membership WHERE collectionID = ? AND assetID = (SELECT id FROM asset WHERE localIdentifier = ?)
                            """, arguments: [albumID, assetIdentifier])
                    }
                case .move(let from, let to):
                    var order = try Int64.fetchAll(db, sql: "SELECT assetID FROM membership WHERE collectionID = ? ORDER BY position, assetID", arguments: [albumID])
                    let indexes = from.sorted()
                    guard indexes.allSatisfy({ $0 >= 0 && $0 < order.count }) else {
                        throw LibraryError.invalidArgument("move indexes \(indexes) outside the album's \(order.count) assets")
                    }
                    let moving = indexes.map { order[$0] }
                    for index in indexes.reversed() { order.remove(at: index) }
                    guard to >= 0, to <= order.count else {
                        throw LibraryError.invalidArgument("move destination \(to) outside 0…\(order.count)")
                    }
                    order.insert(contentsOf: moving, at: to)
                    for (position, assetID) in order.enumerated() {
                        try db.execute(sql: "UPDATE membership SET position = ? WHERE collectionID = ? AND assetID = ?",
                                       arguments: [position, albumID, assetID])
                    }
                }
            }
        }
        for identifier in changes.albumDeletions {
            guard let row = try AlbumRow.filter(Column("localIdentifier") == identifier).fetchOne(db) else {
                throw LibraryError.notFound(localIdentifier: identifier)
            }
            // A deleted folder's albums and folders move up a level: deleting a folder never
            // deletes the albums in it.
            try db.execute(sql: "UPDATE assetCollection SET parentIdentifier = ? WHERE parentIdentifier = ?",
                           arguments: [row.parentIdentifier, identifier])
            _ = try row.delete(db)
        }
    }
}
