import Foundation
import ShoeboxImaging

#if canImport(Glibc)
    import Glibc
#endif

/// Very large photos for memory checks (the bad-upload battery, `shoebox-bench upload-memory`):
/// a 99-megapixel PNG, an 8192 × 8192 HEIC. Patterns that compress well, so the files are small
/// and the decoded pictures are not; encoding them takes a while, so each is made once into a
/// folder and reused.
///
/// ```swift
/// let png = try LargePhotos.png(width: 11_500, height: 8_600, interlaced: false, in: cache)
/// let copies = (0..<10).map { LargePhotos.variant(ofPNG: pngData, number: $0) }   // ten distinct files
/// ```
public enum LargePhotos {
    /// A `width × height` RGB PNG in `folder` (made there once): fine stripes that depend on x
    /// and y. `interlaced`: Adam7, which a decoder must hold whole in memory.
    public static func png(width: Int, height: Int, interlaced: Bool, in folder: URL) throws -> URL {
        try cached("png-\(width)x\(height)-\(interlaced ? "interlaced" : "plain")-v1.png", in: folder) {
            let bitmap = try Bitmap(width: width, height: height, channels: 3, bytes: pattern(width: width, height: height, coarse: false))
            return try Image(bitmap: bitmap).encoded(as: .png, options: ImageEncodingOptions(isProgressive: interlaced))
        }
    }

    /// A `side × side` HEIC in `folder` (made there once): smooth gradients, which x265 encodes
    /// quickly (12 s for 8192 × 8192 on two cores).
    public static func heic(side: Int, in folder: URL) throws -> URL {
        try cached("heic-\(side)x\(side)-v1.heic", in: folder) {
            let bitmap = try Bitmap(width: side, height: side, channels: 3, bytes: pattern(width: side, height: side, coarse: true))
            return try Image(bitmap: bitmap).encoded(as: .heic, options: ImageEncodingOptions(quality: 0.5))
        }
    }

    /// The PNG with a text chunk before its end saying `number`: other bytes, the same picture.
    public static func variant(ofPNG data: Data, number: Int) -> Data {
        let text = Data("tEXt".utf8) + Data("Comment\0variant \(number)".utf8)
        var chunk = bigEndian(UInt32(text.count - 4))
        chunk.append(text)
        chunk.append(bigEndian(PNGBomb.crc32(text)))
        let end = data.count - 12  // the IEND chunk: length, type, CRC
        return data.prefix(end) + chunk + data.suffix(12)
    }

    /// The HEIC (any ISO media file) with a `free` box of `number` bytes after its last box:
    /// other bytes, the same picture.
    public static func variant(ofHEIC data: Data, number: Int) -> Data {
        var box = bigEndian(UInt32(8 + number))
        box.append(Data("free".utf8))
        box.append(Data(count: number))
        return data + box
    }

    private static func cached(_ name: String, in folder: URL, make: () throws -> Data) throws -> URL {
        let url = folder.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let partial = folder.appendingPathComponent(".\(name).\(UUID().uuidString)")
        try make().write(to: partial)
        if rename(partial.path, url.path) != 0 { try? FileManager.default.removeItem(at: partial) }
        return url
    }

    /// Interleaved RGB depending on x and y: fine stripes, or (`coarse`) smooth gradients.
    private static func pattern(width: Int, height: Int, coarse: Bool) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        bytes.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            for y in 0..<height {
                for x in 0..<width {
                    if coarse {
                        buffer[index] = UInt8(truncatingIfNeeded: x >> 5)
                        buffer[index + 1] = UInt8(truncatingIfNeeded: y >> 5)
                        buffer[index + 2] = 128
                    } else {
                        buffer[index] = UInt8(truncatingIfNeeded: x)
                        buffer[index + 1] = UInt8(truncatingIfNeeded: y)
                        buffer[index + 2] = UInt8(truncatingIfNeeded: x &+ y)
                    }
                    index += 3
                }
            }
        }
        return bytes
    }

    private static func bigEndian(_ value: UInt32) -> Data {
        Data([UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
