import Foundation

/// Checks a movie's container against the file's length: ffprobe reads the index of an MP4 whose
/// `moov` comes first (or a WebM's or AVI's header) and reports the full length even when the
/// media after it was cut off. A top-level box, Matroska segment or RIFF chunk that ends past the
/// end of the file, or an MPEG transport stream that ends inside a packet, is a truncated file.
package enum ContainerIntegrity {
    /// What the walk found wrong: the words for it, and whether it is a cut (the structure goes on
    /// past the end of the file) rather than other damage (a box of an impossible size).
    private struct Finding {
        let reason: String
        var isCut = true
    }

    /// Why the file is truncated or damaged, or `nil` when its container holds together (or
    /// cannot tell: a streamed WebM declares no size).
    package static func truncation(of path: String) -> String? {
        finding(of: path)?.reason
    }

    /// Whether the container goes on past the end of the file: cut short, not otherwise damaged.
    package static func endsEarly(_ path: String) -> Bool {
        finding(of: path)?.isCut ?? false
    }

    private static func finding(of path: String) -> Finding? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 8 else { return nil }
        try? handle.seek(toOffset: 0)
        guard let head = try? handle.read(upToCount: 8), head.count == 8 else { return nil }
        let bytes = [UInt8](head)
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return matroska(handle, size: size) }
        if ["ftyp", "moov", "mdat", "wide", "free", "skip"].contains(String(decoding: bytes[4..<8], as: UTF8.self)) {
            return isoBoxes(handle, size: size)
        }
        if bytes.starts(with: Array("RIFF".utf8)) { return riffChunks(handle, size: size) }
        return transportPackets(handle, size: size)
    }

    /// AVI: a run of top-level `RIFF` chunks (`AVI `, then `AVIX` past 1 GB), each with its
    /// little-endian length, padded to an even size.
    private static func riffChunks(_ handle: FileHandle, size: UInt64) -> Finding? {
        var offset: UInt64 = 0
        for _ in 0..<10_000 where offset + 8 <= size {
            try? handle.seek(toOffset: offset)
            guard let header = try? handle.read(upToCount: 8), header.count == 8 else { return nil }
            let bytes = [UInt8](header)
            let tag = String(decoding: bytes[0..<4], as: UTF8.self)
            guard tag == "RIFF" || tag == "JUNK" else { return nil }  // trailing bytes some writers leave: not ours to judge
            let length = UInt64(bytes[4]) | UInt64(bytes[5]) << 8 | UInt64(bytes[6]) << 16 | UInt64(bytes[7]) << 24
            let end = offset + 8 + length
            if end > size {
                return Finding(reason: "the \(tag) chunk at byte \(offset) ends at byte \(end), after the end of the file at \(size): the file is truncated")
            }
            offset = end + (length & 1)
        }
        return nil
    }

    /// MPEG transport streams (AVCHD's `.MTS`/`.M2TS`, broadcast `.ts`): 188-byte packets, or
    /// 192 with M2TS's 4-byte time code first. A file that ends inside a packet was cut.
    private static func transportPackets(_ handle: FileHandle, size: UInt64) -> Finding? {
        try? handle.seek(toOffset: 0)
        guard let data = try? handle.read(upToCount: 2 * 192 + 8) else { return nil }
        let bytes = [UInt8](data)
        func synced(_ packet: Int, first: Int) -> Bool {
            (0..<2).allSatisfy { first + $0 * packet < bytes.count && bytes[first + $0 * packet] == 0x47 }
        }
        let packet: UInt64
        if synced(188, first: 0) {
            packet = 188
        } else if synced(192, first: 4) {
            packet = 192
        } else {
            return nil
        }
        let rest = size % packet
        return rest == 0 ? nil : Finding(reason: "the last \(packet)-byte transport packet is cut off after \(rest) bytes: the file is truncated")
    }

    private static func isoBoxes(_ handle: FileHandle, size: UInt64) -> Finding? {
        var offset: UInt64 = 0
        for _ in 0..<100_000 where offset < size {
            try? handle.seek(toOffset: offset)
            guard let header = try? handle.read(upToCount: 16), header.count >= 8 else { return nil }
            let bytes = [UInt8](header)
            var length = UInt64(bytes[0]) << 24 | UInt64(bytes[1]) << 16 | UInt64(bytes[2]) << 8 | UInt64(bytes[3])
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            if length == 1 {
                guard bytes.count == 16 else { return Finding(reason: "the \(type) box at byte \(offset) is cut off: the file is truncated") }
                length = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
            } else if length == 0 {
                return nil  // the last box runs to the end of the file
            }
            guard length >= 8 else { return Finding(reason: "the box at byte \(offset) has an impossible size: the file is damaged", isCut: false) }
            if length > size - offset {  // offset < size; a 64-bit length may be anything up to 2^64 - 1
                let end = offset.addingReportingOverflow(length)
                let ending = end.overflow ? "past byte 2^64" : "at byte \(end.partialValue)"
                return Finding(reason: "the \(type) box ends \(ending), after the end of the file at \(size): the file is truncated")
            }
            offset += length
        }
        return nil
    }

    private static func matroska(_ handle: FileHandle, size: UInt64) -> Finding? {
        try? handle.seek(toOffset: 0)
        guard let data = try? handle.read(upToCount: 4_096) else { return nil }
        let bytes = [UInt8](data)
        var position = 4
        // The EBML header's size, then its body.
        guard let (headerSize, headerLength, _) = vint(bytes, at: position) else { return nil }
        position += headerLength + Int(headerSize)
        // The Segment: ID 0x18538067, then its size.
        guard position + 4 <= bytes.count, Array(bytes[position..<position + 4]) == [0x18, 0x53, 0x80, 0x67] else { return nil }
        position += 4
        guard let (segmentSize, sizeLength, unknown) = vint(bytes, at: position), !unknown else { return nil }
        let end = UInt64(position + sizeLength) + segmentSize
        return end > size ? Finding(reason: "the Matroska segment ends at byte \(end), after the end of the file at \(size): the file is truncated") : nil
    }

    /// An EBML variable-size integer: its value, its length in bytes, and whether it says
    /// "unknown size" (all value bits set).
    private static func vint(_ bytes: [UInt8], at position: Int) -> (UInt64, Int, Bool)? {
        guard position < bytes.count, bytes[position] != 0 else { return nil }
        let length = bytes[position].leadingZeroBitCount + 1
        guard position + length <= bytes.count else { return nil }
        var value = UInt64(bytes[position] & (0xFF >> length))
        var allOnes = value == UInt64(0xFF >> length)
        for index in 1..<length {
            value = value << 8 | UInt64(bytes[position + index])
            allOnes = allOnes && bytes[position + index] == 0xFF
        }
        return (value, length, allOnes)
    }
}
