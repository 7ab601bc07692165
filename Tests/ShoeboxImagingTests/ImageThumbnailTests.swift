import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@Suite struct ImageThumbnailTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let source: PixelSize
        let target: PixelSize
        let fit: PixelSize
        let fill: PixelSize
        let crop: PixelSize
        var testDescription: String { "\(source) → \(target)" }
    }

    static let cases: [Case] = [
        // Landscape, portrait and square sources into a square target.
        Case(
            source: .init(width: 600, height: 400), target: .init(square: 256),
            fit: .init(width: 256, height: 171), fill: .init(width: 384, height: 256), crop: .init(square: 256)),
        Case(
            source: .init(width: 400, height: 600), target: .init(square: 256),
            fit: .init(width: 171, height: 256), fill: .init(width: 256, height: 384), crop: .init(square: 256)),
        Case(
            source: .init(square: 500), target: .init(square: 256),
            fit: .init(square: 256), fill: .init(square: 256), crop: .init(square: 256)),
        // A wide target: fill binds on the width.
        Case(
            source: .init(width: 600, height: 400), target: .init(width: 300, height: 100),
            fit: .init(width: 150, height: 100), fill: .init(width: 300, height: 200), crop: .init(width: 300, height: 100)),
        // Smaller than the target: never enlarged.
        Case(
            source: .init(width: 100, height: 50), target: .init(square: 256),
            fit: .init(width: 100, height: 50), fill: .init(width: 100, height: 50), crop: .init(width: 100, height: 50)),
        // Smaller on one side only: fill stops at the original.
        Case(
            source: .init(width: 1000, height: 200), target: .init(square: 256),
            fit: .init(width: 256, height: 51), fill: .init(width: 1000, height: 200), crop: .init(width: 256, height: 200)),
    ]

    @Test("Content modes on a JPEG file's bytes (shrink-on-load path)", arguments: cases)
    func contentModesOnEncodedImages(_ item: Case) throws {
        let image = try generatedJPEG(item.source.width, item.source.height)
        #expect(try image.thumbnail(targetSize: item.target, contentMode: .aspectFit).pixelSize == item.fit)
        #expect(try image.thumbnail(targetSize: item.target, contentMode: .aspectFill).pixelSize == item.fill)
        #expect(try image.thumbnail(targetSize: item.target, contentMode: .aspectFill, cropToFill: true).pixelSize == item.crop)
    }

    @Test("Content modes on an in-memory image", arguments: cases)
    func contentModesOnRasters(_ item: Case) throws {
        let image = try SyntheticPhoto(width: item.source.width, height: item.source.height).image()
        #expect(try image.thumbnail(targetSize: item.target, contentMode: .aspectFit).pixelSize == item.fit)
        #expect(try image.thumbnail(targetSize: item.target, contentMode: .aspectFill).pixelSize == item.fill)
        #expect(try image.thumbnail(targetSize: item.target, contentMode: .aspectFill, cropToFill: true).pixelSize == item.crop)
    }

    @Test(
        "Fill covers the target and fit stays inside it",
        arguments: [
            (3000, 2000), (2000, 3000), (1999, 1000), (1001, 1000), (4032, 3024), (333, 777),
        ])
    func fillIsAMinimumAndFitAMaximum(width: Int, height: Int) throws {
        // Sizes are what is checked, not pixels: a flat grey raster (a synthetic photo of 12 MP
        // took seconds to draw in a debug build).
        let image = try Image(bitmap: Bitmap(width: width, height: height, channels: 3, bytes: [UInt8](repeating: 128, count: width * height * 3)))
        for target in [PixelSize(square: 256), PixelSize(width: 500, height: 120), PixelSize(width: 90, height: 300)] {
            let fill = try image.thumbnail(targetSize: target, contentMode: .aspectFill).pixelSize
            let scale = max(Double(target.width) / Double(width), Double(target.height) / Double(height))
            if scale >= 1 {
                #expect(fill == image.pixelSize, "never enlarged")
            } else {
                #expect(fill.width >= target.width && fill.height >= target.height, "\(fill) covers \(target)")
                #expect(fill.width == target.width || fill.height == target.height, "\(fill) touches \(target)")
            }
            let fit = try image.thumbnail(targetSize: target, contentMode: .aspectFit).pixelSize
            #expect(fit.width <= target.width && fit.height <= target.height, "\(fit) inside \(target)")
            #expect(fit.width == target.width || fit.height == target.height, "\(fit) touches \(target)")
        }
    }

    @Test func thumbnailsAreUprightAndMarkedSo() throws {
        let image = try generatedJPEG(640, 480)
        let thumbnail = try image.thumbnail(targetSize: PixelSize(square: 64))
        #expect(thumbnail.orientation == .up)
        #expect(thumbnail.format == nil)
        #expect(thumbnail.pixelSize == PixelSize(width: 64, height: 48))
    }

    @Test(
        "Non-positive targets are invalid",
        arguments: [
            PixelSize(width: 0, height: 10), PixelSize(width: 10, height: 0), PixelSize(width: -5, height: 5),
        ])
    func invalidTargets(_ target: PixelSize) throws {
        let image = try generatedJPEG(64, 64)
        let error = #expect(throws: ImageError.self) { try image.thumbnail(targetSize: target) }
        #expect(error?.code == .invalidArgument)
    }

    @Test func thumbnailKeepsTheColours() throws {
        let image = try Image(bitmap: quadrants(width: 400, height: 400))
        let bitmap = try image.thumbnail(targetSize: PixelSize(square: 40)).bitmap()
        // Top-left quadrant is red, bottom-right white.
        #expect(bitmap[5, 5, 0] > 240 && bitmap[5, 5, 1] < 15 && bitmap[5, 5, 2] < 15)
        #expect(bitmap[35, 35, 0] > 240 && bitmap[35, 35, 1] > 240 && bitmap[35, 35, 2] > 240)
    }
}
