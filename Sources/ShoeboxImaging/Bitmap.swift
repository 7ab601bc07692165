/// Decoded 8-bit pixels: rows top to bottom, interleaved channels (RGB or RGBA, or grey and
/// grey + alpha).
///
/// ```swift
/// let bitmap = try image.bitmap()
/// let (r, g, b) = (bitmap[0, 0, 0], bitmap[0, 0, 1], bitmap[0, 0, 2])
/// ```
public struct Bitmap: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// 1 (grey), 2 (grey + alpha), 3 (RGB) or 4 (RGBA).
    public let channels: Int
    /// `width × height × channels` bytes.
    public let bytes: [UInt8]

    /// Creates a bitmap, checking that the byte count matches.
    ///
    /// - Throws: ``ImageError/Code/invalidArgument`` when a size is not positive, `channels` is not
    ///   1…4, or `bytes.count` is not `width × height × channels`.
    public init(width: Int, height: Int, channels: Int, bytes: [UInt8]) throws(ImageError) {
        guard width > 0, height > 0, (1...4).contains(channels) else {
            throw .invalidArgument("bitmap \(width)×\(height)×\(channels) is not a valid shape")
        }
        let expected = width.multipliedReportingOverflow(by: height)
        let total = expected.partialValue.multipliedReportingOverflow(by: channels)
        guard !expected.overflow, !total.overflow, total.partialValue == bytes.count else {
            throw .invalidArgument("bitmap \(width)×\(height)×\(channels) needs \(width * height * channels) bytes, got \(bytes.count)")
        }
        self.width = width
        self.height = height
        self.channels = channels
        self.bytes = bytes
    }

    /// The value of `channel` at column `x`, row `y`.
    public subscript(x: Int, y: Int, channel: Int) -> UInt8 {
        bytes[(y * width + x) * channels + channel]
    }

    /// `width × height`.
    public var size: PixelSize { PixelSize(width: width, height: height) }
}
