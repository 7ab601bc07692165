import Foundation

/// How many assets of a fetch were taken in one calendar month
/// (``AssetCatalog/monthCounts(matching:)``).
package struct MonthCount: Sendable, Hashable {
    /// `YYYY-MM`, the month as the clock read where the assets were taken.
    package let month: String
    /// How many assets of the fetch were taken in ``month``.
    package let count: Int

    /// A count as ``AssetCatalog/monthCounts(matching:)`` returns it.
    package init(month: String, count: Int) {
        self.month = month
        self.count = count
    }
}
