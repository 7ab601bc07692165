import Foundation
import HTTPTypes
import Hummingbird
import ShoeboxLibrary

/// JSON in and out.
package enum JSONResponse {
    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        make(bytes: try encoder.encode(value), status: status)
    }

    /// A response of JSON already written (``JSONBytes``, or an encoder's output).
    static func make(bytes: some Sequence<UInt8>, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Decodes a JSON body of at most `limit` bytes (an empty body decodes as `{}`).
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = 1 << 20) async throws -> T {
        var request = request
        let buffer = try await request.collectBody(upTo: limit)  // too much: 413 (see APIError)
        return try decode(T.self, from: Data(buffer.readableBytesView))
    }

    /// Decodes a body that arrived whole (an empty one decodes as `{}`).
    package static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
        try decoder.decode(T.self, from: body.isEmpty ? Data("{}".utf8) : body)
    }
}

/// An asset as the API shows it, and as `shoebox list --json` and `shoebox edit --json` print it:
/// one wire type for the server and the CLI.
package struct AssetJSON: Encodable {
    let localIdentifier: String
    let mediaType: String
    let mediaSubtypes: [String]
    let pixelWidth: Int
    let pixelHeight: Int
    /// The instant it was taken (sorting goes by this).
    let creationDate: Date
    /// The clock where it was taken, `2021-04-11T15:47:53` (no zone): what the app shows.
    let localCreationDate: String
    /// Seconds east of UTC of that clock; absent when unknown (the camera's clock is then shown as it read).
    let timeZoneOffset: Int?
    /// The IANA zone of the place, when the offset came from it.
    let timeZone: String?
    let modificationDate: Date
    let addedDate: Date
    let latitude: Double?
    let longitude: Double?
    let altitude: Double?
    let duration: Double
    let isFavorite: Bool
    let isHidden: Bool
    let isTrashed: Bool
    let trashedDate: Date?
    /// Its title, caption, keywords, rating (1–5) and label; absent when it has none.
    let title: String?
    let caption: String?
    let keywords: [String]?
    let rating: Int?
    let label: String?
    /// Which of its date (`creationDate`) and place (`location`) the person set rather than its
    /// file; absent when neither.
    let userSet: [String]?
    let originalFilename: String
    let contentHash: String
    let uniformTypeIdentifier: String
    let fileSize: Int
    let creatorClient: String?
    let hasAdjustments: Bool
    let originalAssetIdentifier: String?
    /// How many original files it has: 1, or 2 for a Live Photo (its movie) or a RAW+JPEG pair.
    let originalFileCount: Int
    /// Where it was taken, named from the place table: `Rome, Italy` (absent without a place).
    let place: String?
    /// The burst it is a frame of (absent for none), whether it is the burst's key photo, and,
    /// for a key photo in a listing, how many frames the burst has (neither hidden nor deleted).
    let burstIdentifier: String?
    let representsBurst: Bool?
    var burstCount: Int?
    /// Changes whenever the pixels do: thumbnail URLs carry it, so they can be cached forever.
    let version: String
    /// `true` while a worker has still to make the thumbnail and preview (absent otherwise): a
    /// grid shows a placeholder, and the change event when the job is done brings the picture.
    var thumbnailPending: Bool?
    /// Whose it is, for a partner's photo in the caller's listing (absent for the caller's own):
    /// `{"id", "name", "displayName"}`. Such a photo is read-only to the caller.
    var sharedBy: Owner?
    /// `"shared"` for a photo of the Shared Library (absent for the person's own), with who
    /// added it and, in Recently Deleted, who deleted it.
    var library: String?
    var addedBy: Owner?
    var deletedBy: Owner?

    struct Owner: Encodable {
        let id: String
        let name: String
        let displayName: String
    }

    /// `assets` as JSON, each marked ``thumbnailPending`` when its thumbnail job is still open.
    package static func list(_ assets: [Asset], in library: PhotoLibrary) async -> [AssetJSON] {
        let pending = (try? await library.assetsAwaitingDerivatives(among: assets.map(\.localIdentifier))) ?? []
        let bursts = assets.filter(\.representsBurst).compactMap(\.burstIdentifier)
        let counts = bursts.isEmpty ? [:] : (try? await library.burstFrameCounts(bursts)) ?? [:]
        let owners = (try? await library.owners(ofSomeoneElses: assets)) ?? [:]
        let attributions = (try? await library.sharedLibraryAttributions(of: assets)) ?? [:]
        return assets.map { asset in
            var json = AssetJSON(asset)
            if let owner = owners[asset.localIdentifier] { json.sharedBy = Owner(id: owner.id, name: owner.name, displayName: owner.displayName) }
            if asset.isInSharedLibrary {
                json.library = "shared"
                let attribution = attributions[asset.localIdentifier]
                json.addedBy = attribution?.addedBy.map { Owner(id: $0.id, name: $0.name, displayName: $0.displayName) }
                json.deletedBy = attribution?.deletedBy.map { Owner(id: $0.id, name: $0.name, displayName: $0.displayName) }
            }
            if pending.contains(asset.localIdentifier) { json.thumbnailPending = true }
            if asset.representsBurst, let burst = asset.burstIdentifier { json.burstCount = counts[burst] }
            return json
        }
    }

    /// One asset as a listing shows it (with its burst's count and pending thumbnail).
    package static func one(_ asset: Asset, in library: PhotoLibrary) async -> AssetJSON {
        await list([asset], in: library)[0]
    }

    init(_ asset: Asset) {
        localIdentifier = asset.localIdentifier
        mediaType = asset.mediaType == .image ? "image" : "video"
        var subtypes: [String] = []
        if asset.mediaSubtypes.contains(.photoScreenshot) { subtypes.append("screenshot") }
        if asset.mediaSubtypes.contains(.photoPanorama) { subtypes.append("panorama") }
        if asset.mediaSubtypes.contains(.photoLive) { subtypes.append("live") }
        mediaSubtypes = subtypes
        pixelWidth = asset.pixelWidth
        pixelHeight = asset.pixelHeight
        creationDate = asset.creationDate
        localCreationDate = asset.captureTime.localDateString
        timeZoneOffset = asset.timeZoneOffset
        timeZone = asset.timeZoneIdentifier
        modificationDate = asset.modificationDate
        addedDate = asset.addedDate
        latitude = asset.location?.latitude
        longitude = asset.location?.longitude
        altitude = asset.location?.altitude
        duration = asset.duration
        isFavorite = asset.isFavorite
        isHidden = asset.isHidden
        isTrashed = asset.isTrashed
        trashedDate = asset.trashedDate
        (title, caption, label) = (asset.title, asset.caption, asset.label)
        keywords = asset.keywords.isEmpty ? nil : asset.keywords
        rating = asset.rating > 0 ? asset.rating : nil
        var userSet: [String] = []
        if asset.userSetFields.contains(.creationDate) { userSet.append("creationDate") }
        if asset.userSetFields.contains(.location) { userSet.append("location") }
        self.userSet = userSet.isEmpty ? nil : userSet
        originalFilename = asset.originalFilename
        contentHash = asset.contentHash
        uniformTypeIdentifier = asset.uniformTypeIdentifier
        fileSize = asset.fileSize
        creatorClient = asset.creatorClient
        hasAdjustments = asset.hasAdjustments
        originalAssetIdentifier = asset.originalAssetIdentifier
        originalFileCount = asset.resources.filter(\.isOriginal).count
        // The place table is read at start-up (off the event loops); until then, no name.
        place = asset.location.flatMap { location in
            Gazetteer.standard.isLoaded ? Gazetteer.standard.placeName(latitude: location.latitude, longitude: location.longitude) : nil
        }
        burstIdentifier = asset.burstIdentifier
        representsBurst = asset.burstIdentifier == nil ? nil : asset.representsBurst
        version = Self.version(of: asset)
    }

    static func version(of asset: Asset) -> String {
        asset.currentResource.contentHash.prefix(16) + "-\(asset.contentRevision)"
    }
}

