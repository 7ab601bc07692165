import Foundation
import ShoeboxImaging

extension SQLCatalogStore {
    func addSharedLink(_ record: SharedLinkRecord) async throws(LibraryError) {
        let assets = String(decoding: (try? JSONEncoder().encode(record.assets)) ?? Data("[]".utf8), as: UTF8.self)
        let owner = writer
        _ = try await write { db in
            try await db.execute(
                """
                INSERT INTO sharedLink (id, tokenHash, title, album, assets, createdDate, expiresDate, password, allowsDownload, includesMetadata, ownerID)
                VALUES (\(record.id), \(record.tokenHash), \(record.title), \(record.album), \(assets), \(record.createdDate), \(record.expiresDate),
                        \(record.password), \(record.allowsDownload), \(record.includesMetadata), \(owner))
                """)
        }
    }

    func sharedLinks() async throws(LibraryError) -> [SharedLinkRecord] {
        let mine = ownerCondition("sharedLink")
        return try await read { db in
            try await db.query(
                """
                SELECT sharedLink.*, (SELECT COUNT(*) FROM sharedLinkView WHERE link = sharedLink.id AND what = \(SharedLink.View.visit)) AS views
                FROM sharedLink WHERE
                """ + " " + mine + " ORDER BY createdDate DESC, id"
            ).map(Self.sharedLinkRecord)
        }
    }

    func sharedLink(tokenHash: String) async throws(LibraryError) -> SharedLinkRecord? {
        try await read { db in
            try await db.query(
                """
                SELECT sharedLink.*, (SELECT COUNT(*) FROM sharedLinkView WHERE link = sharedLink.id AND what = \(SharedLink.View.visit)) AS views
                FROM sharedLink WHERE tokenHash = \(tokenHash)
                """
            ).first.map(Self.sharedLinkRecord)
        }
    }

    func revokeSharedLink(id: String, at date: Date) async throws(LibraryError) -> Bool {
        let mine = ownerCondition()
        return try await write { db in
            _ = try await db.execute("UPDATE sharedLink SET revokedDate = \(date) WHERE id = \(id) AND revokedDate IS NULL AND " + mine)
            return try await !db.query("SELECT id FROM sharedLink WHERE id = \(id) AND " + mine).isEmpty
        }
    }

    func logSharedLinkView(link: String, view: SharedLink.View) async throws(LibraryError) {
        _ = try await write { db in
            try await db.execute("INSERT INTO sharedLinkView (link, date, address, what) VALUES (\(link), \(view.date), \(view.address), \(view.what))")
            // The log keeps the latest entries only: a link's visitors cannot grow it without bound.
            try await db.execute(
                """
                DELETE FROM sharedLinkView WHERE link = \(link) AND date < (
                  SELECT date FROM sharedLinkView WHERE link = \(link) ORDER BY date DESC LIMIT 1 OFFSET \(SharedLink.maximumLoggedViews - 1))
                """)
        }
    }

    func sharedLinkViewCount(link: String, what: String, address: String?, since: Date) async throws(LibraryError) -> Int {
        try await read { db in
            let row = try await db.first(
                address.map { address in
                    "SELECT COUNT(*) AS n FROM sharedLinkView WHERE link = \(link) AND what = \(what) AND address = \(address) AND date >= \(since)"
                } ?? "SELECT COUNT(*) AS n FROM sharedLinkView WHERE link = \(link) AND what = \(what) AND date >= \(since)")
            return row?["n"] ?? 0
        }
    }

    func sharedLinkViews(link: String, limit: Int) async throws(LibraryError) -> [SharedLink.View] {
        try await read { db in
            try await db.query("SELECT date, address, what FROM sharedLinkView WHERE link = \(link) ORDER BY date DESC LIMIT \(max(1, limit))").map { row in
                SharedLink.View(date: row["date"], address: row["address"], what: row["what"])
            }
        }
    }

    static func sharedLinkRecord(_ row: SQLRow) -> SharedLinkRecord {
        let assets: String = row["assets"]
        var record = SharedLinkRecord(
            id: row["id"], tokenHash: row["tokenHash"], title: row["title"], album: row["album"],
            assets: (try? JSONDecoder().decode([String].self, from: Data(assets.utf8))) ?? [], createdDate: row["createdDate"],
            expiresDate: row["expiresDate"], password: row["password"], allowsDownload: row["allowsDownload"],
            includesMetadata: row["includesMetadata"], revokedDate: row["revokedDate"], viewCount: row["views"])
        record.ownerID = row["ownerID"]
        return record
    }
}
