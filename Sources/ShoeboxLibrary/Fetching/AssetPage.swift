/// A page of assets from ``PhotoLibrary/fetchAssetPage(with:after:limit:)``.
public struct AssetPage: Sendable {
    /// The page's assets, in the fetch's order.
    public let assets: [Asset]
    /// Whether more assets follow the page: ask for the next one after ``assets``' last.
    public let hasMore: Bool

    /// A page of `assets`, with more to come when `hasMore`.
    package init(assets: [Asset], hasMore: Bool) {
        self.assets = assets
        self.hasMore = hasMore
    }
}
