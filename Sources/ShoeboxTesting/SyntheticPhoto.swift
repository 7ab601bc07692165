import Foundation
import ShoeboxImaging

/// Deterministic, photo-like test images: smooth gradients, soft shapes, fine texture and sensor
/// noise, so that encoders and resamplers work as hard as on real photos (a flat or purely
/// random image would be unrealistically easy or hard to compress).
///
/// ```swift
/// let image = try SyntheticPhoto(width: 6000, height: 4000, seed: 7).image()
/// try image.write(to: URL(fileURLWithPath: "/tmp/photo.jpg"))
/// ```
public struct SyntheticPhoto: Sendable {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int
    /// Chooses the picture (colours, shapes, texture, grain): the same seed gives the same pixels
    /// on every machine.
    public var seed: UInt64

    /// A `width × height` picture, generated only when ``bitmap()`` or ``image(metadata:)`` is called.
    public init(width: Int, height: Int, seed: UInt64 = 1) {
        self.width = width
        self.height = height
        self.seed = seed
    }

    /// The RGB pixels.
    public func bitmap() throws(ImageError) -> Bitmap {
        var generator = SplitMix64(seed: seed)
        let hueA = Double(generator.next() % 360) / 360
        let hueB = Double(generator.next() % 360) / 360
        let blobs = (0..<6).map { _ in
            (
                x: Double(generator.next() % 1000) / 1000, y: Double(generator.next() % 1000) / 1000,
                r: 0.08 + Double(generator.next() % 200) / 1000, tint: Double(generator.next() % 255)
            )
        }
        let frequency = 6.0 + Double(generator.next() % 20)
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        var noise = SplitMix64(seed: seed &* 31 &+ 17)
        let w = Double(width)
        let h = Double(height)
        bytes.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                let v = Double(y) / h
                for x in 0..<width {
                    let u = Double(x) / w
                    var r = 255 * (0.5 + 0.4 * sin(6.283 * (u + hueA)))
                    var g = 255 * (0.45 + 0.35 * sin(6.283 * (v + hueB)))
                    let b = 255 * (0.5 + 0.3 * cos(6.283 * (u * 0.7 + v * 0.5)))
                    for blob in blobs {
                        let dx = u - blob.x
                        let dy = (v - blob.y) * h / w
                        let d2 = (dx * dx + dy * dy) / (blob.r * blob.r)
                        if d2 < 4 {
                            let weight = exp(-d2)
                            r += (blob.tint - r) * weight * 0.8
                            g += (255 - blob.tint - g) * weight * 0.6
                        }
                    }
                    let texture = 12 * sin(frequency * 6.283 * u * 3) * sin(frequency * 6.283 * v * 2)
                    let grain = Double(Int(noise.next() % 17) - 8)
                    let index = (y * width + x) * 3
                    buffer[index] = UInt8(clamping: Int(r + texture + grain))
                    buffer[index + 1] = UInt8(clamping: Int(g + texture + grain))
                    buffer[index + 2] = UInt8(clamping: Int(b - texture + grain))
                }
            }
        }
        return try Bitmap(width: width, height: height, channels: 3, bytes: bytes)
    }

    /// The picture as an in-memory ``Image``.
    public func image(metadata: ImageMetadata = ImageMetadata()) throws(ImageError) -> Image {
        try Image(bitmap: bitmap(), metadata: metadata)
    }

    /// Writes `count` JPEGs named `photo-000.jpg`… into `directory` (made if missing) and returns
    /// their URLs. Files that already exist with the same name are kept, so a benchmark can reuse
    /// its input.
    public static func writeJPEGs(
        count: Int, width: Int, height: Int, to directory: URL, quality: Double = 0.9,
        progress: (Int) -> Void = { _ in }
    ) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var urls: [URL] = []
        for index in 0..<count {
            let url = directory.appendingPathComponent(String(format: "photo-%03d.jpg", index))
            if !FileManager.default.fileExists(atPath: url.path) {
                let image = try SyntheticPhoto(width: width, height: height, seed: UInt64(index + 1)).image()
                try image.write(to: url, format: .jpeg, options: ImageEncodingOptions(quality: quality))
            }
            urls.append(url)
            progress(index + 1)
        }
        return urls
    }
}

/// A small, fast, seedable generator (SplitMix64), so generated images are identical everywhere.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator starting from `seed` (any value, 0 included); equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits, advancing the state.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
