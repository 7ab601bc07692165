import Foundation

extension PhotoLibrary {
    /// A country where photos of a fetch were taken, with the cities in it.
    public struct PlaceCountry: Sendable, Hashable {
        /// ISO 3166 code (`IT`).
        public let code: String
        /// Its English name from the place table (`Italy`), else the code.
        public let name: String
        /// How many of the fetch's assets were taken in the country, those far from every city included.
        public let count: Int
        /// The most recently added of its photos.
        public let cover: Asset?
        /// Its cities, the most photographed first; photos far from every city count only for
        /// the country.
        public let cities: [PlaceCity]
    }

    /// A city (the place people name the spot by: ``AssetSearchText/place(for:places:)``) where
    /// photos of a fetch were taken.
    public struct PlaceCity: Sendable, Hashable {
        /// The city's name from the place table (`Rome`).
        public let name: String
        /// The ISO 3166 code of its country (`IT`).
        public let countryCode: String
        /// How many of the fetch's assets were taken there.
        public let count: Int
        /// The middle of where its photos were taken.
        public let latitude: Double
        /// The longitude of that middle, in decimal degrees (east positive).
        public let longitude: Double
        /// The most recently added of its photos.
        public let cover: Asset?
    }

    /// Photos of a fetch taken close together, as a map at some scale draws them: one mark with
    /// a count. Fetch them with ``FetchOptions/Predicate/region(south:west:north:east:)`` and
    /// the cluster's bounds.
    public struct MapCluster: Sendable, Hashable {
        /// How many of the fetch's assets the cluster holds.
        public let count: Int
        /// Their middle (the mean of their coordinates).
        public let latitude: Double
        /// The longitude of that middle, in decimal degrees (east positive).
        public let longitude: Double
        /// The box around them.
        public let south: Double, west: Double, north: Double, east: Double
        /// The most recently added of them.
        public let cover: Asset?
    }

    /// The countries and cities where the photos `options` fetch were taken, the most
    /// photographed first: the Places view. Read from the catalog's place columns, which the
    /// catalog writes from GPS and the offline place table with every change of a row (older
    /// rows: the `searchIndex` job).
    ///
    /// ```swift
    /// for country in try await library.fetchPlaces() {
    ///     print(country.name, country.count, country.cities.map(\.name))
    /// }
    /// ```
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not read; a
    ///   limited client sees the places of its own photos only.
    public func fetchPlaces(with options: FetchOptions = FetchOptions()) async throws(LibraryError) -> [PlaceCountry] {
        let rows = try await catalog.placeCounts(matching: try await scoped(options))
        let covers = try await catalog.assets(rowIDs: Array(Set(rows.map(\.coverRowID))))
        let names = configuration.places ?? Gazetteer.standard
        var byCountry: [String: [PlaceCount]] = [:]
        for row in rows { byCountry[row.country, default: []].append(row) }
        return byCountry.map { code, rows in
            let cover = rows.max { $0.coverRowID < $1.coverRowID }.flatMap { covers[$0.coverRowID] }
            let cities = rows.compactMap { row in
                row.name.map {
                    PlaceCity(
                        name: $0, countryCode: code, count: row.count, latitude: row.latitude, longitude: row.longitude,
                        cover: covers[row.coverRowID])
                }
            }.sorted { ($1.count, $0.name) < ($0.count, $1.name) }
            return PlaceCountry(
                code: code, name: names.countryName(code: code) ?? code, count: rows.reduce(0) { $0 + $1.count }, cover: cover,
                cities: cities)
        }.sorted { ($1.count, $0.name) < ($0.count, $1.name) }
    }

    /// The photos `options` fetch that have GPS, gathered in cells of `cellDegrees` of latitude
    /// and longitude (a map zoomed out to the world: 10°; to a city: 0.05°), in one query.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not read.
    public func fetchMapClusters(with options: FetchOptions = FetchOptions(), cellDegrees: Double) async throws(LibraryError) -> [MapCluster] {
        guard cellDegrees.isFinite, cellDegrees > 0 else { throw LibraryError.invalidArgument("a map cell of \(cellDegrees)° is not a size") }
        let rows = try await catalog.mapClusters(matching: try await scoped(options), cellDegrees: cellDegrees)
        let covers = try await catalog.assets(rowIDs: rows.map(\.coverRowID))
        return rows.map { row in
            MapCluster(
                count: row.count, latitude: row.latitude, longitude: row.longitude, south: row.south, west: row.west, north: row.north,
                east: row.east, cover: covers[row.coverRowID])
        }.sorted { $0.count > $1.count }
    }
}
