import Foundation

/// The assets a catalog holds, read: fetches, counts, pages, places, map cells, days and edits.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol AssetCatalog: Sendable {
    /// The row ids of the assets matching `options`, in order.
    func assetRowIDs(matching options: FetchOptions) async throws(LibraryError) -> [Int64]
    /// The assets with these row ids (missing ones are left out; assets purged less than a day
    /// ago are returned as they were).
    func assets(rowIDs: [Int64]) async throws(LibraryError) -> [Int64: Asset]
    /// The assets with these identifiers (unknown ones are left out).
    func assets(localIdentifiers: [String]) async throws(LibraryError) -> [String: Asset]
    /// How many assets match.
    func count(matching options: FetchOptions) async throws(LibraryError) -> Int
    /// How many frames each of these bursts has among the assets `options` fetch (with every
    /// frame included); bursts with none are left out.
    func burstFrameCounts(_ burstIdentifiers: [String], matching options: FetchOptions) async throws(LibraryError) -> [String: Int]
    /// The count of each options' fetch, in one pass.
    func counts(matching list: [FetchOptions]) async throws(LibraryError) -> [Int]
    /// Assets per calendar month (`YYYY-MM`, as the clock read where each was taken: its creation
    /// date plus its UTC offset) of their creation date, in the order of the
    /// options' creation-date sort.
    func monthCounts(matching options: FetchOptions) async throws(LibraryError) -> [MonthCount]
    /// ``assetRowIDs(matching:)`` and ``monthCounts(matching:)`` at once: where the grid
    /// summary cannot count the months (a search), both from one read of the matching rows.
    func assetRowIDsAndMonthCounts(matching options: FetchOptions) async throws(LibraryError) -> (rowIDs: [Int64], months: [MonthCount])
    /// The assets matching `options` that have a place, per country and city
    /// (``AssetRecord/placeName``), with the most recently added one's row id as the cover.
    func placeCounts(matching options: FetchOptions) async throws(LibraryError) -> [PlaceCount]
    /// The keyword lists (``AssetRecord/keywords``) of the assets matching `options` that have
    /// any, each distinct list once with how many assets have it.
    func keywordLists(matching options: FetchOptions) async throws(LibraryError) -> [(keywords: String, count: Int)]
    /// The assets matching `options` that have GPS, gathered in cells of `cellDegrees` of
    /// latitude and longitude.
    func mapClusters(matching options: FetchOptions, cellDegrees: Double) async throws(LibraryError) -> [MapClusterRow]

    /// The assets matching `options` per local day taken and place (``AssetRecord/placeName``),
    /// oldest day first, with the most recently added one's row id: what memories are made of.
    func dayCounts(matching options: FetchOptions) async throws(LibraryError) -> [DayCount]
    /// Up to `limit` assets in the options' order after `after` (keyset paging).
    func assetPage(matching options: FetchOptions, after: Asset?, limit: Int) async throws(LibraryError) -> [Asset]
    /// An edit of an asset's content: the edit that made its current version, if it has one.
    func contentEdit(localIdentifier: String) async throws(LibraryError) -> ContentEdit?
    /// An edited asset's original length (its `duration` is the render's).
    func originalDuration(localIdentifier: String) async throws(LibraryError) -> Double?
}

extension AssetCatalog {
    /// The asset with this identifier, if any.
    func asset(localIdentifier: String) async throws(LibraryError) -> Asset? {
        try await assets(localIdentifiers: [localIdentifier])[localIdentifier]
    }
}
