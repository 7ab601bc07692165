import Foundation
import ShoeboxImaging

/// A photo or movie in the library: `PHAsset` without the prefix. A value: a snapshot of the
/// catalog row when it was fetched.
///
/// ```swift
/// let recents = try await library.fetchAssets(with: FetchOptions(sortDescriptors: [.init(key: .creationDate, ascending: false)]))
/// if let newest = try await recents.firstObject {
///     print(newest.localIdentifier, newest.mediaType, newest.pixelWidth, newest.pixelHeight, newest.creationDate)
/// }
/// ```
public struct Asset: Sendable, Hashable, Identifiable {
    /// What an asset holds.
    public enum MediaType: Int, Sendable, Codable, CaseIterable {
        /// A photo, Live Photos included (`PHAssetMediaType.image`).
        case image = 1
        /// A movie (`PHAssetMediaType.video`).
        case video = 2
    }

    /// Kinds of photo that can be told from the file.
    public struct MediaSubtypes: OptionSet, Sendable, Hashable, Codable {
        /// The subtypes as bits, as stored in the catalog (`PHAssetMediaSubtype`'s values).
        public let rawValue: Int
        /// Makes a set from its bits; bits no subtype uses are kept.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// A screen capture (PNG without camera metadata at a common screen size or aspect).
        public static let photoScreenshot = MediaSubtypes(rawValue: 1 << 2)
        /// A panorama: an aspect ratio of 2:1 or wider (or taller).
        public static let photoPanorama = MediaSubtypes(rawValue: 1 << 0)
        /// A Live Photo: a photo with a short movie of the moments around it (its
        /// ``AssetResource/ResourceType/pairedVideo`` resource).
        public static let photoLive = MediaSubtypes(rawValue: 1 << 3)
    }

    /// How a frame of a burst was chosen (`PHAssetBurstSelectionType`).
    public struct BurstSelectionTypes: OptionSet, Sendable, Hashable, Codable {
        /// The kinds as bits, as stored in the catalog (`PHAssetBurstSelectionType`'s values).
        public let rawValue: Int
        /// Makes a set from its bits; bits no kind uses are kept.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The library chose it as the burst's key photo (its first frame, when the user has
        /// chosen none).
        public static let autoPick = BurstSelectionTypes(rawValue: 1 << 0)
        /// The user chose it as the burst's key photo
        /// (``AssetChangeRequest/makeKeyPhotoOfBurst()``).
        public static let userPick = BurstSelectionTypes(rawValue: 1 << 1)
    }

    /// Where it was taken.
    public struct Location: Sendable, Hashable, Codable {
        /// Latitude in signed decimal degrees (north positive).
        public var latitude: Double
        /// Longitude in signed decimal degrees (east positive).
        public var longitude: Double
        /// Altitude in metres above sea level (negative below), or `nil` when unknown.
        public var altitude: Double?

