import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// A FLIR thermal camera's GPS record (record 0x2B of the FFF in its APP1 `FLIR` segments): the
/// position a camera may keep only there, read as exiftool reads it. The files are made here: a
/// generated JPEG with an FFF of a camera record and a GPS record, and, where EXIF GPS is to
/// compete, the tags exiftool writes.
@Suite struct FLIRRecordTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flir-gps-\(UUID().uuidString)")

    static func bigEndian(_ value: Int, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    static func littleEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (UInt64($0) * 8)) }
    }

    /// An APP1 `FLIR` segment (one chunk) holding a big-endian FFF with a camera record (lens
    /// `FOL9`, a date) and a GPS record: `valid`, the signed coordinates, reference letters that
    /// contradict the signs (exiftool goes by the signs), an altitude.
    static func flirSegment(latitude: Double, longitude: Double, altitude: Float, valid: UInt32) -> Data {
        var camera = [UInt8](repeating: 0, count: 0x390)
        camera[0...1] = [0, 2]  // big-endian
        camera.replaceSubrange(0x170..<0x174, with: Array("FOL9".utf8))
        // 2020-09-13 12:26:40.007 UTC, 300 minutes west.
        camera.replaceSubrange(0x384..<0x38E, with: bigEndian(1_600_000_000, 4) + bigEndian(7, 4) + bigEndian(300, 2))
        var gps = littleEndian(UInt64(valid), 4) + [2, 2, 0, 0] + Array("N\0E\0".utf8) + [0, 0, 0, 0]
        gps += littleEndian(latitude.bitPattern, 8) + littleEndian(longitude.bitPattern, 8) + littleEndian(UInt64(altitude.bitPattern), 4)
        gps += [UInt8](repeating: 0, count: 0x60 - gps.count)
        var fff =
            Array("FFF\0".utf8) + [UInt8](repeating: 0, count: 16) + bigEndian(100, 4) + bigEndian(0x40, 4) + bigEndian(2, 4)
        fff += [UInt8](repeating: 0, count: 0x40 - fff.count)
        let cameraAt = 0x40 + 2 * 32
        for (type, offset, length) in [(0x20, cameraAt, camera.count), (0x2B, cameraAt + camera.count, gps.count)] {
            var entry = bigEndian(type, 2) + bigEndian(1, 2) + bigEndian(0x64, 4) + bigEndian(1, 4)
            entry += bigEndian(offset, 4) + bigEndian(length, 4)
            fff += entry + [UInt8](repeating: 0, count: 32 - entry.count)
        }
        fff += camera + gps
        let payload = Array("FLIR\0".utf8) + [1, 0, 0] + fff
        return Data([0xFF, 0xE1] + bigEndian(payload.count + 2, 2) + payload)
    }

    /// A generated JPEG (with the tags exiftool writes, if any) and `segment` after its APPn
    /// segments, written as `name`.
    func jpeg(_ segment: Data, tags: [String], name: String) throws -> URL {
        var jpeg: Data
        if tags.isEmpty {
            jpeg = try SyntheticPhoto(width: 64, height: 48, seed: 5).image().encoded(as: .jpeg)
        } else {
            jpeg = try Data(contentsOf: try exiftoolTaggedJPEG(tags, seed: 5, in: folder))
        }
        var index = jpeg.startIndex + 2
        while jpeg[index] == 0xFF, (0xE0...0xEF).contains(jpeg[index + 1]) {
            index += 2 + (Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3]))
        }
        jpeg.insert(contentsOf: segment, at: index)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try jpeg.write(to: url)
        return url
    }

    @Test func aPositionOnlyTheGPSRecordHoldsIsRead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let segment = Self.flirSegment(latitude: -33.5, longitude: 151.25, altitude: 123.5, valid: 1)
        let (agreement, exiftool, metadata) = try agreementWithExiftool(try jpeg(segment, tags: [], name: "flir-gps.jpg"))
        #expect(exiftool["GPSPosition#"] == "-33.5 151.25" && exiftool["GPSAltitude#"] == "123.5", "\(exiftool)")
        #expect(metadata.latitude == -33.5 && metadata.longitude == 151.25 && metadata.altitude == 123.5)
        #expect(metadata.lensModel == "FOL9")
        #expect(agreement.compared >= 3 && agreement.disagreements.isEmpty, "\(agreement.disagreements)")
    }

    @Test func exifGPSStandsOverTheRecord() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let segment = Self.flirSegment(latitude: -33.5, longitude: 151.25, altitude: 123.5, valid: 1)
        let tags = ["GPSLatitude=10", "GPSLatitudeRef=N", "GPSLongitude=20", "GPSLongitudeRef=E", "GPSAltitude=5", "GPSAltitudeRef=0"]
        let (agreement, exiftool, metadata) = try agreementWithExiftool(try jpeg(segment, tags: tags, name: "flir-and-exif.jpg"))
        #expect(exiftool["GPSPosition#"] == "10 20" && exiftool["GPSAltitude#"] == "5", "\(exiftool)")
        #expect(metadata.latitude == 10 && metadata.longitude == 20 && metadata.altitude == 5)
        #expect(agreement.disagreements.isEmpty, "\(agreement.disagreements)")
    }

    @Test func aRecordWithoutAValidFixGivesNoPosition() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let segment = Self.flirSegment(latitude: -33.5, longitude: 151.25, altitude: 123.5, valid: 0)
        let (agreement, exiftool, metadata) = try agreementWithExiftool(try jpeg(segment, tags: [], name: "flir-no-fix.jpg"))
        #expect(exiftool["GPSPosition#"] == nil)
        #expect(metadata.latitude == nil && metadata.longitude == nil && metadata.altitude == nil)
        #expect(metadata.lensModel == "FOL9")
        #expect(agreement.disagreements.isEmpty, "\(agreement.disagreements)")
    }
}
