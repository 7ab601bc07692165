import Foundation
import ShoeboxMedia

/// The truncation check run on every imported movie: top-level MP4/QuickTime boxes, a
/// Matroska/WebM segment or AVI's RIFF chunks that end past the end of the file, or an MPEG
/// transport stream that ends inside a packet.
enum ContainerFuzzTarget {
    static func run(_ data: Data) {
        let verdict = ContainerIntegrity.truncation(of: ScratchFile.holding(data).path)
        guard data.count > 8 else {
            FuzzCheck.require(verdict == nil, "a file of \(data.count) bytes was called damaged")
            return
        }
        let bytes = [UInt8](data)
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            // Matroska: it only ever says the segment ends past the end of the file.
            if let verdict {
                let numbers = verdict.split(whereSeparator: { !$0.isNumber }).compactMap { UInt64($0) }
                FuzzCheck.require(numbers.count == 2 && numbers[0] > numbers[1] && numbers[1] == UInt64(data.count), verdict)
            }
        } else if ["ftyp", "moov", "mdat", "wide", "free", "skip"].contains(String(decoding: bytes[4..<8], as: UTF8.self)) {
            let model = isoModel(bytes)
            FuzzCheck.require((verdict == nil) == (model == nil), "the check says \(verdict ?? "whole"); the model: \(model ?? "whole")")
        } else if bytes.starts(with: Array("RIFF".utf8)) {
            let model = riffModel(bytes)
            FuzzCheck.require((verdict == nil) == (model == nil), "the check says \(verdict ?? "whole"); the model: \(model ?? "whole")")
        } else if let packet = transportPacket(bytes) {
            FuzzCheck.require((verdict == nil) == (bytes.count % packet == 0), "\(bytes.count) bytes of \(packet)-byte packets: \(verdict ?? "whole")")
        } else {
            FuzzCheck.require(verdict == nil, "a file that is none of MP4, Matroska, AVI or MPEG-TS was called damaged: \(verdict!)")
        }
    }

    /// The model of AVI's chunk walk: `RIFF` (or `JUNK`) chunks with little-endian lengths,
    /// padded to even; one that ends past the end of the file is truncation; anything else ends
    /// the walk.
    private static func riffModel(_ bytes: [UInt8]) -> String? {
        var offset = 0
        for _ in 0..<10_000 where offset + 8 <= bytes.count {
            let tag = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            guard tag == "RIFF" || tag == "JUNK" else { return nil }
            let length = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            guard offset + 8 + length <= bytes.count else { return "truncated" }
            offset += 8 + length + (length & 1)
        }
        return nil
    }

    /// The packet size of a transport stream: sync bytes (0x47) at 0 and 188, or at 4 and 196
    /// (M2TS's time code first).
    private static func transportPacket(_ bytes: [UInt8]) -> Int? {
        if bytes.count > 188, bytes[0] == 0x47, bytes[188] == 0x47 { return 188 }
        if bytes.count > 196, bytes[4] == 0x47, bytes[196] == 0x47 { return 192 }
        return nil
    }

    /// The model of the box walk: 32-bit sizes, 64-bit ones after a size of 1, a size of 0 running
    /// to the end; a size under 8 is damage, a box past the end truncation.
    private static func isoModel(_ bytes: [UInt8]) -> String? {
        let size = UInt64(bytes.count)
        var offset: UInt64 = 0
        var boxes = 0
        while offset < size, boxes < 100_000 {
            let start = Int(offset)
            guard bytes.count - start >= 8 else { return nil }
            var length = bytes[start..<(start + 4)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if length == 1 {
                guard bytes.count - start >= 16 else { return "cut off" }
                length = bytes[(start + 8)..<(start + 16)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            } else if length == 0 {
                return nil
            }
            guard length >= 8 else { return "impossible size" }
            guard length <= size - offset else { return "truncated" }
            offset += length
            boxes += 1
        }
        return nil
    }
}
