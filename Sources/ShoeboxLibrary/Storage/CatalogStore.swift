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
    /// Applies a whole change in one transaction: everything or nothing. An insertion whose
    /// bytes another commit stored meanwhile is not inserted: the result maps its placeholder to
    /// that asset (checked inside the transaction, so concurrent imports never store one file twice).
    func apply(_ changes: CatalogChanges) throws(LibraryError) -> [String: String]
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
    /// Whether any asset (trashed ones included) refers to the blob.
    func isReferenced(hash: String, kind: BlobKind) throws(LibraryError) -> Bool
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


/// One transaction's worth of catalog writes.
struct CatalogChanges: Sendable {
    var insertions: [AssetRow] = []
    var updates: [AssetUpdate] = []
    var purges: [String] = []
    var albumCreations: [(localIdentifier: String, title: String, isFolder: Bool)] = []
    /// Changes to albums, in request order; asset identifiers may be placeholders listed in `aliases`.
    var albumOperations: [(localIdentifier: String, operations: [AssetCollectionChangeRequest.Operation])] = []
    var albumDeletions: [String] = []
    /// Placeholder identifiers of duplicate creations → the existing assets'.
    var aliases: [String: String] = [:]
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
