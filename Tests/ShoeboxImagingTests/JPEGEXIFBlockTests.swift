import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// A JPEG with more than one EXIF segment, read as exiftool reads it: every block in file order, a
/// later block's value over an earlier one's, and a block split over segments joined. (libvips
/// hands over the first segment only.) The files are made here: exiftool writes each block into
/// a generated JPEG, the test moves the segments.
@Suite struct JPEGEXIFBlockTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("exif-blocks-\(UUID().uuidString)")

    /// A generated JPEG with the tags exiftool writes (`["Make=First", …]`), as bytes.
    func taggedJPEG(_ tags: [String], seed: UInt64) throws -> Data {
        try Data(contentsOf: try exiftoolTaggedJPEG(tags, seed: seed, in: folder))
    }

    /// The marker segments before the image data (marker and whole segment), then the rest.
    static func segments(_ jpeg: Data) -> (segments: [(marker: UInt8, bytes: Data)], rest: Data) {
        var segments: [(marker: UInt8, bytes: Data)] = []
        var index = jpeg.startIndex + 2
        while index + 4 <= jpeg.endIndex, jpeg[index] == 0xFF, jpeg[index + 1] != 0xDA {
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            segments.append((marker: jpeg[index + 1], bytes: jpeg[index..<(index + 2 + length)]))
            index += 2 + length
        }
        return (segments, jpeg[index...])
    }

    static func isEXIF(_ segment: (marker: UInt8, bytes: Data)) -> Bool {
        segment.marker == 0xE1 && segment.bytes.dropFirst(4).starts(with: Array("Exif\0\0".utf8))
    }

    static func assemble(_ segments: [Data], rest: Data) -> Data {
        var jpeg = Data([0xFF, 0xD8])
        for segment in segments { jpeg.append(segment) }
        jpeg.append(rest)
        return jpeg
    }

    /// What Shoebox and exiftool read from `jpeg`, written as `name`, compared field by field.
    func agreement(_ jpeg: Data, name: String) throws -> (MetadataAgreement, [String: String], ImageMetadata) {
        let url = folder.appendingPathComponent(name)
        try jpeg.write(to: url)
        return try agreementWithExiftool(url)
    }

    @Test func aLaterBlocksValuesStandOverAnEarlierOnes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try taggedJPEG(
            [
                "Make=First", "Model=One", "Software=Editor A", "LensModel=Lens A", "DateTimeOriginal=2020:01:02 03:04:05",
                "GPSLatitude=10", "GPSLatitudeRef=N", "GPSLongitude=20", "GPSLongitudeRef=E",
            ], seed: 1)
        let second = try taggedJPEG(
            [
                "Make=Second", "DateTimeOriginal=2021:06:07 08:09:10", "FNumber=2.8", "ISO=400",
                "GPSLatitude=30", "GPSLatitudeRef=S", "GPSLongitude=40", "GPSLongitudeRef=W",
            ], seed: 2)
        let (segments, rest) = Self.segments(first)
        let secondBlock = try #require(Self.segments(second).segments.first(where: Self.isEXIF)).bytes
        let at = try #require(segments.firstIndex(where: Self.isEXIF))
        var spliced = segments.map(\.bytes)
        spliced.insert(secondBlock, at: at + 1)

        let (agreement, exiftool, metadata) = try agreement(Self.assemble(spliced, rest: rest), name: "two-blocks.jpg")
        // exiftool's reading, as the fixture means it.
        #expect(exiftool["Make"] == "Second" && exiftool["Model"] == "One" && exiftool["Software"] == "Editor A")
        #expect(exiftool["GPSPosition#"] == "-30 -40")
        #expect(metadata.make == "Second" && metadata.model == "One" && metadata.software == "Editor A")
        #expect(metadata.lensModel == "Lens A" && metadata.fNumber == 2.8 && metadata.isoSpeed == 400)
        #expect(metadata.dateTimeOriginal?.exifString == "2021:06:07 08:09:10")
        #expect(metadata.latitude == -30 && metadata.longitude == -40)
        #expect(agreement.compared >= 9 && agreement.disagreements.isEmpty, "\(agreement.disagreements)")
    }

    @Test func aBlockSplitOverTwoSegmentsIsJoined() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try taggedJPEG(
            [
                "Make=Split", "Model=Halves", "DateTimeOriginal=2022:03:04 05:06:07", "FNumber=4",
                "GPSLatitude=50", "GPSLatitudeRef=N", "GPSLongitude=8", "GPSLongitudeRef=E",
            ], seed: 3)
        let (segments, rest) = Self.segments(jpeg)
        let at = try #require(segments.firstIndex(where: Self.isEXIF))
        let exif = segments[at].bytes
        // Cut the TIFF structure at its middle: the second segment is `Exif\0\0` and the rest,
        // which starts no TIFF header.
        let tiff = exif.dropFirst(10)
        let cut = tiff.startIndex + tiff.count / 2
        func segment(_ payload: Data) -> Data {
            Data([0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)]) + payload
        }
        var split = segments.map(\.bytes)
        split.replaceSubrange(
            at...at,
            with: [segment(Data("Exif\0\0".utf8) + tiff[..<cut]), segment(Data("Exif\0\0".utf8) + tiff[cut...])])

        let (agreement, exiftool, metadata) = try agreement(Self.assemble(split, rest: rest), name: "split-block.jpg")
        #expect(exiftool["Make"] == "Split" && exiftool["GPSPosition#"] == "50 8")
        #expect(metadata.make == "Split" && metadata.model == "Halves" && metadata.fNumber == 4)
        #expect(metadata.latitude == 50 && metadata.longitude == 8)
        #expect(agreement.compared >= 5 && agreement.disagreements.isEmpty, "\(agreement.disagreements)")
    }
}
