import Foundation
import ShoeboxImaging

/// The user's edit of one picked item: a square crop of a photo (in upright pixels) or the
/// trimmed range of a movie (in seconds).
public struct PickerEdit: Sendable, Hashable, Codable {
    public var cropRect: PixelRect?
    public var trimStart: Double?
    public var trimEnd: Double?

    public init(cropRect: PixelRect? = nil, trim: Range<Double>? = nil) {
        self.cropRect = cropRect
        trimStart = trim?.lowerBound
        trimEnd = trim?.upperBound
    }

    /// The trim as a range, when both ends are set.
    public var trim: Range<Double>? {
        guard let trimStart, let trimEnd, trimStart < trimEnd else { return nil }
        return trimStart..<trimEnd
    }
}
