import Foundation

/// A PNG whose header declares a huge image but holds almost no data: what an attacker sends to
/// make a decoder allocate gigabytes. A safe loader refuses it from the header.
public enum PNGBomb {
    /// The bytes of a PNG declaring `width × height` RGB pixels (50000 × 50000 by default).
    public static func data(width: UInt32 = 50_000, height: UInt32 = 50_000) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(contentsOf: bigEndian(width))
        header.append(contentsOf: bigEndian(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8-bit, RGB, deflate, no filter, no interlace
        data.append(chunk("IHDR", header))
        // A valid zlib stream of a few zero bytes: the decoder would have to inflate far more.
        data.append(chunk("IDAT", Data([0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01])))
        data.append(chunk("IEND", Data()))
        return data
    }

    private static func chunk(_ type: String, _ body: Data) -> Data {
        var chunk = Data(bigEndian(UInt32(body.count)))
        let typed = Data(type.utf8) + body
        chunk.append(typed)
        chunk.append(contentsOf: bigEndian(crc32(typed)))
        return chunk
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }
}
