import Foundation

/// The assets of a fetch taken in one cell of a map: how many, their middle and their bounds.
package struct MapClusterRow: Sendable, Hashable {
    /// How many assets of the fetch have GPS in the cell.
    package let count: Int
    /// The mean latitude of the cell's assets, in degrees: where a map shows the cluster.
    package let latitude: Double
    /// The mean longitude of the cell's assets, in degrees.
    package let longitude: Double
    /// The lowest latitude among them, in degrees.
    package let south: Double
    /// The lowest longitude among them, in degrees (cells never cross the antimeridian).
    package let west: Double
    /// The highest latitude among them, in degrees.
    package let north: Double
    /// The highest longitude among them, in degrees.
    package let east: Double
    /// The row id of the most recently added one.
    package let coverRowID: Int64

    /// A cell as ``AssetCatalog/mapClusters(matching:cellDegrees:)`` returns it.
    package init(count: Int, latitude: Double, longitude: Double, south: Double, west: Double, north: Double, east: Double, coverRowID: Int64) {
        (self.count, self.latitude, self.longitude, self.coverRowID) = (count, latitude, longitude, coverRowID)
        (self.south, self.west, self.north, self.east) = (south, west, north, east)
    }
}
