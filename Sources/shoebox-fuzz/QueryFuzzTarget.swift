import Foundation
import Hummingbird
import HummingbirdCore
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer

/// Listing filters, from a query string (`GET /api/assets?…`, as Hummingbird splits and
/// percent-decodes it) and from JSON (`POST /api/fetches`), and the thumbnail size a query asks for.
enum QueryFuzzTarget {
    static func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        let parameters = URI("/api/assets?" + text).queryParameters
        do {
            let query = try FetchQuery(parameters: parameters)
            check(query, parameters: parameters)
            checkOptions(query)
        } catch {
            let refused = ["favorite", "hidden", "trashed", "hasLocation", "ascending"].contains { name in
                parameters.get(name).map { !["true", "1", "yes", "false", "0", "no"].contains($0.lowercased()) } ?? false
            }
            FuzzCheck.require(refused, "\(text.debugDescription) was refused: \(error)")
        }
        if let size = parameters.get("size"), let parsed = try? MediaRoutes.parseSize(size) {
            let side = MediaRoutes.maximumThumbnailSide
            FuzzCheck.require((1...side).contains(parsed.width) && (1...side).contains(parsed.height), "size \(size) read as \(parsed)")
        }
    }

    /// Each field is its parameter, as given.
    private static func check(_ query: FetchQuery, parameters: Parameters) {
        func flag(_ name: String) -> Bool? {
            parameters.get(name).flatMap {
                ["true", "1", "yes"].contains($0.lowercased()) ? true : (["false", "0", "no"].contains($0.lowercased()) ? false : nil)
            }
        }
        FuzzCheck.require(
            query.album == parameters.get("album") && query.filename == parameters.get("filename")
                && query.client == parameters.get("client") && query.sort == parameters.get("sort"), "a text parameter changed")
        FuzzCheck.require(query.mediaType == (parameters.get("mediaType") ?? parameters.get("type")), "mediaType \(query.mediaType ?? "nil")")
        FuzzCheck.require(
            query.favorite == flag("favorite") && query.hidden == flag("hidden") && query.trashed == flag("trashed")
                && query.hasLocation == flag("hasLocation") && query.ascending == flag("ascending"), "a flag read wrong")
    }

    /// The options say what the query says: one condition per filter, hidden and trashed assets
    /// only when asked for, one order. Stored as JSON (fetch snapshots), a query reads back the same.
    static func checkOptions(_ query: FetchQuery) {
        do {
            let decoded = try JSONResponse.decode(FetchQuery.self, from: try JSONResponse.encoder.encode(query))
            FuzzCheck.require(decoded == query, "\(query) does not read back from JSON")
        } catch {
            FuzzCheck.require(false, "\(query) cannot go through JSON: \(error)")
        }
        let options: FetchOptions
        do {
            options = try query.options()
        } catch {
            let badType = query.mediaType.map { !["image", "video"].contains($0) } ?? false
            let badSort = query.sort.map { FetchOptions.SortDescriptor.Key(rawValue: $0) == nil } ?? false
            let longName = (query.filename?.utf8.count ?? 0) > 255
            // search, place, region and memory have grammars of their own (their tests cover them).
            let otherFilter = query.search != nil || query.place != nil || query.region != nil || query.memory != nil
            FuzzCheck.require(
                error.status == .badRequest && (badType || badSort || longName || otherFilter), "\(query) was refused: \(error)")
            return
        }
        FuzzCheck.require(
            options.includeHiddenAssets == (query.hidden == true) && options.includeTrashedAssets == (query.trashed == true),
            "hidden or trashed assets without being asked for")
        let conditions = [
            query.mediaType != nil, query.favorite != nil, query.hasLocation != nil, !(query.filename ?? "").isEmpty,
            query.client != nil, query.hidden == true, query.trashed == true,
        ].filter { $0 }.count
        guard query.search == nil, query.place == nil, query.region == nil, query.memory == nil, query.burst == nil else { return }
        switch options.predicate {
        case nil: FuzzCheck.require(conditions == 0, "\(conditions) filters and no condition")
        case .all(let list)?: FuzzCheck.require(list.count == conditions, "\(conditions) filters and \(list.count) conditions")
        default: FuzzCheck.require(false, "the conditions are not one conjunction")
        }
        FuzzCheck.require(options.sortDescriptors.count == 1, "\(options.sortDescriptors.count) orders")
        if let sort = query.sort {
            FuzzCheck.require(
                options.sortDescriptors[0].key.rawValue == sort && options.sortDescriptors[0].ascending == (query.ascending ?? true),
                "sorted by \(options.sortDescriptors[0]) for \(sort)")
        }
    }
}
