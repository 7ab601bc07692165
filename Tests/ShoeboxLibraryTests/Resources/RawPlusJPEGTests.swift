import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

/// RAW+JPEG: a camera's raw file and its JPEG of the same shot (same name stem, same time taken)
/// become one asset: the JPEG is the `.photo`, the raw the `.alternatePhoto`.
@Suite struct RawPlusJPEGTests {
    static let taken = "2024:05:01 10:11:12"

    /// A DNG of a 12-bit sensor with the camera's preview (``SyntheticRaw``) taken at `taken`.
    static func raw(_ temporary: TemporaryLibrary, _ name: String, taken: String = taken, seed: UInt64 = 1) throws -> URL {
        var raw = SyntheticRaw(kind: .dng, width: 96, height: 64, seed: seed)
        raw.dateTimeOriginal = taken
        let url = temporary.folder.appendingPathComponent(name)
        try raw.write(to: url)
        return url
    }

    /// A JPEG taken at `taken`.
    static func jpeg(_ temporary: TemporaryLibrary, _ name: String, taken: String = taken, seed: UInt64 = 2) throws -> URL {
        var metadata = ImageMetadata()
        metadata.make = "Shoebox"
        metadata.dateTimeOriginal = ImageMetadata.DateTime(exif: taken)
        let url = temporary.folder.appendingPathComponent(name)
        try SyntheticPhoto(width: 96, height: 64, seed: seed).image().writingMetadata(metadata)
            .encoded(as: .jpeg, options: ImageEncodingOptions(keepsMetadata: true)).write(to: url)
        return url
    }

    @Test("Raw first, then the JPEG; and the JPEG first, then the raw: one asset each time")
    func eitherOrder() async throws {
        for rawFirst in [true, false] {
            let temporary = try await TemporaryLibrary()
            defer { temporary.remove() }
            let raw = try Self.raw(temporary, "DSC_0042.DNG")
            let jpeg = try Self.jpeg(temporary, "DSC_0042.JPG")
            #expect(try Image(contentsOf: raw).format == .dng)
            #expect(try Image(contentsOf: raw).metadata.dateTimeOriginal?.exifString == Self.taken)
            #expect(try Image(contentsOf: jpeg).metadata.dateTimeOriginal?.exifString == Self.taken)
            let ids = try await temporary.importFiles(rawFirst ? [raw, jpeg] : [jpeg, raw])
            let all = try await temporary.library.fetchAssets().allObjects()
            try #require(all.count == 1, "raw first: \(rawFirst)")
            let asset = all[0]
            // The second file's import names the asset it joined (raw first: the raw's own asset is gone).
            #expect(ids.last == asset.localIdentifier)
            #expect(try await temporary.library.fetchAssets(withLocalIdentifiers: Array(Set(ids))).count == 1)
            #expect(asset.uniformTypeIdentifier == "public.jpeg" && asset.originalFilename == "DSC_0042.JPG")
            #expect(asset.resources.map(\.type) == [.photo, .alternatePhoto])
            #expect(!asset.isLivePhoto)
            let alternate = asset.resources[1]
            #expect(alternate.originalFilename == "DSC_0042.DNG" && alternate.uniformTypeIdentifier == "com.adobe.raw-image")
            #expect(try Data(contentsOf: try await temporary.library.fileURL(for: alternate)) == Data(contentsOf: raw))
        }
    }

    @Test("Another name, another time, or two JPEGs stay apart")
    func whatDoesNotPair() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let files = [
            try Self.raw(temporary, "A.DNG"), try Self.jpeg(temporary, "B.JPG"),  // another name
            try Self.raw(temporary, "C.DNG", seed: 3), try Self.jpeg(temporary, "C.JPG", taken: "2024:05:01 10:11:13", seed: 4),  // a second later
            try Self.jpeg(temporary, "D.JPG", seed: 5), try Self.jpeg(temporary, "D.jpeg", seed: 6),  // no raw
        ]
        _ = try await temporary.importFiles(files)
        let all = try await temporary.library.fetchAssets().allObjects()
        #expect(all.count == 6)
        #expect(all.allSatisfy { $0.resources.count == 1 })
    }
}
