import Foundation
import ShoeboxImaging
import ShoeboxTesting

/// The files the bad-upload battery throws at `shoebox serve`: cut copies of good files, bombs,
/// misnamed files; the very large photos of the memory tests are ``LargePhotos``, kept in ``cache``.
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
        let stem = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
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
                bytes[index + 5] = UInt8(height >> 8)
                bytes[index + 6] = UInt8(height & 0xFF)
                bytes[index + 7] = UInt8(width >> 8)
                bytes[index + 8] = UInt8(width & 0xFF)
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

    // MARK: Large photos for the memory tests

    /// Where the memory tests' large photos (ThumbnailCommandTests) are kept between runs: `.build/bad-upload-battery/`.
    static var cache: URL {
        Corpus.packageRoot().appendingPathComponent(".build/bad-upload-battery")
    }
}
