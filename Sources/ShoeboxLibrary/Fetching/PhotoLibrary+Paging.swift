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

        /// Sections of catalog counts, each starting where the one before ends.
        static func sections(_ months: [MonthCount]) -> [MonthSection] {
            var start = 0
            return months.map { month in
                defer { start += month.count }
                return MonthSection(month: month.month, count: month.count, start: start)
            }
        }
    }

    /// The months of the assets `options` fetches, with their counts and start indexes, in the
    /// fetch's creation-date order: the sections of a grid with date headers, in one query.
    ///
    /// Meaningful when the first sort key is the creation date; for other orders it still counts
    /// per month, but the months are not contiguous in the result.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not read.
    public func fetchMonthSections(with options: FetchOptions = FetchOptions()) async throws(LibraryError) -> [MonthSection] {
        MonthSection.sections(try await catalog.monthCounts(matching: try await scoped(options)))
    }

    /// A page of the assets `options` fetches: up to `limit` of them that come after `asset` in
    /// the fetch's order (the first page when `nil`), and whether more follow. Keyset paging: a
    /// page starts after the last asset seen, so assets inserted or removed meanwhile never shift
    /// or repeat a page. (The library's one paging API; a ``FetchResult`` loads its own pages by
    /// index as it is read.)
    ///
    /// ```swift
    /// var page = try await library.fetchAssetPage(with: options, after: nil, limit: 200)
    /// show(page.assets)
    /// while page.hasMore {
    ///     page = try await library.fetchAssetPage(with: options, after: page.assets.last, limit: 200)
    ///     show(page.assets)
    /// }
    /// ```
    ///
    /// Only the page's assets count as read (the access log), not the one looked at beyond it.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not read.
    public func fetchAssetPage(with options: FetchOptions, after asset: Asset?, limit: Int) async throws(LibraryError) -> AssetPage {
        try await page(of: options, after: asset, limit: limit)
    }

    /// The assets of ``fetchAssetPage(with:after:limit:)``.
    @available(*, deprecated, renamed: "fetchAssetPage(with:after:limit:)", message: "use fetchAssetPage(with:after:limit:).assets")
    public func fetchAssets(with options: FetchOptions, after asset: Asset?, limit: Int) async throws(LibraryError) -> [Asset] {
        try await page(of: options, after: asset, limit: limit).assets
    }

    private func page(of options: FetchOptions, after asset: Asset?, limit: Int) async throws(LibraryError) -> AssetPage {
        let limit = min(max(limit, 0), 10_000)
        var page = try await catalog.assetPage(matching: try await scoped(options), after: asset, limit: limit + 1)
        let hasMore = page.count > limit
        if hasMore { page.removeLast() }
        logFetch(count: page.count)
        logRevealed(page)
        return AssetPage(assets: page, hasMore: hasMore)
    }
}
