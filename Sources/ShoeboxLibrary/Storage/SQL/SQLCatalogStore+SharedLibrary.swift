import Foundation

extension SQLCatalogStore {
    /// Which assets of the `asset` table (`alias`) a store acting for `person` holds: their own
    /// and, while they are in the Shared Library, its. `TRUE` for everyone's.
    static func assetOwnerCondition(person: Int64?, alias: String = "") -> SQLStatement {
        guard let person else { return "TRUE" }
        let column = (alias.isEmpty ? "" : alias + ".") + "ownerID"
        return """
            (\(raw: column) = \(person) OR (\(raw: column) = \(SharedLibrary.ownerRowID) AND EXISTS \
            (SELECT 1 FROM sharedLibraryParticipant slp WHERE slp.personID = \(person) AND slp.joinedDate IS NOT NULL)))
            """
    }

    /// ``assetOwnerCondition(person:alias:)`` for this object's person.
    func assetOwnerCondition(_ alias: String = "") -> SQLStatement {
        Self.assetOwnerCondition(person: owner, alias: alias)
    }

    func sharedLibrary() async throws(LibraryError) -> SharedLibrary? {
        let me = writer
        return try await read { db in try await Self.readSharedLibrary(for: me, in: db) }
    }

    func isInSharedLibrary() async throws(LibraryError) -> Bool {
        guard let me = owner else { return false }
        return try await read { db in try await Self.hasJoined(me, in: db) }
    }

    func inviteToSharedLibrary(person: Int64, now: Date) async throws(LibraryError) -> SharedLibrary {
        let me = writer
        return try await write { db in
            let rows = try await db.query("SELECT personID, joinedDate FROM sharedLibraryParticipant\(raw: db.dialect.forUpdate)")
            if rows.isEmpty {
                // The first invitation makes it, with its maker in it.
                try await db.execute(
                    """
                    INSERT INTO sharedLibraryParticipant (personID, invitedByID, movesNewAssets, invitedDate, joinedDate)
                    VALUES (\(me), \(me), \(false), \(now), \(now))
                    """)
            } else {
                guard rows.contains(where: { $0["personID"] == me && ($0["joinedDate"] as Date?) != nil }) else {
                    throw LibraryError.notPermitted("only the people in the Shared Library invite others to it")
                }
                guard !rows.contains(where: { $0["personID"] == person }) else {
                    throw LibraryError.invalidArgument("they are in the Shared Library or invited to it already")
                }
                guard rows.count < SharedLibrary.maximumParticipants else {
                    throw LibraryError.invalidArgument(
                        "a Shared Library has at most \(SharedLibrary.maximumParticipants) people, those invited included")
                }
            }
            try await db.execute(
                """
                INSERT INTO sharedLibraryParticipant (personID, invitedByID, movesNewAssets, invitedDate, joinedDate)
                VALUES (\(person), \(me), \(false), \(now), NULL)
                """)
            try await Self.logSharedLibraryChange(about: person, alsoTell: [], in: db, now: now)
            guard let library = try await Self.readSharedLibrary(for: me, in: db) else {
                throw LibraryError.storage("the Shared Library just written cannot be read")
            }
            return library
        }
    }

    func withdrawSharedLibraryInvitation(person: Int64, now: Date) async throws(LibraryError) -> Bool {
        let me = writer
        return try await write { db in
            guard try await Self.hasJoined(me, in: db) else { return false }
            guard try await db.execute("DELETE FROM sharedLibraryParticipant WHERE personID = \(person) AND joinedDate IS NULL") > 0 else {
                return false
            }
            try await Self.logSharedLibraryChange(about: person, alsoTell: [person], in: db, now: now)
            try await Self.endIfAlone(in: db, now: now)
            return true
        }
    }

