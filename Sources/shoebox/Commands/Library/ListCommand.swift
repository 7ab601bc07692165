import ArgumentParser
import Foundation
import ShoeboxLibrary

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the library's assets.",
        discussion: """
            JSON objects carry localIdentifier, mediaType (image|video), pixelWidth, pixelHeight \
            (upright), creationDate, latitude, longitude, duration, originalFilename, isFavorite, \
            isHidden, isTrashed, contentHash, uniformTypeIdentifier, fileSize.
            """)

    enum MediaTypeOption: String, ExpressibleByArgument, CaseIterable { case image, video }
    enum SortOption: String, ExpressibleByArgument, CaseIterable {
        case creationDate, modificationDate, addedDate, filename, duration, fileSize
    }

    @OptionGroup var options: LibraryOptions

    @Option(help: "Only images or only videos.")
    var type: MediaTypeOption?

    @Flag(help: "Only favorites.")
    var favorites = false

    @Flag(help: "Only hidden assets.")
    var hidden = false

    @Flag(help: "Only assets in Recently Deleted.")
    var trash = false

    @Option(help: "Sort key.")
    var sort: SortOption = .creationDate

    @Flag(help: "Newest (largest) first.")
    var descending = false

    @Option(help: "At most this many.")
    var limit: Int?

    @Flag(help: "Print JSON.")
    var json = false

    struct Record: Encodable {
        let localIdentifier: String
        let mediaType: String
        let pixelWidth: Int
        let pixelHeight: Int
        let creationDate: Date
        let latitude: Double?
        let longitude: Double?
        let duration: Double
        let originalFilename: String
        let isFavorite: Bool
        let isHidden: Bool
        let isTrashed: Bool
        let contentHash: String
        let uniformTypeIdentifier: String
        let fileSize: Int
        let hasAdjustments: Bool
        let originalAssetIdentifier: String?
        let creatorClient: String?

        init(_ asset: Asset) {
            localIdentifier = asset.localIdentifier
            mediaType = asset.mediaType == .image ? "image" : "video"
            pixelWidth = asset.pixelWidth
            pixelHeight = asset.pixelHeight
            creationDate = asset.creationDate
            latitude = asset.location?.latitude
            longitude = asset.location?.longitude
            duration = asset.duration
            hasAdjustments = asset.hasAdjustments
            originalAssetIdentifier = asset.originalAssetIdentifier
            creatorClient = asset.creatorClient
            originalFilename = asset.originalFilename
            isFavorite = asset.isFavorite
            isHidden = asset.isHidden
            isTrashed = asset.isTrashed
            contentHash = asset.contentHash
            uniformTypeIdentifier = asset.uniformTypeIdentifier
            fileSize = asset.fileSize
        }
    }

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    func run() throws {
        let library = try options.open()
        var predicates: [FetchOptions.Predicate] = []
        if let type { predicates.append(.mediaType(type == .image ? .image : .video)) }
        if favorites { predicates.append(.isFavorite(true)) }
        if hidden { predicates.append(.isHidden(true)) }
        if trash { predicates.append(.isTrashed(true)) }
        let fetch = FetchOptions(
            predicate: predicates.isEmpty ? nil : .all(predicates),
            sortDescriptors: [.init(key: FetchOptions.SortDescriptor.Key(rawValue: sort.rawValue)!, ascending: !descending)],
            fetchLimit: limit, includeHiddenAssets: hidden, includeTrashedAssets: trash)
        let result: FetchResult<Asset>
        do {
            result = try library.fetchAssets(with: fetch)
        } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        if json {
            try JSONOutput.print(result.map(Record.init))
            return
        }
        let formatter = ISO8601DateFormatter()
        for asset in result {
            let kind = asset.mediaType == .image ? "image" : String(format: "video %.1fs", asset.duration)
            var flags = ""
            if asset.isFavorite { flags += " ♥" }
            if asset.isHidden { flags += " hidden" }
            if asset.isTrashed { flags += " deleted" }
            print("\(asset.localIdentifier)  \(formatter.string(from: asset.creationDate))  \(kind) \(asset.pixelWidth)×\(asset.pixelHeight)  \(asset.originalFilename)\(flags)")
        }
    }
}
