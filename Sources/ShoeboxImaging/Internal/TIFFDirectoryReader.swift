import Foundation

/// Reads TIFF image file directories (IFDs): the structure of EXIF blocks and of TIFF files.
///
/// Hostile input is expected: every offset and count is bounds-checked, directories are visited
/// at most once (no loops), and the number of entries read is capped. Anything malformed reads
/// as absent, never as a failure.
package struct TIFFDirectoryReader {
    /// One IFD entry, with its value bytes located but not interpreted.
    package struct Entry {
        package let tag: UInt16
        package let type: UInt16
        package let count: Int
        package let valueOffset: Int
    }

    private let data: Data
    private var base: Int
    private var bigEndian: Bool
    /// Whether the structure is big-endian (`MM`).
    package var isBigEndian: Bool { bigEndian }
    package private(set) var firstDirectoryOffset: Int

    package static let maximumEntriesPerDirectory = 1_000

    /// Opens a TIFF structure; `data` may start with the `Exif\0\0` APP1 preamble.
    package init?(_ data: Data) {
        var start = data.startIndex
        let exifPreamble: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
        if data.count >= 6, Array(data[start..<start + 6]) == exifPreamble {
            start += 6
        }
        guard data.endIndex - start >= 8 else { return nil }
        let b0 = data[start]
        let b1 = data[start + 1]
        if b0 == 0x49, b1 == 0x49 {
            bigEndian = false
        } else if b0 == 0x4D, b1 == 0x4D {
            bigEndian = true
        } else {
            return nil
        }
        self.data = data
        self.base = start
        self.firstDirectoryOffset = 0
        // TIFF's 42; Olympus's ORF writes "RO" or "RS", Panasonic's RW2 0x55, over the same structure.
        guard let magic = uint16(at: 2), [42, 0x4F52, 0x5352, 0x55].contains(magic), let ifd0 = uint32(at: 4) else { return nil }
        firstDirectoryOffset = Int(ifd0)
    }

    // MARK: Primitive reads (offsets are relative to the TIFF header)

    private func byte(at offset: Int) -> UInt8? {
        guard offset >= 0 else { return nil }
        let (index, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, index >= data.startIndex, index < data.endIndex else { return nil }
        return data[index]
    }

    package func bytes(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        let (start, o1) = base.addingReportingOverflow(offset)
        let (end, o2) = start.addingReportingOverflow(count)
        guard !o1, !o2, start >= data.startIndex, end <= data.endIndex else { return nil }
        return Array(data[start..<end])
    }

    package func uint16(at offset: Int) -> UInt16? {
        integer(at: offset, count: 2).map(UInt16.init)
    }

    package func uint32(at offset: Int) -> UInt32? {
        integer(at: offset, count: 4)
    }

    /// `count` bytes in the file's byte order, read in place (a directory is thousands of reads).
    private func integer(at offset: Int, count: Int) -> UInt32? {
        guard offset >= 0 else { return nil }
        let (start, o1) = base.addingReportingOverflow(offset)
        let (end, o2) = start.addingReportingOverflow(count)
        guard !o1, !o2, start >= data.startIndex, end <= data.endIndex else { return nil }
        var value: UInt32 = 0
        for index in 0..<count {
            value = value << 8 | UInt32(data[bigEndian ? start + index : end - 1 - index])
        }
        return value
    }

    /// The same structure with offsets counted from `delta` bytes further on: how a maker note
    /// moved by an editor that did not rewrite its offsets is read.
    package func shifted(by delta: Int) -> TIFFDirectoryReader {
        var copy = self
        copy.base += delta
        return copy
    }

    /// The same structure read in the other byte order: maker notes keep their maker's order
    /// (Canon's is always little-endian) inside EXIF of either.
    package func swappingByteOrder() -> TIFFDirectoryReader {
        var copy = self
        copy.bigEndian.toggle()
        return copy
    }

    /// Whether a directory at `offset` looks sound in this byte order: 1…512 entries, the first
    /// of a known type.
    package func hasPlausibleDirectory(at offset: Int) -> Bool {
        guard let count = uint16(at: offset), (1...512).contains(count), let type = uint16(at: offset + 4) else {
            return false
        }
        return Self.unitSize(type) != nil
    }

    // MARK: Directories

    /// The entries of the directory at `offset`, keyed by tag (the first of duplicates wins).
    package func directory(at offset: Int) -> [UInt16: Entry] {
        guard offset >= 8, let count = uint16(at: offset) else { return [:] }
        var entries: [UInt16: Entry] = [:]
        for index in 0..<min(Int(count), Self.maximumEntriesPerDirectory) {
            let position = offset + 2 + index * 12
            guard let tag = uint16(at: position), let type = uint16(at: position + 2),
                let count = uint32(at: position + 4)
            else { break }
            guard let unit = Self.unitSize(type) else { continue }
            let total = Int(count).multipliedReportingOverflow(by: unit)
            guard !total.overflow else { continue }
            let valueOffset: Int
            if total.partialValue <= 4 {
                valueOffset = position + 8
            } else {
                guard let pointer = uint32(at: position + 8) else { continue }
                valueOffset = Int(pointer)
            }
            if entries[tag] == nil {
                entries[tag] = Entry(tag: tag, type: type, count: Int(count), valueOffset: valueOffset)
            }
        }
        return entries
    }

    package static func unitSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1  // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: 2  // SHORT, SSHORT
        case 4, 9, 11, 13: 4  // LONG, SLONG, FLOAT, IFD
        case 5, 10, 12: 8  // RATIONAL, SRATIONAL, DOUBLE
        default: nil
        }
    }

    // MARK: Typed values

    /// An ASCII (or UTF-8) string, cut at the first NUL and trimmed; `nil` when empty or when it
    /// holds control characters (garbage rather than text).
    package func string(_ entry: Entry?) -> String? {
        guard let entry, entry.type == 2 || entry.type == 7 || entry.type == 1,
            entry.count > 0, entry.count <= 4_096,
            let raw = bytes(at: entry.valueOffset, count: entry.count)
        else { return nil }
        let content = raw.prefix { $0 != 0 }
        guard let text = String(bytes: content, encoding: .utf8) ?? String(bytes: content, encoding: .isoLatin1)
        else { return nil }
        return ImageMetadata.cleanedText(text)
    }

    /// The `index`th unsigned integer of a BYTE, SHORT or LONG entry.
    package func unsigned(_ entry: Entry?, index: Int = 0) -> UInt32? {
        guard let entry, index < entry.count else { return nil }
        switch entry.type {
        case 1, 7: return byte(at: entry.valueOffset + index).map(UInt32.init)
        case 3: return uint16(at: entry.valueOffset + index * 2).map(UInt32.init)
        case 4, 13: return uint32(at: entry.valueOffset + index * 4)
        default: return nil
        }
    }

    /// The `index`th value of a RATIONAL or SRATIONAL entry (or of an integer entry); `nil` on a
    /// zero denominator.
    package func rational(_ entry: Entry?, index: Int = 0) -> Double? {
        guard let entry, index < entry.count else { return nil }
        switch entry.type {
        case 5:
            guard let n = uint32(at: entry.valueOffset + index * 8),
                let d = uint32(at: entry.valueOffset + index * 8 + 4), d != 0
            else { return nil }
            return Double(n) / Double(d)
        case 10:
            guard let n = uint32(at: entry.valueOffset + index * 8),
                let d = uint32(at: entry.valueOffset + index * 8 + 4), Int32(bitPattern: d) != 0
            else { return nil }
            return Double(Int32(bitPattern: n)) / Double(Int32(bitPattern: d))
        case 1, 3, 4:
            return unsigned(entry, index: index).map(Double.init)
        default:
            return nil
        }
    }

    /// The offset a pointer tag (Exif IFD, GPS IFD) points at.
    package func pointer(_ entry: Entry?) -> Int? {
        unsigned(entry).map(Int.init)
    }
}

