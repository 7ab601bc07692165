import Foundation

extension SQLCatalogStore {
    func partnerShares() async throws(LibraryError) -> [PartnerShare] {
        let me = writer
        return try await read { db in
            try await db.query(
                """
                SELECT s.startDate, s.inTimeline, s.createdDate,
                  o.id AS oRow, o.identifier AS oID, o.name AS oName, o.displayName AS oShown,
                  p.id AS pRow, p.identifier AS pID, p.name AS pName, p.displayName AS pShown
                FROM partnerShare s JOIN person o ON o.id = s.ownerID JOIN person p ON p.id = s.partnerID
                WHERE s.ownerID = \(me) OR s.partnerID = \(me)
                ORDER BY s.createdDate, s.ownerID, s.partnerID
                """
            ).map(Self.partnerShare(_:))
        }
    }

    func setPartnerShare(partner: Int64, startDate: Date?, now: Date) async throws(LibraryError) -> PartnerShare {
        let me = writer
        return try await write { db in
            let existing = try await db.first("SELECT 1 FROM partnerShare WHERE ownerID = \(me) AND partnerID = \(partner)\(raw: db.dialect.forUpdate)")
            if existing == nil {
                let count = try await db.scalar("SELECT COUNT(*) FROM partnerShare WHERE ownerID = \(me)", as: Int.self) ?? 0
                guard count < PartnerShare.maximumPartners else {
                    throw LibraryError.invalidArgument("a library is shared with at most \(PartnerShare.maximumPartners) partners")
                }
                try await db.execute(
                    """
                    INSERT INTO partnerShare (ownerID, partnerID, startDate, inTimeline, createdDate)
                    VALUES (\(me), \(partner), \(startDate.sqlValue), \(false), \(now))
                    """)
            } else {
                try await db.execute("UPDATE partnerShare SET startDate = \(startDate.sqlValue) WHERE ownerID = \(me) AND partnerID = \(partner)")
            }
            try await Self.logPartnerChange(sharer: me, partner: partner, in: db, now: now)
            guard let row = try await db.first(Self.partnerShareQuery(sharer: me, partner: partner)) else {
                throw LibraryError.storage("the partner share just written cannot be read")
            }
            return Self.partnerShare(row)
        }
    }

    func removePartnerShare(partner: Int64?, sharer: Int64?, now: Date) async throws(LibraryError) -> Bool {
        let (owner, seer) = (sharer ?? writer, partner ?? writer)
        return try await write { db in
            guard try await db.execute("DELETE FROM partnerShare WHERE ownerID = \(owner) AND partnerID = \(seer)") > 0 else { return false }
            try await Self.logPartnerChange(sharer: owner, partner: seer, in: db, now: now)
            return true
        }
    }

    func setPartnerShareInTimeline(sharer: Int64, shown: Bool, now: Date) async throws(LibraryError) -> Bool {
        let me = writer
        return try await write { db in
            guard try await db.execute("UPDATE partnerShare SET inTimeline = \(shown) WHERE ownerID = \(sharer) AND partnerID = \(me)") > 0 else {
                return false
            }
            try await Self.logPartnerChange(sharer: sharer, partner: me, in: db, now: now)
            return true
        }
    }

    func assets(rowIDs: [Int64], sharedThrough windows: [PartnerShare.Window]) async throws(LibraryError) -> [Int64: Asset] {
        guard !rowIDs.isEmpty, let owner else { return [:] }
        var options = FetchOptions()
        options.partnerWindows = windows
        let whose = "(" + FetchQuery.ownership(for: options, owner: owner) + " OR " + assetOwnerCondition() + ")"
        return try await read { db in
            var found: [Int64: Asset] = [:]
            for chunk in Self.chunks(rowIDs) {
                for row in try await db.query("SELECT * FROM asset WHERE id IN \(list: chunk) AND " + whose) {
                    let record = AssetRecord(row: row)
                    if let id = record.id { found[id] = record.asset }
                }
            }
            return found
        }
    }

    func partnerAsset(localIdentifier: String) async throws(LibraryError) -> Asset? {
        let me = writer
        return try await read { db in
            try await db.first(
                """
                SELECT a.* FROM asset a JOIN partnerShare s ON s.ownerID = a.ownerID AND s.partnerID = \(me)
                WHERE a.localIdentifier = \(localIdentifier) AND a.isHidden = \(false) AND a.trashedDate IS NULL
                  AND (s.startDate IS NULL OR a.creationDate >= s.startDate)
                """
            ).map { AssetRecord(row: $0).asset }
        }
    }

    private static func partnerShareQuery(sharer: Int64, partner: Int64) -> SQLStatement {
        """
        SELECT s.startDate, s.inTimeline, s.createdDate,
          o.id AS oRow, o.identifier AS oID, o.name AS oName, o.displayName AS oShown,
          p.id AS pRow, p.identifier AS pID, p.name AS pName, p.displayName AS pShown
        FROM partnerShare s JOIN person o ON o.id = s.ownerID JOIN person p ON p.id = s.partnerID
        WHERE s.ownerID = \(sharer) AND s.partnerID = \(partner)
        """
    }

    private static func partnerShare(_ row: SQLRow) -> PartnerShare {
        PartnerShare(
            sharer: PartnerShare.Party(id: row["oID"], name: row["oName"], displayName: row["oShown"], rowID: row["oRow"]),
            partner: PartnerShare.Party(id: row["pID"], name: row["pName"], displayName: row["pShown"], rowID: row["pRow"]),
            startDate: row["startDate"], isShownInTimeline: row["inTimeline"], creationDate: row["createdDate"])
    }

    /// A `partner` entry for each side, naming the other.
    private static func logPartnerChange(sharer: Int64, partner: Int64, in db: any SQLSession, now: Date) async throws {
        let rows = try await db.query("SELECT id, identifier FROM person WHERE id IN \(list: [sharer, partner])")
        var identifiers: [Int64: String] = [:]
        for row in rows { identifiers[row["id"]] = row["identifier"] }
        try await logEntries(
            [
                (kind: PartnerShare.changeKind, localIdentifier: identifiers[partner] ?? "\(partner)", owner: sharer),
                (kind: PartnerShare.changeKind, localIdentifier: identifiers[sharer] ?? "\(sharer)", owner: partner),
            ], in: db, now: now)
    }
}
