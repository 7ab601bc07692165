import Foundation
import ShoeboxImaging

/// Frames of a sensor's colour filter array: the photosites read from a Bayer format's bytes, and
/// a picture made from them for previews and processed photos — bilinear demosaicing, grey-world
/// white balance, sRGB's transfer curve. (RAW photos keep the photosites; a raw developer makes
/// the considered picture from those.)
enum BayerFrame {
    /// The photosites of one frame: `bytesPerPhotosite` 1 (8 bits) or 2 (little-endian, the value
    /// in the low `bits`).
    static func photosites(
        _ data: Data, size: PixelSize, pattern: RawFileWriter.CFAPattern, bytesPerPhotosite: Int,
        bits: Int
    ) throws(ImageError) -> SensorData {
        let count = size.width * size.height
        guard size.width >= 2, size.height >= 2, data.count >= count * bytesPerPhotosite else {
            throw .corrupt(reason: "a Bayer frame of \(data.count) bytes is short of \(count * bytesPerPhotosite) for \(size)")
        }
        let bits = Swift.min(16, Swift.max(8, bits))
        let mask = UInt16((1 << bits) - 1)
        var values = [UInt16](repeating: 0, count: count)
        data.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
            values.withUnsafeMutableBufferPointer { out in
                if bytesPerPhotosite == 1 {
                    for index in 0..<count { out[index] = UInt16(source[index]) }
                } else {
                    for index in 0..<count {
                        out[index] = (UInt16(source[index * 2]) | UInt16(source[index * 2 + 1]) << 8) & mask
                    }
                }
            }
        }
        return SensorData(
            width: size.width, height: size.height, photosites: values, pattern: pattern, blackLevel: 0,
            whiteLevel: UInt32(mask))
    }

    /// The mean value of each colour's photosites (red, green, blue), sampled on pairs of rows
    /// (every colour of the 2 × 2 tile) every few rows.
    static func channelMeans(_ sensor: SensorData) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        var counts = [0.0, 0.0, 0.0]
        let black = Double(sensor.blackLevel)
        sensor.photosites.withUnsafeBufferPointer { sites in
            for pair in stride(from: 0, to: sensor.height - 1, by: 2 * (1 + sensor.height / 512)) {
                for y in pair...(pair + 1) {
                    for x in 0..<sensor.width {
                        let colour = sensor.pattern.colour(x: x, y: y)
                        sums[colour] += Swift.max(0, Double(sites[y * sensor.width + x]) - black)
                        counts[colour] += 1
                    }
                }
            }
        }
        return (0..<3).map { counts[$0] > 0 ? Swift.max(1, sums[$0] / counts[$0]) : 1 }
    }

    /// DNG's `AsShotNeutral` under the grey-world assumption: each colour's mean over green's.
    static func neutral(_ sensor: SensorData) -> [Double] {
        let means = channelMeans(sensor)
        return [means[0] / means[1], 1, means[2] / means[1]]
    }

    /// An 8-bit sRGB picture of the photosites: each missing colour the mean of its neighbours of
    /// that colour (bilinear), balanced so the scene averages to grey, through sRGB's curve.
    static func demosaiced(_ sensor: SensorData) throws(ImageError) -> Bitmap {
        let width = sensor.width
        let height = sensor.height
        let means = channelMeans(sensor)
        let white = Double(sensor.whiteLevel) - Double(sensor.blackLevel)
        // Gains that bring each colour's mean to green's; the brightest balanced value is white.
        let gains = (0..<3).map { means[1] / means[$0] / Swift.max(1, white) }
        let curve: [UInt8] = (0..<4_096).map { index in
            let linear = Double(index) / 4_095
            let encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
            return UInt8(clamping: Int((encoded * 255).rounded()))
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let black = Int(sensor.blackLevel)
        sensor.photosites.withUnsafeBufferPointer { sites in
            rgb.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    for x in 0..<width {
                        var sums = (0, 0, 0)
                        var counts = (0, 0, 0)
                        // The 3 × 3 neighbourhood, edges repeated.
                        for dy in -1...1 {
                            let row = Swift.min(height - 1, Swift.max(0, y + dy))
                            for dx in -1...1 {
                                let column = Swift.min(width - 1, Swift.max(0, x + dx))
                                let value = Swift.max(0, Int(sites[row * width + column]) - black)
                                switch sensor.pattern.colour(x: column, y: row) {
                                case 0:
                                    sums.0 += value
                                    counts.0 += 1
                                case 1:
                                    sums.1 += value
                                    counts.1 += 1
                                default:
                                    sums.2 += value
                                    counts.2 += 1
                                }
                            }
                        }
                        // The photosite's own colour is its own value, not its neighbours'.
                        let own = Double(Swift.max(0, Int(sites[y * width + x]) - black))
                        let colour = sensor.pattern.colour(x: x, y: y)
                        let red = colour == 0 ? own : Double(sums.0) / Double(Swift.max(1, counts.0))
                        let green = colour == 1 ? own : Double(sums.1) / Double(Swift.max(1, counts.1))
                        let blue = colour == 2 ? own : Double(sums.2) / Double(Swift.max(1, counts.2))
                        let index = (y * width + x) * 3
                        out[index] = curve[Int(Swift.min(1, red * gains[0]) * 4_095)]
                        out[index + 1] = curve[Int(Swift.min(1, green * gains[1]) * 4_095)]
                        out[index + 2] = curve[Int(Swift.min(1, blue * gains[2]) * 4_095)]
                    }
                }
            }
        }
        return try Bitmap(width: width, height: height, channels: 3, bytes: rgb)
    }
}
