import Foundation
import Hummingbird
import ShoeboxLibrary

/// Where photos were taken: `/api/places` (countries and cities with counts and covers),
/// `/api/places/clusters` (marks for a map at a scale) and `/api/places/world` (the countries'
/// outlines the map draws). A client sees the places of what its grant lets it see.
struct PlaceRoutes {
    let state: ServerState

    struct CityJSON: Encodable {
        let name: String
        let countryCode: String
        let count: Int
        let latitude: Double
        let longitude: Double
        let cover: AssetJSON?
    }

    struct CountryJSON: Encodable {
        let code: String
        let name: String
        let count: Int
        let cover: AssetJSON?
        let cities: [CityJSON]
    }

    struct Places: Encodable {
        let countries: [CountryJSON]
        /// Whether the offline place table is installed (without it nothing has a place).
        let placesInstalled: Bool
    }

    struct ClusterJSON: Encodable {
        let count: Int
        let latitude: Double
        let longitude: Double
        /// `south,west,north,east`: the `region` filter that fetches the cluster's photos.
        let region: String
        let cover: AssetJSON?
    }

    struct Clusters: Encodable {
        let cell: Double
        let clusters: [ClusterJSON]
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.get("places") { request, context in
            let library = try state.handle(for: context.caller).library
            let options = try FetchQuery(parameters: request.uri.queryParameters).options()
            let countries: [PhotoLibrary.PlaceCountry]
            do { countries = try await library.fetchPlaces(with: options) } catch { throw APIError(error) }
            let covers = Dictionary(await AssetJSON.list(Self.covers(of: countries), in: library).map { ($0.localIdentifier, $0) }) { first, _ in first }
            return try JSONResponse.make(
                Places(
                    countries: countries.map { country in
                        CountryJSON(
                            code: country.code, name: country.name, count: country.count, cover: country.cover.flatMap { covers[$0.localIdentifier] },
                            cities: country.cities.map { city in
                                CityJSON(
                                    name: city.name, countryCode: city.countryCode, count: city.count, latitude: city.latitude,
                                    longitude: city.longitude, cover: city.cover.flatMap { covers[$0.localIdentifier] })
                            })
                    }, placesInstalled: library.configuration.places?.isLoaded ?? false))
        }
        api.get("places/clusters") { request, context in
            let library = try state.handle(for: context.caller).library
            let parameters = request.uri.queryParameters
            guard let cell = parameters.get("cell", as: Double.self), cell.isFinite, (0.0001...90).contains(cell) else {
                throw APIError.badRequest("cell must be the size of a map cell in degrees, 0.0001 to 90")
            }
            let options = try FetchQuery(parameters: parameters).options()
            let clusters: [PhotoLibrary.MapCluster]
            do { clusters = try await library.fetchMapClusters(with: options, cellDegrees: cell) } catch { throw APIError(error) }
            let covers = Dictionary(await AssetJSON.list(clusters.compactMap(\.cover), in: library).map { ($0.localIdentifier, $0) }) { first, _ in first }
            return try JSONResponse.make(
                Clusters(
                    cell: cell,
                    clusters: clusters.map { cluster in
                        ClusterJSON(
                            count: cluster.count, latitude: cluster.latitude, longitude: cluster.longitude,
                            region: Self.region(south: cluster.south, west: cluster.west, north: cluster.north, east: cluster.east),
                            cover: cluster.cover.flatMap { covers[$0.localIdentifier] })
                    }))
        }
        api.get("places/world") { request, context in
            do { try await state.handle(for: context.caller).library.checkReadAccess() } catch { throw APIError(error) }
            guard let url = (state.library.configuration.places ?? Gazetteer.standard).worldOutlinesURL else {
                throw APIError.notFound("the countries' outlines are not installed: run scripts/places install (world.json beside the place table)")
            }
            let size = await FileResponse.size(of: url) ?? 0
            return try await FileResponse.make(
                url, contentType: "application/json", entityTag: "\"world-\(size)\"", immutable: false,
                request: request, context: context, fileIO: state.fileIO)
        }
    }

    /// A cluster's bounds as the `region` filter, rounded outwards to 0.00001° (a metre) so that
    /// the URL stays short and every photo of the cluster stays inside.
    static func region(south: Double, west: Double, north: Double, east: Double) -> String {
        func out(_ value: Double, _ rule: FloatingPointRoundingRule) -> String {
            let rounded = (value * 100_000).rounded(rule) / 100_000
            return String(format: "%.5f", rounded).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
        }
        return [out(south, .down), out(west, .down), out(north, .up), out(east, .up)].joined(separator: ",")
    }

    static func covers(of countries: [PhotoLibrary.PlaceCountry]) -> [Asset] {
        var seen: Set<String> = []
        return (countries.compactMap(\.cover) + countries.flatMap { $0.cities.compactMap(\.cover) }).filter { seen.insert($0.localIdentifier).inserted }
    }
}
