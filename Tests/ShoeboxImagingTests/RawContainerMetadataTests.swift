import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxImaging

/// The metadata of the raw formats that are not TIFF structures, against exiftool's reading of
/// the same bytes: a CR3's streams in Canon's `uuid` box (`CMT1` IFD0, `CMT2` EXIF, `CMT4` GPS)
/// and a RAF's embedded JPEG. The files are the fuzzer's seeds for them (Tests/Fuzz/Corpus/heif).
@Suite struct RawContainerMetadataTests {
    static let seeds = Corpus.packageRoot().appendingPathComponent("Tests/Fuzz/Corpus/heif")

    @Test func aCR3ReadsAsExiftoolReadsIt() throws {
        let url = Self.seeds.appendingPathComponent("cr3-metadata.cr3")
        let metadata = try #require(RawContainerMetadata.cr3(try Data(contentsOf: url)))
        #expect(metadata.make == "Canon" && metadata.model == "Canon EOS R5" && metadata.orientation == .right)
        #expect(metadata.dateTimeOriginal?.iso8601String == "2023-07-14T16:20:05+02:00")
        #expect(metadata.isoSpeed == 800 && metadata.exposureTime == 0.001 && metadata.fNumber == 2.8)
        let exiftool = try Exiftool.read([url], tags: MetadataAgreement.exiftoolTags)
        var agreement = MetadataAgreement()
        agreement.compare(metadata, with: exiftool[url.path] ?? [:], file: url.lastPathComponent)
        #expect(agreement.compared >= 8 && agreement.rate == 1, "\(agreement.report)\n\(agreement.disagreements)")
    }

    @Test func aRAFReadsItsJPEGsEXIF() throws {
        let url = Self.seeds.appendingPathComponent("raf-head.raf")
        let data = try Data(contentsOf: url)
        #expect(ImageFormat(sniffing: data) == .raf)
        let metadata = try #require(RawContainerMetadata.raf(data))
        #expect(metadata.make == "FUJIFILM" && metadata.model == "X-T4")
        // The JPEG's place past the end, or before the header's end, is no JPEG.
        var cut = data
        cut.replaceSubrange(84..<88, with: [0, 0, 0x10, 0])
        #expect(RawContainerMetadata.raf(cut) == nil)
        cut.replaceSubrange(84..<88, with: [0, 0, 0, 20])
        #expect(RawContainerMetadata.raf(cut) == nil)
    }

    @Test func aCR3WithoutCanonsBoxHasNoMetadata() throws {
        var data = try Data(contentsOf: Self.seeds.appendingPathComponent("cr3-metadata.cr3"))
        #expect(ImageFormat(sniffing: data) == .cr3)
        // Another uuid: not Canon's.
        let uuid = try #require(data.range(of: Data([0x85, 0xC0, 0xB6, 0x87])))
        data[uuid.lowerBound] = 0x86
        #expect(RawContainerMetadata.cr3(data) == nil)
    }
}
