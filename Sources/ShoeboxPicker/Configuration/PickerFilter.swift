import Foundation
import ShoeboxLibrary

/// Which assets the picker offers (`PHPickerFilter`, and filters PHPicker lacks): composable, and
/// evaluated by the catalog, so a filter over a large library costs one query.
///
/// ```swift
/// // Photos that are not screenshots, or movies up to 30 s.
/// let filter: PickerFilter = .any(of: [.all(of: [.images, .not(.screenshots)]),
///                                      .all(of: [.videos, .maximumDuration(30)])])
/// ```
public indirect enum PickerFilter: Sendable, Hashable, Codable {
    /// Photos, screenshots and panoramas among them (`PHPickerFilter.images`).
    case images
    /// Movies of any length (`PHPickerFilter.videos`); ``maximumDuration(_:)`` limits them.
    case videos
    /// Photos the library marks as screenshots, the `photoScreenshot` subtype
    /// (`PHPickerFilter.screenshots`).
    case screenshots
    /// Photos the library marks as panoramas, the `photoPanorama` subtype
    /// (`PHPickerFilter.panoramas`).
    case panoramas
    /// Originals whose type is one of these Uniform Type Identifiers (`public.jpeg`,
    /// `public.heic`, `public.png`, `public.mpeg-4`, `com.apple.quicktime-movie`,
    /// `org.webmproject.webm`, …).
    case fileFormats([String])
    /// Originals of at most this many bytes.
    case maximumFileSize(Int)
    /// Movies of at most this many seconds (photos always pass).
    case maximumDuration(Double)
    /// Assets that pass at least one of these filters (`PHPickerFilter.any(of:)`); none for an
    /// empty list.
    case any(of: [PickerFilter])
    /// Assets that pass every one of these filters (`PHPickerFilter.all(of:)`); all for an empty
    /// list.
    case all(of: [PickerFilter])
    /// Assets that this filter rejects (`PHPickerFilter.not(_:)`).
    case not(PickerFilter)

    /// The same condition as a library fetch predicate.
    public var predicate: FetchOptions.Predicate {
        switch self {
        case .images: .mediaType(.image)
        case .videos: .mediaType(.video)
        case .screenshots: .mediaSubtype(.photoScreenshot)
        case .panoramas: .mediaSubtype(.photoPanorama)
        case .fileFormats(let types): .uniformTypeIdentifier(types)
        case .maximumFileSize(let bytes): .fileSize(atMost: bytes)
        case .maximumDuration(let seconds): .duration(atMost: seconds)
        case .any(let filters): .any(filters.map(\.predicate))
        case .all(let filters): .all(filters.map(\.predicate))
        case .not(let filter): .not(filter.predicate)
        }
    }

    /// Whether `asset` passes (the same answer the catalog gives for ``predicate``).
    public func matches(_ asset: Asset) -> Bool {
        switch self {
        case .images: asset.mediaType == .image
        case .videos: asset.mediaType == .video
        case .screenshots: asset.mediaSubtypes.contains(.photoScreenshot)
        case .panoramas: asset.mediaSubtypes.contains(.photoPanorama)
        case .fileFormats(let types): types.contains(asset.uniformTypeIdentifier)
        case .maximumFileSize(let bytes): asset.fileSize <= bytes
        case .maximumDuration(let seconds): asset.duration <= seconds
        case .any(let filters): filters.contains { $0.matches(asset) }
        case .all(let filters): filters.allSatisfy { $0.matches(asset) }
        case .not(let filter): !filter.matches(asset)
        }
    }

    /// Checks numbers: sizes and durations must be positive and finite.
    func validate() throws(PickerError) {
        switch self {
        case .maximumFileSize(let bytes) where bytes <= 0:
            throw PickerError(.invalidArgument, "filter maximumFileSize must be positive, not \(bytes)")
        case .maximumDuration(let seconds) where !(seconds.isFinite && seconds > 0):
            throw PickerError(.invalidArgument, "filter maximumDuration must be a positive number of seconds, not \(seconds)")
        case .fileFormats(let types) where types.isEmpty:
            throw PickerError(.invalidArgument, "filter fileFormats needs at least one type identifier")
        case .any(let filters), .all(let filters):
            for filter in filters { try filter.validate() }
        case .not(let filter):
            try filter.validate()
        default:
            break
        }
    }
}

extension PickerFilter {
    private enum Keys: String, CodingKey {
        case fileFormats, maximumFileSize, maximumDuration, any, all, not
    }

    /// JSON: `"images"`, `"videos"`, `"screenshots"`, `"panoramas"`, `{"fileFormats": [UTI]}`,
    /// `{"maximumFileSize": BYTES}`, `{"maximumDuration": SECONDS}`, `{"any": [filter]}`,
    /// `{"all": [filter]}`, `{"not": filter}`.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            switch name {
            case "images": self = .images
            case "videos": self = .videos
            case "screenshots": self = .screenshots
            case "panoramas": self = .panoramas
            default:
                throw DecodingError.dataCorruptedError(in: single, debugDescription: "unknown filter \(name): images, videos, screenshots or panoramas")
            }
            return
        }
        let container = try decoder.container(keyedBy: Keys.self)
        guard let key = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a filter object has exactly one key"))
        }
        switch key {
        case .fileFormats: self = .fileFormats(try container.decode([String].self, forKey: key))
        case .maximumFileSize: self = .maximumFileSize(try container.decode(Int.self, forKey: key))
        case .maximumDuration: self = .maximumDuration(try container.decode(Double.self, forKey: key))
        case .any: self = .any(of: try container.decode([PickerFilter].self, forKey: key))
        case .all: self = .all(of: try container.decode([PickerFilter].self, forKey: key))
        case .not: self = .not(try container.decode(PickerFilter.self, forKey: key))
        }
    }

    /// Encodes the JSON ``init(from:)`` reads: a name for the four plain filters, an object with
    /// one key for the others.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .images, .videos, .screenshots, .panoramas:
            var single = encoder.singleValueContainer()
            try single.encode("\(self)")
        case .fileFormats(let types):
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(types, forKey: .fileFormats)
        case .maximumFileSize(let bytes):
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(bytes, forKey: .maximumFileSize)
        case .maximumDuration(let seconds):
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(seconds, forKey: .maximumDuration)
        case .any(let filters):
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(filters, forKey: .any)
        case .all(let filters):
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(filters, forKey: .all)
        case .not(let filter):
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(filter, forKey: .not)
        }
    }
}
