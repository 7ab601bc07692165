import Foundation
import GRDB

/// Blob claims and pending removals (the `v9-blob-safety` migration). SQLite has one writer at a
/// time, so every decision below is made under the write lock: a purge's decision to remove a
/// blob, a claim, and the removal itself are serialized.
extension SQLiteCatalogStore {
    func claim(_ claims: [BlobClaim], claimID: String, owner: String, expires: Date,
               remove: (BlobKey) throws -> Void) throws(LibraryError) -> [BlobKey] {
        try write { db in
            var removed: [BlobKey] = []
            let encoder = JSONEncoder()
            for claim in claims {
                if try Self.isPendingDeletion(claim.key, in: db) {
                    try remove(claim.key)
                    try db.execute(sql: "DELETE FROM blobDeletion WHERE kind = ? AND hash = ?", arguments: [claim.key.kind.rawValue, claim.key.hash])
                    removed.append(claim.key)
                }
                let pending = try claim.pendingRow.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
                try db.execute(
                    sql: "INSERT INTO blobClaim (claimID, kind, hash, owner, expires, pendingRow) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [claimID, claim.key.kind.rawValue, claim.key.hash, owner, expires, pending])
            }
            return removed
        }
    }

    func releaseClaims(_ claimID: String?, candidates: [BlobKey]) throws(LibraryError) -> [BlobKey] {
        try write { db in
            if let claimID {
                try db.execute(sql: "DELETE FROM blobClaim WHERE claimID = ?", arguments: [claimID])
            }
            return try Self.markDeletions(of: candidates, in: db, now: Date())
        }
    }

    func completeDeletions(_ keys: [BlobKey]?, remove: (BlobKey) throws -> Void) throws(LibraryError) -> [BlobKey] {
        let pending: [BlobKey]
        if let keys {
            pending = keys
        } else {
            pending = try read { db in
                try Row.fetchAll(db, sql: "SELECT kind, hash FROM blobDeletion").compactMap { row -> BlobKey? in
                    BlobKind(rawValue: row["kind"]).map { BlobKey(kind: $0, hash: row["hash"]) }
                }
            }
        }
        var removed: [BlobKey] = []
        for key in pending {
            // One transaction per blob: the write lock is held only while one file goes.
            let done = try write { db -> Bool in
                guard try Self.isPendingDeletion(key, in: db) else { return false }  // a claim completed it
                try remove(key)
                try db.execute(sql: "DELETE FROM blobDeletion WHERE kind = ? AND hash = ?", arguments: [key.kind.rawValue, key.hash])
                return true
            }
            if done { removed.append(key) }
        }
        return removed
    }

    func blobClaims() throws(LibraryError) -> [ClaimRecord] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM blobClaim ORDER BY id").compactMap(Self.claimRecord) }
    }

    func settleStaleClaim(_ record: ClaimRecord, adopt: Bool) throws(LibraryError) -> (adopted: String?, deletions: [BlobKey]) {
        try write { db in
            // Settled meanwhile by another process?
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blobClaim WHERE id = ?", arguments: [record.id]) == 1 else { return (nil, []) }
            try db.execute(sql: "DELETE FROM blobClaim WHERE id = ?", arguments: [record.id])
            let now = Date()
            if adopt, var row = record.pendingRow, record.key.kind == .original,
               try !Self.isReferenced(record.key, in: db), try !Self.isPendingDeletion(record.key, in: db) {
                row.id = nil
                row.addedDate = now
                row.modificationDate = now
                if try AssetRow.filter(Column("localIdentifier") == row.localIdentifier).fetchCount(db) > 0 {
                    row.localIdentifier = ObjectPlaceholder.newIdentifier()
                }
                try row.insert(db)
                var changes = CatalogChanges()
                changes.insertions = [row]
                try Self.logChanges(changes, in: db, now: now)
                return (row.localIdentifier, [])
            }
            // An original that is not adopted stays (doctor reports it if nothing refers to it):
            // only renders, which an edit can always make again, are removed here.
            guard record.key.kind == .render else { return (nil, []) }
            return (nil, try Self.markDeletions(of: [record.key], in: db, now: now))
        }
    }

    // MARK: Inside transactions

    /// Marks for removal the blobs among `keys` that no asset refers to and no live claim holds.
    static func markDeletions(of keys: [BlobKey], in db: Database, now: Date) throws -> [BlobKey] {
        var marked: [BlobKey] = []
        for key in Set(keys) {
            guard try !isReferenced(key, in: db) else { continue }
            let claims = try Row.fetchAll(db, sql: "SELECT owner, expires FROM blobClaim WHERE kind = ? AND hash = ?",
                                          arguments: [key.kind.rawValue, key.hash])
            guard !claims.contains(where: { BlobClaim.isLive(owner: $0["owner"], expires: $0["expires"], now: now) }) else { continue }
            try db.execute(sql: "INSERT OR IGNORE INTO blobDeletion (kind, hash, date) VALUES (?, ?, ?)",
                           arguments: [key.kind.rawValue, key.hash, now])
            marked.append(key)
        }
        return marked
    }

    static func isReferenced(_ key: BlobKey, in db: Database) throws -> Bool {
        let column = key.kind == .original ? "contentHash" : "renderHash"
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM asset WHERE \(column) = ?)", arguments: [key.hash]) ?? false
    }

    static func isPendingDeletion(_ key: BlobKey, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM blobDeletion WHERE kind = ? AND hash = ?)",
                          arguments: [key.kind.rawValue, key.hash]) ?? false
    }

    static func claimRecord(_ row: Row) -> ClaimRecord? {
        guard let kind = BlobKind(rawValue: row["kind"]) else { return nil }
        let pending = (row["pendingRow"] as String?).flatMap { try? JSONDecoder().decode(AssetRow.self, from: Data($0.utf8)) }
        return ClaimRecord(id: row["id"], claimID: row["claimID"], key: BlobKey(kind: kind, hash: row["hash"]),
                           owner: row["owner"], expires: row["expires"], pendingRow: pending)
    }

    func write<T>(_ body: (Database) throws -> T) throws(LibraryError) -> T {
        do {
            return try database.write(body)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
    }
}
