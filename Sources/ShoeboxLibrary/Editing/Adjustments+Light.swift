import Foundation

extension Adjustments {
    /// Light and colour sliders, each 0 when untouched. Ranges: ``exposure`` −2…2 (stops), the
    /// others −1…1.
    ///
    /// They become one tone curve (exposure, then shadows, highlights and contrast, on each
    /// channel) and one channel mix (saturation, then warmth): see ``Adjustments/toneCurve`` and
    /// ``Adjustments/colorMatrix`` for the exact formulas, which the web app's live preview
    /// repeats.
    public struct Light: Sendable, Hashable, Codable {
        /// Stops of exposure in linear light: +1 doubles it.
        public var exposure: Double
        /// Midtones steeper (positive) or flatter (negative), ends kept.
        public var contrast: Double
        /// The bright tones raised (positive) or brought back (negative).
        public var highlights: Double
        /// The dark tones lifted (positive) or deepened (negative).
        public var shadows: Double
        /// −1 removes colour; +1 doubles its distance from grey.
        public var saturation: Double
        /// Positive warmer (more red, less blue), negative cooler.
        public var warmth: Double

        /// Sliders at these values, unchecked (``Adjustments/validate()`` checks the ranges); the
        /// defaults leave each untouched.
        public init(
            exposure: Double = 0, contrast: Double = 0, highlights: Double = 0, shadows: Double = 0,
            saturation: Double = 0, warmth: Double = 0
        ) {
            self.exposure = exposure
            self.contrast = contrast
            self.highlights = highlights
            self.shadows = shadows
            self.saturation = saturation
            self.warmth = warmth
        }

        /// Every slider at 0.
        public static let neutral = Light()

        /// Whether every slider is at 0.
        public var isNeutral: Bool { self == .neutral }

        enum CodingKeys: String, CodingKey { case exposure, contrast, highlights, shadows, saturation, warmth }

        /// Reads the sliders from `light`'s JSON object; a missing key is 0.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func value(_ key: CodingKeys) throws -> Double { try container.decodeIfPresent(Double.self, forKey: key) ?? 0 }
            self.init(
                exposure: try value(.exposure), contrast: try value(.contrast), highlights: try value(.highlights),
                shadows: try value(.shadows), saturation: try value(.saturation), warmth: try value(.warmth))
        }

        /// Writes the sliders that are not 0 (an untouched slider is left out of the JSON).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            for (key, value) in fields where value != 0 { try container.encode(value, forKey: key) }
        }

        private var fields: [(CodingKeys, Double)] {
            [
                (.exposure, exposure), (.contrast, contrast), (.highlights, highlights), (.shadows, shadows),
                (.saturation, saturation), (.warmth, warmth),
            ]
        }

        /// Each slider's sum with `other`'s, held in its range (a filter's light on the user's).
        func adding(_ other: Light) -> Light {
            func clamp(_ value: Double, _ limit: Double) -> Double { Swift.min(limit, Swift.max(-limit, value)) }
            return Light(
                exposure: clamp(exposure + other.exposure, 2), contrast: clamp(contrast + other.contrast, 1),
                highlights: clamp(highlights + other.highlights, 1), shadows: clamp(shadows + other.shadows, 1),
                saturation: clamp(saturation + other.saturation, 1), warmth: clamp(warmth + other.warmth, 1))
        }

        /// Checks every slider is finite and in its range.
        func validate() throws(LibraryError) {
            for (key, value) in fields {
                let limit = key == .exposure ? 2.0 : 1.0
                guard value.isFinite, abs(value) <= limit else {
                    throw .invalidArgument("\(key.rawValue) \(value) is outside −\(Int(limit))…\(Int(limit))")
                }
            }
        }
    }
}
