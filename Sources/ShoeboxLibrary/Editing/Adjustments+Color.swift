import Foundation

extension Adjustments {
    /// The tone curve of ``light`` and ``filter``: 256 output levels, one per 8-bit input level,
    /// applied to each channel.
    public var toneCurve: [UInt8] { Self.toneCurve(light.adding(filter?.light ?? .neutral)) }

    /// The channel mix of ``light`` and ``filter``: a row-major 3 × 3 matrix applied after the
    /// tone curve (saturation, then warmth, then the filter's own mix).
    public var colorMatrix: [Double] { Self.colorMatrix(light.adding(filter?.light ?? .neutral), filter: filter) }

    /// The tone curve of `light`. For each level `x` in 0…1:
    /// 1. exposure `e`: `x` to linear light, × 2^e, back to sRGB (clipped at white);
    /// 2. shadows `s`: `x + s·x·(1−x)²`;
    /// 3. highlights `h`: `x + h·x²·(1−x)`;
    /// 4. contrast `c`: `x − c·sin(2πx)/(2π)`;
    ///
    /// each step held in 0…1, the result rounded to 0…255. Every step keeps black and white and
    /// never reverses the order of two levels.
    static func toneCurve(_ light: Light) -> [UInt8] {
        let gain = pow(2, light.exposure)
        return (0...255).map { level in
            var x = Double(level) / 255
            if light.exposure != 0 { x = sRGB(fromLinear: Swift.min(1, linear(fromSRGB: x) * gain)) }
            x = clamp(x + light.shadows * x * (1 - x) * (1 - x))
            x = clamp(x + light.highlights * x * x * (1 - x))
            x = clamp(x - light.contrast * sin(2 * .pi * x) / (2 * .pi))
            return UInt8((x * 255).rounded())
        }
    }

    /// The channel mix of `light` and `filter`: `filter.matrix × warmth × saturation`, where
    /// saturation `s` is `(1+s)·I − s·L` (`L`'s rows the Rec. 709 luma weights 0.2126, 0.7152,
    /// 0.0722) and warmth `w` is `diag(1 + 0.15w, 1, 1 − 0.15w)`.
    static func colorMatrix(_ light: Light, filter: Filter?) -> [Double] {
        let luma = [0.2126, 0.7152, 0.0722]
        let s = light.saturation
        var saturation = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                saturation[row * 3 + column] = (row == column ? 1 + s : 0) - s * luma[column]
            }
        }
        let warmth = [1 + 0.15 * light.warmth, 0, 0, 0, 1, 0, 0, 0, 1 - 0.15 * light.warmth]
        let mixed = multiply(warmth, saturation)
        return filter?.matrix.map { multiply($0, mixed) } ?? mixed
    }

    private static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { index in
            let (row, column) = (index / 3, index % 3)
            return (0..<3).reduce(0) { $0 + a[row * 3 + $1] * b[$1 * 3 + column] }
        }
    }

    private static func clamp(_ x: Double) -> Double { Swift.min(1, Swift.max(0, x)) }

    private static func linear(fromSRGB x: Double) -> Double {
        x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
    }

    private static func sRGB(fromLinear x: Double) -> Double {
        x <= 0.0031308 ? x * 12.92 : 1.055 * pow(x, 1 / 2.4) - 0.055
    }
}
