/// How an image is scaled to a target size: `PHImageContentMode` without the prefix.
///
/// Both modes keep the aspect ratio, rotate upright, and never enlarge past the original:
///
/// | source | target | `.aspectFit` | `.aspectFill` | `.aspectFill` + `cropToFill` |
/// |---|---|---|---|---|
/// | 4000×3000 | 256×256 | 256×192 | 341×256 | 256×256 |
/// | 3000×4000 | 256×256 | 192×256 | 256×341 | 256×256 |
/// | 100×50 | 256×256 | 100×50 | 100×50 | 100×50 |
public enum ImageContentMode: String, Sendable, Codable, CaseIterable {
    /// The result fits inside the target: neither side is larger than the target's.
    case aspectFit
    /// The result covers the target: the target is a minimum on both sides, as the seeds
    /// observed of `PHImageManager` (500×500 gives 700×500 for a 7:5 photo). Nothing is cut off
    /// unless the caller also asks to crop.
    case aspectFill
}
