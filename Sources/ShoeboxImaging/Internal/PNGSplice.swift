import Foundation

/// A PNG's `eXIf` chunk swapped for another, every other chunk kept.
enum PNGSplice {
    static func replacingEXIF(in data: Data, with tiff: Data) throws(ImageError) -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 8 else { throw .corrupt(reason: "not a PNG") }
        var output = Array(bytes[0..<8])
        var index = 8
        var inserted = false
        while index + 12 <= bytes.count {
            let length = Int(bytes[index]) << 24 | Int(bytes[index + 1]) << 16 | Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 0, index + 12 + length <= bytes.count else { throw .corrupt(reason: "a PNG chunk runs past the end") }
            let type = String(decoding: bytes[(index + 4)..<(index + 8)], as: UTF8.self)
            if type == "IDAT", !inserted {
                output += chunk("eXIf", [UInt8](tiff))
                inserted = true
            }
            if type != "eXIf" { output += bytes[index..<(index + 12 + length)] }
            index += 12 + length
        }
        guard inserted else { throw .corrupt(reason: "a PNG without image data") }
        return Data(output + bytes[index...])
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        var crc = CRC32()
        crc.update(typed[...])
        let length = UInt32(body.count)
        return (0..<4).map { UInt8((length >> (24 - 8 * $0)) & 0xFF) } + typed + (0..<4).map { UInt8((crc.value >> (24 - 8 * $0)) & 0xFF) }
    }
}
