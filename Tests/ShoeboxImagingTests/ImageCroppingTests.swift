import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@Suite struct ImageCroppingTests {
    let image: Image

    init() throws {
        // Encoded and reopened, so cropping decodes from a file's bytes.
        let data = try Image(bitmap: quadrants(width: 400, height: 300)).encoded(as: .png)
        image = try Image(data: data)
    }

    @Test func cropByPixelRect() throws {
        let green = try image.cropping(to: PixelRect(x: 210, y: 10, width: 100, height: 100))
        #expect(green.pixelSize == PixelSize(square: 100))
        let colour = averageColour(try green.bitmap())
        #expect(colour[0] < 1 && colour[1] > 254 && colour[2] < 1)
    }

    @Test func cropIsClampedToTheImage() throws {
        let corner = try image.cropping(to: PixelRect(x: 350, y: 250, width: 500, height: 500))
        #expect(corner.pixelSize == PixelSize(width: 50, height: 50))
        let error = #expect(throws: ImageError.self) {
            try image.cropping(to: PixelRect(x: 500, y: 0, width: 10, height: 10))
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test func cropByNormalizedRect() throws {
        let bottomLeft = try image.cropping(toNormalized: NormalizedRect(x: 0, y: 0.5, width: 0.5, height: 0.5))
        #expect(bottomLeft.pixelSize == PixelSize(width: 200, height: 150))
        let colour = averageColour(try bottomLeft.bitmap())
        #expect(colour[0] < 1 && colour[1] < 1 && colour[2] > 254)
    }

    @Test(
        "Invalid normalized rects",
        arguments: [
            NormalizedRect(x: 0, y: 0, width: 0, height: 1),
            NormalizedRect(x: 0.6, y: 0, width: 0.6, height: 1),
            NormalizedRect(x: -0.1, y: 0, width: 0.5, height: 0.5),
            NormalizedRect(x: .nan, y: 0, width: 0.5, height: 0.5),
        ])
    func invalidNormalizedRects(_ rect: NormalizedRect) {
        let error = #expect(throws: ImageError.self) { try image.cropping(toNormalized: rect) }
        #expect(error?.code == .invalidArgument)
    }

    @Test func squareCropIsBoundedByMaximumPixelSize() throws {
        let square = try image.croppingToSquare(PixelRect(x: 50, y: 0, width: 300, height: 300), maximumPixelSize: 128)
        #expect(square.pixelSize == PixelSize(square: 128))
        let small = try image.croppingToSquare(PixelRect(x: 0, y: 0, width: 100, height: 100), maximumPixelSize: 640)
        #expect(small.pixelSize == PixelSize(square: 100), "never enlarged")
    }

    @Test func squareCropRejectsBadRects() {
        for (rect, maximum) in [
            (PixelRect(x: 0, y: 0, width: 100, height: 90), 50),
            (PixelRect(x: 200, y: 0, width: 300, height: 300), 50),
            (PixelRect(x: 0, y: 0, width: 100, height: 100), 0),
        ] {
            let error = #expect(throws: ImageError.self) { try image.croppingToSquare(rect, maximumPixelSize: maximum) }
            #expect(error?.code == .invalidArgument)
        }
    }
}
