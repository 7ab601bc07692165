/// A size in whole pixels.
///
/// ```swift
/// let size = PixelSize(width: 4032, height: 3024)
/// size.pixelCount   // 12_192_768
/// size.transposed   // 3024 × 4032
/// ```
public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size of `width × height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A square size.
    public init(square side: Int) {
        self.init(width: side, height: side)
    }

    /// `width × height`, saturating instead of overflowing.
    public var pixelCount: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }

    /// Width and height swapped (what a 90° rotation does).
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// Whether both sides are positive.
    public var isPositive: Bool { width > 0 && height > 0 }

    /// `width×height` in pixels, as `4032×3024`.
    public var description: String { "\(width)×\(height)" }
}
