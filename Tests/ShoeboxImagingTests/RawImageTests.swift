import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// Camera raw files through LibRaw: generated DNG, NEF, ARW and PEF files of a four-quadrant
/// scene (red, green / blue, grey), read for their sizes and metadata, and their pixels checked
/// by colour at each corner, from the camera's preview and from LibRaw's development.
@Suite struct RawImageTests {
    /// The scene's quadrant colour the corner of a displayed picture shows.
    static func dominantChannel(_ bitmap: Bitmap, x: Int, y: Int) -> Int? {
        let index = (y * bitmap.width + x) * bitmap.channels
        let pixel = (0..<3).map { Int(bitmap.bytes[index + $0]) }
        let sorted = pixel.sorted()
        // A primary leads the other two by a margin; grey has none.
        guard sorted[2] - sorted[1] > 40 else { return nil }
        return pixel.firstIndex(of: sorted[2])
    }

    /// Red top left, green top right, blue bottom left, grey (no channel leading) bottom right,
    /// for a picture shown as stored; `turnedRight` for a camera held upright (orientation 6).
    static func expectQuadrants(_ image: Image, turnedRight: Bool = false, _ comment: Comment) throws {
        let bitmap = try image.bitmap()
        let w = bitmap.width
        let h = bitmap.height
        let inset = 0.15
        let corners = [
            (Int(Double(w) * inset), Int(Double(h) * inset)), (Int(Double(w) * (1 - inset)), Int(Double(h) * inset)),
            (Int(Double(w) * inset), Int(Double(h) * (1 - inset))), (Int(Double(w) * (1 - inset)), Int(Double(h) * (1 - inset))),
        ]
        // Displayed corners: top left, top right, bottom left, bottom right. A quarter turn to the
        // right brings the stored bottom left to the top left.
        let expected: [Int?] = turnedRight ? [2, 0, nil, 1] : [0, 1, 2, nil]
        let seen = corners.map { dominantChannel(bitmap, x: $0.0, y: $0.1) }
        #expect(seen == expected, comment)
    }

    @Test("Each kind opens with its format, sizes and the camera's metadata", arguments: SyntheticRaw.Kind.allCases)
    func opening(kind: SyntheticRaw.Kind) throws {
        let image = try Image(data: try SyntheticRaw(kind: kind).data())
        #expect(image.format == kind.format)
        #expect(image.format?.isRaw == true)
        #expect(image.storedPixelSize == PixelSize(width: 600, height: 400))
        // LibRaw crops a camera's margins as it knows them (a D700 loses four columns).
        #expect((590...600).contains(image.pixelWidth) && image.pixelHeight == 400, "\(image.pixelSize)")
        #expect(image.orientation == .up)
        let metadata = image.metadata
        #expect(metadata.make == kind.camera.make && metadata.model == kind.camera.model)
        #expect(metadata.dateTimeOriginal?.exifString == "2024:05:01 10:11:12")
        #expect(metadata.isoSpeed == 400 && metadata.fNumber == 5.6 && metadata.focalLength == 35)
        #expect(metadata.exposureTime == 1.0 / 250)
    }

    @Test("Small thumbnails come from the preview, larger ones from LibRaw's development", arguments: SyntheticRaw.Kind.allCases)
    func pixels(kind: SyntheticRaw.Kind) throws {
        let image = try Image(data: try SyntheticRaw(kind: kind).data())
        let small = try image.thumbnail(targetSize: PixelSize(square: 200))
        #expect(small.pixelSize == PixelSize(width: 200, height: 133) || small.pixelSize == PixelSize(width: 200, height: 134))
        try Self.expectQuadrants(small, "\(kind) from the preview")
        // 500 is more than the 300-pixel preview: developed (half size covers 250, so full size).
        let large = try image.thumbnail(targetSize: PixelSize(square: 500))
        #expect(large.pixelWidth == 500)
        try Self.expectQuadrants(large, "\(kind) developed")
        let whole = try image.decoded()
        #expect(whole.pixelSize == image.pixelSize)
        try Self.expectQuadrants(whole, "\(kind) decoded")
        try image.verifySensorData()
    }

