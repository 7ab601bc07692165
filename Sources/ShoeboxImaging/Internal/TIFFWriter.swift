import Foundation

/// A little-endian TIFF file written front to back: data blocks, then directories that point at
/// them, then the header's pointer to the first directory.
package struct TIFFWriter {
    package enum Entry {
        case short(UInt16, [UInt16])
        case long(UInt16, [UInt32])
        case bytes(UInt16, [UInt8])
        case ascii(UInt16, String)
        case rational(UInt16, [(UInt32, UInt32)])
        case signedRational(UInt16, [Double])

        package var tag: UInt16 {
            switch self {
            case .short(let tag, _), .long(let tag, _), .bytes(let tag, _), .ascii(let tag, _), .rational(let tag, _),
                .signedRational(let tag, _):
                tag
            }
        }

        /// TIFF's type code, the count and the value's bytes.
        var encoded: (type: UInt16, count: Int, value: [UInt8]) {
            switch self {
            case .short(_, let values): (3, values.count, values.flatMap { TIFFWriter.little($0) })
            case .long(_, let values): (4, values.count, values.flatMap { TIFFWriter.little($0) })
            case .bytes(_, let values): (1, values.count, values)
            case .ascii(_, let text): (2, text.utf8.count + 1, Array(text.utf8) + [0])
            case .rational(_, let values): (5, values.count, values.flatMap { TIFFWriter.little($0.0) + TIFFWriter.little($0.1) })
            case .signedRational(_, let values):
                (10, values.count, values.flatMap { TIFFWriter.little(UInt32(bitPattern: Int32(($0 * 10_000).rounded()))) + TIFFWriter.little(UInt32(10_000)) })
            }
        }
    }

    package private(set) var bytes = Data([0x49, 0x49, 0x2A, 0x00, 0, 0, 0, 0])

    package init() {}

    static func little(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func little(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    /// Appends a block at an even offset and returns the offset.
    package mutating func append(_ block: Data) -> Int {
        if bytes.count % 2 == 1 { bytes.append(0) }
        let offset = bytes.count
        bytes.append(block)
        return offset
    }

    /// Appends a directory (its values that do not fit in four bytes first) and returns its offset.
    package mutating func appendDirectory(_ entries: [Entry]) -> Int {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var values: [Int: Int] = [:]
        for (index, entry) in sorted.enumerated() where entry.encoded.value.count > 4 {
            values[index] = append(Data(entry.encoded.value))
        }
        var directory = Self.little(UInt16(sorted.count))
        for (index, entry) in sorted.enumerated() {
            let (type, count, value) = entry.encoded
            directory += Self.little(entry.tag) + Self.little(type) + Self.little(UInt32(count))
            if let offset = values[index] {
                directory += Self.little(UInt32(offset))
            } else {
                directory += value + [UInt8](repeating: 0, count: 4 - value.count)
            }
        }
        directory += Self.little(UInt32(0))
        return append(Data(directory))
    }

    package mutating func setFirstDirectory(_ offset: Int) {
        bytes.replaceSubrange(4..<8, with: Self.little(UInt32(offset)))
    }
}
