import Foundation
import ShoeboxImaging
import ShoeboxTesting

/// The files the bad-upload battery throws at `shoebox serve`: cut copies of good files, bombs,
/// misnamed files, and for the memory check very large photos (made once and kept in
/// `.build/bad-upload-battery/`, since a 99-megapixel PNG and an 8192 × 8192 HEIC take a while
/// to encode).
enum BadUploadFixtures {
    struct File: Sendable {
        let name: String
        let data: Data
    }

    /// Good corpus files of every decoder the library uses, cut for the truncation set: JPEG,
    /// HEIC (a grid of tiles), PNG, TIFF (its directory near the end, an ICC profile after it),
    /// GIF and an MP4 movie.
    static let truncationSources = [
        "exif-samples/jpg/Reconyx_HC500_Hyperfire.jpg", "exif-samples/heic/IMG_5195.HEIC", "pngsuite/PngSuite.png",
        "exif-samples/tiff/Tless0.tiff", "exiftool-t/GIF.gif", "generated-video/testsrc-640x480-h264-aac.mp4",
    ]

    /// `data` cut at every sixteenth: 1/16 … 15/16 of its bytes.
    static func truncations(of data: Data, name: String) -> [File] {
        let stem = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        return (1..<16).map { sixteenths in
            File(name: String(format: "%@-cut%02d.%@", stem, sixteenths, ext), data: data.prefix(data.count * sixteenths / 16))
        }
    }

    // MARK: Bombs

    /// A real JPEG whose frame header (SOF) says `width × height`.
    static func jpegDeclaring(width: UInt16, height: UInt16) throws -> Data {
        var bytes = [UInt8](try SyntheticPhoto(width: 64, height: 48, seed: 5).image().encoded(as: .jpeg))
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC3).contains(marker) {
                bytes[index + 5] = UInt8(height >> 8); bytes[index + 6] = UInt8(height & 0xFF)
                bytes[index + 7] = UInt8(width >> 8); bytes[index + 8] = UInt8(width & 0xFF)
                return Data(bytes)
            }
            index += 2 + length
        }
        throw ChildProcess.Failure("the generated JPEG has no frame header")
    }

    /// A real HEIC whose image size property (`ispe`) says `width × height`.
    static func heicDeclaring(width: UInt32, height: UInt32) throws -> Data {
        var bytes = [UInt8](try SyntheticPhoto(width: 64, height: 48, seed: 6).image().encoded(as: .heic))
        let ispe = Array("ispe".utf8)
        var patched = 0
        for index in 0..<(bytes.count - 16) where Array(bytes[index..<index + 4]) == ispe {
            // `ispe`, version and flags, then width and height.
            for (offset, value) in [(8, width), (12, height)] {
                for byte in 0..<4 { bytes[index + offset + byte] = UInt8(value >> (24 - 8 * UInt32(byte)) & 0xFF) }
            }
            patched += 1
        }
        guard patched > 0 else { throw ChildProcess.Failure("the generated HEIC has no ispe property") }
        return Data(bytes)
    }

    /// A black `width × height` grey PNG: a few hundred kilobytes that inflate to a picture a
    /// thousand times larger (a decompression bomb within the pixel limit).
    static func blackPNG(width: Int, height: Int, interlaced: Bool) throws -> Data {
        let bitmap = try Bitmap(width: width, height: height, channels: 1, bytes: [UInt8](repeating: 0, count: width * height))
        return try Image(bitmap: bitmap).encoded(as: .png, options: ImageEncodingOptions(isProgressive: interlaced))
    }

    /// Bytes no decoder recognises (a fixed seed, so every run sends the same).
    static func randomBytes(count: Int, seed: UInt64) -> Data {
        var generator = SplitMix64(seed: seed)
        return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    }

    // MARK: Large photos for the memory check

    /// `.build/bad-upload-battery/`.
    static var cache: URL {
        Corpus.packageRoot().appendingPathComponent(".build/bad-upload-battery")
    }

    /// A `width × height` RGB PNG (kept in ``cache``): a pattern that compresses well, so the
    /// file is small and the decoded picture is not.
    static func largePNG(width: Int, height: Int, interlaced: Bool) throws -> URL {
        try cached("png-\(width)x\(height)-\(interlaced ? "interlaced" : "plain")-v1.png") {
            let bitmap = try Bitmap(width: width, height: height, channels: 3, bytes: pattern(width: width, height: height, coarse: false))
            return try Image(bitmap: bitmap).encoded(as: .png, options: ImageEncodingOptions(isProgressive: interlaced))
        }
    }

    /// A `side × side` HEIC (kept in ``cache``): smooth gradients, which x265 encodes quickly.
    static func largeHEIC(side: Int) throws -> URL {
        try cached("heic-\(side)x\(side)-v1.heic") {
            let bitmap = try Bitmap(width: side, height: side, channels: 3, bytes: pattern(width: side, height: side, coarse: true))
            return try Image(bitmap: bitmap).encoded(as: .heic, options: ImageEncodingOptions(quality: 0.5))
        }
    }

    /// The PNG with a text chunk before its end saying `number`: other bytes, the same picture.
    static func variant(ofPNG data: Data, number: Int) -> Data {
        let text = Data("tEXt".utf8) + Data("Comment\0battery variant \(number)".utf8)
        var chunk = Data()
        for shift in [24, 16, 8, 0] { chunk.append(UInt8(truncatingIfNeeded: (text.count - 4) >> shift)) }
        chunk.append(text)
        let crc = crc32(text)
        for shift in [24, 16, 8, 0] { chunk.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        let end = data.count - 12  // the IEND chunk: length, type, CRC
        return data.prefix(end) + chunk + data.suffix(12)
    }

    /// The HEIC with an empty `free` box after its last box saying `number` in its size: other
    /// bytes, the same picture.
    static func variant(ofHEIC data: Data, number: Int) -> Data {
        let size = 8 + number
        var box = Data([UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        box.append(Data("free".utf8))
        box.append(Data(count: number))
        return data + box
    }

    private static func cached(_ name: String, make: () throws -> Data) throws -> URL {
        let url = cache.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let partial = cache.appendingPathComponent(".\(name).\(UUID().uuidString)")
        try make().write(to: partial)
        if rename(partial.path, url.path) != 0 { try? FileManager.default.removeItem(at: partial) }
        return url
    }

    /// Interleaved RGB: stripes (`coarse`: smooth gradients) that depend on x and y.
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

    /// CRC-32 as PNG chunks carry it.
    private static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
