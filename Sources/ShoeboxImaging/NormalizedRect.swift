/// A rectangle in unit coordinates: `0…1` on each axis, origin at the top-left of the upright
/// image, as `PHImageRequestOptions.normalizedCropRect` uses (Apple's is a `CGRect`).
///
/// ```swift
/// // The right half of any image:
/// let half = NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1)
/// let cropped = try image.cropping(toNormalized: half)
/// ```
public struct NormalizedRect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Left edge, 0…1 of the width.
    public var x: Double
    /// Top edge, 0…1 of the height.
    public var y: Double
    /// Width, as a fraction of the image's.
    public var width: Double
    /// Height, as a fraction of the image's.
    public var height: Double

    /// Creates a normalized rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole image.
    public static let unit = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    /// The pixel rectangle this covers in an image of `size`, rounded to whole pixels.
    ///
    /// - Throws: ``ImageError/Code/invalidArgument`` when a value is not finite, the rectangle is
    ///   empty, or it reaches outside `0…1` (a tolerance of 1e-6 allows for rounding).
    public func pixelRect(in size: PixelSize) throws(ImageError) -> PixelRect {
        let values = [x, y, width, height]
        guard values.allSatisfy(\.isFinite) else {
            throw .invalidArgument("normalized rect \(self) has a non-finite value")
        }
        let tolerance = 1e-6
        guard width > 0, height > 0 else {
            throw .invalidArgument("normalized rect \(self) is empty")
        }
        guard x >= -tolerance, y >= -tolerance, x + width <= 1 + tolerance, y + height <= 1 + tolerance else {
            throw .invalidArgument("normalized rect \(self) reaches outside 0…1")
        }
        let left = Int((max(0, x) * Double(size.width)).rounded())
        let top = Int((max(0, y) * Double(size.height)).rounded())
        let right = Int((min(1, x + width) * Double(size.width)).rounded())
        let bottom = Int((min(1, y + height) * Double(size.height)).rounded())
        let rect = PixelRect(x: left, y: top, width: max(1, right - left), height: max(1, bottom - top))
        guard let clamped = rect.clamped(to: size) else {
            throw .invalidArgument("normalized rect \(self) covers no pixel of a \(size) image")
        }
        return clamped
    }

    /// `(x, y, width×height)` in unit coordinates, as `(0.5, 0.0, 0.5×1.0)`.
    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}
