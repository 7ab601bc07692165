import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

/// A camera's raw file on its own is a photo: imported with its own type, kept byte for byte,
/// shown from the camera's preview or LibRaw's development; a raw whose sensor data is cut short
/// is refused, whatever its preview says.
@Suite struct RawPhotoTests {
    @Test(
        "Each kind of raw imports as a photo of its own type, and its pictures are the scene's",
        arguments: SyntheticRaw.Kind.allCases)
    func importsAsAPhoto(kind: SyntheticRaw.Kind) async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let url = temporary.folder.appendingPathComponent("DSC_0001.\(kind.fileExtension)")
        var raw = SyntheticRaw(kind: kind)
        raw.orientation = .right
        try raw.write(to: url)
        let id = try await temporary.importFiles([url])[0]
        let asset = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        #expect(asset.mediaType == .image)
        #expect(asset.uniformTypeIdentifier == kind.format.uniformTypeIdentifier)
        #expect(asset.originalFilename == url.lastPathComponent)
        #expect(asset.resources.map(\.type) == [.photo])
        // Upright: a camera held on its side.
        #expect(asset.pixelWidth == 400 && (590...600).contains(asset.pixelHeight), "\(asset.pixelWidth)×\(asset.pixelHeight)")
        #expect(asset.creationDate != nil)
        #expect(try Data(contentsOf: try await temporary.library.fileURL(for: asset.resources[0])) == Data(contentsOf: url))

        let manager = ImageManager(library: temporary.library)
        for side in [120, 520] {  // the preview (300 px) covers 120, not 520
            let result = try #require(
                await manager.requestImage(
                    for: asset, targetSize: PixelSize(square: side), contentMode: .aspectFit,
                    options: ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
                ).finalResult())
            let image = try #require(result.image, "\(String(describing: result.error))")
            #expect(image.pixelHeight == side)
            let bitmap = try image.bitmap()
            // Turned right: red (the stored top left) is now top right, blue top left.
            func pixel(_ x: Double, _ y: Double) -> [Int] {
                let index = (Int(Double(bitmap.height) * y) * bitmap.width + Int(Double(bitmap.width) * x)) * bitmap.channels
                return (0..<3).map { Int(bitmap.bytes[index + $0]) }
            }
            let topRight = pixel(0.85, 0.15)
            let topLeft = pixel(0.15, 0.15)
            #expect(topRight[0] > topRight[1] + 40 && topRight[0] > topRight[2] + 40, "\(side): top right \(topRight)")
            #expect(topLeft[2] > topLeft[0] + 40 && topLeft[2] > topLeft[1] + 40, "\(side): top left \(topLeft)")
        }
    }

    @Test("A raw whose sensor data is cut short is refused and leaves nothing")
    func truncatedRawIsRefused() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        for kind in SyntheticRaw.Kind.allCases {
            let whole = try SyntheticRaw(kind: kind, seed: 3).data()
            let url = temporary.folder.appendingPathComponent("CUT.\(kind.fileExtension)")
            try whole.prefix(whole.count * 3 / 4).write(to: url)
            let error = await #expect(throws: LibraryError.self) {
                _ = try await temporary.importFiles([url])
            }
            #expect(error?.code == .corrupt, "\(kind): \(String(describing: error))")
            #expect(error?.message.contains("ends early") == true, "\(kind): \(String(describing: error))")
        }
        // A RAF LibRaw does not know (its header, then nothing it recognises): the format is named.
        let unknown = temporary.folder.appendingPathComponent("NEWER.RAF")
        try (Data("FUJIFILMCCD-RAW 0201FF999999".utf8) + Data(repeating: 0, count: 4_000)).write(to: unknown)
        let refused = await #expect(throws: LibraryError.self) {
            _ = try await temporary.importFiles([unknown])
        }
        #expect(
            refused?.code == .unsupportedFormat && refused?.message.contains("RAF raw image that LibRaw cannot read") == true,
            "\(String(describing: refused))")
        #expect(try await temporary.library.fetchAssets().count == 0)
        #expect(temporary.files(in: "staging").isEmpty)
        #expect(temporary.files(in: "originals").isEmpty)
    }
}
