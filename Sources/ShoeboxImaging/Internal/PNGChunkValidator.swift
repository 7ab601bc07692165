import Foundation

/// Verifies every chunk checksum of a PNG before its pixels are decoded.
///
/// libpng (through libvips) notices a bad checksum on the last data chunk only if it reads that
/// far before libvips's background reader has delivered every row, so a damaged file sometimes
/// decodes and sometimes fails. Checking the checksums first makes the answer the same every time.
/// It reads the file once more, streaming (a CRC-32 over 30 MB takes tens of milliseconds).
package enum PNGChunkValidator {
    static func validate(_ storage: Image.Storage) throws(ImageError) {
        switch storage {
        case .raster:
            return
        case .data(let data):
            try validate(data: data)
        case .file(let path):
            try validate(file: path)
        }
    }

    /// Checks a PNG held in memory.
    package static func validate(data: Data) throws(ImageError) {
        var reader = DataReader(data: data)
        try validate(&reader)
    }

    /// Checks a PNG file, reading it in pieces of at most 1 MiB.
    package static func validate(file path: String) throws(ImageError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .io(path: path, underlying: POSIXFileError(.ENOENT, message: "cannot open for reading"))
        }
        defer { try? handle.close() }
        var reader = FileReader(handle: handle)
        try validate(&reader)
    }

    private static func validate(_ reader: inout some ByteSource) throws(ImageError) {
        guard let signature = reader.read(8), signature.count == 8 else {
            throw .corrupt(reason: "PNG signature is truncated")
        }
        var chunks = 0
        while true {
            guard let header = reader.read(8), header.count == 8 else {
                throw .corrupt(reason: "PNG ends without an IEND chunk (truncated)")
            }
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            guard length <= 0x7FFF_FFFF else { throw .corrupt(reason: "PNG chunk length \(length) is invalid") }
            var crc = CRC32()
            crc.update(header[4..<8])
            var remaining = length
            while remaining > 0 {
                guard let piece = reader.read(min(remaining, 1 << 20)), !piece.isEmpty else {
                    throw .corrupt(reason: "PNG chunk is truncated")
                }
                crc.update(piece[...])
                remaining -= piece.count
            }
            guard let stored = reader.read(4), stored.count == 4 else {
                throw .corrupt(reason: "PNG chunk checksum is truncated")
            }
            let expected = UInt32(stored[0]) << 24 | UInt32(stored[1]) << 16 | UInt32(stored[2]) << 8 | UInt32(stored[3])
            let type = String(decoding: header[4..<8], as: UTF8.self)
            guard crc.value == expected else {
                throw .corrupt(reason: "PNG chunk \(type) has a bad checksum")
            }
            chunks += 1
            if type == "IEND" || chunks > 1_000_000 { return }
        }
    }
}

protocol ByteSource {
    mutating func read(_ count: Int) -> [UInt8]?
}

private struct DataReader: ByteSource {
    let data: Data
    var offset = 0

    mutating func read(_ count: Int) -> [UInt8]? {
        let start = data.startIndex + offset
        let end = min(start + count, data.endIndex)
        guard start <= end else { return nil }
        offset += end - start
        return Array(data[start..<end])
    }
}

private struct FileReader: ByteSource {
    let handle: FileHandle

    mutating func read(_ count: Int) -> [UInt8]? {
        guard let data = try? handle.read(upToCount: count) else { return nil }
        return Array(data)
    }
}

/// CRC-32 (ISO 3309, as PNG, zlib and ZIP use it), table-driven, fed in pieces.
package struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    private var state: UInt32 = 0xFFFF_FFFF

    package init() {}

    package mutating func update(_ bytes: ArraySlice<UInt8>) {
        var crc = state
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
        }
        state = crc
    }

    package var value: UInt32 { state ^ 0xFFFF_FFFF }
}
