import Foundation

/// The marker segments of a JPEG before its image data: where the cameras that wrote no EXIF, or
/// more than EXIF, kept what they knew.
struct JPEGSegments {
    /// Each segment's marker and payload (the bytes after its length), in file order.
    private(set) var segments: [(marker: UInt8, payload: Data)] = []

    /// Walks at most 1,000 segments up to the image data; a JPEG cut short keeps what came before.
    init(_ data: Data) {
        guard data.count >= 4, data[data.startIndex] == 0xFF, data[data.startIndex + 1] == 0xD8 else { return }
        var index = data.startIndex + 2
        for _ in 0..<1_000 {
            while index + 1 < data.endIndex, data[index] == 0xFF, data[index + 1] == 0xFF {
                index += 1  // fill bytes
            }
            guard index + 4 <= data.endIndex, data[index] == 0xFF else { return }
            let marker = data[index + 1]
            if marker == 0xDA || marker == 0xD9 { return }  // image data, or the end
            if marker == 0x01 || (0xD0...0xD8).contains(marker) {
                index += 2
                continue
            }
            let length = Int(data[index + 2]) << 8 | Int(data[index + 3])
            guard length >= 2, index + 2 + length <= data.endIndex else { return }
            segments.append((marker, data[(index + 4)..<(index + 2 + length)]))
            index += 2 + length
        }
    }

    /// The TIFF structures of the EXIF blocks (APP1 segments that start `Exif\0`, the six-byte
    /// header removed), in file order, as exiftool reads them: an APP1 `Exif\0\0` segment that
    /// starts no TIFF header right after one continues it (a block longer than a segment holds).
    func exifBlocks() -> [Data] {
        let header = Array("Exif\0".utf8)
        let continuation = Array("Exif\0\0".utf8)
        var blocks: [Data] = []
        var index = 0
        while index < segments.count {
            defer { index += 1 }
            let (marker, payload) = segments[index]
            guard marker == 0xE1, payload.count >= 6, payload.starts(with: header) else { continue }
            var block = Data(payload.dropFirst(6))
            while index + 1 < segments.count, segments[index + 1].marker == 0xE1 {
                let next = segments[index + 1].payload
                guard next.starts(with: continuation), !Self.startsTIFF(next.dropFirst(6)) else { break }
                block.append(next.dropFirst(6))
                index += 1
            }
            blocks.append(block)
        }
        return blocks
    }

    /// Whether `data` starts with a TIFF header (`II*\0` or `MM\0*`).
    private static func startsTIFF(_ data: Data) -> Bool {
        data.starts(with: [0x49, 0x49, 0x2A, 0x00]) || data.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
    }

    /// The payloads of the segments with `marker` that start with `prefix`, in file order.
    func payloads(_ marker: UInt8, startingWith prefix: [UInt8] = []) -> [Data] {
        segments.filter { $0.marker == marker && $0.payload.starts(with: prefix) }.map(\.payload)
    }
}
