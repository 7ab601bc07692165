import Foundation

extension LocationRemoval {
    /// Where TIFF structures that carry EXIF begin: the file itself (TIFF, raw), and after every
    /// `Exif\0\0` marker (JPEG APP1, HEIF `Exif` item, WebP `EXIF` chunk, a movie's EXIF).
    static func exifBlocks(_ bytes: Bytes) -> [Int] {
        var bases: [Int] = []
        if isTIFFHeader(bytes, at: 0) { bases.append(0) }
        let marker: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
        var index = 0
        while let found = find(marker, in: bytes, from: index) {
            if isTIFFHeader(bytes, at: found + 6) { bases.append(found + 6) }
            index = found + 6
        }
        return bases
    }

    private static func isTIFFHeader(_ bytes: Bytes, at offset: Int) -> Bool {
        guard offset >= 0, offset + 8 <= bytes.count else { return false }
        let head = Array(bytes[offset..<offset + 4])
        return head == [0x49, 0x49, 0x2A, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2A]
            || head == [0x49, 0x49, 0x52, 0x4F] || head == [0x49, 0x49, 0x55, 0x00]
    }

    /// Takes the GPS pointer out of IFD0 (the entries after it move up, the count drops by one,
    /// the next directory's offset follows them, the 12 freed bytes are zeroed) and zeroes the
    /// GPS directory with its out-of-line values.
    static func exifPatches(_ bytes: Bytes, tiffAt start: Int) -> [Patch] {
        // A block that starts with `Exif\0\0` (a PNG's eXIf as libvips writes it): the TIFF follows.
        let base = start + 6 <= bytes.count && Array(bytes[start..<start + 6]) == [0x45, 0x78, 0x69, 0x66, 0x00, 0x00] ? start + 6 : start
        guard base < bytes.count, let reader = TIFFDirectoryReader(sharedData(bytes, from: base)) else { return [] }
        let big = reader.isBigEndian
        func u16(_ at: Int) -> Int? {
            at >= 0 && at + 2 <= bytes.count - base
                ? Int(big ? UInt16(bytes[base + at]) << 8 | UInt16(bytes[base + at + 1]) : UInt16(bytes[base + at + 1]) << 8 | UInt16(bytes[base + at])) : nil
        }
        let ifd0 = reader.firstDirectoryOffset
        guard let count = u16(ifd0), count > 0, count <= 1_000 else { return [] }
        let start = ifd0 + 2
        let end = start + count * 12 + 4  // the entries and the next directory's offset
        guard ifd0 >= 8, end <= bytes.count - base else { return [] }
        // Every GPS pointer in IFD0 (a damaged file can hold more than one).
        let gpsEntries = (0..<count).map { start + $0 * 12 }.filter { u16($0) == 0x8825 }
        var patches: [Patch] = []
        if !gpsEntries.isEmpty {
            // IFD0 rewritten in place: the other entries move up, the count drops, zeros fill the end.
            var directory = Array(bytes[(base + ifd0)..<(base + end)])
            let newCount = count - gpsEntries.count
            directory[0] = UInt8(big ? newCount >> 8 : newCount & 0xFF)
            directory[1] = UInt8(big ? newCount & 0xFF : newCount >> 8)
            for entryAt in gpsEntries.reversed() {
                let local = entryAt - ifd0
                directory.removeSubrange(local..<(local + 12))
            }
            directory += [UInt8](repeating: 0, count: 12 * gpsEntries.count)
            patches.append(Patch(offset: base + ifd0, bytes: Data(directory)))
        }
        // Each GPS directory and its values, zeroed.
        for entryAt in gpsEntries {
            // The entry as the reader takes it: a SHORT, LONG or IFD value, inline or out of line.
            guard let type = u16(entryAt + 2), let unit = TIFFDirectoryReader.unitSize(UInt16(type)),
                let countHigh = u16(entryAt + (big ? 4 : 6)), let countLow = u16(entryAt + (big ? 6 : 4)),
                let high = u16(entryAt + (big ? 8 : 10)), let low = u16(entryAt + (big ? 10 : 8))
            else { continue }
            let valueCount = countHigh << 16 | countLow
            let entry = TIFFDirectoryReader.Entry(
                tag: 0x8825, type: UInt16(type), count: valueCount,
                valueOffset: valueCount * unit <= 4 ? entryAt + 8 : high << 16 | low)
            guard let pointer = reader.pointer(entry), pointer >= 8, pointer != ifd0 else { continue }
            let entries = reader.directory(at: pointer)
            if let gpsCount = u16(pointer), pointer + 2 + gpsCount * 12 + 4 <= bytes.count - base, gpsCount <= 1_000 {
                patches.append(Patch(offset: base + pointer, bytes: Data(count: 2 + gpsCount * 12 + 4)))
            }
            for entry in entries.values {
                guard let unit = TIFFDirectoryReader.unitSize(entry.type) else { continue }
                let length = entry.count * unit
                if length > 4, entry.valueOffset >= 8, entry.valueOffset + length <= bytes.count - base, length <= 4_096 {
                    patches.append(Patch(offset: base + entry.valueOffset, bytes: Data(count: length)))
                }
            }
        }
        // A TIFF's own IPTC record (tag 33723, IPTC-NAA), where a TIFF file keeps it.
        if base == 0, let iptc = reader.directory(at: ifd0)[0x83BB] {
            let length = iptc.count * (TIFFDirectoryReader.unitSize(iptc.type) ?? 0)
            if iptc.valueOffset >= 8, length > 0, iptc.valueOffset + length <= bytes.count {
                patches += iptcDatasetPatches(bytes, iptc.valueOffset..<(iptc.valueOffset + length))
            }
        }
        return patches
    }

