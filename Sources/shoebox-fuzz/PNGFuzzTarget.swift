import Foundation
import ShoeboxImaging

/// PNG chunk checksums, verified before libvips decodes a PNG's pixels: from memory and from a
/// file (the two readers the validator has), against a model written here from the PNG
/// specification. Also the other walkers of still-image blocks: which PNG text chunk names the
/// software, and a GIF's colour profile.
enum PNGFuzzTarget {
    static func run(_ data: Data) {
        let inMemory = verdict { () throws(ImageError) in try PNGChunkValidator.validate(data: data) }
        let sliced = verdict { () throws(ImageError) in try PNGChunkValidator.validate(data: FuzzCheck.shifted(data)) }
        FuzzCheck.require(sliced == inMemory, "a slice of the same bytes is judged differently")
        let path = ScratchFile.holding(data).path
        let onDisk = verdict { () throws(ImageError) in try PNGChunkValidator.validate(file: path) }
        FuzzCheck.require(onDisk == inMemory, "in memory: \(inMemory ?? "valid"); from a file: \(onDisk ?? "valid")")
        let valid = Self.chunksHold([UInt8](data))
        FuzzCheck.require(valid == (inMemory == nil), "the model says \(valid ? "valid" : "invalid"); the validator: \(inMemory ?? "valid")")

        let software = PNGTextChunks.firstUntranslated("Software", in: data)
        FuzzCheck.require(software.map { $0 >= 0 } ?? true, "text chunk number \(String(describing: software))")
        FuzzCheck.require(
            PNGTextChunks.firstUntranslated("Software", in: FuzzCheck.shifted(data)) == software,
            "a slice of the same PNG finds another text chunk")
        let profile = GIFBlocks.iccProfile(in: data)
        FuzzCheck.require(profile.map { !$0.isEmpty && $0.count < data.count } ?? true, "a \(profile?.count ?? 0)-byte profile")
        FuzzCheck.require(GIFBlocks.iccProfile(in: FuzzCheck.shifted(data)) == profile, "a slice of the same GIF reads another profile")
    }

    /// `nil` when the validator accepts the chunks, else its error.
    private static func verdict(_ validation: () throws(ImageError) -> Void) -> String? {
        do {
            try validation()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The model: after the 8-byte signature, chunks of length, type, data and CRC-32 (over type
    /// and data) up to `IEND`; the validator also stops after a million chunks.
    private static func chunksHold(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8 else { return false }
        var position = 8
        var chunks = 0
        while true {
            guard position + 8 <= bytes.count else { return false }
            let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard length <= 0x7FFF_FFFF, position + 12 + length <= bytes.count else { return false }
            let stored = bytes[(position + 8 + length)..<(position + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard crc32(bytes[(position + 4)..<(position + 8 + length)]) == stored else { return false }
            chunks += 1
            if bytes[(position + 4)..<(position + 8)].elementsEqual("IEND".utf8) || chunks > 1_000_000 { return true }
            position += 12 + length
        }
    }

    /// CRC-32 bit by bit (the validator uses a table).
    private static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
