/// Bounds-checked reads of fixed-place fields from a binary record in either byte order (the
/// maker notes and camera records that are not TIFF directories).
struct EndianBytes {
    let bytes: [UInt8]
    var bigEndian: Bool

    /// `count` bytes at `offset`, or `nil` past the end.
    func slice(_ offset: Int, _ count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= bytes.count - count else { return nil }
        return Array(bytes[offset..<(offset + count)])
    }

    /// An unsigned integer of `size` bytes (at most 4) at `offset`, or `nil` past the end.
    func integer(_ offset: Int, _ size: Int) -> UInt32? {
        slice(offset, size).map { field in
            (bigEndian ? field : field.reversed()).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
    }

    /// An IEEE 754 double at `offset`, or `nil` past the end.
    func double(_ offset: Int) -> Double? {
        guard let first = integer(offset, 4), let second = integer(offset + 4, 4) else { return nil }
        let (high, low) = bigEndian ? (first, second) : (second, first)
        return Double(bitPattern: UInt64(high) << 32 | UInt64(low))
    }
}