/// An album as the API shows it.
struct AlbumJSON: Encodable {
    let localIdentifier: String
    let title: String
    let kind: String
    let subtype: String
    let count: Int
    let parentFolderIdentifier: String?
    /// The client that made it; absent for the user's.
    let creatorClient: String?

    init(_ collection: AssetCollection, count: Int? = nil) {
        localIdentifier = collection.localIdentifier
        title = collection.localizedTitle
        kind =
            switch collection.assetCollectionType {
            case .album: "album"
            case .smartAlbum: "smartAlbum"
            case .folder: "folder"
            }
        subtype = "\(collection.assetCollectionSubtype)"
        self.count = count ?? collection.estimatedAssetCount
        parentFolderIdentifier = collection.parentFolderIdentifier
        creatorClient = collection.creatorClient
    }
}

extension AssetJSON {
    /// The asset as `shoebox list --json` prints it: the API's object, but the optional keys the
    /// CLI has always printed are there when unknown too (`null`; `representsBurst` `false`), so
    /// scripts may index them.
    package struct WithNulls: Encodable {
        let asset: AssetJSON

        package func encode(to encoder: any Encoder) throws {
            try asset.encode(to: encoder)
            // The synthesized keys: a renamed field cannot leave a stale name here.
            var container = encoder.container(keyedBy: AssetJSON.CodingKeys.self)
            let unknown: [(AssetJSON.CodingKeys, Bool)] = [
                (.timeZoneOffset, asset.timeZoneOffset == nil), (.timeZone, asset.timeZone == nil),
                (.latitude, asset.latitude == nil), (.longitude, asset.longitude == nil),
                (.originalAssetIdentifier, asset.originalAssetIdentifier == nil), (.creatorClient, asset.creatorClient == nil),
                (.burstIdentifier, asset.burstIdentifier == nil),
            ]
            for (key, isUnknown) in unknown where isUnknown { try container.encodeNil(forKey: key) }
            if asset.representsBurst == nil { try container.encode(false, forKey: .representsBurst) }
        }
    }

    /// This asset with the CLI's `null`s (``WithNulls``).
    package var withNulls: WithNulls { WithNulls(asset: self) }
}