        /// A place from its coordinates in decimal degrees and, optionally, its altitude in metres.
        public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }
    }

    /// The catalog's row id; the order assets were added in.
    let rowID: Int64
    /// The row id of the person whose asset it is (``Person/rowID``): someone else's for a
    /// partner's photo (``FetchOptions/includePartnerAssets``) or a shared album's.
    package var ownerRowID: Int64 = Person.adminRowID
    /// Whether it is in the household's Shared Library (``SharedLibrary``) rather than one
    /// person's own library.
    public var isInSharedLibrary: Bool { ownerRowID == SharedLibrary.ownerRowID }
    /// A stable identifier, unique in this library.
    public let localIdentifier: String
    /// Whether it is a photo or a movie (`PHAsset.mediaType`).
    public let mediaType: MediaType
    /// The kinds of photo it was recognised as: screenshot, panorama, Live Photo
    /// (`PHAsset.mediaSubtypes`); empty for movies and ordinary photos.
    public let mediaSubtypes: MediaSubtypes
    /// Width as displayed (upright), in pixels.
    public let pixelWidth: Int
    /// Height as displayed (upright), in pixels.
    public let pixelHeight: Int
    /// When it was taken: EXIF `DateTimeOriginal` or the movie's creation time, else the file's
    /// modification time.
    public let creationDate: Date
    /// Seconds east of UTC of the clock where it was taken, or `nil` when unknown (see
    /// ``CaptureTime``). Shoebox's addition: PhotoKit keeps no zone.
    public let timeZoneOffset: Int?
    /// The IANA time zone of where it was taken, when the offset came from the place.
    public let timeZoneIdentifier: String?
    /// When the asset last changed in the library.
    public let modificationDate: Date
    /// When it was added to the library.
    public let addedDate: Date
    /// Where it was taken, from the file's metadata or as a request set it (`PHAsset.location`), or
    /// `nil` when unknown.
    public let location: Location?
    /// Length in seconds (0 for photos).
    public let duration: Double
    /// Whether the user marked it as a favorite (`PHAsset.isFavorite`); the Favorites smart album
    /// holds these.
    public let isFavorite: Bool
    /// Whether the user hid it (`PHAsset.isHidden`): fetches leave it out unless
    /// ``FetchOptions/includeHiddenAssets``; the Hidden smart album holds these.
    public let isHidden: Bool
    /// When it was moved to Recently Deleted, or `nil`.
    public let trashedDate: Date?
    /// The file name it was imported from.
    public let originalFilename: String
    /// SHA-256 of the original bytes (hex).
    public let contentHash: String
    /// The original's Uniform Type Identifier (`public.jpeg`, `public.heic`, `com.apple.quicktime-movie`, …).
    public let uniformTypeIdentifier: String
    /// The original's size in bytes.
    public let fileSize: Int
    /// The client that created it, if one did. Only that client may edit its content in place
    /// (see ``canPerform(_:client:)``).
    public let creatorClient: String?

    /// The current version of an edited asset.
    struct Render: Sendable, Hashable {
        let hash: String
        let uniformTypeIdentifier: String
        let fileSize: Int
    }

    let render: Render?

    /// A second original kept with the asset: a Live Photo's paired video, a RAW+JPEG pair's raw.
    struct Companion: Sendable, Hashable {
        let type: AssetResource.ResourceType
        let hash: String
        let uniformTypeIdentifier: String
        let filename: String
        let fileSize: Int
    }

    let companion: Companion?
    /// The burst this photo is a frame of (`PHAsset.burstIdentifier`), or `nil`: Apple's
    /// `BurstUUID` from the maker note, or, for other cameras, `run:` and a UUID given to three
    /// or more photos from one camera (make, model and serial number) each taken under a second
    /// after the one before. ``PhotoLibrary/fetchAssets(withBurstIdentifier:options:)`` fetches
    /// every frame.
    public let burstIdentifier: String?
    /// Whether this is the frame that stands for its burst (`PHAsset.representsBurst`): the
    /// frame the user chose, else the first, among those neither in Recently Deleted nor hidden.
    /// Fetches show only this frame of a burst unless ``FetchOptions/includeAllBurstAssets``.
    public let representsBurst: Bool
    /// How this frame was chosen, if it was (`PHAsset.burstSelectionTypes`).
    public let burstSelectionTypes: BurstSelectionTypes
    /// Counts the edits and reverts of this asset's content: a new value means new pixels.
    public let contentRevision: Int
    /// For a modified version saved as a new asset, the asset it was made from (ALAsset's
    /// `originalAsset`); ``PhotoLibrary/originalAsset(of:)`` fetches it.
    public let originalAssetIdentifier: String?

    /// Its title, from an XMP sidecar (`dc:title`) or set with ``AssetChangeRequest/title``;
    /// `nil` for none. PhotoKit keeps no title; Photos for macOS shows one.
    public let title: String?
    /// What it shows, in words (`dc:description`, ``AssetChangeRequest/caption``); `nil` for none.
    public let caption: String?
    /// Its keywords, each once, in order (`dc:subject`; a hierarchical keyword as a path,
    /// `Places/Italy/Rome`, from `lr:hierarchicalSubject` or digiKam's tags).
    public let keywords: [String]
    /// Its rating from 1 to 5 stars; 0 for none (`xmp:Rating`, ``AssetChangeRequest/rating``).
    public let rating: Int
    /// Its colour label as the app that set it names it (`xmp:Label`: `Red`, `Approved`); `nil` for none.
    public let label: String?
    /// Which of its date and place the person set (in Shoebox, or an XMP sidecar from another
    /// app) rather than its file: reading the file again leaves these, and
    /// ``AssetChangeRequest/revertToFileValues(_:)`` gives the file's back.
    public let userSetFields: MetadataFields

    /// Fields of an asset's metadata that the person can set over what its file says.
    public struct MetadataFields: OptionSet, Sendable, Hashable {
        /// The bits: 1 the date, 2 the place.
        public let rawValue: Int
        /// Fields from their bits, as ``AssetRecord/userEditedFields`` stores them.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// When it was taken, with the zone.
        public static let creationDate = MetadataFields(rawValue: 1)
        /// Where it was taken.
        public static let location = MetadataFields(rawValue: 2)
    }

    /// Its ``localIdentifier``, for `Identifiable`.
    public var id: String { localIdentifier }

    /// When it was taken, with the zone: ``CaptureTime/localDateString`` is the time as it was
    /// where it was taken.
    public var captureTime: CaptureTime {
        CaptureTime(date: creationDate, timeZoneOffset: timeZoneOffset, timeZoneIdentifier: timeZoneIdentifier)
    }

    /// Whether it is in Recently Deleted.
    public var isTrashed: Bool { trashedDate != nil }

    /// Whether its content has been edited (and not reverted): its current version is a render,
    /// its original is unchanged.
    public var hasAdjustments: Bool { render != nil }

    /// Whether it is a Live Photo: a photo with its paired video.
    public var isLivePhoto: Bool { companion?.type == .pairedVideo }

    /// Its files: the original, a Live Photo's paired video or a RAW+JPEG pair's raw, and for an edited asset the current
    /// full-size render (`PHAssetResource.assetResources(for:)`). ``PhotoLibrary/fileURL(for:)``
    /// locates one; ``AssetResourceManager`` reads one.
    public var resources: [AssetResource] {
        var list = [
            AssetResource(
                assetLocalIdentifier: localIdentifier, type: mediaType == .video ? .video : .photo,
                uniformTypeIdentifier: uniformTypeIdentifier, originalFilename: originalFilename, fileSize: fileSize,
                contentHash: contentHash)
        ]
        if let companion {
            list.append(
                AssetResource(
                    assetLocalIdentifier: localIdentifier, type: companion.type, uniformTypeIdentifier: companion.uniformTypeIdentifier,
                    originalFilename: companion.filename, fileSize: companion.fileSize, contentHash: companion.hash))
        }
        if let render {
            let name = (originalFilename as NSString).deletingPathExtension + "_edited." + UTType.filenameExtension(for: render.uniformTypeIdentifier)
            list.append(
                AssetResource(
                    assetLocalIdentifier: localIdentifier, type: mediaType == .video ? .fullSizeVideo : .fullSizePhoto,
                    uniformTypeIdentifier: render.uniformTypeIdentifier, originalFilename: name, fileSize: render.fileSize,
                    contentHash: render.hash))
        }
        return list
    }

    /// The resource of its current version: an edited asset's full-size render, else its
    /// original photo or movie (never a Live Photo's paired video).
    public var currentResource: AssetResource {
        let all = resources
        return all.first { $0.type == .fullSizePhoto || $0.type == .fullSizeVideo } ?? all[0]
    }

    /// Kinds of change (`PHAssetEditOperation`).
    public enum EditOperation: Sendable, Hashable {
        /// Deleting and restoring.
        case delete
        /// Changing the pixels (editing, reverting).
        case content
        /// Favorite, hidden, date, location.
        case properties
    }

    /// Whether `client` may make this kind of change (`PHAsset.canPerform(_:)`, ALAsset's
    /// `editable`).
    ///
    /// Content may be edited in place only by the client that created the asset; other clients
    /// save a modified version as a new asset instead
    /// (``AssetChangeRequest/creationRequestForAsset(modifiedVersionOf:output:)``). `nil` is
    /// Shoebox's own tools (the CLI and the web app) acting for the user, who may edit
    /// everything, as the Photos app may on iOS. Deleting and properties are open to every
    /// client that can write to the library.
    public func canPerform(_ operation: EditOperation, client: String?) -> Bool {
        switch operation {
        case .delete, .properties: true
        case .content: client == nil || client == creatorClient
        }
    }
}
