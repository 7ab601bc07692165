/// A rectangle in whole pixels, origin at the top-left of the upright image.
public struct PixelRect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Left edge, in pixels from the left.
    public var x: Int
    /// Top edge, in pixels from the top.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// `width × height`.
    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// Whether the rectangle covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part of this rectangle inside `0..<size.width × 0..<size.height`, or `nil` if none.
    public func clamped(to size: PixelSize) -> PixelRect? {
        let left = max(x, 0)
        let top = max(y, 0)
        let right = min(x.addingSaturating(width), size.width)
        let bottom = min(y.addingSaturating(height), size.height)
        guard right > left, bottom > top else { return nil }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// `(x, y, width×height)` in pixels, as `(10, 20, 300×200)`.
    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}

extension Int {
    func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
