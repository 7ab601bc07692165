import Foundation

extension HEIFContainer {
    /// What a HEIF file's container holds for the metadata readers, read from it in one pass:
    ///
    /// - `exif`: the TIFF structures of its `Exif` items, as exiftool reads them, whether or not
    ///   libheif hands them over (it hands over only an item whose `cdsc` reference names the
    ///   primary image, and as stored). `primary` holds those that describe the primary image and
    ///   those that describe nothing (`iinf` lists them, no `cdsc` names what they describe);
    ///   `others` those that describe another image (a thumbnail), which exiftool reads as
    ///   documents of their own: their tags stand only where the file's own have none, the first
    ///   one's first. Each item's data is its extents joined, then its header skipped: a 4-byte
    ///   offset to the TIFF header (after `Exif\0\0`), or no header at all where the data starts
    ///   with one.
    /// - `xmp`: the XMP packets of its `mime` items of type `application/rdf+xml` that describe
    ///   the primary image or nothing (libheif hands libvips none: Lightroom's HEIF exports).
    ///
    /// Items come in item-number order. Only items stored in the file itself are read (`iloc`
    /// construction method 0), as exiftool 12 reads them.
    package static func metadataBlocks(_ data: Data) -> (exif: (primary: [Data], others: [Data]), xmp: [Data]) {
        let items = metadataItems(data, types: [exifType, xmpType])
        let exif = items[exifType] ?? ([], [])
        return ((exif.primary.compactMap(tiffStructure), exif.others.compactMap(tiffStructure)), items[xmpType]?.primary ?? [])
    }

    private static let exifType = "Exif"
    private static let xmpType = "mime application/rdf+xml"

    /// The data of the items of `types` (``itemTypes(_:_:)``'s names), by type, split as
    /// ``metadataBlocks(_:)`` splits them.
    private static func metadataItems(_ data: Data, types: Set<String>) -> [String: (primary: [Data], others: [Data])] {
        let bytes = BoxReader(data: data)
        guard let meta = bytes.children(in: 0..<min(bytes.data.count, 64 << 20)).first(where: { $0.type == "meta" }),
            meta.body.count >= 4
        else { return [:] }
        let children = bytes.children(in: (meta.body.lowerBound + 4)..<meta.body.upperBound)
        var primary: Int?
        if let pitm = children.first(where: { $0.type == "pitm" }) {
            primary =
                bytes.u8(pitm.body.lowerBound) == 0
                ? bytes.u16(pitm.body.lowerBound + 4).map(Int.init)
                : bytes.u32(pitm.body.lowerBound + 4).map(Int.init)
        }
        guard let iinf = children.first(where: { $0.type == "iinf" }), let iloc = children.first(where: { $0.type == "iloc" }) else {
            return [:]
        }
        let wanted = itemTypes(iinf, bytes).filter { types.contains($0.value) }
        guard !wanted.isEmpty else { return [:] }
        let describes = children.first(where: { $0.type == "iref" }).map { contentDescriptions($0, bytes) } ?? [:]
        let locations = itemLocations(iloc, bytes)
        var blocks: [String: (primary: [Data], others: [Data])] = [:]
        for (item, type) in wanted.sorted(by: { $0.key < $1.key }) {
            let describesOther = primary != nil && describes[item].map { !$0.contains(primary!) } == true
            guard let extents = locations[item], !extents.isEmpty else { continue }
            var block = Data()
            for extent in extents {
                guard extent.lowerBound >= 0, extent.upperBound <= data.count, block.count + extent.count <= 64 << 20 else {
                    block = Data()
                    break
                }
                block.append(data[(data.startIndex + extent.lowerBound)..<(data.startIndex + extent.upperBound)])
            }
            guard !block.isEmpty else { continue }
            if describesOther { blocks[type, default: ([], [])].others.append(block) } else { blocks[type, default: ([], [])].primary.append(block) }
        }
        return blocks
    }

