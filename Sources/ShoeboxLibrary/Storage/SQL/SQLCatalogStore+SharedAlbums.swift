import Foundation

extension SQLCatalogStore {
    func sharedAlbumRows(localIdentifier: String?) async throws(LibraryError) -> [SharedAlbumRow] {
        let me = writer
        let statement: SQLStatement
        if let localIdentifier {
            statement = """
                SELECT c.id, c.localIdentifier, c.title, c.creationDate, c.ownerID, s.role FROM assetCollection c
                LEFT JOIN albumShare s ON s.collectionID = c.id AND s.personID = \(me)
                WHERE c.localIdentifier = \(localIdentifier) AND c.isFolder = \(false) AND (c.ownerID = \(me) OR s.personID IS NOT NULL)
                """
        } else {
            statement = """
                SELECT c.id, c.localIdentifier, c.title, c.creationDate, c.ownerID, s.role FROM assetCollection c
                LEFT JOIN albumShare s ON s.collectionID = c.id AND s.personID = \(me)
                WHERE c.isFolder = \(false) AND (s.personID IS NOT NULL
                   OR (c.ownerID = \(me) AND EXISTS (SELECT 1 FROM albumShare o WHERE o.collectionID = c.id)))
                ORDER BY c.creationDate DESC, c.id
                """
        }
        return try await read { db in
            try await db.query(statement).map { row in
                let ownerID: Int64 = row["ownerID"]
                let role: String? = row["role"]
                return SharedAlbumRow(
                    collectionID: row["id"], localIdentifier: row["localIdentifier"], title: row["title"], creationDate: row["creationDate"],
                    ownerID: ownerID, role: ownerID == me ? .owner : SharedAlbum.Role(rawValue: role ?? "") ?? .viewer)
            }
        }
    }

    func sharedAlbumMembers(_ collectionIDs: [Int64]) async throws(LibraryError) -> [Int64: [SharedAlbum.Member]] {
        guard !collectionIDs.isEmpty else { return [:] }
        return try await read { db in
            var members: [Int64: [SharedAlbum.Member]] = [:]
            for chunk in Self.chunks(collectionIDs) {
                let rows = try await db.query(
                    """
                    SELECT s.collectionID, s.role, s.addedDate, p.id, p.identifier, p.name, p.displayName
                    FROM albumShare s JOIN person p ON p.id = s.personID
                    WHERE s.collectionID IN \(list: chunk) ORDER BY s.addedDate, p.id
                    """)
                for row in rows {
                    members[row["collectionID"], default: []].append(
                        SharedAlbum.Member(
                            id: row["identifier"], name: row["name"], displayName: row["displayName"],
                            role: SharedAlbum.Role(rawValue: row["role"]) ?? .viewer, addedDate: row["addedDate"], rowID: row["id"]))
                }
            }
            return members
        }
    }

    func sharedAlbumPeople(_ rowIDs: [Int64]) async throws(LibraryError) -> [Int64: SharedAlbum.Member] {
        let unique = Array(Set(rowIDs))
        guard !unique.isEmpty else { return [:] }
        return try await read { db in
            var people: [Int64: SharedAlbum.Member] = [:]
            for chunk in Self.chunks(unique) {
                for row in try await db.query("SELECT id, identifier, name, displayName, createdDate FROM person WHERE id IN \(list: chunk)") {
                    people[row["id"]] = SharedAlbum.Member(
                        id: row["identifier"], name: row["name"], displayName: row["displayName"], role: .owner, addedDate: row["createdDate"],
                        rowID: row["id"])
                }
            }
            return people
        }
    }

    func sharedAlbumCounts(_ collectionIDs: [Int64]) async throws(LibraryError) -> [Int64: Int] {
        guard !collectionIDs.isEmpty else { return [:] }
        let visible = FetchQuery.condition(for: FetchOptions(), dialect: dialect, owner: nil)
        return try await read { db in
            var counts: [Int64: Int] = [:]
            for chunk in Self.chunks(collectionIDs) {
                let rows = try await db.query(
                    """
                    SELECT m.collectionID, COUNT(*) AS n FROM membership m
                    WHERE m.collectionID IN \(list: chunk) AND m.assetID IN (SELECT id FROM asset WHERE \(visible))
                    GROUP BY m.collectionID
                    """)
                for row in rows { counts[row["collectionID"]] = row["n"] }
            }
            return counts
        }
    }

    func setAlbumShare(collectionID: Int64, person: Int64, role: SharedAlbum.Role?, now: Date) async throws(LibraryError) -> Bool {
        try await sharingWrite(collectionID: collectionID, alsoTell: [person], now: now) { db in
            if let role {
                let changed = try await db.execute(
                    """
                    INSERT INTO albumShare (collectionID, personID, role, addedDate) VALUES (\(collectionID), \(person), \(role.rawValue), \(now))
                    ON CONFLICT (collectionID, personID) DO UPDATE SET role = excluded.role
                    """)
                return changed > 0
            }
            return try await db.execute("DELETE FROM albumShare WHERE collectionID = \(collectionID) AND personID = \(person)") > 0
        }
    }

