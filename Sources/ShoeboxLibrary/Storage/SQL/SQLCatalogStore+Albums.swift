import Foundation
import ShoeboxImaging

extension SQLCatalogStore {
    func albums() async throws(LibraryError) -> [AssetCollection] {
        try await albums(where: ownerCondition("c"))
    }

    func album(localIdentifier: String) async throws(LibraryError) -> AssetCollection? {
        try await albums(where: "c.localIdentifier = \(localIdentifier) AND " + ownerCondition("c")).first
    }

    /// Albums with their counts (a folder's: the albums and folders directly in it), by title.
    private func albums(where condition: SQLStatement) async throws(LibraryError) -> [AssetCollection] {
        let visible = FetchQuery.condition(for: FetchOptions(), dialect: dialect, owner: owner)
        let statement: SQLStatement = """
            SELECT c.id, c.localIdentifier, c.title, c.creationDate, c.isFolder, c.parentIdentifier, c.creatorClient,
                   CASE WHEN c.isFolder THEN (SELECT COUNT(*) FROM assetCollection f WHERE f.parentIdentifier = c.localIdentifier)
                        ELSE (SELECT COUNT(*) FROM membership m WHERE m.collectionID = c.id AND m.assetID IN (SELECT id FROM asset WHERE \(visible)))
                   END AS count
            FROM assetCollection c WHERE \(condition)
            """
        let rows = try await read { db in try await db.query(statement) }
        return rows.map { row in
            let isFolder: Bool = row["isFolder"]
            return AssetCollection(
                localIdentifier: row["localIdentifier"], assetCollectionType: isFolder ? .folder : .album,
                assetCollectionSubtype: isFolder ? .regularFolder : .albumRegular, localizedTitle: row["title"],
                estimatedAssetCount: row["count"], creationDate: row["creationDate"], parentFolderIdentifier: row["parentIdentifier"],
                rowID: row["id"], creatorClient: row["creatorClient"])
        }.sorted { lhs, rhs in
            let order = lhs.localizedTitle.localizedCaseInsensitiveCompare(rhs.localizedTitle)
            return order == .orderedSame ? lhs.rowID < rhs.rowID : order == .orderedAscending
        }
    }

    func assetRowIDs(inAlbum localIdentifier: String, options: FetchOptions) async throws(LibraryError) -> [Int64] {
        var filtered = options
        filtered.sortDescriptors = []
        filtered.fetchLimit = nil
        var statement: SQLStatement = """
            SELECT m.assetID FROM membership m
            WHERE m.collectionID = (SELECT id FROM assetCollection c WHERE c.localIdentifier = \(localIdentifier) AND \(ownerCondition("c")))
              AND m.assetID IN (SELECT id FROM asset WHERE \(FetchQuery.condition(for: filtered, dialect: dialect, owner: owner)))
            ORDER BY m.position, m.assetID
            """
        if let limit = options.fetchLimit {
            statement.append(" LIMIT \(max(0, limit))")
        }
        let query = statement
        return try await read { db in try await db.integers(query) }
    }

