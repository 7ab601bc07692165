import Foundation

/// What Shoebox reads from a camera maker's private EXIF block (`MakerNote`, tag 0x927C): the ISO
/// speed, the capture date and the body's serial number, used only where the standard EXIF tags
/// lack them, as exiftool gives maker notes the lower priority; and the drive mode, which only
/// maker notes hold (``continuousDrive``).
///
/// Read layouts (as exiftool documents them):
/// - Canon: an IFD in the EXIF block's offsets; ISO is `CameraSettings[16]` (a code, or 0x4000 +
///   the speed) else `BaseISO × AutoISO / 100` from `ShotInfo[2]` and `ShotInfo[1]`; the drive is
///   `CameraSettings[5]` (`ContinuousDrive`), the serial 0x000C (a number, ten digits as exiftool
///   prints it).
/// - Fujifilm (`FUJIFILM`, then the directory's offset; little-endian, offsets from the note's
///   start): `SequenceNumber` (0x1101, 0 for a single frame), else `DriveSettings` (0x1103, its
///   low byte 0 single, 1 and 2 continuous); the serial `InternalSerialNumber` (0x0010).
/// - Sony (`SONY DSC `, `SONY CAM ` or `SONY MOBILE`, the directory at byte 12, offsets from the
///   EXIF block): `ReleaseMode` (0xB049, 2 continuous, 0 normal) and `SequenceNumber` (0xB04A, 0
///   single, 65535 none).
/// - Panasonic (`Panasonic`, the directory at byte 12, offsets from the EXIF block): `BurstMode`
///   (0x002A, 0 off), the serial `InternalSerialNumber` (0x0025).
/// - Nikon: `Nikon\0\2…` with a TIFF header of its own at byte 10 (D-series and most Coolpix),
///   or a bare IFD (the D1); ISO is tag 0x0002's second value, the serial 0x001D (older bodies:
///   0x00A0, as written: `NO= 20025585`), the drive `ShootingMode` (0x0089, bit 0 continuous).
/// - Casio: ISO tag 0x0014, the speed in type 1 (a bare IFD); type 2 (`QVC\0`) has the speed in
///   0x3014, or a code in 0x0014.
/// - Reconyx trail cameras: the date, as words or bytes at fixed places (HyperFire, UltraFire,
///   HyperFire 2); these cameras write no EXIF date.
/// - Kodak's binary note (`KDK INFO` big-endian, else `KDK` little-endian, from byte 8): the
///   f-number (hundredths, 0x1E), the exposure time (10 µs units, 0x20) and the ISO speed (0x60).
///   exiftool reads them after the standard tags and keeps them over EXIF's rounded values
///   (``overridesExposure``).
/// - Apple (`Apple iOS\0`, a version, the byte order, then an IFD at byte 14 whose offsets count
///   from the note's start): the Live Photo `ContentIdentifier` (0x11) and the `BurstUUID` (0x0B).
///
/// A bare-IFD note an editor moved without fixing its offsets is read where exiftool finds it.
/// Everything is bounds-checked by ``TIFFDirectoryReader``; a note that does not fit reads as empty.
struct MakerNote {
    private(set) var isoSpeed: Int?
    private(set) var dateTimeOriginal: ImageMetadata.DateTime?
    private(set) var exposureTime: Double?
    private(set) var fNumber: Double?
    /// Whether the note's exposure (time, f-number, ISO) stands over EXIF's, as Kodak's does.
    private(set) var overridesExposure = false
    private(set) var contentIdentifier: String?
    private(set) var burstIdentifier: String?
    /// The body's serial number as the maker records it.
    private(set) var serialNumber: String?
    /// Whether the camera's drive was set to shoot continuously (`false`: single frames); `nil`
    /// when the note does not say.
    private(set) var continuousDrive: Bool?

