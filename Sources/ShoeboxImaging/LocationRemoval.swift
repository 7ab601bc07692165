import Foundation

/// Takes the place a photo or movie was made out of its file, without touching anything else: the
/// bytes keep their length and every other byte, so pixels, other metadata and the container's
/// offsets stay as they were. What a download or a shared copy leaves out when asked to
/// ("Include location" off, as Photos has it).
///
/// - EXIF (a JPEG's APP1, a HEIF's `Exif` item, a PNG's `eXIf`, a WebP's `EXIF`, a TIFF or raw
///   file itself): the GPS directory's pointer is taken out of IFD0 and the directory and its
///   values are zeroed.
/// - XMP packets: the `exif:GPS…` properties and the place names (`photoshop:City`, `State`,
///   `Country`, `Iptc4xmpCore:Location`) are blanked out with spaces.
/// - QuickTime and MP4 movies: the `©xyz` place and Apple's `com.apple.quicktime.location.*`
///   values are blanked out with spaces.
///
/// Changed chunks of a PNG get their CRC again. What it does not know how to reach (a PNG's
/// compressed XMP, a 3GPP `loci` box) it leaves.
///
/// ```swift
/// let shared = LocationRemoval.removingLocation(from: try Data(contentsOf: photo))
/// ```
public enum LocationRemoval {
    /// Bytes to write at `offset`, of the same length as what they replace.
    public struct Patch: Sendable, Hashable {
        /// Where the bytes go, in bytes from the start of the file.
        public let offset: Int
        /// The replacement, as long as the bytes it overwrites.
        public let bytes: Data

        /// `bytes` to write at `offset`.
        public init(offset: Int, bytes: Data) {
            self.offset = offset
            self.bytes = bytes
        }
    }

    /// The file's bytes with every patch of ``patches(for:)`` applied.
    public static func removingLocation(from data: Data) -> Data {
        var copy = Data(data)
        for patch in patches(for: data) where patch.offset >= 0 && patch.offset + patch.bytes.count <= copy.count {
            copy.replaceSubrange(patch.offset..<(patch.offset + patch.bytes.count), with: patch.bytes)
        }
        return copy
    }