    /// Where the TIFF structures of a HEIF's `Exif` items begin: each item's first extent (`iloc`,
    /// construction method 0), past its four-byte offset to the TIFF header.
    static func heifExifItems(_ bytes: Bytes) -> [Int] {
        let data = sharedData(bytes)
        let reader = HEIFContainer.BoxReader(data: data)
        guard let meta = reader.children(in: 0..<data.count).first(where: { $0.type == "meta" }), meta.body.count > 4 else { return [] }
        let boxes = reader.children(in: (meta.body.lowerBound + 4)..<meta.body.upperBound)
        guard let iinf = boxes.first(where: { $0.type == "iinf" }), let iloc = boxes.first(where: { $0.type == "iloc" }) else { return [] }
        // The Exif items' identifiers, as the metadata reader finds them.
        let exifItems = Set(HEIFContainer.itemTypes(iinf, reader).filter { $0.value == "Exif" }.keys)
        guard !exifItems.isEmpty, let version = reader.u8(iloc.body.lowerBound),
            let sizes = reader.u8(iloc.body.lowerBound + 4), let more = reader.u8(iloc.body.lowerBound + 5)
        else { return [] }
        let offsetSize = Int(sizes >> 4)
        let lengthSize = Int(sizes & 0xF)
        let baseSize = Int(more >> 4)
        let indexSize = version >= 1 ? Int(more & 0xF) : 0
        func value(_ at: Int, _ size: Int) -> Int? {
            switch size {
            case 0: 0
            case 4: reader.u32(at).map(Int.init)
            case 8: (reader.u32(at).map(UInt64.init)).flatMap { high in reader.u32(at + 4).map { Int(clamping: high << 32 | UInt64($0)) } }
            default: nil
            }
        }
        var cursor = iloc.body.lowerBound + 6
        let count = version < 2 ? reader.u16(cursor).map(Int.init) : reader.u32(cursor).map(Int.init)
        cursor += version < 2 ? 2 : 4
        var starts: [Int] = []
        for _ in 0..<Swift.min(count ?? 0, 10_000) {
            guard let id = version < 2 ? reader.u16(cursor).map(Int.init) : reader.u32(cursor).map(Int.init) else { break }
            cursor += version < 2 ? 2 : 4
            var method = 0
            if version >= 1 {
                method = Int(reader.u16(cursor) ?? 0) & 0xF
                cursor += 2
            }
            cursor += 2  // data reference index
            guard let base = value(cursor, baseSize) else { break }
            cursor += baseSize
            guard let extents = reader.u16(cursor).map(Int.init) else { break }
            cursor += 2
            for extent in 0..<extents {
                cursor += indexSize
                guard let offset = value(cursor, offsetSize) else { return starts }
                cursor += offsetSize + lengthSize
                // The item's data: a 32-bit offset from its end to the TIFF header, then the header.
                if extent == 0, method == 0, exifItems.contains(id), let skip = reader.u32(base + offset).map(Int.init) {
                    let tiff = base + offset + 4 + skip
                    if tiff + 8 <= data.count { starts.append(tiff) }
                }
            }
        }
        return starts
    }
}
