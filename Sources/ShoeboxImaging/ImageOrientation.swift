/// EXIF orientation: how stored pixels must be transformed to display upright.
///
/// Raw values are the EXIF/TIFF `Orientation` tag (1…8); the case names are those of
/// `CGImagePropertyOrientation`.
///
/// ```swift
/// let orientation = ImageOrientation(rawValue: 6)!  // .right: rotate 90° clockwise to view
/// orientation.swapsWidthAndHeight                   // true
/// ```
public enum ImageOrientation: Int, Sendable, Codable, CaseIterable {
    /// Stored upright: shown as it is.
    case up = 1
    /// Stored mirrored left to right: flipped horizontally to show.
    case upMirrored = 2
    /// Stored upside down: turned 180° to show.
    case down = 3
    /// Stored mirrored top to bottom: flipped vertically to show.
    case downMirrored = 4
    /// Stored mirrored across the top-left to bottom-right diagonal: turned 90° clockwise, then
    /// flipped horizontally, to show.
    case leftMirrored = 5
    /// Stored a quarter turn anticlockwise: turned 90° clockwise to show (a photo taken with a
    /// phone held upright).
    case right = 6
    /// Stored mirrored across the top-right to bottom-left diagonal: turned 90° anticlockwise, then
    /// flipped horizontally, to show.
    case rightMirrored = 7
    /// Stored a quarter turn clockwise: turned 90° anticlockwise to show.
    case left = 8

    /// Whether displaying upright swaps width and height (orientations 5–8).
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }
}
