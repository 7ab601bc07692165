import Foundation

/// Reads the primary image's coded size (`ispe`) from a HEIF file's boxes.
///
/// libheif applies HEIF's rotation and mirroring (`irot`, `imir`) while decoding, so libvips
/// reports the displayed size; the stored size is the `ispe` property of the primary item.
package enum HEIFContainer {
    /// The `ispe` size of the primary item, or `nil` when the boxes do not say it.
    package static func primaryImageSize(_ data: Data) -> PixelSize? {
        let bytes = BoxReader(data: data)
        guard let meta = bytes.children(in: 0..<min(data.count, 64 << 20)).first(where: { $0.type == "meta" }),
            meta.body.count >= 4  // a full box: version and flags come first
        else { return nil }
        let metaChildren = bytes.children(in: (meta.body.lowerBound + 4)..<meta.body.upperBound)  // full box
        guard let pitm = metaChildren.first(where: { $0.type == "pitm" }),
            let iprp = metaChildren.first(where: { $0.type == "iprp" })
        else { return nil }
        let pitmVersion = bytes.u8(pitm.body.lowerBound) ?? 0
        guard let primary = pitmVersion == 0
            ? bytes.u16(pitm.body.lowerBound + 4).map(Int.init)
            : bytes.u32(pitm.body.lowerBound + 4).map(Int.init)
        else { return nil }

        let iprpChildren = bytes.children(in: iprp.body)
        guard let ipco = iprpChildren.first(where: { $0.type == "ipco" }) else { return nil }
        let properties = bytes.children(in: ipco.body)
        for ipma in iprpChildren where ipma.type == "ipma" {
            let version = bytes.u8(ipma.body.lowerBound) ?? 0
            let flags = bytes.u8(ipma.body.lowerBound + 3) ?? 0
            guard let entryCount = bytes.u32(ipma.body.lowerBound + 4) else { continue }
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
                guard let itemID, let count = bytes.u8(cursor) else { return nil }
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
                    guard itemID == primary, let index, index >= 1, index <= properties.count else { continue }
                    let property = properties[index - 1]
                    if property.type == "ispe",
                        let width = bytes.u32(property.body.lowerBound + 4),
                        let height = bytes.u32(property.body.lowerBound + 8),
                        width > 0, height > 0 {
                        return PixelSize(width: Int(width), height: Int(height))
                    }
                }
            }
        }
        return nil
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
