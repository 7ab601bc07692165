import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// Every image of the corpus (`$SHOEBOX_CORPUS` points it at another folder of photos) read by
/// Shoebox and by exiftool, field by field.
@Suite(.enabled(if: corpus != nil, Comment(rawValue: corpusMissing)))
struct MetadataAgreementTests {
    /// The target, for a corpus Shoebox was not tuned on. The shared corpus reads 935 of
    /// 935 (100 %): the last classes mended were Casio's QVCI segment, Kodak maker notes exiftool
    /// prefers to EXIF, FLIR camera records, PNG `Software` text chunks and a GIF's ICC profile.
    /// What differs is listed when the test fails.
    static let required = 0.995

    @Test("Metadata field values agree with exiftool's")
    func fieldsAgreeWithExiftool() throws {
        let agreement = try Self.measure(try #require(corpus))
        print(agreement.report)
        #expect(agreement.files > 100, "the corpus should hold many images: \(agreement.report)")
        #expect(agreement.compared > 500, "too few values to measure: \(agreement.report)")
        #expect(
            agreement.rate >= Self.required,
            "\(agreement.report)\n\(agreement.disagreements.map(\.description).joined(separator: "\n"))")
    }

    /// The corpus reached through a symbolic link (a fresh clone's `../shared` may be one):
    /// exiftool names files by their real paths, and every field is still compared, as read
    /// directly.
    @Test func aCorpusThroughALinkAgreesAsReadDirectly() throws {
        let corpus = try #require(corpus)
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("linked-corpus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let link = base.appendingPathComponent("corpus")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: corpus.root)
        let linked = try Self.measure(Corpus(root: link), folders: ["exif-samples"])
        let direct = try Self.measure(corpus, folders: ["exif-samples"])
        #expect(direct.compared > 100, "too few values to measure: \(direct.report)")
        #expect(linked.files == direct.files)
        #expect(linked.compared == direct.compared && linked.agreed == direct.agreed, "linked \(linked.report); direct \(direct.report)")
    }

    /// Reads `folders` of `corpus` (every folder when `nil`) with Shoebox and with exiftool and
    /// compares them field by field.
    static func measure(_ corpus: Corpus, folders: [String]? = nil) throws -> MetadataAgreement {
        let folders =
            try folders
            ?? FileManager.default.contentsOfDirectory(atPath: corpus.root.path).filter { name in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: corpus.url(name).path, isDirectory: &isFolder) && isFolder.boolValue
            }
        var images: [(URL, ImageMetadata)] = []
        for path in folders.sorted().flatMap({ corpus.files(in: $0) }) {
            let url = corpus.url(path)
            // What Shoebox does not open is the business of the corpus and limit tests.
            if let image = try? Image(contentsOf: url) {
                images.append((url, image.metadata))
            }
        }
        try #require(images.count > 50, "the corpus should hold many images, found \(images.count)")
        let exiftool = try Exiftool.read(images.map(\.0), tags: MetadataAgreement.exiftoolTags)
        var agreement = MetadataAgreement()
        for (url, metadata) in images {
            let relative = String(url.path.dropFirst(corpus.root.path.count + 1))
            agreement.compare(metadata, with: exiftool[url.path] ?? [:], file: relative)
        }
        return agreement
    }
}
