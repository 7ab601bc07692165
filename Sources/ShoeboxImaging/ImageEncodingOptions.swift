/// How ``Image/encoded(as:options:)`` writes a file.
///
/// ```swift
/// let data = try image.encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.9, keepsMetadata: false))
/// ```
public struct ImageEncodingOptions: Sendable, Hashable {
    /// Lossy quality from 0 (smallest) to 1 (best), as `UIImage.jpegData(compressionQuality:)`.
    /// Used by JPEG, WebP and HEIC; PNG is lossless. Default 0.85.
    public var quality: Double
    /// Whether EXIF, XMP, IPTC and the ICC profile are written. The written orientation is
    /// always 1 (or absent when stripped), because encoded pixels are always upright. Default `true`.
    public var keepsMetadata: Bool
    /// WebP only: lossless instead of lossy. Default `false`.
    public var isLossless: Bool
    /// JPEG: progressive instead of baseline; PNG: interlaced (Adam7), which a browser shows
    /// coarse first but every decoder must hold whole in memory. Default `false`.
    public var isProgressive: Bool

    /// Creates options; every parameter has the default described on its property.
    public init(quality: Double = 0.85, keepsMetadata: Bool = true, isLossless: Bool = false, isProgressive: Bool = false) {
        self.quality = quality
        self.keepsMetadata = keepsMetadata
        self.isLossless = isLossless
        self.isProgressive = isProgressive
    }

    /// Quality as libvips's 1…100 `Q`.
    var vipsQuality: Int32 {
        let clamped = quality.isFinite ? min(max(quality, 0), 1) : 0.85
        return Int32(max(1, (clamped * 100).rounded()))
    }
}