    func sharedAlbumItems(collectionID: Int64) async throws(LibraryError) -> [SharedAlbumItemRow] {
        let visible = FetchQuery.condition(for: FetchOptions(), dialect: dialect, owner: nil)
        let me = writer
        return try await read { db in
            try await db.query(
                """
                SELECT a.id, a.localIdentifier, COALESCE(m.addedByID, a.ownerID) AS addedBy,
                  (SELECT COUNT(*) FROM albumActivity l WHERE l.collectionID = m.collectionID AND l.assetID = a.id AND l.kind = 'like') AS likes,
                  (SELECT COUNT(*) FROM albumActivity l WHERE l.collectionID = m.collectionID AND l.assetID = a.id AND l.kind = 'like' AND l.personID = \(me)) AS mine,
                  (SELECT COUNT(*) FROM albumActivity l WHERE l.collectionID = m.collectionID AND l.assetID = a.id AND l.kind = 'comment') AS comments
                FROM membership m JOIN asset a ON a.id = m.assetID
                WHERE m.collectionID = \(collectionID) AND a.id IN (SELECT id FROM asset WHERE \(visible))
                ORDER BY m.position, m.assetID
                """
            ).map { row in
                SharedAlbumItemRow(
                    assetID: row["id"], localIdentifier: row["localIdentifier"], addedByID: row["addedBy"], likeCount: row["likes"],
                    isLikedByMe: (row["mine"] as Int) > 0, commentCount: row["comments"])
            }
        }
    }

    func sharedAlbumShows(collectionID: Int64, asset: String) async throws(LibraryError) -> Bool {
        let visible = FetchQuery.condition(for: FetchOptions(), dialect: dialect, owner: nil)
        return try await read { db in
            try await db.first(
                """
                SELECT 1 FROM membership m JOIN asset a ON a.id = m.assetID
                WHERE m.collectionID = \(collectionID) AND a.localIdentifier = \(asset) AND a.id IN (SELECT id FROM asset WHERE \(visible))
                """) != nil
        }
    }

    func sharedAlbumItem(collectionID: Int64, at index: Int) async throws(LibraryError) -> String? {
        let visible = FetchQuery.condition(for: FetchOptions(), dialect: dialect, owner: nil)
        return try await read { db in
            try await db.scalar(
                """
                SELECT a.localIdentifier FROM membership m JOIN asset a ON a.id = m.assetID
                WHERE m.collectionID = \(collectionID) AND a.id IN (SELECT id FROM asset WHERE \(visible))
                ORDER BY m.position, m.assetID LIMIT 1 OFFSET \(index)
                """, as: String.self)
        }
    }

    func addToSharedAlbum(collectionID: Int64, assets: [String], now: Date) async throws(LibraryError) -> Int {
        let me = writer
        let theirs = Self.assetOwnerCondition(person: me)
        return try await sharingWrite(collectionID: collectionID, now: now) { db in
            var next =
                (try await db.scalar("SELECT MAX(position) FROM membership WHERE collectionID = \(collectionID)", as: Int?.self) ?? nil).map { $0 + 1 } ?? 0
            var added = 0
            var first: Int64?
            for identifier in assets {
                guard
                    let assetID = try await db.scalar(
                        "SELECT id FROM asset WHERE localIdentifier = \(identifier) AND trashedDate IS NULL AND " + theirs, as: Int64.self)
                else {
                    throw LibraryError.notFound(localIdentifier: identifier)
                }
                let inserted = try await db.execute(
                    """
                    INSERT INTO membership (collectionID, assetID, position, addedByID) VALUES (\(collectionID), \(assetID), \(next), \(me))
                    ON CONFLICT (collectionID, assetID) DO NOTHING
                    """)
                if inserted > 0, first == nil { first = assetID }
                next += inserted
                added += inserted
            }
            if added > 0 {
                try await db.execute(
                    """
                    INSERT INTO albumActivity (id, collectionID, assetID, personID, kind, text, count, date)
                    VALUES (\(RandomToken.hex(words: 2)), \(collectionID), \(first.sqlValue), \(me), 'added', NULL, \(added), \(now))
                    """)
            }
            return added
        }
    }

    func removeFromSharedAlbum(collectionID: Int64, assets: [String], addedBy: Int64?, now: Date) async throws(LibraryError) -> Int {
        try await sharingWrite(collectionID: collectionID, now: now) { db in
            var removed = 0
            for chunk in Self.chunks(assets) {
                let whose: SQLStatement =
                    addedBy.map {
                        """
                        AND id IN (SELECT m.assetID FROM membership m JOIN asset a ON a.id = m.assetID
                        WHERE m.collectionID = \(collectionID) AND COALESCE(m.addedByID, a.ownerID) = \($0))
                        """
                    } ?? ""
                let ids = try await db.integers("SELECT id FROM asset WHERE localIdentifier IN \(list: chunk) " + whose)
                guard !ids.isEmpty else { continue }
                removed += try await db.execute("DELETE FROM membership WHERE collectionID = \(collectionID) AND assetID IN \(list: ids)")
                // The likes and comments of a photo taken out go with it.
                try await db.execute("DELETE FROM albumActivity WHERE collectionID = \(collectionID) AND assetID IN \(list: ids)")
            }
            return removed
        }
    }