extension TIFFDirectoryReader {
    /// Compression codes that only cameras' raw sensor data uses: Nikon's NEF (34713), Sony's
    /// ARW (32767), Pentax's PEF (65535), Samsung's SRW (32769, 32770, 32772, 32773), Panasonic's (34316).
    private static let rawCompressions: Set<UInt32> = [34713, 32767, 65535, 32769, 32770, 32772, 32773, 34316]

    /// Tells the TIFF-based raw formats apart from plain TIFF by their directories: `DNGVersion`,
    /// or sensor data (a colour filter array or linear raw photometric interpretation, or a raw
    /// compression code, in IFD0 or a SubIFD) from a camera maker whose format is known. Tells a
    /// Leica RWL from a Panasonic RW2. A TIFF from a scanner or an editor stays ``ImageFormat/tiff``.
    package static func refine(_ format: ImageFormat, tiffData data: Data) -> ImageFormat {
        guard format == .tiff || format == .rw2, let reader = TIFFDirectoryReader(data) else { return format }
        let ifd0 = reader.directory(at: reader.firstDirectoryOffset)
        let make = reader.string(ifd0[0x010F])?.uppercased() ?? ""
        if format == .rw2 { return make.hasPrefix("LEICA") ? .rwl : .rw2 }
        if ifd0[0xC612] != nil { return .dng }  // DNGVersion
        var directories = [ifd0]
        if let subIFDs = ifd0[0x014A] {
            for index in 0..<min(subIFDs.count, 16) {
                if let offset = reader.unsigned(subIFDs, index: index), offset != reader.firstDirectoryOffset {
                    directories.append(reader.directory(at: Int(offset)))
                }
            }
        }
        let holdsSensorData = directories.contains { directory in
            let photometric = reader.unsigned(directory[0x0106])
            let compression = reader.unsigned(directory[0x0103])
            return photometric == 32803 || photometric == 34892 || compression.map(rawCompressions.contains) == true
        }
        // Nikon's own rule from before: its raw data sits in a SubIFD even where stripped samples
        // leave the sensor directory out.
        if make.hasPrefix("NIKON"), holdsSensorData || ifd0[0x014A] != nil {
            let model = reader.string(ifd0[0x0110])?.uppercased() ?? ""
            return model.contains("COOLPIX") ? .nrw : .nef
        }
        guard holdsSensorData else { return format }
        // Sony's SR2 and ARW share their structure; ARW is what every Sony since 2006 writes.
        if make.hasPrefix("SONY") { return .arw }
        if make.hasPrefix("PENTAX") || make.hasPrefix("RICOH") || make.hasPrefix("ASAHI") { return .pef }
        if make.hasPrefix("SAMSUNG") { return .srw }
        if make.hasPrefix("HASSELBLAD") { return .hasselblad3FR }
        if make.hasPrefix("CANON") { return .cr2 }
        return format
    }

