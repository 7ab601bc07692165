import Foundation

/// The catalog: rows describing assets. SQLite (``SQLiteCatalogStore``) by default; the rest of
/// the library talks only to this protocol, so a PostgreSQL store can stand in for it.
protocol CatalogStore: Sendable {
    /// The row ids of the assets matching `options`, in order.
    func assetRowIDs(matching options: FetchOptions) throws(LibraryError) -> [Int64]
    /// The assets with these row ids (missing ones are left out).
    func assets(rowIDs: [Int64]) throws(LibraryError) -> [Int64: Asset]
    func asset(localIdentifier: String) throws(LibraryError) -> Asset?
    /// The asset holding exactly these bytes, if any (trashed ones included).
    func asset(contentHash: String) throws(LibraryError) -> Asset?
    /// Applies a whole change in one transaction: everything or nothing.
    ///
    /// An insertion whose bytes an asset already holds is not inserted (checked inside the
    /// transaction, so concurrent imports never store one file twice): a live asset makes it a
    /// duplicate, a trashed one is restored. Purges delete only assets still in Recently Deleted.
    /// The change's blob claims (``CatalogChanges/claimID``) must all still be held, and are
    /// released. Blobs that no asset refers to any more and no live claim holds are marked for
    /// removal in the same transaction; the result lists them for ``completeDeletions(_:remove:)``.
    /// `beforeCommit` runs inside the transaction, after its writes.
    func apply(_ changes: CatalogChanges, beforeCommit: () -> Void) throws(LibraryError) -> CatalogCommit
    // Blob safety (see the `v9-blob-safety` migration)
    /// Claims blobs for a change, in one write transaction. A claimed blob whose removal is
    /// pending is removed first, by `remove`, inside the transaction (so no purge's removal can
    /// come after the claim). Returns the blobs so removed.
    func claim(_ claims: [BlobClaim], claimID: String, owner: String, expires: Date,
               remove: (BlobKey) throws -> Void) throws(LibraryError) -> [BlobKey]
    /// Drops a change's claims (it failed or ended; `nil`: none) and marks for removal those of
    /// `candidates` no asset refers to and no other live claim holds. Returns the blobs marked.
    func releaseClaims(_ claimID: String?, candidates: [BlobKey]) throws(LibraryError) -> [BlobKey]
    /// Removes blobs whose removal is pending (all of them when `keys` is `nil`): each in a write
    /// transaction that calls `remove` and then deletes the mark, so a claim made meanwhile either
    /// comes first (and completed the removal itself) or after. Returns the blobs removed.
    func completeDeletions(_ keys: [BlobKey]?, remove: (BlobKey) throws -> Void) throws(LibraryError) -> [BlobKey]
    /// Every claim, live or not.
    func blobClaims() throws(LibraryError) -> [ClaimRecord]
    /// Settles a stale claim (its process died or it expired): with `adopt` and a pending row whose
    /// blob no asset refers to, inserts that row (the import the crash interrupted) and returns
    /// its identifier. The claim is deleted either way; an unreferenced render it held is marked
    /// for removal (returned in the second value). Originals are never removed here.
    func settleStaleClaim(_ record: ClaimRecord, adopt: Bool) throws(LibraryError) -> (adopted: String?, deletions: [BlobKey])
    /// The user albums and folders, by title.
    func albums() throws(LibraryError) -> [AssetCollection]
    func album(localIdentifier: String) throws(LibraryError) -> AssetCollection?
    /// The row ids of an album's assets in album order, filtered as `options` says (its sort is ignored).
    func assetRowIDs(inAlbum localIdentifier: String, options: FetchOptions) throws(LibraryError) -> [Int64]
    func count(matching options: FetchOptions) throws(LibraryError) -> Int
    /// The count of each options' fetch, in one pass.
    func counts(matching list: [FetchOptions]) throws(LibraryError) -> [Int]
    /// The newest change-log sequence number (0 when empty).
    func latestChangeSequence() throws(LibraryError) -> Int64
    /// Change-log entries after `sequence`, oldest first.
    func changes(after sequence: Int64) throws(LibraryError) -> [ChangeLogEntry]
    /// The edit that made an asset's current version, if it has one.
    func contentEdit(localIdentifier: String) throws(LibraryError) -> ContentEdit?
    /// An edited asset's original length (its `duration` is the render's).
    func originalDuration(localIdentifier: String) throws(LibraryError) -> Double?
    // Authorization
    func register(_ manifest: ClientManifest) throws(LibraryError)
    func client(_ identifier: String) throws(LibraryError) -> ClientManifest?
    func clients() throws(LibraryError) -> [ClientManifest]
    /// The stored status name for a client and service (`nil`: never decided).
    func grant(client: String, service: String) throws(LibraryError) -> String?
    func setGrant(client: String, service: String, status: String?) throws(LibraryError)
    func limitedSelection(client: String) throws(LibraryError) -> [String]
    func setLimitedSelection(_ assets: [String], client: String) throws(LibraryError)
    func addClientToken(hash: String, client: String) throws(LibraryError)
    func client(forTokenHash hash: String) throws(LibraryError) -> String?
    func removeClientTokens(client: String) throws(LibraryError)
    func monthCounts(matching options: FetchOptions) throws(LibraryError) -> [(month: String, count: Int)]
    func assetPage(matching options: FetchOptions, after: Asset?, limit: Int) throws(LibraryError) -> [Asset]
    func logAccess(_ entries: [AccessLogEntry]) throws(LibraryError)
    func accessLog(client: String, limit: Int) throws(LibraryError) -> [AccessLogEntry]
    /// A library-wide setting.
    func setting(_ key: String) throws(LibraryError) -> String?
    func setSetting(_ key: String, to value: String?) throws(LibraryError)
}