    func answerSharedLibraryInvitation(join: Bool, movesNewAssets: Bool, now: Date) async throws(LibraryError) -> Bool {
        let me = writer
        return try await write { db in
            let changed =
                join
                ? try await db.execute(
                    "UPDATE sharedLibraryParticipant SET joinedDate = \(now), movesNewAssets = \(movesNewAssets) WHERE personID = \(me) AND joinedDate IS NULL"
                )
                : try await db.execute("DELETE FROM sharedLibraryParticipant WHERE personID = \(me) AND joinedDate IS NULL")
            guard changed > 0 else { return false }
            try await Self.logSharedLibraryChange(about: me, alsoTell: [me], in: db, now: now)
            if !join { try await Self.endIfAlone(in: db, now: now) }
            return true
        }
    }

    func setSharedLibraryMovesNewAssets(_ moves: Bool, now: Date) async throws(LibraryError) -> Bool {
        let me = writer
        return try await write { db in
            guard
                try await db.execute(
                    "UPDATE sharedLibraryParticipant SET movesNewAssets = \(moves) WHERE personID = \(me) AND joinedDate IS NOT NULL") > 0
            else { return false }
            try await Self.logSharedLibraryChange(about: me, alsoTell: [], in: db, now: now)
            return true
        }
    }

    func moveToSharedLibrary(_ contribution: SharedLibrary.Contribution, now: Date) async throws(LibraryError) -> Int {
        let me = writer
        let shared = SharedLibrary.ownerRowID
        return try await write { db in
            guard try await Self.hasJoined(me, in: db) else { throw LibraryError.notPermitted("join the Shared Library first") }
            var candidates: [SQLRow] = []
            let columns = "id, localIdentifier, contentHash, companionHash"
            switch contribution {
            case .nothing:
                return 0
            case .everything:
                candidates = try await db.query(
                    "SELECT \(raw: columns) FROM asset WHERE ownerID = \(me) AND trashedDate IS NULL AND isHidden = \(false)\(raw: db.dialect.forUpdate)")
            case .takenFrom(let start):
                candidates = try await db.query(
                    """
                    SELECT \(raw: columns) FROM asset WHERE ownerID = \(me) AND trashedDate IS NULL AND isHidden = \(false)
                      AND creationDate >= \(start)\(raw: db.dialect.forUpdate)
                    """)
            case .chosen(let identifiers):
                for chunk in Self.chunks(identifiers) {
                    let found = try await db.query(
                        "SELECT localIdentifier, ownerID, burstIdentifier, pairingIdentifier FROM asset WHERE localIdentifier IN \(list: chunk) AND trashedDate IS NULL"
                    )
                    var mine: Set<String> = []
                    var bursts: Set<String> = []
                    var pairs: Set<String> = []
                    for row in found {
                        let owner: Int64 = row["ownerID"]
                        guard owner == me || owner == shared else { continue }
                        mine.insert(row["localIdentifier"])
                        if owner == me, let burst: String = row["burstIdentifier"] { bursts.insert(burst) }
                        if owner == me, let pair: String = row["pairingIdentifier"] { pairs.insert(pair) }
                    }
                    if let missing = chunk.first(where: { !mine.contains($0) }) { throw LibraryError.notFound(localIdentifier: missing) }
                    // A burst's frames and a pair's halves go together.
                    var together: SQLStatement = "localIdentifier IN \(list: chunk)"
                    if !bursts.isEmpty { together = together + " OR burstIdentifier IN \(list: Array(bursts))" }
                    if !pairs.isEmpty { together = together + " OR pairingIdentifier IN \(list: Array(pairs))" }
                    candidates += try await db.query(
                        "SELECT \(raw: columns) FROM asset WHERE ownerID = \(me) AND trashedDate IS NULL AND (" + together + ")\(raw: db.dialect.forUpdate)")
                }
            }
            return try await Self.reassign(candidates, from: me, to: shared, addedBy: me, in: db, now: now)
        }
    }

