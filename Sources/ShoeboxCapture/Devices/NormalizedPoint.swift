/// A point in a frame as fractions of its width and height: (0, 0) is the top left, (1, 1) the
/// bottom right, whatever the format — where AV Foundation's points of interest are `CGPoint`s
/// in the same space.
public struct NormalizedPoint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The distance from the left edge, as a fraction of the frame's width.
    public var x: Double
    /// The distance from the top edge, as a fraction of the frame's height.
    public var y: Double

    /// A point at `x`, `y`, as given: ``isInFrame`` says whether it lies in the frame.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The frame's centre, where points of interest start.
    public static let center = NormalizedPoint(x: 0.5, y: 0.5)

    /// Whether both coordinates are within 0…1.
    public var isInFrame: Bool { (0...1).contains(x) && (0...1).contains(y) }

    /// The coordinates in brackets: `(0.5, 0.5)`.
    public var description: String { "(\(x), \(y))" }
}
