import Foundation

/// How ``PhotoLibrary/fetchAssetCollections(with:subtype:options:)`` filters and orders albums
/// (`PHFetchOptions` as used for collections): typed, no predicate strings.
///
/// ```swift
/// var options = AssetCollectionFetchOptions()
/// options.titleContains = "trip"
/// options.includesEmptyCollections = false
/// let trips = try await library.fetchAssetCollections(with: .album, options: options)
/// ```
public struct AssetCollectionFetchOptions: Sendable, Hashable {
    /// Only collections whose title contains this, ignoring case and diacritics.
    public var titleContains: String?
    /// Whether collections with no assets (that this library's client may see) are included.
    public var includesEmptyCollections: Bool
    /// `true` / `false`: by title, ascending / descending; `nil`: the natural order (smart albums
    /// in sidebar order, albums by title, folders' albums by their order).
    public var sortsByTitleAscending: Bool?
    /// At most this many; `nil` or 0: all.
    public var fetchLimit: Int?

    /// Options from their parts; the defaults filter nothing and keep the natural order.
    public init(titleContains: String? = nil, includesEmptyCollections: Bool = true, sortsByTitleAscending: Bool? = nil, fetchLimit: Int? = nil) {
        self.titleContains = titleContains
        self.includesEmptyCollections = includesEmptyCollections
        self.sortsByTitleAscending = sortsByTitleAscending
        self.fetchLimit = fetchLimit
    }

    func apply(to collections: [AssetCollection]) -> [AssetCollection] {
        var result = collections
        if let text = titleContains, !text.isEmpty {
            result = result.filter { $0.localizedTitle.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil }
        }
        if !includesEmptyCollections {
            result = result.filter { $0.estimatedAssetCount > 0 }
        }
        if let ascending = sortsByTitleAscending {
            result.sort {
                let order = $0.localizedTitle.localizedStandardCompare($1.localizedTitle)
                return ascending ? order == .orderedAscending : order == .orderedDescending
            }
        }
        if let limit = fetchLimit, limit > 0, result.count > limit {
            result = Array(result.prefix(limit))
        }
        return result
    }
}
