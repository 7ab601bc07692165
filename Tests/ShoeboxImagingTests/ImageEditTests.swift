import Foundation
import ShoeboxImaging
import Testing

@Suite struct ImageEditTests {
    /// A 60×40 RGB image: left half red, right half blue, a green bottom row.
    func halves() throws -> Image {
        var bytes = [UInt8]()
        for y in 0..<40 {
            for x in 0..<60 {
                bytes += y == 39 ? [0, 255, 0] : x < 30 ? [255, 0, 0] : [0, 0, 255]
            }
        }
        return try Image(bitmap: Bitmap(width: 60, height: 40, channels: 3, bytes: bytes))
    }

    @Test func straightenedSizeIsTheLargestCentredRectangleOfTheSameShape() {
        let size = PixelSize(width: 4000, height: 3000)
        #expect(ImageEdit.straightenedSize(of: size, degrees: 0) == size)
        let turned = ImageEdit.straightenedSize(of: size, degrees: 10)
        #expect(turned == ImageEdit.straightenedSize(of: size, degrees: -10))
        // Same proportions (to a pixel), and its corners, turned back, lie inside the original.
        #expect(abs(Double(turned.width) / Double(turned.height) - 4.0 / 3.0) < 0.001)
        let radians = 10.0 * .pi / 180
        let halfWidth = Double(turned.width) / 2
        let halfHeight = Double(turned.height) / 2
        for (x, y) in [(halfWidth, halfHeight), (-halfWidth, halfHeight)] {
            let back = (x * cos(radians) + y * sin(radians), -x * sin(radians) + y * cos(radians))
            #expect(abs(back.0) <= 2000.001 && abs(back.1) <= 1500.001)
        }
        // And it is the largest: 1 % more reaches outside.
        let larger = (Double(turned.width) * 1.01 / 2, Double(turned.height) * 1.01 / 2)
        let (cosine, sine) = (cos(radians), sin(radians))
        let corners: [(Double, Double)] = [(larger.0, larger.1), (-larger.0, larger.1)]
        let outside = corners.contains { (x: Double, y: Double) -> Bool in
            let backX: Double = x * cosine + y * sine
            let backY: Double = y * cosine - x * sine
            return abs(backX) > 2000 || abs(backY) > 1500
        }
        #expect(outside)
    }

    @Test func stepsRunInOrderTurnMirrorCropThenColour() throws {
        let image = try halves()
        // Mirrored: blue on the left.
        let mirrored = try image.applying(ImageEdit(isFlipped: true)).bitmap()
        #expect(mirrored[5, 5, 2] == 255 && mirrored[55, 5, 0] == 255)
        // A quarter turn clockwise, then the mirror: 40×60, the green row (was the bottom) on the left after
        // the turn, then on the right after the mirror.
        let turned = try image.applying(ImageEdit(quarterTurns: 1)).bitmap()
        #expect(turned[0, 30, 1] == 255 && turned[39, 30, 1] == 0)
        let both = try image.applying(ImageEdit(quarterTurns: 1, isFlipped: true)).bitmap()
        #expect(both.width == 40 && both.height == 60)
        #expect(both[39, 30, 1] == 255 && both[0, 30, 1] == 0)
        // The crop is of the turned and mirrored image: its right column only is green.
        let cropped = try image.applying(ImageEdit(quarterTurns: 1, isFlipped: true, crop: NormalizedRect(x: 0.975, y: 0, width: 0.025, height: 1))).bitmap()
        #expect(cropped.width == 1 && cropped.height == 60 && cropped[0, 10, 1] == 255)
        // Colour last: a matrix swapping red and blue, and a curve that halves every level.
        let curve = (0...255).map { UInt8($0 / 2) }
        let coloured = try image.applying(ImageEdit(toneCurve: curve, colorMatrix: [0, 0, 1, 0, 1, 0, 1, 0, 0])).bitmap()
        #expect(coloured[5, 5, 0] == 0 && coloured[5, 5, 2] == 127)
        #expect(coloured[55, 5, 0] == 127 && coloured[55, 5, 2] == 0)
    }

