import Foundation

/// A GIF's blocks, walked for the colour profile an application extension `ICCRGBG1` `012`
/// carries (libvips does not hand it over for GIF).
package enum GIFBlocks {
    /// The ICC profile's bytes, or `nil` when the GIF has none (or ends before one).
    package static func iccProfile(in data: Data) -> Data? {
        guard data.count >= 13, data.starts(with: Array("GIF8".utf8)) else { return nil }
        var index = data.startIndex + 13
        let screen = data[data.startIndex + 10]
        if screen & 0x80 != 0 { index += 3 << ((Int(screen) & 7) + 1) }  // the global colour table

        /// The data sub-blocks from `index` on, joined when `keep`; leaves `index` after their end.
        func subBlocks(keep: Bool) -> Data? {
            var joined = Data()
            while index < data.endIndex {
                let size = Int(data[index])
                index += 1
                if size == 0 { return joined }
                guard index + size <= data.endIndex else { return nil }
                if keep { joined.append(data[index..<(index + size)]) }
                index += size
            }
            return nil
        }

        for _ in 0..<100_000 {
            guard index < data.endIndex else { return nil }
            switch data[index] {
            case 0x21:  // an extension: its label, then sub-blocks
                guard index + 1 < data.endIndex else { return nil }
                let label = data[index + 1]
                index += 2
                let head = index + 12 <= data.endIndex ? data[index..<(index + 12)] : Data()
                let isProfile = label == 0xFF && head.elementsEqual([11] + Array("ICCRGBG1012".utf8))
                if isProfile { index += 12 }
                guard let blocks = subBlocks(keep: isProfile) else { return nil }
                if isProfile { return blocks.isEmpty ? nil : blocks }
            case 0x2C:  // an image: descriptor, local colour table, LZW code size, sub-blocks
                guard index + 10 < data.endIndex else { return nil }
                let packed = data[index + 9]
                index += 10
                if packed & 0x80 != 0 { index += 3 << ((Int(packed) & 7) + 1) }
                index += 1
                guard subBlocks(keep: false) != nil else { return nil }
            default:  // the trailer, or not a block
                return nil
            }
        }
        return nil
    }
}