    /// Applies album changes inside the catalog's write transaction, for `owner`: the albums
    /// made are theirs, and only their albums and assets are found.
    static func applyAlbumChanges(_ changes: CatalogChanges, in db: any SQLSession, now: Date, owner: Int64) async throws {
        for creation in changes.albumCreations {
            try await db.execute(
                """
                INSERT INTO assetCollection (localIdentifier, title, creationDate, isFolder, creatorClient, ownerID) VALUES
                (\(creation.localIdentifier), \(creation.title), \(now), \(creation.isFolder), \(creation.creatorClient), \(owner))
                """)
        }
        for (identifier, operations) in changes.albumOperations {
            guard
                let album = try await db.first(
                    "SELECT id, title, isFolder FROM assetCollection WHERE localIdentifier = \(identifier) AND ownerID = \(owner)\(raw: db.dialect.forUpdate)")
            else {
                throw LibraryError.notFound(localIdentifier: identifier)
            }
            let albumID: Int64 = album["id"]
            let isFolder: Bool = album["isFolder"]
            let title: String = album["title"]
            for operation in operations {
                if isFolder {
                    switch operation {
                    case .add, .remove, .move:
                        throw LibraryError.invalidArgument("\(title) is a folder: folders hold albums, not assets")
                    case .rename, .moveToFolder:
                        break
                    }
                }
                switch operation {
                case .rename(let newTitle):
                    try await db.execute("UPDATE assetCollection SET title = \(newTitle) WHERE id = \(albumID)")
                case .moveToFolder(let folder):
                    if let folder {
                        // Walk up from the destination: reaching the album itself would make a cycle.
                        var cursor: String? = folder
                        while let current = cursor {
                            guard current != identifier else {
                                throw LibraryError.invalidArgument("\(title) cannot go inside itself")
                            }
                            guard
                                let parent = try await db.first(
                                    "SELECT isFolder, parentIdentifier FROM assetCollection WHERE localIdentifier = \(current) AND ownerID = \(owner)"),
                                parent["isFolder"] as Bool
                            else {
                                throw LibraryError.invalidArgument("\(current) is not a folder")
                            }
                            cursor = parent["parentIdentifier"]
                        }
                    }
                    try await db.execute("UPDATE assetCollection SET parentIdentifier = \(folder) WHERE id = \(albumID)")
                case .add(let identifiers):
                    var next =
                        (try await db.scalar("SELECT MAX(position) FROM membership WHERE collectionID = \(albumID)", as: Int?.self) ?? nil).map { $0 + 1 } ?? 0
                    for assetIdentifier in identifiers {
                        let resolved = changes.resolve(assetIdentifier)
                        guard
                            let assetID = try await db.scalar(
                                "SELECT id FROM asset WHERE localIdentifier = \(resolved) AND " + assetOwnerCondition(person: owner), as: Int64.self)
                        else {
                            throw LibraryError.notFound(localIdentifier: assetIdentifier)
                        }
                        let added = try await db.execute(
                            """
                            INSERT INTO membership (collectionID, assetID, position) VALUES (\(albumID), \(assetID), \(next))
                            ON CONFLICT (collectionID, assetID) DO NOTHING
                            """)
                        next += added
                    }
                case .remove(let identifiers):
                    for assetIdentifier in identifiers {
                        try await db.execute(
                            """
                            DELETE FROM membership WHERE collectionID = \(albumID)
                              AND assetID = (SELECT id FROM asset WHERE localIdentifier = \(assetIdentifier) AND \(assetOwnerCondition(person: owner)))
                            """)
                    }
                case .move(let from, let to):
                    var order = try await db.integers("SELECT assetID FROM membership WHERE collectionID = \(albumID) ORDER BY position, assetID")
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
                        try await db.execute("UPDATE membership SET position = \(position) WHERE collectionID = \(albumID) AND assetID = \(assetID)")
                    }
                }
            }
        }
        for identifier in changes.albumDeletions {
            guard
                let row = try await db.first(
                    "SELECT id, parentIdentifier FROM assetCollection WHERE localIdentifier = \(identifier) AND ownerID = \(owner)\(raw: db.dialect.forUpdate)")
            else {
                throw LibraryError.notFound(localIdentifier: identifier)
            }
            // A deleted folder's albums and folders move up a level: deleting a folder never
            // deletes the albums in it.
            let parent: String? = row["parentIdentifier"]
            try await db.execute("UPDATE assetCollection SET parentIdentifier = \(parent) WHERE parentIdentifier = \(identifier)")
            try await db.execute("DELETE FROM membership WHERE collectionID = \(row["id"] as Int64)")
            try await db.execute("DELETE FROM assetCollection WHERE id = \(row["id"] as Int64)")
        }
    }
}
