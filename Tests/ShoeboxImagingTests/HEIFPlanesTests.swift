import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxImaging

/// HEIF pictures thumbnailed from libheif's YCbCr planes look as libvips's own loader makes them.
struct HEIFPlanesTests {
    /// The corpus's HEIC and HEIF photos (phones from Apple and HMD, a sample site's file).
    static let corpusFiles: [String] = [
        "exiftool-t/QuickTime.heic", "exif-samples/heic/samplefilehub.heif", "exif-samples/heic/IMG_5195.HEIC",
        "exif-samples/heic/mobile/iphone_13_pro_max.HEIC", "exif-samples/heic/mobile/HMD_Nokia_8.3_5G_hdr.heif",
        "exif-samples/heic/mobile/HMD_Nokia_8.3_5G.heif",
    ]

    /// The mean and largest difference of two same-sized thumbnails' samples.
    static func difference(_ a: Image, _ b: Image) throws -> (mean: Double, largest: Int) {
        let x = try a.bitmap()
        let y = try b.bitmap()
        #expect(x.width == y.width && x.height == y.height && x.channels == y.channels)
        guard x.bytes.count == y.bytes.count, !x.bytes.isEmpty else { return (.infinity, 255) }
        var total = 0
        var largest = 0
        for index in x.bytes.indices {
            let delta = abs(Int(x.bytes[index]) - Int(y.bytes[index]))
            total += delta
            largest = max(largest, delta)
        }
        return (Double(total) / Double(x.bytes.count), largest)
    }

    /// The thumbnail libvips's heifload makes (interleaved RGB from libheif).
    static func libvipsThumbnail(_ image: Image, side: Int) throws -> Image {
        let (width, height) = Image.thumbnailBounds(source: image.pixelSize, target: PixelSize(square: side), mode: .aspectFit, crop: false)
        let handle = try Image.makeSource(image.storage).thumbnail(width: width, height: height, crop: false)
        return Image(raster: try handle.materialized().markedUpright(), metadata: image.metadata)
    }

    /// Whether the planes took the picture, and how far its thumbnail's colours are from
    /// libvips's. Sizes must be equal at every side asked for. Colours are compared after both
    /// thumbnails of the largest side are reduced to 32 pixels the same way, where resamplers'
    /// sub-pixel placement averages out and a wrong matrix or range would not (the limited-range
    /// file read as full range differs by 7.7 on average). Small sides are not compared directly:
    /// there libvips reads the file's embedded thumbnail instead.
    static func compare(_ image: Image, sides: [Int] = [301, 512, 1000]) throws -> (taken: Bool, mean: Double, largest: Int) {
        let taken = try HEIFPlanes.pipeline(image.storage) != nil
        var last: (Image, Image)?
        for side in sides {
            let ours = try image.thumbnail(targetSize: PixelSize(square: side))
            let theirs = try libvipsThumbnail(image, side: side)
            #expect(ours.pixelSize == theirs.pixelSize, "thumbnail inside \(side)")
            last = (ours, theirs)
        }
        let (ours, theirs) = try #require(last)
        let small = PixelSize(square: 32)
        let (mean, largest) = try difference(ours.thumbnail(targetSize: small), theirs.thumbnail(targetSize: small))
        return (taken, mean, largest)
    }

    @Test(.enabled(if: corpus != nil, Comment(rawValue: corpusMissing)), arguments: corpusFiles)
    func corpusPhotosMatchLibvipsLoader(_ path: String) throws {
        let image = try Image(contentsOf: try #require(corpus).url(path))
        guard (try? Self.libvipsThumbnail(image, side: 64)) != nil else {
            // exiftool's sample holds boxes but no picture: both ways refuse it.
            #expect(throws: ImageError.self) { try image.thumbnail(targetSize: PixelSize(square: 64)) }
            return
        }
        let (taken, mean, largest) = try Self.compare(image)
        // The HMD "hdr" file is limited range, which libvips's loader reads.
        #expect(taken == !path.hasSuffix("_hdr.heif"), "\(path): the YCbCr path \(taken ? "took" : "left") it")
        print("\(path): mean difference \(mean), largest \(largest)")
        #expect(mean < 1, "\(path): mean difference \(mean)")
        #expect(largest <= 8, "\(path): largest difference \(largest)")
    }

    /// Odd sizes (chroma planes a pixel wider than half, rows padded in libheif's memory), in a
    /// HEIC written by libvips (x265).
    @Test(arguments: [PixelSize(width: 301, height: 199), PixelSize(width: 64, height: 1001)])
    func oddSizesMatch(_ size: PixelSize) throws {
        let format = ImageFormat.heic
        try #require(format.canEncode, "this libvips cannot write HEIC")
        let width = size.width
        let height = size.height
        var bytes: [UInt8] = []
        for row in 0..<height {
            for column in 0..<width {
                bytes += [UInt8(column * 255 / width), UInt8(row * 255 / height), UInt8((column ^ row) & 0xFF)]
            }
        }
        let source = try Image(bitmap: Bitmap(width: width, height: height, channels: 3, bytes: bytes))
        let encoded = try source.encoded(as: format, options: ImageEncodingOptions(quality: 0.8))  // under 0.9: libvips subsamples chroma
        let image = try Image(data: encoded)
        let (taken, mean, largest) = try Self.compare(image, sides: [100, 400])
        #expect(taken, "the YCbCr path should take an 8-bit \(format) without alpha")
        #expect(mean < 1 && largest <= 8, "mean difference \(mean), largest \(largest)")
    }

    @Test func damagedFilesFailAsCorrupt() throws {
        var bytes = [UInt8](
            try Image(bitmap: Bitmap(width: 64, height: 64, channels: 3, bytes: Array(repeating: 90, count: 64 * 64 * 3)))
                .encoded(as: .heic))
        bytes.removeLast(bytes.count / 3)
        #expect(throws: ImageError.self) { try Image(data: Data(bytes)).thumbnail(targetSize: PixelSize(square: 32)) }
    }
}
