import Foundation

/// A photo or movie in the library: `PHAsset` without the prefix. A value: a snapshot of the
/// catalog row when it was fetched.
///
/// ```swift
/// let recents = try library.fetchAssets(with: FetchOptions(sortDescriptors: [.init(key: .creationDate, ascending: false)]))
/// if let newest = recents.firstObject {
///     print(newest.localIdentifier, newest.mediaType, newest.pixelWidth, newest.pixelHeight, newest.creationDate)
/// }
/// ```
public struct Asset: Sendable, Hashable, Identifiable {
    /// What an asset holds.
    public enum MediaType: Int, Sendable, Codable, CaseIterable {
        case image = 1
        case video = 2
    }

    /// Kinds of photo that can be told from the file.
    public struct MediaSubtypes: OptionSet, Sendable, Hashable, Codable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// A screen capture (PNG without camera metadata at a common screen size or aspect).
        public static let photoScreenshot = MediaSubtypes(rawValue: 1 << 2)
        /// A panorama: an aspect ratio of 2:1 or wider (or taller).
        public static let photoPanorama = MediaSubtypes(rawValue: 1 << 0)
    }

    /// Where it was taken.
    public struct Location: Sendable, Hashable, Codable {
        public var latitude: Double
        public var longitude: Double
        public var altitude: Double?

        public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }
    }

    /// The catalog's row id; the order assets were added in.
    let rowID: Int64
    /// A stable identifier, unique in this library.
    public let localIdentifier: String
    public let mediaType: MediaType
    public let mediaSubtypes: MediaSubtypes
    /// Width as displayed (upright), in pixels.
    public let pixelWidth: Int
    /// Height as displayed (upright), in pixels.
    public let pixelHeight: Int
    /// When it was taken: EXIF `DateTimeOriginal` or the movie's creation time, else the file's
    /// modification time.
    public let creationDate: Date
    /// When the asset last changed in the library.
    public let modificationDate: Date
    /// When it was added to the library.
    public let addedDate: Date
    public let location: Location?
    /// Length in seconds (0 for photos).
    public let duration: Double
    public let isFavorite: Bool
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
    /// The client that created it, if one did.
    public let creatorClient: String?

    public var id: String { localIdentifier }

    /// Whether it is in Recently Deleted.
    public var isTrashed: Bool { trashedDate != nil }
}
