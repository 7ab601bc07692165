import Foundation

extension Adjustments {
    /// A look applied on top of the light sliders: some light of its own (added to the user's,
    /// each held in its range) and, for Sepia, a channel mix.
    public enum Filter: String, Sendable, Hashable, Codable, CaseIterable {
        /// More colour and a little more contrast.
        case vivid
        /// Deeper shadows, more contrast, less colour.
        case dramatic
        /// Warmer and a touch more colour.
        case warm
        /// Cooler.
        case cool
        /// Flatter and paler, with lifted shadows.
        case fade
        /// Black and white.
        case mono
        /// Black and white with strong contrast.
        case noir
        /// Brown-toned black and white.
        case sepia

        /// The name shown in editors.
        public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

        /// The light it adds to the user's sliders.
        public var light: Light {
            switch self {
            case .vivid: Light(contrast: 0.15, saturation: 0.35)
            case .dramatic: Light(contrast: 0.45, highlights: -0.2, shadows: -0.25, saturation: -0.25)
            case .warm: Light(saturation: 0.1, warmth: 0.45)
            case .cool: Light(warmth: -0.45)
            case .fade: Light(contrast: -0.35, shadows: 0.35, saturation: -0.35)
            case .mono: Light(saturation: -1)
            case .noir: Light(contrast: 0.6, shadows: -0.2, saturation: -1)
            case .sepia: Light(contrast: 0.1)
            }
        }

        /// The channel mix applied after the light's (row-major 3 × 3), or `nil`.
        public var matrix: [Double]? {
            switch self {
            case .sepia: [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131]
            default: nil
            }
        }
    }
}
