import Foundation
import ShoeboxImaging

/// The user's edit of one picked item: a square crop of a photo (in upright pixels) or the
/// trimmed range of a movie (in seconds).
public struct PickerEdit: Sendable, Hashable, Codable {
    /// A photo's square crop, in its upright pixels; `nil` is the largest centred square.
    public var cropRect: PixelRect?
    /// Where a movie's trim starts, in seconds; it counts only with a ``trimEnd`` after it.
    public var trimStart: Double?
    /// Where a movie's trim ends, in seconds (see ``trim``).
    public var trimEnd: Double?

    /// An edit of this crop, this trim, or both; `nil` leaves that part at its default.
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
