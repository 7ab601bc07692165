import Foundation

/// One file of an asset (`PHAssetResource`; the Assets Library's representations).
public struct AssetResource: Sendable, Hashable, Codable {
    /// What the file is.
    public enum ResourceType: String, Sendable, Hashable, Codable {
        /// The original photo, as imported.
        case photo
        /// The original movie, as imported.
        case video
        /// The current version of an edited photo.
        case fullSizePhoto
        /// The current version of an edited movie.
        case fullSizeVideo
    }

    /// The asset it belongs to.
    public let assetLocalIdentifier: String
    public let type: ResourceType
    /// Its Uniform Type Identifier (`public.jpeg`, `public.mpeg-4`, …).
    public let uniformTypeIdentifier: String
    /// A file name for it: the imported name for originals, `NAME_edited.EXT` for renders.
    public let originalFilename: String
    /// Its size in bytes.
    public let fileSize: Int
    /// SHA-256 of its bytes (hex).
    public let contentHash: String

    /// A file extension for a Uniform Type Identifier the library stores (`bin` for others).
    public static func fileExtension(for uniformTypeIdentifier: String) -> String {
        switch uniformTypeIdentifier {
        case "public.jpeg": "jpg"
        case "public.png": "png"
        case "public.heic": "heic"
        case "public.heif": "heif"
        case "public.avif": "avif"
        case "org.webmproject.webp": "webp"
        case "com.compuserve.gif": "gif"
        case "public.tiff": "tiff"
        case "com.apple.quicktime-movie": "mov"
        case "org.webmproject.webm": "webm"
        case "public.mpeg-4": "mp4"
        default: "bin"
        }
    }
}