    init(_ entry: TIFFDirectoryReader.Entry, in reader: TIFFDirectoryReader, make: String?) {
        let make = make?.uppercased() ?? ""
        let head = reader.bytes(at: entry.valueOffset, count: min(entry.count, 12)) ?? []
        if head.starts(with: Array("Nikon\0".utf8)) {
            if head.count >= 7, head[6] == 2, let bytes = reader.bytes(at: entry.valueOffset + 10, count: entry.count - 10),
                let inner = TIFFDirectoryReader(Data(bytes))
            {
                readNikon(inner, inner.directory(at: inner.firstDirectoryOffset))
            }
        } else if make.hasPrefix("NIKON") {
            let (reader, directory) = Self.bareDirectory(entry, in: reader, canon: false)
            readNikon(reader, directory)
        } else if make.hasPrefix("CANON") {
            let (reader, directory) = Self.bareDirectory(entry, in: reader, canon: true)
            isoSpeed = Self.canonISO(reader, directory)
            continuousDrive = reader.unsigned(directory[0x0001], index: 5).flatMap { Self.canonDrives[$0] }
            if let serial = reader.unsigned(directory[0x000C]), serial != 0 { serialNumber = String(format: "%010u", serial) }
        } else if head.starts(with: Array("FUJIFILM".utf8)) {
            readFujifilm(entry, in: reader)
        } else if head.starts(with: Array("SONY DSC ".utf8)) || head.starts(with: Array("SONY CAM ".utf8))
            || head.starts(with: Array("SONY MOBILE".utf8))
        {
            readSony(reader, reader.directory(at: entry.valueOffset + 12))
        } else if head.starts(with: Array("Panasonic\0".utf8)) {
            let directory = reader.directory(at: entry.valueOffset + 12)
            continuousDrive = reader.unsigned(directory[0x002A]).map { $0 != 0 }
            serialNumber = reader.string(directory[0x0025])
        } else if make.hasPrefix("CASIO") {
            isoSpeed = Self.casioISO(entry, in: reader, typeTwo: head.starts(with: Array("QVC\0".utf8)))
        } else if make.hasPrefix("EASTMAN KODAK"), entry.count > 8, head.starts(with: Array("KDK".utf8)) {
            readKodak(
                EndianBytes(
                    bytes: reader.bytes(at: entry.valueOffset + 8, count: min(entry.count - 8, 0x62)) ?? [],
                    bigEndian: head.starts(with: Array("KDK INFO".utf8))))
        } else if make.hasPrefix("APPLE"), entry.count > 16, head.starts(with: Array("Apple iOS\0".utf8)) {
            readApple(entry, in: reader)
        } else if let bytes = reader.bytes(at: entry.valueOffset, count: min(entry.count, 128)) {
            dateTimeOriginal = Self.reconyxDate(bytes, make: make)
        }
    }

    /// Canon's `ContinuousDrive` codes: single frames (plain or silent), or continuous (at any
    /// speed, or silent); a movie is neither.
    private static let canonDrives: [UInt32: Bool] = [0: false, 6: false, 9: false, 1: true, 3: true, 4: true, 5: true, 8: true, 10: true]

    private mutating func readNikon(_ reader: TIFFDirectoryReader, _ directory: [UInt16: TIFFDirectoryReader.Entry]) {
        isoSpeed = Self.nikonISO(reader, directory)
        serialNumber = reader.string(directory[0x001D]) ?? reader.string(directory[0x00A0])
        continuousDrive = reader.unsigned(directory[0x0089]).map { $0 & 1 == 1 }
    }

    /// Fujifilm's note: little-endian whatever the EXIF block's order, offsets from its start.
    private mutating func readFujifilm(_ entry: TIFFDirectoryReader.Entry, in reader: TIFFDirectoryReader) {
        var note = reader.shifted(by: entry.valueOffset)
        if note.isBigEndian { note = note.swappingByteOrder() }
        guard let start = note.uint32(at: 8), Int(start) < entry.count else { return }
        let directory = note.directory(at: Int(start))
        serialNumber = note.string(directory[0x0010])
        if let sequence = note.unsigned(directory[0x1101]) {
            continuousDrive = sequence != 0
        } else if let drive = note.unsigned(directory[0x1103]).map({ $0 & 0xFF }), drive <= 2 {
            continuousDrive = drive != 0
        }
    }

    private mutating func readSony(_ reader: TIFFDirectoryReader, _ directory: [UInt16: TIFFDirectoryReader.Entry]) {
        let release = reader.unsigned(directory[0xB049])
        let sequence = reader.unsigned(directory[0xB04A]).flatMap { $0 == 65535 ? nil : $0 }
        if release == 2 || (sequence ?? 0) > 0 {
            continuousDrive = true
        } else if release == 0 || sequence == 0 {
            continuousDrive = false
        }
    }

