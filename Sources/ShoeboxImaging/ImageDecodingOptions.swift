/// Limits applied when opening untrusted image data.
///
/// ```swift
/// var options = ImageDecodingOptions()
/// options.pixelLimit = 50_000_000
/// let image = try Image(contentsOf: url, options: options)
/// ```
public struct ImageDecodingOptions: Sendable, Hashable {
    /// The default pixel limit: 100 megapixels.
    public static let defaultPixelLimit = 100_000_000

    /// The most pixels (width × height of the first frame, as the header declares them) an image
    /// may have. It is checked from the header, before any pixel is decoded; a larger image fails
    /// with ``ImageError/Code/tooLarge``.
    public var pixelLimit: Int

    /// Creates options.
    /// - Parameter pixelLimit: The most pixels accepted; defaults to ``defaultPixelLimit``.
    public init(pixelLimit: Int = ImageDecodingOptions.defaultPixelLimit) {
        self.pixelLimit = pixelLimit
    }
}
