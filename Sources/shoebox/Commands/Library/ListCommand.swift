import ArgumentParser
import Foundation
import ShoeboxLibrary
import ShoeboxServer

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the library's assets.",
        discussion: """
            Each line shows when the asset was taken as the clock read where it was taken, with \
            its UTC offset when known (from the file, or from the time zone of where it was \
            taken). Sorting goes by the instant.

            JSON objects are the HTTP API's assets (docs/API.md): localIdentifier, mediaType \
            (image|video), mediaSubtypes, pixelWidth, pixelHeight (upright), creationDate (the \
            instant, UTC), localCreationDate (the clock where it was taken), timeZoneOffset \
            (seconds east of UTC, or null when unknown), timeZone (IANA name, when it came from \
            the place), place, latitude, longitude, altitude, duration, originalFilename, \
            isFavorite, isHidden, isTrashed, trashedDate, title, caption, keywords, rating \
            (1–5), label, modificationDate, addedDate, \
            contentHash, uniformTypeIdentifier, fileSize, originalFileCount, hasAdjustments, \
            originalAssetIdentifier, creatorClient, version, thumbnailPending, burstIdentifier \
            (null for none), representsBurst, and for a key photo burstCount. Unlike the API, \
            the keys timeZoneOffset, timeZone, latitude, longitude, originalAssetIdentifier, \
            creatorClient and burstIdentifier are always there (null when unknown).

            A burst lists as its key photo ("burst of N" and its identifier) unless --bursts is given; \
            --burst ID lists its frames.

            --search takes what the web app's search field takes: words found in file names, \
            cameras, lenses, places and album titles, dates ("2019", "june 2021", "last summer") \
            and kinds ("videos", "favorites", "live", "raw"), all of which must hold: \
            shoebox ls --search "italy 2019 videos". What it understood goes to standard error.
            """)

    enum MediaTypeOption: String, ExpressibleByArgument, CaseIterable { case image, video }
    enum SortOption: String, ExpressibleByArgument, CaseIterable {
        case creationDate, modificationDate, addedDate, filename, duration, fileSize
    }

    @OptionGroup var options: LibraryOptions

    @Option(help: "Only the assets of this album (title or identifier), in the album's order unless --sort is given.")
    var album: String?

    @Option(help: "Only images or only videos.")
    var type: MediaTypeOption?

    @Flag(help: "Only favorites.")
    var favorites = false

    @Flag(help: "Only hidden assets.")
    var hidden = false

    @Flag(help: "Only assets in Recently Deleted.")
    var trash = false

    @Flag(help: "Every frame of each burst, not only its key photo.")
    var bursts = false

    @Option(help: ArgumentHelp("Only the frames of this burst.", valueName: "burst-identifier"))
    var burst: String?

    @Option(help: ArgumentHelp("Only what this search finds (see below).", valueName: "text"))
    var search: String?

    @Option(help: ArgumentHelp("Only assets with this keyword (or one below it: Places/Italy).", valueName: "keyword"))
    var keyword: String?
    @Option(help: "Sort key (default: creationDate; an album keeps its own order unless this is given).")
    var sort: SortOption?

    @Flag(help: "Newest (largest) first.")
    var descending = false

    @Option(help: "At most this many.")
    var limit: Int?

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let library = try await options.open()
        var predicates: [FetchOptions.Predicate] = []
        if let type { predicates.append(.mediaType(type == .image ? .image : .video)) }
        if favorites { predicates.append(.isFavorite(true)) }
        if hidden { predicates.append(.isHidden(true)) }
        if trash { predicates.append(.isTrashed(true)) }
        if let burst { predicates.append(.burstIdentifier(burst)) }
        if let keyword { predicates.append(.keyword(keyword)) }
        if let search {
            let query = SearchQuery(search)
            FileHandle.standardError.write(
                Data("searching for \(query.terms.isEmpty ? "everything" : query.terms.map(\.label).joined(separator: " · "))\n".utf8))
            if let predicate = query.predicate { predicates.append(predicate) }
        }
        var collection: AssetCollection?
        if let album { collection = try await AlbumCommand.find(album, in: library) }
        let sortDescriptors: [FetchOptions.SortDescriptor]
        if let sort {
            sortDescriptors = [.init(key: FetchOptions.SortDescriptor.Key(rawValue: sort.rawValue)!, ascending: !descending)]
        } else {
            // An album's own order, else the default; --descending alone reverses the dates.
            sortDescriptors = collection == nil || descending ? [.init(key: .creationDate, ascending: !descending)] : []
        }
        let fetch = FetchOptions(
            predicate: predicates.isEmpty ? nil : .all(predicates),
            sortDescriptors: sortDescriptors,
            fetchLimit: limit, includeHiddenAssets: hidden, includeTrashedAssets: trash,
            includeAllBurstAssets: bursts || burst != nil)
        let result: [Asset]
        do {
            if let collection {
                result = try await library.fetchAssets(in: collection, options: fetch).allObjects()
            } else {
                result = try await library.fetchAssets(with: fetch).allObjects()
            }
        } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        if json {
            try JSONOutput.print(await AssetJSON.list(result, in: library).map(\.withNulls))
            return
        }
        let keys = result.filter(\.representsBurst).compactMap(\.burstIdentifier)
        let frames = keys.isEmpty ? [:] : (try? await library.burstFrameCounts(keys)) ?? [:]
        for asset in result {
            let kind = asset.mediaType == .image ? "image" : String(format: "video %.1fs", asset.duration)
            var flags = ""
            if asset.isFavorite { flags += " ♥" }
            if asset.isHidden { flags += " hidden" }
            if asset.isTrashed { flags += " deleted" }
            if let burst = asset.burstIdentifier {
                flags += asset.representsBurst ? " burst of \(frames[burst] ?? 1) \(burst)" : " frame of burst \(burst)"
            }
            // The time as the clock read where it was taken, with its offset when known.
            let taken = AdjustCommand.text(asset.captureTime)
            print("\(asset.localIdentifier)  \(taken)  \(kind) \(asset.pixelWidth)×\(asset.pixelHeight)  \(asset.originalFilename)\(flags)")
        }
    }
}
