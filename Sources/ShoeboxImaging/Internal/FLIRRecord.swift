import Foundation

/// The camera record of a FLIR thermal camera's JPEG: APP1 segments `FLIR\0` that carry, in
/// numbered chunks, an FFF file whose record 0x20 (camera information) names the lens and the
/// instant of the shot with the camera's zone.
///
/// Layout, as exiftool reads it: each chunk is `FLIR\0`, 0x01, its index, the last index, then its
/// share of the FFF. The FFF header is `FFF\0` (or `AFF\0`), with a version of 100–199 at 0x14 in
/// the file's byte order, the directory's offset at 0x18 and its entry count at 0x1C. Entries are
/// 32 bytes: the record type (int16) first, its offset at 12 and length at 16. The camera record
/// says its byte order by starting with the word 2; its lens model is text at 0x170 (32 bytes), and
/// its date at 0x384: Unix seconds (int32), milliseconds (low 16 bits of an int32) and the zone as
/// minutes *west* of UTC (int16).
///
/// Record 0x2B (GPS), little-endian whatever the file's order: a word that is not 0 when the fix
/// is valid, then at 0x10 and 0x18 the latitude and longitude as signed doubles (exiftool reads the
/// sign and not the reference letters at 0x08 and 0x0A), at 0x20 the altitude in metres as a
/// float. A thermal camera may keep its position only there, with no EXIF GPS.
enum FLIRRecord {
    /// Lens model, date and position from a JPEG's APP1 payloads (in file order; those not
    /// `FLIR\0` are passed over), or `nil` when they hold no camera or GPS record.
    static func metadata(segments: [Data]) -> ImageMetadata? {
        guard let fff = assemble(segments), let directory = Directory(fff) else { return nil }
        var metadata = ImageMetadata()
        if let gps = directory.record(0x2B).map({ EndianBytes(bytes: $0, bigEndian: false) }), gps.integer(0, 4).map({ $0 != 0 }) == true,
            let latitude = gps.double(0x10), let longitude = gps.double(0x18),
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
        {
            metadata.latitude = latitude
            metadata.longitude = longitude
            if let altitude = gps.integer(0x20, 4).map({ Double(Float(bitPattern: $0)) }), altitude.isFinite, abs(altitude) < 100_000 {
                metadata.altitude = altitude
            }
        }
        guard let camera = directory.cameraRecord() else { return metadata.latitude == nil ? nil : metadata }
        if let lens: [UInt8] = camera.slice(0x170, 32) {
            metadata.lensModel = ImageMetadata.cleanedText(String(decoding: lens.prefix { $0 != 0 }, as: UTF8.self))
        }
        if let seconds = camera.integer(0x384, 4), seconds > 0,
            let milliseconds = camera.integer(0x388, 4).map({ $0 & 0xFFFF }), milliseconds < 1_000,
            let west = camera.integer(0x38C, 2).map({ Int(Int16(truncatingIfNeeded: $0)) }), abs(west) <= 14 * 60
        {
            let offset = -west * 60
            let instant = Date(timeIntervalSince1970: TimeInterval(seconds))
            if let zone = TimeZone(secondsFromGMT: offset) {
                var date = ImageMetadata.DateTime(instant, timeZone: zone)
                date.fractionalSecond = Double(milliseconds) / 1_000
                metadata.dateTimeOriginal = date
            }
        }
        return metadata.lensModel == nil && metadata.dateTimeOriginal == nil && metadata.latitude == nil ? nil : metadata
    }

    /// The FFF file: the chunks' data in index order, when every chunk up to the last is there.
    private static func assemble(_ segments: [Data]) -> Data? {
        var chunks: [Int: Data] = [:]
        var last: Int?
        for segment in segments where segment.count >= 8 && segment.starts(with: Array("FLIR\0".utf8)) {
            let base = segment.startIndex
            guard segment[base + 5] == 0x01, last == nil || last == Int(segment[base + 7]) else { return nil }
            last = Int(segment[base + 7])
            chunks[Int(segment[base + 6])] = chunks[Int(segment[base + 6])] ?? segment.dropFirst(8)
        }
        guard let last, last < 256 else { return nil }
        var fff = Data()
        for index in 0...last {
            guard let chunk = chunks[index] else { return nil }
            fff.append(chunk)
        }
        return fff
    }

    /// The FFF's record directory, in the byte order its version number declares.
    private struct Directory {
        let file: EndianBytes
        let offset: Int
        let count: Int

        init?(_ fff: Data) {
            guard fff.starts(with: Array("FFF\0".utf8)) || fff.starts(with: Array("AFF\0".utf8)) else { return nil }
            var file = EndianBytes(bytes: [UInt8](fff), bigEndian: true)
            if let version = file.integer(0x14, 4), !(100..<200).contains(version) { file.bigEndian = false }
            guard let version = file.integer(0x14, 4), (100..<200).contains(version),
                let offset = file.integer(0x18, 4).map(Int.init), let count = file.integer(0x1C, 4).map(Int.init)
            else { return nil }
            self.file = file
            self.offset = offset
            self.count = count
        }

        /// The bytes of the first record of `type`, or `nil` when there is none or it lies
        /// past the end.
        func record(_ type: UInt32) -> [UInt8]? {
            for entry in 0..<min(count, 1_000) {
                let at = offset + entry * 32
                guard let found = file.integer(at, 2) else { return nil }
                guard found == type else { continue }
                guard let offset = file.integer(at + 12, 4).map(Int.init), let length = file.integer(at + 16, 4).map(Int.init),
                    let bytes = file.slice(offset, length)
                else { continue }
                return bytes
            }
            return nil
        }

        /// Record 0x20 (camera information), in the byte order its first word declares.
        func cameraRecord() -> EndianBytes? {
            guard let bytes = record(0x20) else { return nil }
            for bigEndian in [false, true] {
                let record = EndianBytes(bytes: bytes, bigEndian: bigEndian)
                if record.integer(0, 2) == 2 { return record }
            }
            return nil
        }
    }
}
