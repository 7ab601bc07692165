import Foundation

/// A photo edit as pixels see it: geometry (quarter turns, a mirror, a small straightening turn, a
/// crop) and colour (a tone curve and a channel mix), applied by ``Image/applying(_:)`` in one
/// libvips pipeline.
///
/// The steps run in this order, each on the result of the one before:
/// 1. ``quarterTurns`` clockwise;
/// 2. ``isFlipped``: left to right;
/// 3. ``straightenDegrees``: turned about the centre and cut to the largest centred rectangle of
///    the same proportions that holds no corner of the background (``straightenedSize(of:degrees:)``);
/// 4. ``crop``, in unit coordinates of that result;
/// 5. ``toneCurve`` on each 8-bit sRGB channel, then ``colorMatrix`` across them.
///
/// The web app's editor draws the same steps on a canvas for its preview.
public struct ImageEdit: Sendable, Hashable {
    /// Clockwise quarter turns (taken modulo 4).
    public var quarterTurns: Int
    /// Whether the turned image is mirrored left to right.
    public var isFlipped: Bool
    /// Degrees clockwise, −45…45.
    public var straightenDegrees: Double
    /// The part kept, in unit coordinates of the straightened image.
    public var crop: NormalizedRect?
    /// 256 output levels, one per input level, for every channel; `nil` keeps the levels.
    public var toneCurve: [UInt8]?
    /// A row-major 3 × 3 matrix (red, green, blue out = matrix × red, green, blue in); `nil`
    /// keeps the channels.
    public var colorMatrix: [Double]?

    /// An edit of these steps; the defaults leave every pixel as it is. The values are checked by
    /// ``validate()``, not here.
    public init(
        quarterTurns: Int = 0, isFlipped: Bool = false, straightenDegrees: Double = 0, crop: NormalizedRect? = nil,
        toneCurve: [UInt8]? = nil, colorMatrix: [Double]? = nil
    ) {
        self.quarterTurns = quarterTurns
        self.isFlipped = isFlipped
        self.straightenDegrees = straightenDegrees
        self.crop = crop
        self.toneCurve = toneCurve
        self.colorMatrix = colorMatrix
    }

    /// Whether the colour steps change any pixel.
    public var changesColor: Bool {
        let identityCurve = toneCurve.map { curve in curve.enumerated().allSatisfy { Int($0.element) == $0.offset } } ?? true
        let identityMatrix = colorMatrix.map { $0 == [1, 0, 0, 0, 1, 0, 0, 0, 1] } ?? true
        return !(identityCurve && identityMatrix)
    }

    /// The size of an image of `size` straightened by `degrees`: the largest rectangle of the same
    /// proportions, centred, that lies inside the turned image (rounded down, at least 1 × 1).
    public static func straightenedSize(of size: PixelSize, degrees: Double) -> PixelSize {
        guard degrees != 0 else { return size }
        let radians = abs(degrees) * .pi / 180
        let (cosine, sine) = (cos(radians), sin(radians))
        let width = Double(size.width)
        let height = Double(size.height)
        let scale = min(width / (width * cosine + height * sine), height / (width * sine + height * cosine))
        return PixelSize(width: max(1, Int((width * scale).rounded(.down))), height: max(1, Int((height * scale).rounded(.down))))
    }

    /// Checks the values: a straightening of −45…45°, a 256-entry curve, a 9-entry finite matrix.
    public func validate() throws(ImageError) {
        guard straightenDegrees.isFinite, abs(straightenDegrees) <= 45 else {
            throw .invalidArgument("straightening \(straightenDegrees)° is outside −45…45°")
        }
        if let toneCurve, toneCurve.count != 256 {
            throw .invalidArgument("a tone curve has 256 entries, not \(toneCurve.count)")
        }
        if let colorMatrix, colorMatrix.count != 9 || !colorMatrix.allSatisfy(\.isFinite) {
            throw .invalidArgument("a colour matrix has 9 finite entries")
        }
    }
}
