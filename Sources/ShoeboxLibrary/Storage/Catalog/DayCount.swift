import Foundation

/// How many assets of a fetch were taken on one day (the clock where they were taken) in one place.
package struct DayCount: Sendable, Hashable {
    /// `YYYY-MM-DD`.
    package let day: String
    /// The ISO 3166 code of the country (``AssetRecord/placeCountry``), or `nil` when not known.
    package let country: String?
    /// The city (``AssetRecord/placeName``), or `nil` when not known.
    package let place: String?
    /// How many assets of the fetch were taken that day in that place.
    package let count: Int
    /// The row id of the most recently added one.
    package let coverRowID: Int64

    /// A count as ``AssetCatalog/dayCounts(matching:)`` returns it.
    package init(day: String, country: String?, place: String?, count: Int, coverRowID: Int64) {
        (self.day, self.country, self.place, self.count, self.coverRowID) = (day, country, place, count, coverRowID)
    }
}
