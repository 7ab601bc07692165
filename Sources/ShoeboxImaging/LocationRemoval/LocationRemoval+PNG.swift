import Foundation

extension LocationRemoval {
    /// A PNG's `eXIf` chunk and uncompressed XMP (`iTXt` `XML:com.adobe.xmp`), with their CRCs.
    static func pngPatches(_ bytes: Bytes) -> [Patch] {
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
                let chunk = Bytes(rebasing: bytes[body])
                changes = xmpPackets(chunk).flatMap { range in
                    xmpPatches(chunk, range).map { Patch(offset: body.lowerBound + $0.offset, bytes: $0.bytes) }
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
}
