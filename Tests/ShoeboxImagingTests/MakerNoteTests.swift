import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// Values Shoebox reads from maker notes, IPTC, a JPEG's own segments and PNG and GIF blocks
/// where EXIF lacks them (or, where exiftool prefers them, over EXIF), as exiftool reads them.
@Suite(.enabled(if: corpus != nil, Comment(rawValue: corpusMissing)))
struct MakerNoteTests {
    static func metadata(_ path: String) throws -> ImageMetadata {
        try Image(contentsOf: try #require(corpus).url(path)).metadata
    }

    @Test func canonISOFromCameraSettingsOrShotInfo() throws {
        #expect(try Self.metadata("exif-samples/jpg/Canon_PowerShot_S40.jpg").isoSpeed == 100)
        #expect(try Self.metadata("exif-samples/jpg/Canon_DIGITAL_IXUS_400.jpg").isoSpeed == 50)
    }

    @Test("A Canon maker note an editor moved is read at its original base (TIFF footer), in its own byte order")
    func movedCanonNote() throws {
        // Big-endian EXIF around a little-endian Canon note whose offsets are 62 bytes off.
        #expect(try Self.metadata("exif-samples/jpg/tests/28-hex_value.jpg").isoSpeed == 50)
    }

    @Test func nikonAndCasioISO() throws {
        #expect(try Self.metadata("exiftool-t/NikonD70.jpg").isoSpeed == 200)
        #expect(try Self.metadata("exiftool-t/Casio.jpg").isoSpeed == 64)
        #expect(try Self.metadata("exif-samples/jpg/tests/35-empty.jpg").isoSpeed == 50)  // type 2, QVC
    }

    @Test func reconyxDate() throws {
        #expect(
            try Self.metadata("exif-samples/jpg/Reconyx_HC500_Hyperfire.jpg").dateTimeOriginal?.exifString
                == "2020:03:16 10:00:00")
    }

    @Test func iptcDateWithOffset() throws {
        #expect(
            try Self.metadata("exiftool-t/PhotoMechanic.jpg").dateTimeOriginal?.iso8601String
                == "2006-10-29T06:27:51-05:00")
    }

    @Test("A camera from before EXIF: APP12 picture info gives date, exposure, f-number and flash")
    func pictureInfo() throws {
        let metadata = try Self.metadata("exif-samples/jpg/exif-org/olympus-d320l.jpg")
        #expect(metadata.dateTimeOriginal?.iso8601String == "1998-10-29T22:06:59")
        #expect(metadata.exposureTime == 0.033363)
        #expect(metadata.fNumber == 2.8)
        #expect(metadata.flashFired == true)
    }

    @Test("EXIF wins over the maker note")
    func exifFirst() throws {
        // The Nikon note says 0 0 here; EXIF says 50.
        #expect(try Self.metadata("exif-samples/jpg/Nikon_COOLPIX_P1.jpg").isoSpeed == 50)
    }

    @Test("Kodak's binary note: exposure time, f-number and ISO over EXIF's rounded values")
    func kodakExposure() throws {
        let metadata = try Self.metadata("exiftool-t/Kodak.jpg")
        #expect(metadata.exposureTime == 0.00464)  // EXIF says 1/180
        #expect(metadata.fNumber == 6.73)  // EXIF says 6.7
        #expect(metadata.isoSpeed == 108)  // EXIF has none
    }

    @Test("Casio's QVCI segment gives the date of a camera from before EXIF")
    func casioQVCIDate() throws {
        #expect(try Self.metadata("exiftool-t/CasioQVCI.jpg").dateTimeOriginal?.iso8601String == "1998-10-24T12:08:57")
    }

    @Test("A FLIR camera record's lens, and its date with milliseconds and zone over EXIF's")
    func flirCameraRecord() throws {
        let metadata = try Self.metadata("exiftool-t/FLIR.jpg")
        #expect(metadata.lensModel == "FOL7")
        #expect(metadata.dateTimeOriginal?.iso8601String == "2012-02-11T14:17:08+01:00")
        #expect(metadata.dateTimeOriginal?.fractionalSecond == 0.253)
    }

    @Test("PNG software from a text chunk, compressed or not; a translated iTXt is not the plain tag")
    func pngSoftware() throws {
        let software = #"Created on a NeXTstation color using "pnmtopng"."#
        #expect(try Self.metadata("pngsuite/png/ct1n0g04.png").software == software)  // tEXt
        #expect(try Self.metadata("pngsuite/png/ctzn0g04.png").software == software)  // zTXt
        #expect(try Self.metadata("pngsuite/png/cten0g04.png").software == nil)  // iTXt, "en"
    }

    @Test func gifColourProfile() throws {
        #expect(try Self.metadata("exiftool-t/GIF.gif").colorProfileName == "Nikon Adobe RGB 4.0.0.3000")
    }
}