    func moveToPersonalLibrary(_ localIdentifiers: [String], now: Date) async throws(LibraryError) -> Int {
        let me = writer
        let shared = SharedLibrary.ownerRowID
        return try await write { db in
            guard try await Self.hasJoined(me, in: db) else { throw LibraryError.notPermitted("you are not in the Shared Library") }
            var candidates: [SQLRow] = []
            for chunk in Self.chunks(localIdentifiers) {
                let rows = try await db.query(
                    """
                    SELECT a.id, a.localIdentifier, a.contentHash, a.companionHash, s.addedByID FROM asset a
                    LEFT JOIN sharedLibraryAsset s ON s.assetID = a.id
                    WHERE a.localIdentifier IN \(list: chunk) AND a.ownerID = \(shared)\(raw: db.dialect == .postgres ? " FOR UPDATE OF a" : "")
                    """)
                let found = Set(rows.map { $0["localIdentifier"] as String })
                if let missing = chunk.first(where: { !found.contains($0) }) { throw LibraryError.notFound(localIdentifier: missing) }
                if let theirs = rows.first(where: { ($0["addedByID"] as Int64?) != me }) {
                    throw LibraryError.notPermitted(
                        "\(theirs["localIdentifier"] as String) was added by someone else: only the person who added a photo moves it out")
                }
                candidates += rows
            }
            return try await Self.reassign(candidates, from: shared, to: me, addedBy: nil, in: db, now: now)
        }
    }

    func leaveSharedLibrary(keeping departure: SharedLibrary.Departure, now: Date) async throws(LibraryError) -> Int {
        let me = writer
        let shared = SharedLibrary.ownerRowID
        return try await write { db in
            guard try await Self.hasJoined(me, in: db) else { throw LibraryError(.notFound, "you are not in the Shared Library") }
            let others =
                try await db.scalar(
                    "SELECT COUNT(*) FROM sharedLibraryParticipant WHERE personID <> \(me) AND joinedDate IS NOT NULL", as: Int.self) ?? 0
            var made = 0
            if others == 0 {
                // The last one takes everything: the photos become theirs, and it ends.
                let rows = try await db.query("SELECT id, localIdentifier, contentHash, companionHash FROM asset WHERE ownerID = \(shared)")
                made = try await Self.reassign(rows, from: shared, to: me, addedBy: nil, in: db, now: now)
                try await Self.logSharedLibraryChange(about: me, alsoTell: [me], in: db, now: now)
                try await db.execute("DELETE FROM sharedLibraryParticipant")
                // What could not come is what they hold already (the same bytes): their own
                // asset stays, the Shared Library's row goes.
                let left = try await db.query("SELECT localIdentifier FROM asset WHERE ownerID = \(shared)").map { $0["localIdentifier"] as String }
                try await db.execute("DELETE FROM asset WHERE ownerID = \(shared)")
                try await Self.logEntries(left.map { (kind: "delete", localIdentifier: $0, owner: me) }, in: db, now: now)
                return made
            }
            let whose: SQLStatement =
                departure == .everything
                ? "a.ownerID = \(shared) AND a.trashedDate IS NULL"
                : "a.ownerID = \(shared) AND a.trashedDate IS NULL AND a.id IN (SELECT assetID FROM sharedLibraryAsset WHERE addedByID = \(me))"
            let rows = try await db.query("SELECT a.* FROM asset a WHERE " + whose)
            var held: Set<String> = []
            for chunk in Self.chunks(rows.map { $0["contentHash"] as String }) {
                for row in try await db.query("SELECT contentHash FROM asset WHERE ownerID = \(me) AND contentHash IN \(list: chunk)") {
                    held.insert(row["contentHash"])
                }
            }
            var copies: [(from: Int64, to: Int64, identifier: String)] = []
            for row in rows {
                let source = AssetRecord(row: row)
                guard let sourceID = source.id, !held.contains(source.contentHash) else { continue }
                var copy = source
                copy.id = nil
                copy.localIdentifier = ObjectPlaceholder.newIdentifier()
                copy.ownerID = me
                copy.creatorClient = nil
                copy.modificationDate = now
                if let companion = copy.companionHash,
                    try await db.first("SELECT 1 FROM asset WHERE ownerID = \(me) AND companionHash = \(companion)") != nil
                {
                    continue
                }
                guard let id = try await db.scalar(copy.insertStatement, as: Int64.self) else { continue }
                held.insert(source.contentHash)
                copies.append((sourceID, id, copy.localIdentifier))
                // The edit comes along; the person's albums hold the copy where they held the original.
                try await db.execute(
                    """
                    INSERT INTO assetEdit (assetID, formatIdentifier, formatVersion, data, editorClient, date,
                      originalPixelWidth, originalPixelHeight, originalDuration)
                    SELECT \(id), formatIdentifier, formatVersion, data, editorClient, date, originalPixelWidth, originalPixelHeight, originalDuration
                    FROM assetEdit WHERE assetID = \(sourceID)
                    """)
                try await db.execute(
                    """
                    UPDATE membership SET assetID = \(id) WHERE assetID = \(sourceID)
                      AND collectionID IN (SELECT id FROM assetCollection WHERE ownerID = \(me))
                    """)
            }
            made = copies.count
            try await db.execute("DELETE FROM sharedLibraryParticipant WHERE personID = \(me)")
            try await Self.logEntries(copies.map { (kind: "insert", localIdentifier: $0.identifier, owner: me) }, in: db, now: now)
            try await Self.logSharedLibraryChange(about: me, alsoTell: [me], in: db, now: now)
            try await Self.endIfAlone(in: db, now: now)
            return made
        }
    }

