import Foundation
import ShoeboxImaging

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
        /// A Live Photo's movie, as imported (Apple's `.MOV` beside the `.HEIC` or `.JPG`).
        case pairedVideo
        /// The raw file of a RAW+JPEG pair (the JPEG is the ``photo``), as imported.
        case alternatePhoto
    }

    /// The asset it belongs to.
    public let assetLocalIdentifier: String
    /// What the file is: an original (photo, movie, paired video, raw) or an edit's render
    /// (`PHAssetResource.type`).
    public let type: ResourceType
    /// Its Uniform Type Identifier (`public.jpeg`, `public.mpeg-4`, …).
    public let uniformTypeIdentifier: String
    /// A file name for it: the imported name for originals, `NAME_edited.EXT` for renders.
    public let originalFilename: String
    /// The name to hand the file over by (a download, an archive's entry, an export):
    /// ``originalFilename`` with the extension of what the bytes are (a PNG imported as
    /// `clip.mov` is `clip.png`; see `UTType.filename(_:forType:)`).
    public var deliveredFilename: String {
        UTType.filename(originalFilename, forType: uniformTypeIdentifier)
    }
    /// Its size in bytes.
    public let fileSize: Int
    /// SHA-256 of its bytes (hex).
    public let contentHash: String

    /// Whether it is a file as imported (the photo, the movie, a Live Photo's movie, a pair's
    /// raw) rather than an edit's render.
    public var isOriginal: Bool {
        switch type {
        case .photo, .video, .pairedVideo, .alternatePhoto: true
        case .fullSizePhoto, .fullSizeVideo: false
        }
    }

    /// Where its bytes are filed.
    var blobKey: BlobKey { BlobKey(kind: isOriginal ? .original : .render, hash: contentHash) }
}