    /// An `Exif` item's TIFF structure, its header skipped as exiftool skips it.
    private static func tiffStructure(_ block: Data) -> Data? {
        guard block.count >= 4 else { return nil }
        if block.starts(with: [0x49, 0x49, 0x2A, 0x00]) || block.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return block }
        if block.starts(with: Array("Exif\0\0".utf8)) { return block.dropFirst(6) }
        let start = block.startIndex
        let offset = Int(block[start]) << 24 | Int(block[start + 1]) << 16 | Int(block[start + 2]) << 8 | Int(block[start + 3])
        guard offset <= block.count - 4 else { return nil }
        return block.dropFirst(4 + offset)
    }

    /// Each item's type from `iinf`'s `infe` entries (version 2 and 3; earlier versions name
    /// no type); a `mime` item's is `mime` and its content type (`mime application/rdf+xml`).
    static func itemTypes(_ iinf: BoxReader.Box, _ bytes: BoxReader) -> [Int: String] {
        let version = bytes.u8(iinf.body.lowerBound) ?? 0
        let entriesStart = iinf.body.lowerBound + 4 + (version == 0 ? 2 : 4)
        guard entriesStart <= iinf.body.upperBound else { return [:] }
        var types: [Int: String] = [:]
        for infe in bytes.children(in: entriesStart..<iinf.body.upperBound) where infe.type == "infe" {
            let start = infe.body.lowerBound
            guard let infeVersion = bytes.u8(start), infeVersion >= 2 else { continue }
            let id = infeVersion == 2 ? bytes.u16(start + 4).map(Int.init) : bytes.u32(start + 4).map(Int.init)
            let typeAt = start + 4 + (infeVersion == 2 ? 2 : 4) + 2
            let typeBytes = (0..<4).compactMap { bytes.u8(typeAt + $0) }
            guard let id, typeBytes.count == 4, typeAt + 4 <= infe.body.upperBound else { continue }
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard type == "mime" else {
                types[id] = type
                continue
            }
            // A `mime` item: its name, then its content type, each ending in a NUL.
            var cursor = typeAt + 4
            var strings: [String] = []
            while strings.count < 2, cursor < infe.body.upperBound {
                let start = cursor
                while cursor < infe.body.upperBound, bytes.u8(cursor) != 0 { cursor += 1 }
                strings.append(String(decoding: (start..<cursor).compactMap { bytes.u8($0) }, as: UTF8.self))
                cursor += 1
            }
            types[id] = "mime " + (strings.count == 2 ? strings[1] : "")
        }
        return types
    }

    /// The items each item describes (`iref` `cdsc` references).
    private static func contentDescriptions(_ iref: BoxReader.Box, _ bytes: BoxReader) -> [Int: Set<Int>] {
        guard iref.body.count >= 4 else { return [:] }
        let wide = bytes.u8(iref.body.lowerBound) != 0
        let width = wide ? 4 : 2
        let id = { (offset: Int) in wide ? bytes.u32(offset).map(Int.init) : bytes.u16(offset).map(Int.init) }
        var describes: [Int: Set<Int>] = [:]
        for reference in bytes.children(in: (iref.body.lowerBound + 4)..<iref.body.upperBound) where reference.type == "cdsc" {
            guard let from = id(reference.body.lowerBound), let count = bytes.u16(reference.body.lowerBound + width) else { continue }
            var cursor = reference.body.lowerBound + width + 2
            for _ in 0..<Int(count) {
                guard cursor + width <= reference.body.upperBound, let to = id(cursor) else { break }
                describes[from, default: []].insert(to)
                cursor += width
            }
        }
        return describes
    }

    /// Where each item stored in the file itself lies (`iloc`, construction method 0 and data
    /// reference 0): its extents as byte ranges of the file, in order.
    private static func itemLocations(_ iloc: BoxReader.Box, _ bytes: BoxReader) -> [Int: [Range<Int>]] {
        let start = iloc.body.lowerBound
        guard let version = bytes.u8(start), version <= 2, let sizes = bytes.u8(start + 4), let more = bytes.u8(start + 5) else {
            return [:]
        }
        let offsetSize = Int(sizes >> 4)
        let lengthSize = Int(sizes & 0xF)
        let baseOffsetSize = Int(more >> 4)
        let indexSize = version >= 1 ? Int(more & 0xF) : 0
        guard [0, 4, 8].contains(offsetSize), [0, 4, 8].contains(lengthSize), [0, 4, 8].contains(baseOffsetSize),
            [0, 4, 8].contains(indexSize)
        else { return [:] }
        var cursor = start + 6
        func read(_ size: Int) -> Int? {
            defer { cursor += size }
            switch size {
            case 0: return 0
            case 2: return bytes.u16(cursor).map(Int.init)
            case 4: return bytes.u32(cursor).map(Int.init)
            case 8:
                guard let high = bytes.u32(cursor), let low = bytes.u32(cursor + 4), high < 1 << 20 else { return nil }
                return Int(high) << 32 | Int(low)
            default: return nil
            }
        }
        guard let itemCount = read(version < 2 ? 2 : 4) else { return [:] }
        var locations: [Int: [Range<Int>]] = [:]
        for _ in 0..<min(itemCount, 100_000) {
            guard let item = read(version < 2 ? 2 : 4) else { break }
            var method = 0
            if version >= 1 {
                guard let word = read(2) else { break }
                method = word & 0xF
            }
            guard let reference = read(2), let base = read(baseOffsetSize), let extentCount = read(2) else { break }
            var extents: [Range<Int>] = []
            for _ in 0..<extentCount {
                guard read(indexSize) != nil, let offset = read(offsetSize), let length = read(lengthSize) else { return locations }
                let (from, overflow) = base.addingReportingOverflow(offset)
                guard !overflow, from <= Int.max - length else { continue }
                extents.append(from..<(from + length))
            }
            if method == 0, reference == 0 { locations[item] = extents }
        }
        return locations
    }
}