    func addAlbumActivity(
        collectionID: Int64, asset: String, kind: SharedAlbumActivity.Kind, text: String?, now: Date
    ) async throws(LibraryError) -> String? {
        let me = writer
        return try await sharingWrite(collectionID: collectionID, now: now) { db -> String? in
            guard
                let assetID = try await db.scalar(
                    """
                    SELECT a.id FROM membership m JOIN asset a ON a.id = m.assetID
                    WHERE m.collectionID = \(collectionID) AND a.localIdentifier = \(asset) AND a.trashedDate IS NULL AND a.isHidden = \(false)
                    """, as: Int64.self)
            else {
                throw LibraryError.notFound(localIdentifier: asset)
            }
            let id = RandomToken.hex(words: 2)
            let inserted = try await db.execute(
                """
                INSERT INTO albumActivity (id, collectionID, assetID, personID, kind, text, count, date)
                VALUES (\(id), \(collectionID), \(assetID), \(me), \(kind.rawValue), \(text.sqlValue), 0, \(now))
                ON CONFLICT DO NOTHING
                """)
            return inserted > 0 ? id : nil
        }
    }

    func removeAlbumLike(collectionID: Int64, asset: String, now: Date) async throws(LibraryError) -> Bool {
        let me = writer
        return try await sharingWrite(collectionID: collectionID, now: now) { db in
            try await db.execute(
                """
                DELETE FROM albumActivity WHERE collectionID = \(collectionID) AND kind = 'like' AND personID = \(me)
                  AND assetID = (SELECT id FROM asset WHERE localIdentifier = \(asset))
                """) > 0
        }
    }

    func removeAlbumComment(collectionID: Int64, id: String, anyone: Bool, now: Date) async throws(LibraryError) -> Bool {
        let me = writer
        return try await sharingWrite(collectionID: collectionID, now: now) { db in
            let whose: SQLStatement = anyone ? "" : "AND personID = \(me)"
            return try await db.execute("DELETE FROM albumActivity WHERE collectionID = \(collectionID) AND id = \(id) AND kind = 'comment' " + whose) > 0
        }
    }

    func albumActivity(collectionID: Int64, limit: Int) async throws(LibraryError) -> [SharedAlbumActivity] {
        let visible = FetchQuery.condition(for: FetchOptions(), dialect: dialect, owner: nil)
        return try await read { db in
            try await db.query(
                """
                SELECT l.id, l.kind, l.text, l.count, l.date, a.localIdentifier, p.identifier, p.displayName
                FROM albumActivity l JOIN person p ON p.id = l.personID LEFT JOIN asset a ON a.id = l.assetID
                WHERE l.collectionID = \(collectionID)
                  AND (l.kind = 'added' OR l.assetID IN (SELECT m.assetID FROM membership m WHERE m.collectionID = \(collectionID)))
                  AND (l.assetID IS NULL OR l.assetID IN (SELECT id FROM asset WHERE \(visible)))
                ORDER BY l.date DESC, l.id LIMIT \(max(1, limit))
                """
            ).map { row in
                SharedAlbumActivity(
                    id: row["id"], kind: SharedAlbumActivity.Kind(rawValue: row["kind"]) ?? .comment, personID: row["identifier"],
                    personDisplayName: row["displayName"], assetIdentifier: row["localIdentifier"], text: row["text"], count: row["count"],
                    date: row["date"])
            }
        }
    }

    func assetRecord(localIdentifier: String) async throws(LibraryError) -> AssetRecord? {
        try await read { db in try await db.first("SELECT * FROM asset WHERE localIdentifier = \(localIdentifier)").map(AssetRecord.init(row:)) }
    }

    /// Runs `body` in a write transaction, then logs a `sharedAlbum` entry for the album's owner,
    /// everyone it is shared with afterwards, and `alsoTell` (a person just taken out).
    private func sharingWrite<T: Sendable>(
        collectionID: Int64, alsoTell: [Int64] = [], now: Date, _ body: @escaping @Sendable (any SQLSession) async throws -> T
    ) async throws(LibraryError) -> T {
        try await write { db in
            guard
                let album = try await db.first("SELECT localIdentifier, ownerID FROM assetCollection WHERE id = \(collectionID)\(raw: db.dialect.forUpdate)")
            else {
                throw LibraryError.notFound(localIdentifier: "\(collectionID)")
            }
            let result = try await body(db)
            let identifier: String = album["localIdentifier"]
            let people = try await db.integers("SELECT personID FROM albumShare WHERE collectionID = \(collectionID)")
            var told: Set<Int64> = []
            let entries = ([album["ownerID"] as Int64] + people + alsoTell).filter { told.insert($0).inserted }.map {
                (kind: SharedAlbum.changeKind, localIdentifier: identifier, owner: $0)
            }
            try await Self.logEntries(entries, in: db, now: now)
            return result
        }
    }
}