    func sharedLibraryAttributions(_ rowIDs: [Int64]) async throws(LibraryError) -> [Int64: SharedLibrary.Attribution] {
        guard !rowIDs.isEmpty else { return [:] }
        return try await read { db in
            var found: [Int64: SharedLibrary.Attribution] = [:]
            for chunk in Self.chunks(rowIDs) {
                for row in try await db.query(
                    """
                    SELECT s.assetID, a.id AS aRow, a.identifier AS aID, a.name AS aName, a.displayName AS aShown,
                      t.id AS tRow, t.identifier AS tID, t.name AS tName, t.displayName AS tShown
                    FROM sharedLibraryAsset s LEFT JOIN person a ON a.id = s.addedByID LEFT JOIN person t ON t.id = s.trashedByID
                    WHERE s.assetID IN \(list: chunk)
                    """)
                {
                    func party(_ prefix: String) -> PartnerShare.Party? {
                        guard let rowID: Int64 = row[prefix + "Row"] else { return nil }
                        return PartnerShare.Party(id: row[prefix + "ID"], name: row[prefix + "Name"], displayName: row[prefix + "Shown"], rowID: rowID)
                    }
                    found[row["assetID"]] = SharedLibrary.Attribution(addedBy: party("a"), deletedBy: party("t"))
                }
            }
            return found
        }
    }

    // MARK: Inside transactions

    /// Whether `person` is in the Shared Library (joined), read in `db`.
    static func hasJoined(_ person: Int64, in db: any SQLSession) async throws -> Bool {
        try await db.first("SELECT 1 FROM sharedLibraryParticipant WHERE personID = \(person) AND joinedDate IS NOT NULL") != nil
    }

    /// Where `person`'s new assets go: the Shared Library when they are in it and chose so.
    static func newAssetOwner(for person: Int64, in db: any SQLSession) async throws -> Int64 {
        let moves = try await db.scalar(
            "SELECT movesNewAssets FROM sharedLibraryParticipant WHERE personID = \(person) AND joinedDate IS NOT NULL", as: Bool.self)
        return moves == true ? SharedLibrary.ownerRowID : person
    }

    static func readSharedLibrary(for person: Int64, in db: any SQLSession) async throws -> SharedLibrary? {
        let rows = try await db.query(
            """
            SELECT s.movesNewAssets, s.invitedDate, s.joinedDate, p.id, p.identifier, p.name, p.displayName
            FROM sharedLibraryParticipant s JOIN person p ON p.id = s.personID
            ORDER BY s.invitedDate, p.id
            """)
        guard rows.contains(where: { $0["id"] == person }) else { return nil }
        return SharedLibrary(
            participants: rows.map { row in
                SharedLibrary.Participant(
                    person: PartnerShare.Party(id: row["identifier"], name: row["name"], displayName: row["displayName"], rowID: row["id"]),
                    hasJoined: (row["joinedDate"] as Date?) != nil, movesNewAssets: row["movesNewAssets"], invitedDate: row["invitedDate"],
                    joinedDate: row["joinedDate"])
            })
    }

