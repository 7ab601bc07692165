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
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// Whether displaying upright swaps width and height (orientations 5–8).
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }
}