/// An edit of an asset's content, as the catalog keeps it.
struct ContentEdit: Sendable {
    let renderHash: String
    let renderUniformTypeIdentifier: String
    let renderFileSize: Int
    /// The render's upright size and length.
    let pixelWidth: Int
    let pixelHeight: Int
    let duration: Double
    let adjustmentData: AdjustmentData
    let editorClient: String?
    let date: Date
}

/// A change to an asset's pixels.
enum ContentChange: Sendable {
    case edit(ContentEdit)
    case revert
}

/// One object touched by one commit.
struct ChangeLogEntry: Sendable {
    let sequence: Int64
    let commitID: String
    let date: Date
    let kind: String
    let localIdentifier: String
}


/// A blob as the catalog names it.
struct BlobKey: Sendable, Hashable {
    let kind: BlobKind
    let hash: String
}

/// One blob a change is about to file.
struct BlobClaim: Sendable {
    let key: BlobKey
    /// The row the import would insert (for adoption after a crash); `nil` for renders.
    let pendingRow: AssetRow?

    /// How long a claim holds without its change committing or failing: long enough for the
    /// slowest upload of a blob to object storage.
    static let lease: TimeInterval = 6 * 3_600

    /// Whether a claim still protects its blob: not expired, and its process not known dead.
    static func isLive(owner: String, expires: Date, now: Date = Date()) -> Bool {
        guard expires > now else { return false }
        return ProcessIdentity(owner)?.mayBeAlive ?? true
    }
}

/// A claim as the catalog holds it.
struct ClaimRecord: Sendable {
    let id: Int64
    let claimID: String
    let key: BlobKey
    let owner: String
    let expires: Date
    let pendingRow: AssetRow?

    var isLive: Bool { BlobClaim.isLive(owner: owner, expires: expires) }
}

/// What a committed change did beyond its requests.
struct CatalogCommit: Sendable {
    /// Placeholders whose bytes an asset already held → that asset.
    var duplicates: [String: String] = [:]
    /// Placeholders whose bytes sat in Recently Deleted → the asset, now restored.
    var restored: [String: String] = [:]
    /// Assets the purges deleted (those no longer trashed were left alone).
    var purged: [String] = []
    /// Blobs marked for removal: call ``CatalogStore/completeDeletions(_:remove:)``.
    var deletions: [BlobKey] = []
}

/// One transaction's worth of catalog writes.
struct CatalogChanges: Sendable {
    /// The claim this change holds on the blobs it filed, and how many blobs it claimed.
    var claimID: String?
    var claimCount = 0
    var insertions: [AssetRow] = []
    var updates: [AssetUpdate] = []
    var purges: [String] = []
    var albumCreations: [(localIdentifier: String, title: String, isFolder: Bool)] = []
    /// Changes to albums, in request order; asset identifiers may be placeholders listed in `aliases`.
    var albumOperations: [(localIdentifier: String, operations: [AssetCollectionChangeRequest.Operation])] = []
    var albumDeletions: [String] = []
    /// Placeholder identifiers of duplicate creations → the existing assets' (or another
    /// placeholder of this change, for the same bytes twice).
    var aliases: [String: String] = [:]

    /// The asset an identifier names once aliases are followed.
    func resolve(_ identifier: String) -> String {
        var current = identifier
        for _ in 0..<4 {
            guard let next = aliases[current], next != current else { break }
            current = next
        }
        return current
    }
}

/// New values for one asset's editable fields.
struct AssetUpdate: Sendable {
    let localIdentifier: String
    var isFavorite: Bool?
    var isHidden: Bool?
    var creationDate: Date?
    /// `.some(nil)` restores from Recently Deleted.
    var trashedDate: Date??
    var location: Asset.Location??
    var content: ContentChange? = nil
}
