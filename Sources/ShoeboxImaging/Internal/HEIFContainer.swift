import Foundation

/// Reads what Shoebox needs from a HEIF file's boxes before libheif decodes it: the primary
/// image's coded size (`ispe`) and the chroma subsampling its coded pictures use.
///
/// libheif applies HEIF's rotation and mirroring (`irot`, `imir`) while decoding, so libvips
/// reports the displayed size; the stored size is the `ispe` property of the primary item.
package enum HEIFContainer {
    /// The `ispe` size of the primary item, or `nil` when the boxes do not say it.
    package static func primaryImageSize(_ data: Data) -> PixelSize? {
        let bytes = BoxReader(data: data)
        guard let items = ItemProperties(bytes), let primary = items.primary else { return nil }
        for property in items.properties(of: primary) where property.type == "ispe" {
            if let width = bytes.u32(property.body.lowerBound + 4), let height = bytes.u32(property.body.lowerBound + 8),
                width > 0, height > 0
            {
                return PixelSize(width: Int(width), height: Int(height))
            }
        }
        return nil
    }

    /// Whether the primary image is coded 4:2:0, as phones write it: its HEVC `hvcC` or AV1
    /// `av1C` configuration, or every one of its grid's tiles'. `false` for 4:4:4, 4:2:2,
    /// monochrome, or boxes that do not say. (Depth maps and gain maps are items of their own.)
    package static func isChroma420(_ data: Data) -> Bool {
        let bytes = BoxReader(data: data)
        guard let items = ItemProperties(bytes), let primary = items.primary else { return false }
        var configurations = 0
        for item in [primary] + items.derivedFrom(primary) {
            for property in items.properties(of: item) {
                switch property.type {
                case "hvcC":  // ISO/IEC 14496-15: chroma_format_idc in the low bits of byte 16; 1 is 4:2:0
                    guard let chroma = bytes.u8(property.body.lowerBound + 16), chroma & 3 == 1 else { return false }
                case "av1C":  // AV1-ISOBMFF: monochrome, subsampling x and y in byte 2
                    guard let flags = bytes.u8(property.body.lowerBound + 2), flags & 0x1C == 0x0C else { return false }
                default:
                    continue
                }
                configurations += 1
            }
        }
        return configurations > 0
    }

    /// The items of the top-level `meta` box: the primary one (`pitm`), each item's properties
    /// (`ipco` through `ipma`) and the items a derived one is made of (`iref` `dimg`).
    struct ItemProperties {
        let primary: Int?
        private let properties: [BoxReader.Box]
        private var associations: [Int: [Int]] = [:]
        private var ingredients: [Int: [Int]] = [:]

        init?(_ bytes: BoxReader) {
            guard let meta = bytes.children(in: 0..<min(bytes.data.count, 64 << 20)).first(where: { $0.type == "meta" }),
                meta.body.count >= 4  // a full box: version and flags come first
            else { return nil }
            let children = bytes.children(in: (meta.body.lowerBound + 4)..<meta.body.upperBound)
            guard let iprp = children.first(where: { $0.type == "iprp" }) else { return nil }
            if let pitm = children.first(where: { $0.type == "pitm" }) {
                primary =
                    bytes.u8(pitm.body.lowerBound) == 0
                    ? bytes.u16(pitm.body.lowerBound + 4).map(Int.init)
                    : bytes.u32(pitm.body.lowerBound + 4).map(Int.init)
            } else {
                primary = nil
            }
            let iprpChildren = bytes.children(in: iprp.body)
            guard let ipco = iprpChildren.first(where: { $0.type == "ipco" }) else { return nil }
            properties = bytes.children(in: ipco.body)
            for ipma in iprpChildren where ipma.type == "ipma" {
                readAssociations(ipma, bytes)
            }
            if let iref = children.first(where: { $0.type == "iref" }), iref.body.count >= 4 {
                readReferences(iref, bytes)
            }
        }

        func properties(of item: Int) -> [BoxReader.Box] {
            (associations[item] ?? []).compactMap { index in index >= 1 && index <= properties.count ? properties[index - 1] : nil }
        }

        /// The items `item` is derived from (a grid's tiles), in order.
        func derivedFrom(_ item: Int) -> [Int] { ingredients[item] ?? [] }

        private mutating func readAssociations(_ ipma: BoxReader.Box, _ bytes: BoxReader) {
            let version = bytes.u8(ipma.body.lowerBound) ?? 0
            let flags = bytes.u8(ipma.body.lowerBound + 3) ?? 0
            guard let entryCount = bytes.u32(ipma.body.lowerBound + 4) else { return }
            var cursor = ipma.body.lowerBound + 8
            for _ in 0..<min(Int(entryCount), 100_000) {
                let itemID: Int?
                if version < 1 {
                    itemID = bytes.u16(cursor).map(Int.init)
                    cursor += 2
                } else {
                    itemID = bytes.u32(cursor).map(Int.init)
                    cursor += 4
                }
                guard let itemID, let count = bytes.u8(cursor) else { return }
                cursor += 1
                for _ in 0..<Int(count) {
                    let index: Int?
                    if flags & 1 == 1 {
                        index = bytes.u16(cursor).map { Int($0 & 0x7FFF) }
                        cursor += 2
                    } else {
                        index = bytes.u8(cursor).map { Int($0 & 0x7F) }
                        cursor += 1
                    }
                    guard let index else { return }
                    associations[itemID, default: []].append(index)
                }
            }
        }

        private mutating func readReferences(_ iref: BoxReader.Box, _ bytes: BoxReader) {
            let wide = bytes.u8(iref.body.lowerBound) != 0
            let width = wide ? 4 : 2
            let id = { (offset: Int) in wide ? bytes.u32(offset).map(Int.init) : bytes.u16(offset).map(Int.init) }
            for reference in bytes.children(in: (iref.body.lowerBound + 4)..<iref.body.upperBound) where reference.type == "dimg" {
                guard let from = id(reference.body.lowerBound), let count = bytes.u16(reference.body.lowerBound + width) else { continue }
                var cursor = reference.body.lowerBound + width + 2
                for _ in 0..<Int(count) {
                    guard cursor + width <= reference.body.upperBound, let to = id(cursor) else { break }
                    ingredients[from, default: []].append(to)
                    cursor += width
                }
            }
        }
    }

    /// ISO base media file format boxes.
    package struct BoxReader {
        package struct Box {
            package let type: String
            package let body: Range<Int>
        }

        package let data: Data

        package init(data: Data) {
            self.data = data
        }

        package func u8(_ offset: Int) -> UInt8? {
            guard offset >= 0, offset < data.count else { return nil }
            return data[data.startIndex + offset]
        }

        package func u16(_ offset: Int) -> UInt16? {
            guard let a = u8(offset), let b = u8(offset + 1) else { return nil }
            return UInt16(a) << 8 | UInt16(b)
        }

        package func u32(_ offset: Int) -> UInt32? {
            guard let a = u16(offset), let b = u16(offset + 2) else { return nil }
            return UInt32(a) << 16 | UInt32(b)
        }

        /// The boxes that follow each other in `range` (offsets from the start of the data).
        package func children(in range: Range<Int>) -> [Box] {
            var boxes: [Box] = []
            var cursor = range.lowerBound
            while cursor + 8 <= range.upperBound, boxes.count < 10_000 {
                guard let size32 = u32(cursor) else { break }
                let typeBytes = (0..<4).compactMap { u8(cursor + 4 + $0) }
                guard typeBytes.count == 4 else { break }
                let type = String(decoding: typeBytes, as: UTF8.self)
                var header = 8
                var size = Int(size32)
                if size32 == 1 {
                    // A 64-bit size, which hostile files set past anything an Int or the range holds.
                    guard let high = u32(cursor + 8), let low = u32(cursor + 12) else { break }
                    let size64 = UInt64(high) << 32 | UInt64(low)
                    guard size64 <= UInt64(range.upperBound - cursor) else { break }
                    size = Int(size64)
                    header = 16
                } else if size32 == 0 {
                    size = range.upperBound - cursor
                }
                guard size >= header, size <= range.upperBound - cursor else { break }
                boxes.append(Box(type: type, body: (cursor + header)..<(cursor + size)))
                cursor += size
            }
            return boxes
        }
    }
}
