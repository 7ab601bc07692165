import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// Every image of the shared corpus against what exiftool read from it (`expected.tsv`).
@Suite(.enabled(if: corpus != nil, Comment(rawValue: corpusMissing)))
struct ImageCorpusTests {
    static let rows = (try? corpus?.expectedImages()) ?? []
    static let opening = rows.filter { $0.opensWithLibvips }
    static let refusing = rows.filter { !$0.opensWithLibvips }

    /// A file whose only capture date is in Casio's own QVCI segment, which Shoebox does not read
    /// (documented on `ImageMetadata.dateTimeOriginal`).
    static let datesOutsideEXIFAndXMP: Set = [
        "exiftool-t/CasioQVCI.jpg"
    ]

    /// PngSuite's `x*` files are deliberately corrupt. libvips's lenient default decodes one of
    /// them (a bad checksum); Shoebox fails on any corrupt data, as it should.
    static func isDeliberatelyCorrupt(_ path: String) -> Bool {
        path.hasPrefix("pngsuite/png/x")
    }

    @Test func corpusIsListed() {
        #expect(Self.rows.count > 250, "expected.tsv should list the whole corpus")
    }

    @Test("Header and metadata equal exiftool's reading", arguments: opening)
    func metadataMatchesExiftool(_ expected: Corpus.ExpectedImage) throws {
        let image = try Image(contentsOf: try #require(corpus).url(expected.path))
        if let width = expected.width, let height = expected.height {
            #expect(image.storedPixelSize == PixelSize(width: width, height: height))
        }
        if let orientation = expected.orientation, (1...8).contains(orientation) {
            #expect(image.metadata.orientation?.rawValue == orientation)
            #expect(image.orientation.rawValue == orientation)
            // HEIF rotates by its own boxes, raw files decode a preview: the EXIF tag alone tells
            // the displayed size only for the other formats.
            if ![.heic, .heif, .dng].contains(image.format) {
                let swapped = orientation >= 5
                #expect(image.pixelSize == (swapped ? image.storedPixelSize.transposed : image.storedPixelSize))
            }
        } else {
            #expect(image.metadata.orientation == nil, "no valid orientation in the file")
            #expect(image.pixelSize == image.storedPixelSize)
        }
        #expect(image.metadata.make == expected.make)
        #expect(image.metadata.model == expected.model)
        if let date = expected.dateTimeOriginal, !Self.datesOutsideEXIFAndXMP.contains(expected.path) {
            // exiftool may add subseconds and an offset from maker notes: compare the wall clock.
            #expect(image.metadata.dateTimeOriginal?.exifString == String(date.prefix(19)))
        } else if expected.dateTimeOriginal == nil {
            #expect(image.metadata.dateTimeOriginal == nil)
        }
        if let latitude = expected.latitude {
            let actual = try #require(image.metadata.latitude)
            #expect(abs(actual - latitude) < 1e-5)
        } else {
            #expect(image.metadata.latitude == nil)
        }
        if let longitude = expected.longitude {
            let actual = try #require(image.metadata.longitude)
            #expect(abs(actual - longitude) < 1e-5)
        } else {
            #expect(image.metadata.longitude == nil)
        }
    }

    @Test("Files libvips decodes fully decode; the rest fail with .corrupt", arguments: opening)
    func decodesOrFailsCleanly(_ expected: Corpus.ExpectedImage) throws {
        let image = try Image(contentsOf: try #require(corpus).url(expected.path))
        if expected.decodesFully && !Self.isDeliberatelyCorrupt(expected.path) {
            let decoded = try image.decoded()
            #expect(decoded.pixelSize == image.pixelSize)
        } else {
            let error = #expect(throws: ImageError.self) {
                _ = try image.decoded()
            }
            #expect(error?.code == .corrupt)
        }
    }

    @Test("Files libvips cannot open give a typed error", arguments: refusing)
    func refusedFilesFailCleanly(_ expected: Corpus.ExpectedImage) throws {
        let url = try #require(corpus).url(expected.path)
        let error = #expect(throws: ImageError.self) {
            _ = try Image(contentsOf: url).decoded()
        }
        let code = try #require(error).code
        #expect([.unsupportedFormat, .corrupt].contains(code))
        if expected.fileType == "TXT" {
            #expect(code == .unsupportedFormat)
        }
    }

    @Test func formatIsRecognisedFromContent() throws {
        let corpus = try #require(corpus)
        // A HEIC file named .png, and a text file named .jpg.
        #expect(try Image(contentsOf: corpus.url("malformed/jpeg-named.png")).format == .heic)
        let error = #expect(throws: ImageError.self) {
            try Image(contentsOf: corpus.url("malformed/text-named.jpg"))
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(try Image(contentsOf: corpus.url("exiftool-t/DNG.dng")).format == .dng)
        #expect(try Image(contentsOf: corpus.url("exiftool-t/GIF.gif")).format == .gif)
        #expect(try Image(contentsOf: corpus.url("exiftool-t/ExifTool.tif")).format == .tiff)
    }

    @Test func heicReportsStoredAndDisplayedSizes() throws {
        let image = try Image(contentsOf: try #require(corpus).url("exif-samples/heic/mobile/iphone_13_pro_max.HEIC"))
        #expect(image.format == .heic)
        #expect(image.orientation == .right)
        #expect(image.storedPixelSize == PixelSize(width: 4032, height: 3024))
        #expect(image.pixelSize == PixelSize(width: 3024, height: 4032))
        let thumbnail = try image.thumbnail(targetSize: PixelSize(square: 256))
        #expect(thumbnail.pixelSize == PixelSize(width: 192, height: 256))
        #expect(image.metadata.dateTimeOriginal?.iso8601String == "2022-02-16T12:55:41+01:00")
        #expect(image.metadata.lensModel == "iPhone 13 Pro Max back triple camera 5.7mm f/1.5")
        #expect(image.metadata.fNumber == 1.5)
        #expect(image.metadata.isoSpeed == 250)
        #expect(image.metadata.exposureTime == 1.0 / 60)
    }
}
