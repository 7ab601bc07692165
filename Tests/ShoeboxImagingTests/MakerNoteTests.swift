import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// Values Shoebox reads from maker notes, IPTC and APP12 picture info where EXIF lacks them, as exiftool reads them.
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
        #expect(try Self.metadata("exif-samples/jpg/Reconyx_HC500_Hyperfire.jpg").dateTimeOriginal?.exifString
                == "2020:03:16 10:00:00")
    }

    @Test func iptcDateWithOffset() throws {
        #expect(try Self.metadata("exiftool-t/PhotoMechanic.jpg").dateTimeOriginal?.iso8601String
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
}
