import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// The EXIF orientation set: every variant, rotated upright, looks like variant 1.
@Suite(.enabled(if: corpus != nil, Comment(rawValue: corpusMissing)))
struct ImageOrientationTests {
    static let variants = ["Landscape", "Portrait"].flatMap { shape in (0...8).map { (shape, $0) } }

    @Test("Thumbnails come out upright", arguments: variants)
    func thumbnailMatchesVariantOne(shape: String, variant: Int) throws {
        let corpus = try #require(corpus)
        let reference = try Image(contentsOf: corpus.url("orientation/\(shape)_1.jpg"))
        let image = try Image(contentsOf: corpus.url("orientation/\(shape)_\(variant).jpg"))
        #expect(image.pixelSize == reference.pixelSize)
        if (1...8).contains(variant) {
            #expect(image.orientation.rawValue == variant)
        }
        let target = PixelSize(square: 256)
        let expected = try reference.thumbnail(targetSize: target).bitmap()
        let actual = try image.thumbnail(targetSize: target).bitmap()
        #expect(actual.size == expected.size)
        let difference = meanDifference(actual, expected)
        #expect(difference < 4, "mean difference \(difference) of 255")
    }

    @Test("Full-size decoding is upright too", arguments: [2, 5, 6, 8])
    func decodedMatchesVariantOne(variant: Int) throws {
        let corpus = try #require(corpus)
        let reference = try Image(contentsOf: corpus.url("orientation/Portrait_1.jpg")).bitmap()
        let actual = try Image(contentsOf: corpus.url("orientation/Portrait_\(variant).jpg")).bitmap()
        #expect(actual.size == reference.size)
        #expect(meanDifference(actual, reference) < 4)
    }

    @Test func croppingUsesUprightCoordinates() throws {
        let corpus = try #require(corpus)
        let rect = PixelRect(x: 100, y: 200, width: 300, height: 150)
        let reference = try Image(contentsOf: corpus.url("orientation/Landscape_1.jpg")).cropping(to: rect).bitmap()
        for variant in [3, 6, 7] {
            let actual = try Image(contentsOf: corpus.url("orientation/Landscape_\(variant).jpg")).cropping(to: rect).bitmap()
            #expect(actual.size == rect.size)
            #expect(meanDifference(actual, reference) < 5, "variant \(variant)")
        }
    }
}