    /// Moves `rows` (id, localIdentifier, contentHash, companionHash) from `from` to `to`, but
    /// those whose bytes `to` holds already; `addedBy`: into the Shared Library, who added them
    /// (`nil`: out of it). Logs an update of each for both sides; returns how many moved.
    private static func reassign(_ rows: [SQLRow], from: Int64, to: Int64, addedBy: Int64?, in db: any SQLSession, now: Date) async throws -> Int {
        var seen: Set<Int64> = []
        let rows = rows.filter { seen.insert($0["id"] as Int64).inserted }
        guard !rows.isEmpty else { return 0 }
        var heldThere: Set<String> = []
        for chunk in chunks(rows.flatMap { row -> [String] in [row["contentHash"]] + ((row["companionHash"] as String?).map { [$0] } ?? []) }) {
            for row in try await db.query(
                "SELECT contentHash, companionHash FROM asset WHERE ownerID = \(to) AND (contentHash IN \(list: chunk) OR companionHash IN \(list: chunk))")
            {
                heldThere.insert(row["contentHash"])
                if let companion: String = row["companionHash"] { heldThere.insert(companion) }
            }
        }
        let moving = rows.filter { row in
            !heldThere.contains(row["contentHash"]) && !((row["companionHash"] as String?).map(heldThere.contains) ?? false)
        }
        for chunk in chunks(moving) {
            let ids = chunk.map { $0["id"] as Int64 }
            try await db.execute("UPDATE asset SET ownerID = \(to), modificationDate = \(now) WHERE id IN \(list: ids)")
            if let addedBy {
                let values = ids.map { id -> SQLStatement in "(\(id), \(addedBy))" }
                try await db.execute(
                    "INSERT INTO sharedLibraryAsset (assetID, addedByID) VALUES " + SQLStatement.joined(values, separator: ", ")
                        + " ON CONFLICT (assetID) DO UPDATE SET addedByID = excluded.addedByID, trashedByID = NULL")
            } else {
                try await db.execute("DELETE FROM sharedLibraryAsset WHERE assetID IN \(list: ids)")
            }
        }
        let identifiers = moving.map { $0["localIdentifier"] as String }
        try await logEntries(
            identifiers.flatMap { [(kind: "update", localIdentifier: $0, owner: from), (kind: "update", localIdentifier: $0, owner: to)] }, in: db, now: now)
        return moving.count
    }

    /// Ends the Shared Library when no one is left in it but those invited (their invitations
    /// go); a last participant alone keeps it (they may invite again).
    private static func endIfAlone(in db: any SQLSession, now: Date) async throws {
        let joined = try await db.scalar("SELECT COUNT(*) FROM sharedLibraryParticipant WHERE joinedDate IS NOT NULL", as: Int.self) ?? 0
        guard joined == 0 else { return }
        let invited = try await db.query("SELECT personID FROM sharedLibraryParticipant").map { $0["personID"] as Int64 }
        guard !invited.isEmpty else { return }
        try await db.execute("DELETE FROM sharedLibraryParticipant")
        for person in invited { try await logSharedLibraryChange(about: person, alsoTell: [person], in: db, now: now) }
    }

    /// A `sharedLibrary` entry naming `subject` for everyone in the Shared Library or invited,
    /// and for `alsoTell` (those no longer in it).
    static func logSharedLibraryChange(about subject: Int64, alsoTell: [Int64], in db: any SQLSession, now: Date) async throws {
        let people = try await db.query("SELECT personID FROM sharedLibraryParticipant").map { $0["personID"] as Int64 }
        let identifier = try await db.scalar("SELECT identifier FROM person WHERE id = \(subject)", as: String.self) ?? "\(subject)"
        var told: Set<Int64> = []
        let entries = (people + alsoTell).filter { told.insert($0).inserted }.map {
            (kind: SharedLibrary.changeKind, localIdentifier: identifier, owner: $0)
        }
        try await logEntries(entries, in: db, now: now)
    }
}
