import Foundation

/// The search words and place names the catalog keeps beside each asset.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol SearchCatalog: Sendable {
    /// Writes the search words (``AssetSearchText``) of up to `limit` assets that have none yet
    /// (rows from before search, or written by a store that does not index); returns how many.
    func fillSearchText(limit: Int) async throws(LibraryError) -> Int

    /// Clears the search words of every asset with GPS (``fillSearchText(limit:)`` writes them
    /// and the place names again by the place table there now), and returns the local identifiers of the
    /// assets with GPS whose local time should be read again (`zonesToReread`).
    func forgetPlaceNames(zonesToReread: PlaceZoneReread) async throws(LibraryError) -> [String]
}
