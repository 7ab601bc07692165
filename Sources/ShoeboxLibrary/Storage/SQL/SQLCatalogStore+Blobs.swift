import Foundation
import ShoeboxImaging

/// Blob claims and pending removals (see ``CatalogStore``). SQLite has one writer at a time, so
/// its transactions are already serialized; PostgreSQL runs them side by side, so every
/// transaction that decides about a blob first takes a transaction-scoped advisory lock on it.
extension SQLCatalogStore {
    func claim(_ claims: [BlobClaim], claimID: String, owner: String, expires: Date) async throws(LibraryError) -> ClaimOutcome {
        try await write { db in
            let now = Date()
            let encoder = JSONEncoder()
            for claim in claims.sorted(by: { $0.key.description < $1.key.description }) {
                try await Self.lock(claim.key, in: db)
                if let removal = try await db.first(
                    "SELECT remover, removerExpires FROM blobDeletion WHERE kind = \(claim.key.kind.rawValue) AND hash = \(claim.key.hash)")
                {
                    if let remover: String = removal["remover"], let until: Date = removal["removerExpires"],
                        BlobClaim.isLive(owner: remover, expires: until, now: now)
                    {
                        // Being removed right now: wait for it to finish (the transaction rolls back).
                        throw BusyBlob(key: claim.key)
                    }
                    // Only pending (or its remover died): the bytes are wanted again, so it is off.
                    try await db.execute("DELETE FROM blobDeletion WHERE kind = \(claim.key.kind.rawValue) AND hash = \(claim.key.hash)")
                }
                let pending = try claim.pendingRecord.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
                try await db.execute(
                    """
                    INSERT INTO blobClaim (claimID, kind, hash, owner, expires, pendingRecord)
                    VALUES (\(claimID), \(claim.key.kind.rawValue), \(claim.key.hash), \(owner), \(expires), \(pending))
                    """)
            }
            return ClaimOutcome.claimed
        } catchBusy: { busy in
            .busy(busy.key)
        }
    }

    func releaseClaims(_ claimID: String?, candidates: [BlobKey]) async throws(LibraryError) -> [BlobKey] {
        try await write { db in
            if let claimID {
                try await db.execute("DELETE FROM blobClaim WHERE claimID = \(claimID)")
            }
            return try await Self.markRemovals(of: candidates, in: db, now: Date())
        }
    }

    func pendingRemovals() async throws(LibraryError) -> [BlobKey] {
        try await read { db in
            try await db.query("SELECT kind, hash FROM blobDeletion").compactMap { row -> BlobKey? in
                BlobKind(rawValue: row["kind"]).map { BlobKey(kind: $0, hash: row["hash"]) }
            }
        }
    }

    func beginRemoval(of key: BlobKey, remover: String, expires: Date) async throws(LibraryError) -> Bool {
        try await write { db in
            try await Self.lock(key, in: db)
            guard let removal = try await db.first("SELECT remover, removerExpires FROM blobDeletion WHERE kind = \(key.kind.rawValue) AND hash = \(key.hash)")
            else {
                return false  // a claim cancelled it, or another remover finished it
            }
            if let current: String = removal["remover"], let until: Date = removal["removerExpires"], current != remover,
                BlobClaim.isLive(owner: current, expires: until)
            {
                return false
            }
            try await db.execute(
                """
                UPDATE blobDeletion SET remover = \(remover), removerExpires = \(expires) WHERE kind = \(key.kind.rawValue) AND hash = \(key.hash)
                """)
            return true
        }
    }

    func finishRemoval(of key: BlobKey, remover: String, removed: Bool) async throws(LibraryError) {
        try await write { db in
            if removed {
                try await db.execute("DELETE FROM blobDeletion WHERE kind = \(key.kind.rawValue) AND hash = \(key.hash) AND remover = \(remover)")
            } else {
                try await db.execute(
                    """
                    UPDATE blobDeletion SET remover = NULL, removerExpires = NULL WHERE kind = \(key.kind.rawValue) AND hash = \(key.hash) AND remover = \(remover)
                    """)
            }
        }
    }

    func blobClaims() async throws(LibraryError) -> [ClaimRecord] {
        try await read { db in try await db.query("SELECT * FROM blobClaim ORDER BY id").compactMap(Self.claimRecord) }
    }

