import Foundation

/// The user albums and folders a catalog holds.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol AlbumCatalog: Sendable {
    /// The user albums and folders, by title.
    func albums() async throws(LibraryError) -> [AssetCollection]
    /// The user album or folder with this identifier, with its count as ``albums()`` has it;
    /// `nil` for any other (smart albums are the library's, not the catalog's).
    func album(localIdentifier: String) async throws(LibraryError) -> AssetCollection?
    /// The row ids of an album's assets in album order, filtered as `options` says (its sort is ignored).
    func assetRowIDs(inAlbum localIdentifier: String, options: FetchOptions) async throws(LibraryError) -> [Int64]
}
