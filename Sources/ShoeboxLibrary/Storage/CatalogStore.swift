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
    func apply(_ changes: CatalogChanges) throws(LibraryError)
}

/// One transaction's worth of catalog writes.
struct CatalogChanges: Sendable {
    var insertions: [AssetRow] = []
    var updates: [AssetUpdate] = []
    var purges: [String] = []
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
}