    func settleStaleClaim(_ record: ClaimRecord, adopt: Bool) async throws(LibraryError) -> (adopted: String?, removals: [BlobKey]) {
        try await write { db in
            try await Self.lock(record.key, in: db)
            // Settled meanwhile by another process?
            guard try await db.execute("DELETE FROM blobClaim WHERE id = \(record.id)") == 1 else { return (nil, []) }
            let now = Date()
            // Adopted when the person who imported it has no asset of these bytes (someone
            // else's asset of the same bytes is theirs alone).
            if adopt, var pending = record.pendingRecord, record.key.kind == .original,
                try await db.first(
                    "SELECT 1 FROM asset WHERE (contentHash = \(record.key.hash) OR companionHash = \(record.key.hash)) AND ownerID = \(pending.ownerID) LIMIT 1"
                )
                    == nil,
                try await !Self.isPendingRemoval(record.key, in: db)
            {
                pending.id = nil
                pending.addedDate = now
                pending.modificationDate = now
                if try await db.scalar("SELECT COUNT(*) FROM asset WHERE localIdentifier = \(pending.localIdentifier)", as: Int.self) ?? 0 > 0 {
                    pending.localIdentifier = ObjectPlaceholder.newIdentifier()
                }
                pending = self.indexed(pending)
                pending.id = try await db.scalar(pending.insertStatement, as: Int64.self)
                var changes = CatalogChanges()
                changes.insertions = [pending]
                // An adopted half of a shot pairs, and a frame joins its burst, as its import
                // would have.
                var commit = CatalogCommit()
                try await Self.pairShots(&changes, commit: &commit, in: db, now: now)
                try await Self.settleBursts(&changes, in: db, now: now)
                try await Self.logChanges(changes, in: db, now: now, owner: pending.ownerID)
                return (commit.paired[pending.localIdentifier] ?? pending.localIdentifier, [])
            }
            // An original that is not adopted stays (doctor reports it if nothing refers to it):
            // only renders, which an edit can always make again, are removed here.
            guard record.key.kind == .render else { return (nil, []) }
            return (nil, try await Self.markRemovals(of: [record.key], in: db, now: now))
        }
    }

    // MARK: Inside transactions

    /// Marks for removal the blobs among `keys` that no asset refers to and no live claim holds.
    static func markRemovals(of keys: [BlobKey], in db: any SQLSession, now: Date) async throws -> [BlobKey] {
        var marked: [BlobKey] = []
        for key in Set(keys).sorted(by: { $0.description < $1.description }) {
            try await lock(key, in: db)
            guard try await !isReferenced(key, in: db) else { continue }
            let claims = try await db.query("SELECT owner, expires FROM blobClaim WHERE kind = \(key.kind.rawValue) AND hash = \(key.hash)")
            guard !claims.contains(where: { BlobClaim.isLive(owner: $0["owner"], expires: $0["expires"], now: now) }) else { continue }
            try await db.execute(
                """
                INSERT INTO blobDeletion (kind, hash, date) VALUES (\(key.kind.rawValue), \(key.hash), \(now)) ON CONFLICT (kind, hash) DO NOTHING
                """)
            marked.append(key)
        }
        return marked
    }

    /// Serializes decisions about one blob across PostgreSQL transactions (released at commit).
    static func lock(_ key: BlobKey, in db: any SQLSession) async throws {
        guard db.dialect == .postgres else { return }
        _ = try await db.query("SELECT pg_advisory_xact_lock(hashtextextended(\(key.description), 0))")
    }

    static func isReferenced(_ key: BlobKey, in db: any SQLSession) async throws -> Bool {
        switch key.kind {
        case .original:
            // The asset's own original, or a Live Photo's movie.
            try await db.first("SELECT 1 FROM asset WHERE contentHash = \(key.hash) OR companionHash = \(key.hash) LIMIT 1") != nil
        case .render:
            try await db.first("SELECT 1 FROM asset WHERE renderHash = \(key.hash) LIMIT 1") != nil
        }
    }

    static func isPendingRemoval(_ key: BlobKey, in db: any SQLSession) async throws -> Bool {
        try await db.first("SELECT 1 FROM blobDeletion WHERE kind = \(key.kind.rawValue) AND hash = \(key.hash)") != nil
    }

    static func claimRecord(_ row: SQLRow) -> ClaimRecord? {
        guard let kind = BlobKind(rawValue: row["kind"]) else { return nil }
        let pending = (row["pendingRecord"] as String?).flatMap { try? JSONDecoder().decode(AssetRecord.self, from: Data($0.utf8)) }
        return ClaimRecord(
            id: row["id"], claimID: row["claimID"], key: BlobKey(kind: kind, hash: row["hash"]),
            owner: row["owner"], expires: row["expires"], pendingRecord: pending)
    }

    /// A write whose body may stop early with ``BusyBlob``: the transaction rolls back and
    /// `busy` answers instead.
    func write<T: Sendable>(
        _ body: @escaping @Sendable (any SQLSession) async throws -> T,
        catchBusy busy: (BusyBlob) -> T
    ) async throws(LibraryError) -> T {
        do {
            return try await driver.write(body)
        } catch let error as BusyBlob {
            return busy(error)
        } catch {
            throw libraryError(error)
        }
    }
}

/// A claim met a removal in progress.
struct BusyBlob: Error {
    let key: BlobKey
}