    /// Whether the image data some directory points at (strips, tiles, a JPEG thumbnail, in IFD0,
    /// its SubIFDs or the next directory) lies past the end of `data`: a file cut short, or an
    /// exiftool sample whose pixels were taken out.
    package static func dataEndsEarly(tiffData data: Data) -> Bool {
        guard let reader = TIFFDirectoryReader(data) else { return false }
        let ifd0 = reader.directory(at: reader.firstDirectoryOffset)
        var directories = [ifd0]
        if let subIFDs = ifd0[0x014A] {
            for index in 0..<min(subIFDs.count, 16) {
                if let offset = reader.unsigned(subIFDs, index: index) { directories.append(reader.directory(at: Int(offset))) }
            }
        }
        if let next = reader.uint32(at: reader.firstDirectoryOffset + 2 + 12 * Int(reader.uint16(at: reader.firstDirectoryOffset) ?? 0)),
            next > 0
        {
            directories.append(reader.directory(at: Int(next)))
        }
        let available = data.endIndex - reader.base
        for directory in directories {
            for (offsets, counts) in [(UInt16(0x0111), UInt16(0x0117)), (0x0144, 0x0145), (0x0201, 0x0202)] {
                guard let offsetEntry = directory[offsets], let countEntry = directory[counts] else { continue }
                for index in 0..<min(offsetEntry.count, countEntry.count, 100_000) {
                    guard let offset = reader.unsigned(offsetEntry, index: index), let count = reader.unsigned(countEntry, index: index)
                    else { break }
                    if Int(offset) + Int(count) > available { return true }
                }
            }
        }
        return false
    }

    /// The XMP packet a TIFF structure keeps in its first directory (tag 700), as raw files do.
    package static func embeddedXMP(tiffData data: Data) -> Data? {
        guard let reader = TIFFDirectoryReader(data), let entry = reader.directory(at: reader.firstDirectoryOffset)[0x02BC],
            let bytes = reader.bytes(at: entry.valueOffset, count: entry.count)
        else { return nil }
        return Data(bytes)
    }
}

extension TIFFDirectoryReader {
    /// The size of the largest full-resolution image (`NewSubfileType` 0) in IFD0 or its SubIFDs:
    /// the sensor image of a DNG or NEF, whose IFD0 is often only a small preview.
    package static func fullResolutionSize(tiffData data: Data) -> PixelSize? {
        guard let reader = TIFFDirectoryReader(data) else { return nil }
        let ifd0 = reader.directory(at: reader.firstDirectoryOffset)
        var directories = [ifd0]
        if let subIFDs = ifd0[0x014A] {
            for index in 0..<min(subIFDs.count, 16) {
                if let offset = reader.unsigned(subIFDs, index: index) {
                    directories.append(reader.directory(at: Int(offset)))
                }
            }
        }
        var best: PixelSize?
        for directory in directories {
            let kind = reader.unsigned(directory[0x00FE]) ?? 0
            guard kind == 0, let width = reader.unsigned(directory[0x0100]), let height = reader.unsigned(directory[0x0101]),
                width > 0, height > 0
            else { continue }
            let size = PixelSize(width: Int(width), height: Int(height))
            if size.pixelCount > (best?.pixelCount ?? 0) { best = size }
        }
        return best
    }
}
