import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// The identifiers in Apple's maker note that pair a Live Photo and group a burst, as exiftool
/// reads them (tag 0x11, which Debian 12's exiftool 12.57 calls `MediaGroupUUID` and later ones
/// `ContentIdentifier`; `BurstUUID`).
@Suite struct AppleMakerNoteTests {
    @Test func syntheticLivePhotoAgreesWithExiftool() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apple-note-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = SyntheticLivePhoto(identifier: "5F0C1A2B-0000-4C3D-9E8F-1234567890AB", burstIdentifier: "B0257-1", seed: 3)
        let url = folder.appendingPathComponent("IMG.JPG")
        try pair.photoData().write(to: url)
        let metadata = try Image(contentsOf: url).metadata
        #expect(metadata.make == "Apple")
        #expect(metadata.contentIdentifier == pair.identifier)
        #expect(metadata.burstIdentifier == "B0257-1")
        let exiftool = try Exiftool.read([url], tags: ["MediaGroupUUID", "ContentIdentifier", "BurstUUID"])[url.path]
        #expect(exiftool?["MediaGroupUUID"] ?? exiftool?["ContentIdentifier"] == pair.identifier)
        #expect(exiftool?["BurstUUID"] == "B0257-1")
    }

    @Test("Without Make = Apple, or with text that is no identifier, nothing is read")
    func onlyApplesIdentifiers() throws {
        let pair = SyntheticLivePhoto(identifier: "not an identifier!", seed: 4)
        #expect(try Image(data: pair.photoData()).metadata.contentIdentifier == nil)
    }

    @Test func iPhoneHEIC() throws {
        guard let corpus = Corpus.locate() else {
            print("skipped: the shared corpus (../shared/corpus or $SHOEBOX_CORPUS) is absent")
            return
        }
        let metadata = try Image(contentsOf: corpus.url("exif-samples/heic/IMG_5195.HEIC")).metadata
        #expect(metadata.contentIdentifier == "570F1469-09C7-4E50-9875-05F21D5BD166")
    }
}
