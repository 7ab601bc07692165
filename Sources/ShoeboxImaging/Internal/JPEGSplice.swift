import Foundation

/// A JPEG's EXIF segment swapped for another, every other byte kept.
enum JPEGSplice {
    static func replacingEXIF(in data: Data, with exif: Data) throws(ImageError) -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8, exif.count + 2 <= 0xFFFF else {
            throw .corrupt(reason: "not a JPEG with room for EXIF")
        }
        var kept: [UInt8] = [0xFF, 0xD8]
        var insertion = 2
        var index = 2
        // The marker segments before the image data: EXIF ones dropped, the rest copied.
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= bytes.count else { throw .corrupt(reason: "a JPEG segment runs past the end") }
            let segment = bytes[index..<(index + 2 + length)]
            let isEXIF = marker == 0xE1 && segment.dropFirst(4).starts(with: [0x45, 0x78, 0x69, 0x66, 0x00, 0x00])
            if !isEXIF {
                kept += segment
                if marker == 0xE0, insertion == 2 { insertion = kept.count }  // after JFIF
            }
            index += 2 + length
        }
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + [UInt8](exif)
        kept.insert(contentsOf: segment, at: insertion)
        return Data(kept + bytes[index...])
    }
}
