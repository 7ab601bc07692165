import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@Suite struct ImageEncodingTests {
    static let formats = ImageFormat.encodable.filter(\.canEncode)

    @Test func jpegPNGAndWebPAreAlwaysAvailable() {
        #expect(Set(Self.formats).isSuperset(of: [.jpeg, .png, .webp]))
    }

    @Test("Encoded images reopen with the same size and format", arguments: formats)
    func roundTrip(_ format: ImageFormat) throws {
        let image = try SyntheticPhoto(width: 320, height: 200).image()
        let data = try image.encoded(as: format)
        let reopened = try Image(data: data)
        #expect(reopened.format == format)
        #expect(reopened.pixelSize == image.pixelSize)
        let difference = meanDifference(try reopened.bitmap(), try image.bitmap())
        #expect(difference < 6, "mean difference \(difference)")
    }

    @Test func qualityChangesSize() throws {
        let image = try SyntheticPhoto(width: 640, height: 480).image()
        let small = try image.encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.3))
        let large = try image.encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.95))
        #expect(small.count < large.count)
    }

    @Test func losslessWebPIsExact() throws {
        let image = try SyntheticPhoto(width: 120, height: 80).image()
        let data = try image.encoded(as: .webp, options: ImageEncodingOptions(isLossless: true))
        #expect(try Image(data: data).bitmap() == image.bitmap())
    }

    @Test func formatsShoeboxDoesNotWriteFail() throws {
        let image = try SyntheticPhoto(width: 16, height: 16).image()
        for format in [ImageFormat.gif, .tiff, .dng] {
            let error = #expect(throws: ImageError.self) { try image.encoded(as: format) }
            #expect(error?.code == .encodingFailed)
        }
    }

    @Test func alphaIsFlattenedOntoWhiteForJPEG() throws {
        let transparent = try Bitmap(width: 8, height: 8, channels: 4, bytes: [UInt8](repeating: 0, count: 8 * 8 * 4))
        let data = try Image(bitmap: transparent).encoded(as: .jpeg)
        let colour = averageColour(try Image(data: data).bitmap())
        #expect(colour.allSatisfy { $0 > 250 })
    }

    @Test func writeChoosesTheFormatFromTheExtension() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = try SyntheticPhoto(width: 64, height: 48).image()
        try image.write(to: directory.appendingPathComponent("a.webp"))
        try image.write(to: directory.appendingPathComponent("b.png"))
        #expect(try Image(contentsOf: directory.appendingPathComponent("a.webp")).format == .webp)
        #expect(try Image(contentsOf: directory.appendingPathComponent("b.png")).format == .png)
        let error = #expect(throws: ImageError.self) { try image.write(to: directory.appendingPathComponent("c.xyz")) }
        #expect(error?.code == .invalidArgument)
    }
}

/// Metadata survives encoding when asked, and the written orientation becomes 1.
@Suite(.enabled(if: corpus != nil, Comment(rawValue: corpusMissing)))
struct ImageEncodingMetadataTests {
    @Test("Upright pixels are written with orientation 1", arguments: [ImageFormat.jpeg, .webp, .png])
    func orientationBecomesOne(_ format: ImageFormat) throws {
        // Pentax.jpg: orientation 8 (rotate 90° counter-clockwise), maker PENTAX.
        let source = try Image(contentsOf: try #require(corpus).url("exiftool-t/Pentax.jpg"))
        #expect(source.orientation == .left)
        let kept = try Image(data: source.encoded(as: format, options: ImageEncodingOptions(keepsMetadata: true)))
        #expect(kept.metadata.orientation == .up)
        #expect(kept.metadata.make == "PENTAX Corporation")
        #expect(kept.pixelSize == source.pixelSize)
        let stripped = try Image(data: source.encoded(as: format, options: ImageEncodingOptions(keepsMetadata: false)))
        #expect(stripped.metadata.make == nil)
        #expect(stripped.metadata.orientation == nil || stripped.metadata.orientation == .up)
    }

    @Test func thumbnailsKeepLocationWhenAsked() throws {
        let source = try Image(contentsOf: try #require(corpus).url("exiftool-t/GPS.jpg"))
        let thumbnail = try source.thumbnail(targetSize: PixelSize(square: 64))
        let reopened = try Image(data: thumbnail.encoded(as: .jpeg))
        let latitude = try #require(reopened.metadata.latitude)
        #expect(abs(latitude - 54.989667) < 1e-5)
    }
}
