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

    @Test("Drive mode and body serial from Canon and Nikon notes, as exiftool reads them, on every corpus file that has them")
    func driveModeAndSerialAsExiftoolReadsThem() throws {
        let corpus = try #require(corpus)
        let images = try FileManager.default.subpathsOfDirectory(atPath: corpus.root.path)
            .filter { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }.map(corpus.url)
        let tags = ["Make", "Canon:ContinuousDrive#", "Nikon:ShootingMode#", "Canon:SerialNumber", "Nikon:SerialNumber", "ExifIFD:SerialNumber"]
        let read = try Exiftool.read(images, tags: tags)
        var drives = 0
        var serials = 0
        for image in images {
            let values = read[image.path] ?? [:]
            let canonDrive = values["Canon:ContinuousDrive#"].flatMap { Int($0) }
            let nikonDrive = values["Nikon:ShootingMode#"].flatMap { Int($0) }
            let expectedDrive: Bool? =
                canonDrive.flatMap { [0: false, 6: false, 9: false, 1: true, 3: true, 4: true, 5: true, 8: true, 10: true][$0] }
                ?? nikonDrive.map { $0 & 1 == 1 }
            let expectedSerial = values["ExifIFD:SerialNumber"] ?? values["Canon:SerialNumber"] ?? values["Nikon:SerialNumber"]
            guard expectedDrive != nil || expectedSerial != nil else { continue }
            guard let metadata = try? Image(contentsOf: image).metadata else { continue }
            if let expectedDrive {
                drives += 1
                #expect(metadata.continuousDrive == expectedDrive, "\(image.lastPathComponent)")
            }
            if let expectedSerial {
                serials += 1
                // exiftool prints an old Nikon's `NO= 2002…` as `No= 2002…`; the text is the camera's.
                #expect(metadata.bodySerialNumber?.lowercased() == expectedSerial.lowercased(), "\(image.lastPathComponent)")
            }
        }
        #expect(drives >= 10 && serials >= 5, "the corpus has Canon and Nikon notes with both (\(drives) drives, \(serials) serials)")
        #expect(try Self.metadata("exiftool-t/Canon.jpg").continuousDrive == true)
        #expect(try Self.metadata("exiftool-t/NikonD70.jpg").continuousDrive == true)
        #expect(try Self.metadata("exif-samples/jpg/Canon_PowerShot_S40.jpg").continuousDrive == false)
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

/// Drive modes from notes built here: Fujifilm's, Sony's and Panasonic's layouts rather than one
/// camera's file.
@Suite struct MakerNoteDriveModeTests {
    /// A little-endian directory of short values, each inline, then a next-directory pointer of 0.
    static func directory(_ entries: [(UInt16, UInt16)]) -> [UInt8] {
        func u16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        var bytes = u16(UInt16(entries.count))
        for (tag, value) in entries {
            bytes += u16(tag) + u16(3) + [1, 0, 0, 0]
            bytes += u16(value) + [0, 0]
        }
        return bytes + [0, 0, 0, 0]
    }

    static func metadata(make: String, note: [UInt8]) -> ImageMetadata {
        var builder = EXIFBuilder()
        builder.ifd0 = [(0x010F, .ascii(make)), (0x0110, .ascii("Model"))]
        builder.exif = [(0x927C, .undefined(note))]
        return ImageMetadata(exif: builder.build())
    }

    @Test("Fujifilm: a sequence number says continuous, 0 says single; else the drive setting; the internal serial")
    func fujifilm() {
        func note(_ entries: [(UInt16, UInt16)], serial: String? = nil) -> [UInt8] {
            var body = Self.directory(entries)
            if let serial {
                // One more entry, an ASCII string after the directory (offsets from the note's start).
                let bytes: [UInt8] = Array(serial.utf8) + [0]
                let count = entries.count + 1
                let at = 12 + 2 + count * 12 + 4
                var entry: [UInt8] = [0x10, 0x00, 2, 0]
                entry += [UInt8(bytes.count), 0, 0, 0]
                entry += [UInt8(at), 0, 0, 0]
                body = [UInt8(count), 0] + entry + Array(body.dropFirst(2)) + bytes
            }
            return Array("FUJIFILM".utf8) + [12, 0, 0, 0] + body
        }
        #expect(Self.metadata(make: "FUJIFILM", note: note([(0x1101, 3)])).continuousDrive == true)
        #expect(Self.metadata(make: "FUJIFILM", note: note([(0x1101, 0)])).continuousDrive == false)
        #expect(Self.metadata(make: "FUJIFILM", note: note([(0x1103, 2)])).continuousDrive == true)
        #expect(Self.metadata(make: "FUJIFILM", note: note([(0x1103, 0)])).continuousDrive == false)
        #expect(Self.metadata(make: "FUJIFILM", note: note([(0x1000, 1)])).continuousDrive == nil)
        let serial = Self.metadata(make: "FUJIFILM", note: note([(0x1101, 1)], serial: "FF02B1234567"))
        #expect(serial.bodySerialNumber == "FF02B1234567" && serial.continuousDrive == true)
    }

    @Test("Sony: release mode 2 or a sequence number says continuous; 65535 is no number")
    func sony() {
        let head = Array("SONY DSC ".utf8) + [0, 0, 0]
        #expect(Self.metadata(make: "SONY", note: head + Self.directory([(0xB049, 2)])).continuousDrive == true)
        #expect(Self.metadata(make: "SONY", note: head + Self.directory([(0xB049, 0), (0xB04A, 0)])).continuousDrive == false)
        #expect(Self.metadata(make: "SONY", note: head + Self.directory([(0xB04A, 4)])).continuousDrive == true)
        #expect(Self.metadata(make: "SONY", note: head + Self.directory([(0xB04A, 65535)])).continuousDrive == nil)
    }

    @Test("Panasonic: any burst mode but off says continuous")
    func panasonic() {
        let head = Array("Panasonic".utf8) + [0, 0, 0]
        #expect(Self.metadata(make: "Panasonic", note: head + Self.directory([(0x002A, 1)])).continuousDrive == true)
        #expect(Self.metadata(make: "Panasonic", note: head + Self.directory([(0x002A, 0)])).continuousDrive == false)
    }
}