    /// The patches that take the location out of `data`, in file order and apart from each other;
    /// none when it has none. A cleaned file has nothing more to take out: taking one place out
    /// can uncover another (a second GPS directory behind the first, an XMP property whose
    /// neighbour was blanked), so a photo is cleaned again until nothing changes (at most
    /// ``maximumPasses`` times) and the patches are what differs in the end. A movie's places sit
    /// in leaf boxes whose blanking changes no structure, so one pass is enough and the movie is
    /// never copied into memory.
    public static func patches(for data: Data) -> [Patch] {
        let head = [UInt8](data.prefix(ImageFormat.sniffLength))
        if isISOMedia(head), !isHEIF(head) {
            return merged(moviePatches(data).sorted { $0.offset < $1.offset })
        }
        let original = [UInt8](data)
        var bytes = original
        for _ in 0..<maximumPasses {
            let found = onePass(bytes)
            var changed = false
            for patch in found.sorted(by: { $0.offset < $1.offset }) where patch.offset >= 0 && patch.offset + patch.bytes.count <= bytes.count {
                for (index, byte) in patch.bytes.enumerated() where bytes[patch.offset + index] != byte {
                    bytes[patch.offset + index] = byte
                    changed = true
                }
            }
            if !changed { break }
        }
        // What differs, as runs of changed bytes.
        var patches: [Patch] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] != original[index] else {
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, bytes[end] != original[end] { end += 1 }
            patches.append(Patch(offset: index, bytes: Data(bytes[index..<end])))
            index = end
        }
        return patches
    }

    /// How many times a photo is cleaned at most before its patches are final.
    public static let maximumPasses = 16

    /// One look for places in a photo's bytes.
    private static func onePass(_ bytes: [UInt8]) -> [Patch] {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return pngPatches(bytes) }
        var patches: [Patch] = []
        var bases = exifBlocks(bytes)
        if isISOMedia(bytes) { bases += heifExifItems(Data(bytes)).filter { !bases.contains($0) } }
        for base in bases { patches += exifPatches(bytes, tiffAt: base) }
        for range in xmpPackets(bytes) { patches += xmpPatches(bytes, range) }
        return patches
    }

    /// Sorted patches with overlapping ones joined (a later one wins where they overlap).
    private static func merged(_ sorted: [Patch]) -> [Patch] {
        var result: [Patch] = []
        for patch in sorted where !patch.bytes.isEmpty {
            if let last = result.last, patch.offset <= last.offset + last.bytes.count {
                var joined = [UInt8](last.bytes)
                let end = max(last.offset + last.bytes.count, patch.offset + patch.bytes.count)
                joined += [UInt8](repeating: 0, count: end - last.offset - joined.count)
                joined.replaceSubrange((patch.offset - last.offset)..<(patch.offset - last.offset + patch.bytes.count), with: patch.bytes)
                result[result.count - 1] = Patch(offset: last.offset, bytes: Data(joined))
            } else {
                result.append(patch)
            }
        }
        return result
    }

    // MARK: EXIF

    /// Where TIFF structures that carry EXIF begin: the file itself (TIFF, raw), and after every
    /// `Exif\0\0` marker (JPEG APP1, HEIF `Exif` item, WebP `EXIF` chunk).
    static func exifBlocks(_ bytes: [UInt8]) -> [Int] {
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

    private static func isTIFFHeader(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset + 8 <= bytes.count else { return false }
        let head = Array(bytes[offset..<offset + 4])
        return head == [0x49, 0x49, 0x2A, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2A]
            || head == [0x49, 0x49, 0x52, 0x4F] || head == [0x49, 0x49, 0x55, 0x00]
    }

    /// Takes the GPS pointer out of IFD0 (the entries after it move up, the count drops by one,
    /// the next directory's offset follows them, the 12 freed bytes are zeroed) and zeroes the
    /// GPS directory with its out-of-line values.
    static func exifPatches(_ bytes: [UInt8], tiffAt start: Int) -> [Patch] {
        // A block that starts with `Exif\0\0` (a PNG's eXIf as libvips writes it): the TIFF follows.
        let base = start + 6 <= bytes.count && Array(bytes[start..<start + 6]) == [0x45, 0x78, 0x69, 0x66, 0x00, 0x00] ? start + 6 : start
        guard base < bytes.count, let reader = TIFFDirectoryReader(Data(bytes[base...])) else { return [] }
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
        guard !gpsEntries.isEmpty else { return [] }
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
        var patches = [Patch(offset: base + ifd0, bytes: Data(directory))]
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
        return patches
    }

    /// Where the TIFF structures of a HEIF's `Exif` items begin: each item's first extent (`iloc`,
    /// construction method 0), past its four-byte offset to the TIFF header.
    static func heifExifItems(_ data: Data) -> [Int] {
        let reader = HEIFContainer.BoxReader(data: data)
        guard let meta = reader.children(in: 0..<data.count).first(where: { $0.type == "meta" }), meta.body.count > 4 else { return [] }
        let boxes = reader.children(in: (meta.body.lowerBound + 4)..<meta.body.upperBound)
        guard let iinf = boxes.first(where: { $0.type == "iinf" }), let iloc = boxes.first(where: { $0.type == "iloc" }),
            let iinfVersion = reader.u8(iinf.body.lowerBound)
        else { return [] }
        // The Exif items' identifiers, from their `infe` entries (version 2: 16-bit ids, 3: 32-bit).
        var exifItems: Set<Int> = []
        for entry in reader.children(in: (iinf.body.lowerBound + (iinfVersion == 0 ? 6 : 8))..<iinf.body.upperBound) where entry.type == "infe" {
            guard let version = reader.u8(entry.body.lowerBound), version >= 2 else { continue }
            let wide = version >= 3
            let id = wide ? reader.u32(entry.body.lowerBound + 4).map(Int.init) : reader.u16(entry.body.lowerBound + 4).map(Int.init)
            let typeAt = entry.body.lowerBound + 4 + (wide ? 4 : 2) + 2
            let type = (0..<4).compactMap { reader.u8(typeAt + $0) }
            if let id, type == Array("Exif".utf8) { exifItems.insert(id) }
        }
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

    // MARK: XMP

    /// The byte ranges of XMP packets (`<x:xmpmeta` … `</x:xmpmeta>`).
    static func xmpPackets(_ bytes: [UInt8]) -> [Range<Int>] {
        let open = Array("<x:xmpmeta".utf8)
        let close = Array("</x:xmpmeta>".utf8)
        var ranges: [Range<Int>] = []
        var index = 0
        while let start = find(open, in: bytes, from: index), let stop = find(close, in: bytes, from: start) {
            ranges.append(start..<(stop + close.count))
            index = stop + close.count
        }
        return ranges
    }

    /// The place's properties in an XMP packet, blanked with spaces: `name="…"` attributes and
    /// `<name>…</name>` elements.
    static let xmpPlaceProperties = [
        "exif:GPS", "photoshop:City", "photoshop:State", "photoshop:Country", "Iptc4xmpCore:Location",
        "Iptc4xmpCore:CountryCode", "Iptc4xmpExt:LocationCreated", "Iptc4xmpExt:LocationShown",
    ]

    static func xmpPatches(_ bytes: [UInt8], _ range: Range<Int>) -> [Patch] {
        var patches: [Patch] = []
        for property in xmpPlaceProperties {
            let name = Array(property.utf8)
            var index = range.lowerBound
            while let found = find(name, in: bytes, from: index), found < range.upperBound {
                index = found + name.count
                // The whole name: `exif:GPSLatitude` for the `exif:GPS` prefix.
                var nameEnd = found + name.count
                while nameEnd < range.upperBound, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
                let before = found > 0 ? bytes[found - 1] : 0
                if before == UInt8(ascii: " ") || before == UInt8(ascii: "\n") || before == UInt8(ascii: "\t") || before == UInt8(ascii: "\r") {
                    // An attribute: name="value" (or 'value').
                    var cursor = nameEnd
                    while cursor < range.upperBound, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
                    guard cursor + 1 < range.upperBound, bytes[cursor] == UInt8(ascii: "=") else { continue }
                    cursor += 1
                    while cursor < range.upperBound, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
                    guard cursor < range.upperBound, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else { continue }
                    let quote = bytes[cursor]
                    guard let closing = bytes[(cursor + 1)..<range.upperBound].firstIndex(of: quote) else { continue }
                    patches.append(Patch(offset: found, bytes: Data(repeating: UInt8(ascii: " "), count: closing + 1 - found)))
                    index = closing + 1
                } else if before == UInt8(ascii: "<") {
                    // An element: <name …>…</name>, or <name …/>.
                    let tag = Array(bytes[found..<nameEnd])
                    let closeTag = Array("</".utf8) + tag + [UInt8(ascii: ">")]
                    let elementStart = found - 1
                    if let stop = find(closeTag, in: bytes, from: nameEnd), stop < range.upperBound {
                        patches.append(Patch(offset: elementStart, bytes: Data(repeating: UInt8(ascii: " "), count: stop + closeTag.count - elementStart)))
                        index = stop + closeTag.count
                    } else if let slash = find(Array("/>".utf8), in: bytes, from: nameEnd), slash < range.upperBound,
                        !bytes[nameEnd..<slash].contains(UInt8(ascii: ">"))
                    {
                        patches.append(Patch(offset: elementStart, bytes: Data(repeating: UInt8(ascii: " "), count: slash + 2 - elementStart)))
                        index = slash + 2
                    }
                }
            }
        }
        return patches
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    // MARK: PNG

    /// A PNG's `eXIf` chunk and uncompressed XMP (`iTXt` `XML:com.adobe.xmp`), with their CRCs.
    static func pngPatches(_ bytes: [UInt8]) -> [Patch] {
        var patches: [Patch] = []
        var index = 8
        while index + 12 <= bytes.count {
            let length = Int(bytes[index]) << 24 | Int(bytes[index + 1]) << 16 | Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 0, index + 12 + length <= bytes.count else { break }
            let type = String(decoding: bytes[(index + 4)..<(index + 8)], as: UTF8.self)
            let body = (index + 8)..<(index + 8 + length)
            var changes: [Patch] = []
            if type == "eXIf" {
                changes = exifPatches(bytes, tiffAt: body.lowerBound).filter { $0.offset + $0.bytes.count <= body.upperBound }
            } else if type == "iTXt", bytes[body].starts(with: Array("XML:com.adobe.xmp".utf8)) {
                changes = xmpPackets(Array(bytes[body])).flatMap { range in
                    xmpPatches(Array(bytes[body]), range).map { Patch(offset: body.lowerBound + $0.offset, bytes: $0.bytes) }
                }
            }
            if !changes.isEmpty {
                var chunk = Array(bytes[(index + 4)..<(index + 8 + length)])
                for change in changes {
                    let at = change.offset - (index + 4)
                    chunk.replaceSubrange(at..<(at + change.bytes.count), with: change.bytes)
                }
                var crc = CRC32()
                crc.update(chunk[...])
                let value = crc.value
                patches += changes
                patches.append(Patch(offset: index + 8 + length, bytes: Data((0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) })))
            }
            if type == "IEND" { break }
            index += 12 + length
        }
        return patches
    }

    // MARK: Movies

    private static func isISOMedia(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && Array(bytes[4..<8]) == Array("ftyp".utf8)
    }

    private static func isHEIF(_ bytes: [UInt8]) -> Bool {
        ImageFormat(sniffing: bytes.prefix(ImageFormat.sniffLength)).map { $0.isDecodedByLibheif || $0 == .cr3 } ?? false
    }

    /// QuickTime's `©xyz` strings and Apple's location values (`keys` + `ilst` in a `meta` box),
    /// in the movie box and its tracks.
    static func moviePatches(_ data: Data) -> [Patch] {
        let reader = HEIFContainer.BoxReader(data: data)
        guard let moov = reader.children(in: 0..<data.count).first(where: { $0.type == "moov" }) else { return [] }
        var patches: [Patch] = []
        var containers = [moov]
        containers += reader.children(in: moov.body).filter { $0.type == "trak" }
        for container in containers {
            for box in reader.children(in: container.body) {
                if box.type == "udta" {
                    // `©xyz`: the box reader spells types as UTF-8, so © (0xA9) reads as U+FFFD.
                    for item in reader.children(in: box.body) where item.type == Self.quickTimePlace {
                        // A 16-bit length and language, then the ISO 6709 text.
                        let text = (item.body.lowerBound + 4)..<item.body.upperBound
                        if !text.isEmpty { patches.append(Patch(offset: text.lowerBound, bytes: Data(repeating: 0x20, count: text.count))) }
                    }
                    if let meta = reader.children(in: box.body).first(where: { $0.type == "meta" }) {
                        patches += applePlacePatches(reader, meta: meta)
                    }
                } else if box.type == "meta" {
                    patches += applePlacePatches(reader, meta: box)
                }
            }
        }
        return patches
    }

    private static let quickTimePlace = String(decoding: [0xA9, 0x78, 0x79, 0x7A], as: UTF8.self)

    /// The values of `com.apple.quicktime.location.*` keys in a `meta` box (its `keys`, then
    /// `ilst` items numbered by key).
    private static func applePlacePatches(_ reader: HEIFContainer.BoxReader, meta: HEIFContainer.BoxReader.Box) -> [Patch] {
        // QuickTime's meta has no version and flags; ISO's has four bytes of them.
        var children = reader.children(in: meta.body)
        if !children.contains(where: { $0.type == "keys" }), meta.body.count > 4 {
            children = reader.children(in: (meta.body.lowerBound + 4)..<meta.body.upperBound)
        }
        guard let keys = children.first(where: { $0.type == "keys" }), let list = children.first(where: { $0.type == "ilst" }),
            let count = reader.u32(keys.body.lowerBound + 4)
        else { return [] }
        var placeKeys: Set<Int> = []
        var cursor = keys.body.lowerBound + 8
        for number in 1...Swift.max(1, Int(Swift.min(count, 10_000))) {
            guard let size = reader.u32(cursor), size >= 8, cursor + Int(size) <= keys.body.upperBound else { break }
            let name = String(decoding: reader.data[(reader.data.startIndex + cursor + 8)..<(reader.data.startIndex + cursor + Int(size))], as: UTF8.self)
            if name.hasPrefix("com.apple.quicktime.location.") { placeKeys.insert(number) }
            cursor += Int(size)
        }
        var patches: [Patch] = []
        for item in reader.children(in: list.body) {
            let number = item.type.utf8.reduce(0) { $0 << 8 | Int($1) }
            guard placeKeys.contains(number) else { continue }
            for value in reader.children(in: item.body) where value.type == "data" {
                // Type and locale (8 bytes), then the value.
                let payload = (value.body.lowerBound + 8)..<value.body.upperBound
                if !payload.isEmpty { patches.append(Patch(offset: payload.lowerBound, bytes: Data(repeating: 0x20, count: payload.count))) }
            }
        }
        return patches
    }

    // MARK: Search

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, haystack.count >= needle.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == needle[0] {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