/// A JPEG's own segments, built here: the layouts rather than one camera's file.
@Suite struct JPEGSegmentTests {
    /// A JPEG of `segments` (marker, payload) and no image data.
    static func jpeg(_ segments: [(UInt8, [UInt8])]) -> Data {
        var data = Data([0xFF, 0xD8])
        for (marker, payload) in segments {
            data.append(contentsOf: [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)])
            data.append(contentsOf: payload)
        }
        data.append(contentsOf: [0xFF, 0xD9])
        return data
    }

    static func bigEndian(_ value: Int, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    @Test("A big-endian FFF in two chunks, stored out of order, with a big-endian camera record")
    func flirInChunks() {
        var record = [UInt8](repeating: 0, count: 0x390)
        record[0...1] = [0, 2]  // big-endian
        record.replaceSubrange(0x170..<0x174, with: Array("FOL2".utf8))
        record.replaceSubrange(0x384..<0x38E, with: Self.bigEndian(1_600_000_000, 4) + Self.bigEndian(7, 4) + Self.bigEndian(300, 2))
        var fff =
            Array("FFF\0".utf8) + [UInt8](repeating: 0, count: 16) + Self.bigEndian(100, 4)
            + Self.bigEndian(0x40, 4) + Self.bigEndian(1, 4)
        fff += [UInt8](repeating: 0, count: 0x40 - fff.count)
        var entry = Self.bigEndian(0x20, 2) + [UInt8](repeating: 0, count: 10) + Self.bigEndian(0x60, 4) + Self.bigEndian(record.count, 4)
        entry += [UInt8](repeating: 0, count: 32 - entry.count)
        fff += entry + record
        let half = fff.count / 2
        let chunk = { (index: UInt8, bytes: ArraySlice<UInt8>) in (UInt8(0xE1), Array("FLIR\0".utf8) + [1, index, 1] + bytes) }
        let data = Self.jpeg([chunk(1, fff[half...]), chunk(0, fff[..<half])])

        var metadata = ImageMetadata()
        metadata.dateTimeOriginal = ImageMetadata.DateTime(year: 2020, month: 9, day: 13, hour: 12, minute: 26, second: 40)
        metadata.mergeJPEGSegments(data)
        #expect(metadata.lensModel == "FOL2")
        // 1,600,000,000 is 2020-09-13 12:26:40 UTC; 300 minutes west is -05:00.
        #expect(metadata.dateTimeOriginal?.iso8601String == "2020-09-13T07:26:40-05:00")
        #expect(metadata.dateTimeOriginal?.fractionalSecond == 0.007)

        // A chunk missing: nothing is read, and the date EXIF gave stays.
        var partial = ImageMetadata()
        partial.mergeJPEGSegments(Self.jpeg([chunk(1, fff[half...])]))
        #expect(partial.lensModel == nil && partial.dateTimeOriginal == nil)
    }

    @Test("A QVCI date fills only an empty date; a damaged one reads as nothing")
    func qvci() {
        var payload = Array("QVCI\0".utf8) + [UInt8](repeating: 0, count: 0x4D - 5)
        payload += Array("2001.02.03.04.05.06".utf8) + [0]
        var metadata = ImageMetadata()
        metadata.mergeJPEGSegments(Self.jpeg([(0xE1, payload)]))
        #expect(metadata.dateTimeOriginal?.iso8601String == "2001-02-03T04:05:06")

        var damaged = payload
        damaged[0x4D + 4] = UInt8(ascii: "/")
        var none = ImageMetadata()
        none.mergeJPEGSegments(Self.jpeg([(0xE1, damaged)]))
        #expect(none.dateTimeOriginal == nil)
    }
}