    @Test("A DNG's colours come through its colour matrix: grey stays grey")
    func dngColours() throws {
        let bitmap = try Image(data: try SyntheticRaw(kind: .dng).data()).decoded().bitmap()
        let index = (bitmap.height * 3 / 4 * bitmap.width + bitmap.width * 3 / 4) * bitmap.channels
        let grey = (0..<3).map { Int(bitmap.bytes[index + $0]) }
        #expect(grey.max()! - grey.min()! < 25, "grey quadrant developed as \(grey)")
        #expect(grey.min()! > 60, "grey quadrant developed as \(grey)")
    }

    @Test(
        "A camera held upright: sizes turn, and both the preview and the development are upright",
        arguments: [SyntheticRaw.Kind.dng, .nef])
    func turned(kind: SyntheticRaw.Kind) throws {
        var raw = SyntheticRaw(kind: kind)
        raw.orientation = .right
        let image = try Image(data: try raw.data())
        #expect(image.orientation == .right && image.metadata.orientation == .right)
        #expect(image.pixelHeight == 600 || image.pixelHeight >= 590, "\(image.pixelSize)")
        #expect(image.pixelWidth == 400)
        try Self.expectQuadrants(try image.thumbnail(targetSize: PixelSize(square: 150)), turnedRight: true, "\(kind) preview")
        try Self.expectQuadrants(try image.decoded(), turnedRight: true, "\(kind) developed")
    }

    @Test("Without a preview every thumbnail is developed; half size where it covers the request")
    func withoutPreview() throws {
        var raw = SyntheticRaw(kind: .pef)
        raw.previewSize = nil
        let image = try Image(data: try raw.data())
        let small = try image.thumbnail(targetSize: PixelSize(square: 100))
        #expect(small.pixelWidth == 100)
        try Self.expectQuadrants(small, "half-size development")
    }

    @Test(
        "Sensor data cut short fails as corrupt, at opening or when verified, whatever the preview says",
        arguments: SyntheticRaw.Kind.allCases)
    func truncated(kind: SyntheticRaw.Kind) throws {
        let whole = try SyntheticRaw(kind: kind).data()
        // The preview comes first, the sensor data after it: cut in the middle of the sensor data.
        let cut = whole.prefix(whole.count / 2)
        let error = #expect(throws: ImageError.self) {
            let image = try Image(data: Data(cut))
            try image.verifySensorData()
            _ = try image.decoded()
        }
        #expect(error?.code == .corrupt, "\(String(describing: error))")
    }

    @Test("Files on disk read as bytes in memory do")
    func fromAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString).NEF")
        defer { try? FileManager.default.removeItem(at: url) }
        try SyntheticRaw(kind: .nef).write(to: url)
        let image = try Image(contentsOf: url)
        #expect(image.format == .nef && image.path == url.path)
        try Self.expectQuadrants(try image.thumbnail(targetSize: PixelSize(square: 120)), "from the file")
        try image.verifySensorData()
    }

    @Test("Decode memory for a raw: the preview's little, a development's LibRaw buffers")
    func decodeMemory() throws {
        let image = try Image(data: try SyntheticRaw(kind: .dng, width: 4000, height: 3000).data())
        let preview = image.decodingMemory(for: .thumbnail(PixelSize(square: 256)))
        let whole = image.decodingMemory(for: .wholeImage)
        // 12 MP: 24 MB of sensor data, 96 MB of LibRaw's working picture, 36 MB of result.
        #expect(whole > 12_000_000 * 13 && whole < 400_000_000, "\(whole)")
        #expect(preview < whole / 2, "\(preview) against \(whole)")
    }
}
