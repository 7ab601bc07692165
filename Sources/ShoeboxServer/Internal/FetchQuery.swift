import Foundation
import Hummingbird
import ShoeboxLibrary

/// The filters and order of a listing, from a JSON body or a query string: the library's
/// `FetchOptions` in HTTP form.
///
/// `album` (an album's or smart album's identifier), `mediaType` (`image` or `video`),
/// `favorite`, `hidden` (only hidden ones), `trashed` (Recently Deleted), `hasLocation`,
/// `filename` (contains), `client` (created by), `burst` (every frame of the burst with this
/// identifier; otherwise a burst shows as its key photo), `search` (what a search box holds:
/// `SearchQuery`), `place` (`IT`, or a city: `IT/Rome`), `keyword` (has the keyword, or one below it: `Places/Italy`), `region` (`south,west,north,east` in
/// degrees: a map cluster's bounds), `memory` (a memory's photos: `GET /api/memories`), `sort` (`creationDate`, `modificationDate`,
/// `addedDate`, `filename`, `duration`, `fileSize`) and `ascending`; `partners` (`true`: with the
/// photos partners share that the caller shows in their timeline) and `partner` (a person's
/// name or id: only what they share with the caller); `library` (`both`, `personal` or `shared`:
/// which of a Shared Library participant's libraries).
package struct FetchQuery: Codable, Sendable, Hashable {
    package var album: String?
    package var mediaType: String?
    package var favorite: Bool?
    package var hidden: Bool?
    package var trashed: Bool?
    package var hasLocation: Bool?
    package var filename: String?
    package var client: String?
    package var burst: String?
    package var search: String?
    package var place: String?
    package var keyword: String?
    package var region: String?
    package var memory: String?
    package var sort: String?
    package var ascending: Bool?
    package var partners: Bool?
    package var partner: String?
    package var library: String?

    package init(parameters: Parameters) throws(APIError) {
        album = parameters.get("album")
        mediaType = parameters.get("mediaType") ?? parameters.get("type")
        favorite = try Self.bool(parameters, "favorite")
        hidden = try Self.bool(parameters, "hidden")
        trashed = try Self.bool(parameters, "trashed")
        hasLocation = try Self.bool(parameters, "hasLocation")
        filename = parameters.get("filename")
        client = parameters.get("client")
        burst = parameters.get("burst")
        search = parameters.get("search")
        place = parameters.get("place")
        keyword = parameters.get("keyword")
        region = parameters.get("region")
        memory = parameters.get("memory")
        sort = parameters.get("sort")
        ascending = try Self.bool(parameters, "ascending")
        partners = try Self.bool(parameters, "partners")
        partner = parameters.get("partner")
        library = parameters.get("library")
    }

    package init() {}

    static func bool(_ parameters: Parameters, _ name: String) throws(APIError) -> Bool? {
        guard let value = parameters.get(name) else { return nil }
        switch value.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw .badRequest("\(name) must be true or false, not \(value)")
        }
    }

    /// The library options, and the collection when `album` names one.
    func resolve(in library: PhotoLibrary) async throws(APIError) -> (options: FetchOptions, collection: AssetCollection?) {
        var options = try self.options()
        if let partner {
            guard album == nil, partners == nil else { throw .badRequest("partner lists one partner's photos: not with album or partners") }
            do {
                options = try await library.partnerFetchOptions(from: partner, base: options)
            } catch {
                throw APIError(library: error)
            }
        }
        guard let album else { return (options, nil) }
        let collection: AssetCollection?
        do {
            collection = try await library.assetCollection(withLocalIdentifier: album)
        } catch {
            throw APIError(library: error)
        }
        guard let collection else { throw .notFound("no album \(album)") }
        if collection.assetCollectionType == .album, sort == nil, ascending == nil { options.sortDescriptors = [] }
        return (options, collection)
    }

    /// The filters and order, without the album.
    package func options() throws(APIError) -> FetchOptions {
        var predicates: [FetchOptions.Predicate] = []
        switch mediaType {
        case nil: break
        case "image"?: predicates.append(.mediaType(.image))
        case "video"?: predicates.append(.mediaType(.video))
        case let other?: throw .badRequest("mediaType must be image or video, not \(other)")
        }
        if let favorite { predicates.append(.isFavorite(favorite)) }
        if let hasLocation { predicates.append(.hasLocation(hasLocation)) }
        if let filename, !filename.isEmpty {
            // A file name is at most 255 bytes: a longer filter finds nothing and costs every row.
            guard filename.utf8.count <= 255 else { throw .badRequest("filename is at most 255 bytes, as a file name is") }
            predicates.append(.filenameContains(filename))
        }
        if let client { predicates.append(.creatorClient(client)) }
        if hidden == true { predicates.append(.isHidden(true)) }
        if trashed == true { predicates.append(.isTrashed(true)) }
        if let burst { predicates.append(.burstIdentifier(burst)) }
        if let search {
            guard search.count <= 500 else { throw .badRequest("search is at most 500 characters") }
            if let predicate = SearchQuery(search).predicate { predicates.append(predicate) }
        }
        if let keyword {
            let trimmed = keyword.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= 200 else { throw .badRequest("keyword is 1 to 200 characters") }
            predicates.append(.keyword(trimmed))
        }
        if let place {
            let parts = place.split(separator: "/", maxSplits: 1).map(String.init)
            guard let country = parts.first, country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter }), place.count <= 200 else {
                throw .badRequest("place must be a country code, or a country code, / and a city (IT/Rome), not \(place)")
            }
            predicates.append(.place(country: country.uppercased(), name: parts.count > 1 ? parts[1] : nil))
        }
        if let region {
            let numbers = region.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 4, numbers.allSatisfy(\.isFinite), (-90...90).contains(numbers[0]), (-90...90).contains(numbers[2]),
                numbers[0] <= numbers[2], (-180...180).contains(numbers[1]), (-180...180).contains(numbers[3])
            else {
                throw .badRequest("region must be south,west,north,east in degrees (south ≤ north), not \(region)")
            }
            predicates.append(.region(south: numbers[0], west: numbers[1], north: numbers[2], east: numbers[3]))
        }
        if let memory {
            guard let predicate = Memory.predicate(forIdentifier: memory) else { throw .badRequest("memory names no memory: \(memory)") }
            predicates.append(predicate)
        }
        var options = FetchOptions(
            predicate: predicates.isEmpty ? nil : .all(predicates),
            includeHiddenAssets: hidden == true, includeTrashedAssets: trashed == true,
            includeAllBurstAssets: burst != nil)
        options.includePartnerAssets = partners == true && album == nil
        if let library {
            guard let scope = FetchOptions.LibraryScope(rawValue: library) else {
                throw .badRequest("library must be both, personal or shared, not \(library)")
            }
            options.library = scope
        }
        if let sort {
            guard let key = FetchOptions.SortDescriptor.Key(rawValue: sort) else {
                throw .badRequest("sort must be one of \(FetchOptions.SortDescriptor.Key.allCases.map(\.rawValue).joined(separator: ", ")), not \(sort)")
            }
            options.sortDescriptors = [.init(key: key, ascending: ascending ?? true)]
        } else if let ascending {
            options.sortDescriptors = [.init(key: .creationDate, ascending: ascending)]
        }
        return options
    }

    /// Fetches everything the query selects (a snapshot).
    func fetch(in library: PhotoLibrary) async throws(APIError) -> FetchResult<Asset> {
        let (options, collection) = try await resolve(in: library)
        do {
            if let collection { return try await library.fetchAssets(in: collection, options: options) }
            return try await library.fetchAssets(with: options)
        } catch {
            throw APIError(library: error)
        }
    }
}
