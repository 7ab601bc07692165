import Foundation

extension PhotoLibrary {
    /// How many assets of a fetch fall in one calendar month: a section of a grid with date
    /// headers.
    public struct MonthSection: Sendable, Hashable, Codable {
        /// The month as `YYYY-MM` (UTC).
        public let month: String
        /// How many of the fetch's assets were taken in the month (more than 0).
        public let count: Int
        /// The index of the section's first asset in the fetch result.
        public let start: Int
    }

    /// The months of the assets `options` fetches, with their counts and start indexes, in the
    /// fetch's creation-date order: the sections of a grid with date headers, in one query.
    ///
    /// Meaningful when the first sort key is the creation date; for other orders it still counts
    /// per month, but the months are not contiguous in the result.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not read.
    public func fetchMonthSections(with options: FetchOptions = FetchOptions()) async throws(LibraryError) -> [MonthSection] {
        var start = 0
        return try await catalog.monthCounts(matching: try await scoped(options)).map { month in
            defer { start += month.count }
            return MonthSection(month: month.month, count: month.count, start: start)
        }
    }

    /// A page of the assets `options` fetches: up to `limit` of them that come after `asset` in
    /// the fetch's order (the first page when `nil`). Keyset paging: a page starts after the last
    /// asset seen, so assets inserted or removed meanwhile never shift or repeat a page.
    ///
    /// ```swift
    /// var page = try await library.fetchAssets(with: options, after: nil, limit: 200)
    /// while let last = page.last {
    ///     show(page)
    ///     page = try await library.fetchAssets(with: options, after: last, limit: 200)
    /// }
    /// ```
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not read.
    public func fetchAssets(with options: FetchOptions, after asset: Asset?, limit: Int) async throws(LibraryError) -> [Asset] {
        try await page(of: options, after: asset, limit: limit, looksAhead: false).assets
    }

    /// ``fetchAssets(with:after:limit:)``, and whether more assets follow the page: for a caller
    /// that hands pages on (an HTTP API's `next` cursor). Only the page's assets count as read
    /// (the access log), not the one looked at beyond it.
    public func fetchAssetPage(with options: FetchOptions, after asset: Asset?, limit: Int) async throws(LibraryError) -> (assets: [Asset], hasMore: Bool) {
        try await page(of: options, after: asset, limit: limit, looksAhead: true)
    }

    private func page(of options: FetchOptions, after asset: Asset?, limit: Int, looksAhead: Bool) async throws(LibraryError) -> (assets: [Asset], hasMore: Bool) {
        let limit = min(max(limit, 0), 10_000)
        var page = try await catalog.assetPage(matching: try await scoped(options), after: asset, limit: looksAhead ? limit + 1 : limit)
        let hasMore = page.count > limit
        if hasMore { page.removeLast() }
        logFetch(count: page.count)
        logRevealed(page)
        return (page, hasMore)
    }
}
