import Foundation
import Hummingbird
import ShoeboxLibrary
import ShoeboxSupport

/// Correcting what the camera got wrong: dates (with a preview), places (searched in the
/// offline place table), titles, captions, keywords and ratings of a selection, and the
/// Keywords view.
struct MetadataRoutes {
    let state: ServerState

    struct CaptureTimeJSON: Encodable {
        /// The time as the clock read where it was taken, `2019-06-12T14:30:00`.
        let localDate: String
        let timeZoneOffset: Int?
        let timeZone: String?
        let creationDate: Date

        init(_ time: CaptureTime) {
            (localDate, timeZoneOffset, timeZone, creationDate) = (time.localDateString, time.timeZoneOffset, time.timeZoneIdentifier, time.date)
        }
    }

    struct PreviewRow: Encodable {
        let localIdentifier: String
        let originalFilename: String
        let before: CaptureTimeJSON
        let after: CaptureTimeJSON
    }

    struct Preview: Encodable {
        let count: Int
        /// The first ``MetadataRoutes/previewLimit`` of the assets, earliest first.
        let preview: [PreviewRow]
    }

    struct KeywordJSON: Encodable {
        let keyword: String
        let count: Int
    }

    struct PlaceJSON: Encodable {
        let name: String
        let region: String?
        let country: String
        let countryCode: String
        let latitude: Double
        let longitude: Double
        let timeZone: String
        let population: Int
    }

    struct PlaceSearch: Encodable {
        let places: [PlaceJSON]
        let placesInstalled: Bool
    }

    /// How many assets a preview lists (the count says how many change).
    static let previewLimit = 500

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.post("assets/metadata") { request, context in
            let library = try state.handle(for: context.caller).library
            let body = try await JSONResponse.decode(RequestBody.MetadataChange.self, from: request)
            let adjustment = try body.adjustment()
            let assets = try await AssetSelection.assets(
                named: body.assets, fetch: body.fetch, except: body.except, wholeBursts: body.wholeBursts == true, in: library, state: state,
                context: context)
            if body.preview == true {
                guard let change = adjustment.date else { throw APIError.badRequest("a preview shows a date change: give date") }
                let previews: [DatePreview]
                do { previews = try library.previewDates(change, of: assets) } catch { throw APIError(error) }
                let shown = previews.sorted { $0.before.date < $1.before.date }.prefix(Self.previewLimit)
                return try JSONResponse.make(
                    Preview(
                        count: previews.count,
                        preview: shown.map {
                            PreviewRow(
                                localIdentifier: $0.asset.localIdentifier, originalFilename: $0.asset.originalFilename,
                                before: CaptureTimeJSON($0.before), after: CaptureTimeJSON($0.after))
                        }))
            }
            guard !assets.isEmpty else { return try JSONResponse.make(["done": 0]) }
            do { try await library.adjustMetadata(of: assets, adjustment) } catch { throw APIError(error) }
            return try JSONResponse.make(["done": assets.count])
        }
        api.get("keywords") { request, context in
            let library = try state.handle(for: context.caller).library
            let options = try FetchQuery(parameters: request.uri.queryParameters).options()
            let keywords: [KeywordCount]
            do { keywords = try await library.fetchKeywords(with: options) } catch { throw APIError(error) }
            return try JSONResponse.make(["keywords": keywords.map { KeywordJSON(keyword: $0.keyword, count: $0.count) }])
        }
        api.get("places/search") { request, context in
            let library = try state.handle(for: context.caller).library
            do { try await library.checkReadAccess() } catch { throw APIError(error) }
            let parameters = request.uri.queryParameters
            let text = (parameters.get("q") ?? "").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, text.count <= 200 else { throw APIError.badRequest("q is the start of a place's name, 1 to 200 characters") }
            let limit = parameters.get("limit", as: Int.self) ?? 10
            guard (1...50).contains(limit) else { throw APIError.badRequest("limit is 1 to 50") }
            let places = library.configuration.places ?? Gazetteer.standard
            // The first search folds the table's names: off the event loops.
            let found = try await BlockingPool.shared.run { () -> [PlaceJSON] in
                places.places(named: text, limit: limit).map { place in
                    PlaceJSON(
                        name: place.name, region: places.regionName(countryCode: place.countryCode, regionCode: place.regionCode),
                        country: places.countryName(code: place.countryCode) ?? place.countryCode, countryCode: place.countryCode,
                        latitude: place.latitude, longitude: place.longitude, timeZone: place.timeZoneIdentifier, population: place.population)
                }
            }
            return try JSONResponse.make(PlaceSearch(places: found, placesInstalled: places.isLoaded))
        }
    }
}