    @Test func straighteningKeepsNoBackgroundAndTurnsClockwise() throws {
        // A white image with a black vertical line down the middle.
        var bytes = [UInt8](repeating: 255, count: 201 * 201 * 3)
        for y in 0..<201 { for channel in 0..<3 { bytes[(y * 201 + 100) * 3 + channel] = 0 } }
        let image = try Image(bitmap: Bitmap(width: 201, height: 201, channels: 3, bytes: bytes))
        let straightened = try image.applying(ImageEdit(straightenDegrees: 20)).bitmap()
        let expected = ImageEdit.straightenedSize(of: PixelSize(width: 201, height: 201), degrees: 20)
        #expect(straightened.width == expected.width && straightened.height == expected.height)
        // No corner is background: every corner pixel is near white (the line does not reach them).
        for (x, y) in [(0, 0), (expected.width - 1, 0), (0, expected.height - 1), (expected.width - 1, expected.height - 1)] {
            #expect(straightened[x, y, 0] > 200)
        }
        // Turned clockwise, the line's top leans right: it is dark right of centre near the top.
        let top = 10
        let middle = expected.width / 2
        let darkest = (0..<expected.width).min { straightened[$0, top, 0] < straightened[$1, top, 0] } ?? 0
        #expect(darkest > middle + 10)
    }

    @Test func colourStepsConvertGreyAndFlattenAlpha() throws {
        let grey = try Image(bitmap: Bitmap(width: 4, height: 4, channels: 1, bytes: [UInt8](repeating: 100, count: 16)))
        let warmer = try grey.applying(ImageEdit(colorMatrix: [1.2, 0, 0, 0, 1, 0, 0, 0, 0.8])).bitmap()
        #expect(warmer.channels == 3 && warmer[1, 1, 0] == 120 && warmer[1, 1, 2] == 80)
        let transparent = try Image(bitmap: Bitmap(width: 2, height: 2, channels: 4, bytes: [UInt8](repeating: 0, count: 16)))
        let flattened = try transparent.applying(ImageEdit(toneCurve: (0...255).map { UInt8(255 - $0) })).bitmap()
        #expect(flattened.channels == 3 && flattened[0, 0, 0] == 0)  // white background, inverted
    }

    @Test func invalidValuesAreRefused() throws {
        let image = try halves()
        #expect(throws: ImageError.self) { try image.applying(ImageEdit(straightenDegrees: 46)) }
        #expect(throws: ImageError.self) { try image.applying(ImageEdit(straightenDegrees: .nan)) }
        #expect(throws: ImageError.self) { try image.applying(ImageEdit(toneCurve: [0, 1])) }
        #expect(throws: ImageError.self) { try image.applying(ImageEdit(colorMatrix: [1, 0, 0])) }
    }

    /// A large JPEG read from its file: turning and straightening read it out of order, which a
    /// streaming (sequential) decode cannot do.
    @Test func largeFilesTurnAndStraightenFromDisk() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("image-edit-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: url) }
        var bytes = [UInt8](repeating: 0, count: 3000 * 2000 * 3)
        for index in stride(from: 0, to: bytes.count, by: 3) { bytes[index] = UInt8((index / 3) % 3000 * 255 / 2999) }
        try Image(bitmap: Bitmap(width: 3000, height: 2000, channels: 3, bytes: bytes)).write(to: url)
        #expect(try Image(contentsOfFile: url.path).rotated(byQuarterTurns: 1).pixelSize == PixelSize(width: 2000, height: 3000))
        let edited = try Image(contentsOfFile: url.path).applying(
            ImageEdit(
                quarterTurns: 3, isFlipped: true, straightenDegrees: 3,
                toneCurve: (0...255).map { UInt8(255 - $0) }))
        #expect(edited.pixelSize == ImageEdit.straightenedSize(of: PixelSize(width: 2000, height: 3000), degrees: 3))
    }
}
