import Foundation

extension CaptureDevice {
    /// The gains applied to the sensor's red, green and blue channels (`AVCaptureDevice.WhiteBalanceGains`):
    /// each 1…``CaptureDevice/maxWhiteBalanceGain``.
    public struct WhiteBalanceGains: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The red channel's gain: 1 leaves it as the sensor read it.
        public var redGain: Float
        /// The green channel's gain: 1 leaves it as the sensor read it.
        public var greenGain: Float
        /// The blue channel's gain: 1 leaves it as the sensor read it.
        public var blueGain: Float

        /// Gains as given, unchecked: ``CaptureDevice/setWhiteBalanceModeLocked(with:)`` refuses any
        /// outside 1…``CaptureDevice/maxWhiteBalanceGain``.
        public init(redGain: Float, greenGain: Float, blueGain: Float) {
            self.redGain = redGain
            self.greenGain = greenGain
            self.blueGain = blueGain
        }

        /// The three gains to three decimals: `R 1.000 G 1.000 B 1.000`.
        public var description: String { String(format: "R %.3f G %.3f B %.3f", redGain, greenGain, blueGain) }
    }

    /// A white point as a colour temperature in kelvin and a tint (green +, magenta −), the way
    /// people set white balance (`AVCaptureDevice.WhiteBalanceTemperatureAndTintValues`).
    public struct WhiteBalanceTemperatureAndTintValues: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The colour temperature in kelvin; gains are worked out within 1,667–25,000 K (a value
        /// outside counts as the nearest end).
        public var temperature: Float
        /// The shift towards green (positive) or magenta (negative): each unit moves green by 1 %.
        public var tint: Float

        /// A white point of `temperature` kelvin and `tint`, as given.
        public init(temperature: Float, tint: Float) {
            self.temperature = temperature
            self.tint = tint
        }

        /// The values on one line, the kelvin rounded: `5000 K, tint 0.0`.
        public var description: String { String(format: "%.0f K, tint %.1f", temperature, tint) }
    }

    /// The gains that make a light of `values` neutral: the light's colour in linear sRGB (the
    /// blackbody's chromaticity, Kim et al.'s cubic fit to the Planckian locus, 1,667–25,000 K;
    /// the tint moves green by 1 % per unit), inverted and scaled so the smallest gain is 1.
    public func deviceWhiteBalanceGains(for values: WhiteBalanceTemperatureAndTintValues) -> WhiteBalanceGains {
        Self.gains(for: values)
    }

    /// The temperature and tint of the light `gains` make neutral (the inverse of
    /// ``deviceWhiteBalanceGains(for:)``, by bisection on the ratio of red to blue).
    public func temperatureAndTintValues(for gains: WhiteBalanceGains) -> WhiteBalanceTemperatureAndTintValues {
        Self.temperatureAndTint(for: gains)
    }

    static func gains(for values: WhiteBalanceTemperatureAndTintValues) -> WhiteBalanceGains {
        let light = lightColor(kelvin: Double(values.temperature))
        let green = light.green * (1 + Double(values.tint) / 100)
        let inverse = [1 / light.red, 1 / green, 1 / light.blue]
        let smallest = inverse.min() ?? 1
        return WhiteBalanceGains(redGain: Float(inverse[0] / smallest), greenGain: Float(inverse[1] / smallest), blueGain: Float(inverse[2] / smallest))
    }

    static func temperatureAndTint(for gains: WhiteBalanceGains) -> WhiteBalanceTemperatureAndTintValues {
        // Warmer light is redder: the red gain it needs falls against the blue one as kelvin fall.
        let target = Double(gains.blueGain / gains.redGain)
        var low = 1_667.0
        var high = 25_000.0
        for _ in 0..<60 {
            let middle = (low + high) / 2
            let light = lightColor(kelvin: middle)
            // blue gain / red gain = red light / blue light, which falls as the temperature rises.
            if light.red / light.blue > target { low = middle } else { high = middle }
        }
        let kelvin = (low + high) / 2
        let light = lightColor(kelvin: kelvin)
        // The green this light has relative to red, and the green the gains undo.
        let expectedGreenGain = light.red / light.green * Double(gains.redGain)
        let tint = (expectedGreenGain / Double(gains.greenGain) - 1) * 100
        return WhiteBalanceTemperatureAndTintValues(temperature: Float(kelvin.rounded()), tint: Float((tint * 10).rounded() / 10))
    }

    /// A blackbody's colour at `kelvin`, in linear sRGB with green 1.
    static func lightColor(kelvin: Double) -> (red: Double, green: Double, blue: Double) {
        let t = Swift.min(25_000, Swift.max(1_667, kelvin))
        let x: Double
        if t <= 4_000 {
            x = -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
        } else {
            x = -3.0258469e9 / (t * t * t) + 2.1070379e6 / (t * t) + 0.2226347e3 / t + 0.240390
        }
        let y: Double
        if t <= 2_222 {
            y = -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
        } else if t <= 4_000 {
            y = -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
        } else {
            y = 3.0817580 * x * x * x - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
        }
        // xyY (Y = 1) → XYZ → linear sRGB.
        // swift-format-ignore: AlwaysUseLowerCamelCase
        let X = x / y
        // swift-format-ignore: AlwaysUseLowerCamelCase
        let Z = (1 - x - y) / y
        let r = 3.2404542 * X - 1.5371385 - 0.4985314 * Z
        let g = -0.9692660 * X + 1.8760108 + 0.0415560 * Z
        let b = 0.0556434 * X - 0.2040259 + 1.0572252 * Z
        return (Swift.max(r, 1e-3) / g, 1, Swift.max(b, 1e-3) / g)
    }
}
