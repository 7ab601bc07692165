import Foundation

/// The EXIF directory's `PixelXDimension` and `PixelYDimension`, set in place.
enum EXIFSizeFields {
    static func settingPixelDimensions(in exif: Data, to size: PixelSize) -> Data {
        guard let reader = TIFFDirectoryReader(exif), let pointer = reader.pointer(reader.directory(at: reader.firstDirectoryOffset)[0x8769])
        else { return exif }
        var bytes = exif
        let base = 6  // after "Exif\0\0"
        let directory = reader.directory(at: pointer)
        for (tag, value) in [(UInt16(0xA002), size.width), (0xA003, size.height)] {
            guard let entry = directory[tag], entry.count == 1 else { continue }
            let offset = base + entry.valueOffset
            switch entry.type {
            case 3 where value <= Int(UInt16.max) && offset + 2 <= bytes.count:
                let field = reader.isBigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
                bytes.replaceSubrange(offset..<offset + 2, with: field)
            case 4 where offset + 4 <= bytes.count:
                let little = (0..<4).map { UInt8((UInt32(value) >> (8 * $0)) & 0xFF) }
                bytes.replaceSubrange(offset..<offset + 4, with: reader.isBigEndian ? little.reversed() : little)
            default:
                continue
            }
        }
        return bytes
    }
}
