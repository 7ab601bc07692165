import Foundation

/// How many assets of a fetch were taken in one city (or, with no `name`, elsewhere in a country).
package struct PlaceCount: Sendable, Hashable {
    /// The country's ISO 3166 code (``AssetRecord/placeCountry``).
    package let country: String
    /// The city (``AssetRecord/placeName``), or `nil` for those taken away from every named place.
    package let name: String?
    /// How many assets of the fetch were taken there.
    package let count: Int
    /// The middle of where they were taken.
    package let latitude: Double
    /// The mean longitude of where they were taken, in degrees.
    package let longitude: Double
    /// The row id of the most recently added one.
    package let coverRowID: Int64

    /// A count as ``AssetCatalog/placeCounts(matching:)`` returns it.
    package init(country: String, name: String?, count: Int, latitude: Double, longitude: Double, coverRowID: Int64) {
        (self.country, self.name, self.count, self.latitude, self.longitude, self.coverRowID) = (country, name, count, latitude, longitude, coverRowID)
    }
}
