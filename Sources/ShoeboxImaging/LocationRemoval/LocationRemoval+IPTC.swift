import Foundation

extension LocationRemoval {
    /// The IPTC-IIM datasets (record 2) that name a place: content location code and name (26,
    /// 27), city (90), sub-location (92), province or state (95), country code and name (100,
    /// 101).
    static let iptcPlaceDatasets: Set<UInt8> = [26, 27, 90, 92, 95, 100, 101]

    /// The place datasets of every Photoshop IPTC resource (`8BIM` 0x0404, in a JPEG's APP13 or a
    /// TIFF's Photoshop tag), blanked with spaces.
    static func iptcPatches(_ bytes: Bytes) -> [Patch] {
        var patches: [Patch] = []
        let marker: [UInt8] = [0x38, 0x42, 0x49, 0x4D, 0x04, 0x04]
        var index = 0
        while let found = find(marker, in: bytes, from: index) {
            index = found + marker.count
            // A Pascal-string name padded to an even length with its length byte, then a 32-bit size.
            guard found + 7 <= bytes.count else { break }
            let nameField = (1 + Int(bytes[found + 6]) + 1) & ~1
            let sizeAt = found + 6 + nameField
            guard sizeAt + 4 <= bytes.count else { continue }
            let size = bytes[sizeAt..<sizeAt + 4].reduce(0) { $0 << 8 | Int($1) }
            let start = sizeAt + 4
            guard size <= bytes.count - start else { continue }
            patches += iptcDatasetPatches(bytes, start..<(start + size))
            index = start + size
        }
        return patches
    }

    /// The place datasets among the IIM datasets in `range`, blanked with spaces.
    static func iptcDatasetPatches(_ bytes: Bytes, _ range: Range<Int>) -> [Patch] {
        var patches: [Patch] = []
        var index = range.lowerBound
        while index + 5 <= range.upperBound, bytes[index] == 0x1C {
            let length = Int(bytes[index + 3]) << 8 | Int(bytes[index + 4])
            // An extended dataset (length over 32767) never names a place; stop rather than guess.
            guard length & 0x8000 == 0, index + 5 + length <= range.upperBound else { break }
            if bytes[index + 1] == 2, iptcPlaceDatasets.contains(bytes[index + 2]), length > 0 {
                patches.append(Patch(offset: index + 5, bytes: Data(repeating: UInt8(ascii: " "), count: length)))
            }
            index += 5 + length
        }
        return patches
    }
}