    /// Apple's note: its own byte order (`MM` or `II` at byte 12), offsets from the note's start.
    private mutating func readApple(_ entry: TIFFDirectoryReader.Entry, in reader: TIFFDirectoryReader) {
        var note = reader.shifted(by: entry.valueOffset)
        guard let order = note.bytes(at: 12, count: 2), order == [0x4D, 0x4D] || order == [0x49, 0x49] else { return }
        if note.isBigEndian != (order[0] == 0x4D) { note = note.swappingByteOrder() }
        let directory = note.directory(at: 14)
        /// Only values that lie inside the note, and read as identifiers: letters, digits and `-`.
        func identifier(_ tag: UInt16) -> String? {
            guard let value = directory[tag], value.valueOffset >= 0, value.valueOffset + value.count <= entry.count,
                let text = note.string(value), text.count <= 64,
                text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            else { return nil }
            return text
        }
        contentIdentifier = identifier(0x11)
        burstIdentifier = identifier(0x0B)
    }

    /// A maker note that is a bare IFD, read in its own byte order with the base its values need.
    ///
    /// Editors that move a maker note without rewriting its offsets leave every value pointing
    /// wrong. exiftool then shifts the base: by the original offset a Canon note keeps in its
    /// 8-byte TIFF footer (unless the values already end at the footer), else, when values point
    /// outside the note, so that the first follows the directory and its next-IFD pointer. A shift
    /// is kept only when it puts every value inside the note.
    private static func bareDirectory(
        _ entry: TIFFDirectoryReader.Entry, in reader: TIFFDirectoryReader, canon: Bool
    ) -> (TIFFDirectoryReader, [UInt16: TIFFDirectoryReader.Entry]) {
        var reader = reader
        if !reader.hasPlausibleDirectory(at: entry.valueOffset),
            reader.swappingByteOrder().hasPlausibleDirectory(at: entry.valueOffset)
        {
            reader = reader.swappingByteOrder()
        }
        let directory = reader.directory(at: entry.valueOffset)
        let note = entry.valueOffset..<(entry.valueOffset + entry.count)
        let blocks: [Range<Int>] = directory.values.compactMap { value in
            let size = (TIFFDirectoryReader.unitSize(value.type) ?? 0) * value.count
            return size > 4 ? value.valueOffset..<(value.valueOffset + size) : nil
        }
        func inside(_ delta: Int) -> Bool {
            blocks.allSatisfy { note.contains($0.lowerBound + delta) && $0.upperBound + delta <= note.upperBound }
        }
        guard let first = blocks.map(\.lowerBound).min(), let last = blocks.map(\.upperBound).max() else {
            return (reader, directory)
        }
        var delta = 0
        if canon, entry.count > 8, let footer = reader.bytes(at: note.upperBound - 8, count: 8),
            footer.starts(with: reader.isBigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]),
            let original = reader.uint32(at: note.upperBound - 4)
        {
            // Some editors rewrote the offsets but not the footer: values then end at the footer.
            let endGap = note.upperBound - 8 - last
            if endGap != 0, endGap != 1 {
                delta = entry.valueOffset - Int(original)
            }
        } else if !inside(0) {
            delta = entry.valueOffset + 2 + 12 * directory.count + 4 - first
        }
        guard delta != 0, inside(delta) else { return (reader, directory) }
        let shifted = reader.shifted(by: delta)
        return (shifted, shifted.directory(at: entry.valueOffset - delta))
    }

    /// Type 1 is a bare IFD with the speed in 0x0014; type 2 has six bytes of header, then an IFD
    /// with the speed in 0x3014 or a code in 0x0014.
    private static func casioISO(_ entry: TIFFDirectoryReader.Entry, in reader: TIFFDirectoryReader, typeTwo: Bool) -> Int? {
        guard typeTwo else {
            let (reader, directory) = bareDirectory(entry, in: reader, canon: false)
            return speed(reader.unsigned(directory[0x0014]))
        }
        let codes: [UInt32: Int] = [3: 50, 4: 64, 6: 100, 9: 200]
        var reader = reader
        if !reader.hasPlausibleDirectory(at: entry.valueOffset + 6) { reader = reader.swappingByteOrder() }
        let directory = reader.directory(at: entry.valueOffset + 6)
        return speed(reader.unsigned(directory[0x3014])) ?? reader.unsigned(directory[0x0014]).flatMap { codes[$0] }
    }

    private mutating func readKodak(_ note: EndianBytes) {
        overridesExposure = true
        fNumber = note.integer(0x1E, 2).flatMap { $0 > 0 ? Double($0) / 100 : nil }
        exposureTime = note.integer(0x20, 4).flatMap { $0 > 0 ? Double($0) / 100_000 : nil }
        isoSpeed = Self.speed(note.integer(0x60, 2))
    }

    /// An ISO speed as a note records it; 0 (unset) and absurd values read as `nil`.
    private static func speed(_ value: UInt32?) -> Int? {
        value.flatMap { $0 > 0 && $0 < 1_000_000 ? Int($0) : nil }
    }

    private static func nikonISO(_ reader: TIFFDirectoryReader, _ directory: [UInt16: TIFFDirectoryReader.Entry]) -> Int? {
        guard let entry = directory[0x0002] else { return nil }
        return speed(reader.unsigned(entry, index: entry.count >= 2 ? 1 : 0))
    }

    private static func canonISO(_ reader: TIFFDirectoryReader, _ directory: [UInt16: TIFFDirectoryReader.Entry]) -> Int? {
        func signed(_ entry: TIFFDirectoryReader.Entry?, _ index: Int) -> Int? {
            reader.unsigned(entry, index: index).map { Int(Int16(truncatingIfNeeded: $0)) }
        }
        if let code = reader.unsigned(directory[0x0001], index: 16), code != 0x7FFF {
            let codes: [UInt32: Int] = [16: 50, 17: 100, 18: 200, 19: 400, 20: 800]
            if let speed = code & 0x4000 != 0 ? Int(code & 0x3FFF) : codes[code], speed > 0 {
                return speed
            }
        }
        // 2^(x/32) × 100/32 and 2^(x/32) × 100, multiplied and divided by 100.
        guard let base = signed(directory[0x0004], 2), base != 0, let auto = signed(directory[0x0004], 1) else {
            return nil
        }
        let speed = pow(2, Double(base) / 32) * 100 / 32 * pow(2, Double(auto) / 32)
        return speed.isFinite && speed >= 1 && speed < 1_000_000 ? Int(speed.rounded()) : nil
    }

    /// The three Reconyx layouts, all little-endian.
    private static func reconyxDate(_ bytes: [UInt8], make: String) -> ImageMetadata.DateTime? {
        func word(_ offset: Int) -> Int? {
            offset + 1 < bytes.count ? Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 : nil
        }
        func date(_ year: Int?, _ month: Int?, _ day: Int?, _ hour: Int?, _ minute: Int?, _ second: Int?) -> ImageMetadata.DateTime? {
            guard let year, let month, let day, let hour, let minute, let second else { return nil }
            let text = String(format: "%04d:%02d:%02d %02d:%02d:%02d", year, month, day, hour, minute, second)
            return ImageMetadata.DateTime(exif: text)
        }
        if bytes.starts(with: Array("RECONYXUF\0".utf8)), bytes.count >= 0x3B + 7 {
            // Seconds, minutes, hours, day, month, then the year as two bytes.
            let b = Array(bytes[0x3B..<0x3B + 7]).map(Int.init)
            return date(b[5] + b[6] * 256, b[4], b[3], b[2], b[1], b[0])
        }
        if bytes.starts(with: Array("RECONYXH2\0".utf8)) {
            return date(word(0x3E + 10), word(0x3E + 8), word(0x3E + 6), word(0x3E + 4), word(0x3E + 2), word(0x3E))
        }
        // HyperFire: version 0xF101, then (with firmware words 2 or 3, or make RECONYX) the date
        // as six words from word 11: seconds, minutes, hours, month, day, year.
        guard bytes.count >= 34, bytes[0] == 0x01, bytes[1] == 0xF1,
            make == "RECONYX" || ((bytes[2] == 2 || bytes[2] == 3) && bytes[3] == 0)
        else { return nil }
        var words = (0..<6).compactMap { word(22 + $0 * 2) }
        // Some firmware writes these words big-endian in an otherwise little-endian note.
        if words[0] & 0xFF00 != 0, words[0] & 0xFF == 0 {
            words = words.map { ($0 >> 8) | (($0 & 0xFF) << 8) }
        }
        return date(words[5], words[3], words[4], words[2], words[1], words[0])
    }
}
