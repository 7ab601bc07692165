import Foundation

extension LocationRemoval {
    /// The byte ranges of XMP: packets wrapped in `x:xmpmeta` or the older `x:xapmeta`, and bare
    /// `rdf:RDF` trees outside them (what some writers store, and what Shoebox reads all the same).
    static func xmpPackets(_ bytes: Bytes) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for (open, close) in [("<x:xmpmeta", "</x:xmpmeta>"), ("<x:xapmeta", "</x:xapmeta>"), ("<rdf:RDF", "</rdf:RDF>")] {
            let open = Array(open.utf8)
            let close = Array(close.utf8)
            var index = 0
            while let start = find(open, in: bytes, from: index) {
                // An unclosed packet reaches as far as a packet may (a mebibyte), or the end.
                let limit = min(bytes.count, start + (16 << 20))
                let stop = find(close, in: bytes, from: start, to: limit).map { $0 + close.count } ?? min(bytes.count, start + (1 << 20))
                if !ranges.contains(where: { $0.contains(start) }) { ranges.append(start..<stop) }
                index = max(stop, start + open.count)
            }
        }
        return ranges
    }

    /// The place's properties in XMP, blanked with spaces: `name="…"` attributes and
    /// `<name>…</name>` elements whose names begin so.
    static let xmpPlaceProperties = [
        "exif:GPS", "exifEX:GPS", "drone-dji:Gps", "drone-dji:Latitude", "drone-dji:Longitude", "drone-dji:AbsoluteAltitude",
        "photoshop:City", "photoshop:State", "photoshop:Country", "Iptc4xmpCore:Location", "Iptc4xmpCore:CountryCode",
        "Iptc4xmpExt:LocationCreated", "Iptc4xmpExt:LocationShown", "Iptc4xmpExt:City", "Iptc4xmpExt:Sublocation",
        "Iptc4xmpExt:ProvinceState", "Iptc4xmpExt:CountryName", "Iptc4xmpExt:CountryCode", "Iptc4xmpExt:GPS",
    ]

    static func xmpPatches(_ bytes: Bytes, _ range: Range<Int>) -> [Patch] {
        var patches: [Patch] = []
        for property in xmpPlaceProperties {
            let name = Array(property.utf8)
            var index = range.lowerBound
            while let found = find(name, in: bytes, from: index, to: range.upperBound) {
                index = found + name.count
                // The whole name: `exif:GPSLatitude` for the `exif:GPS` prefix.
                var nameEnd = found + name.count
                while nameEnd < range.upperBound, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
                let before = found > 0 ? bytes[found - 1] : 0
                if before == UInt8(ascii: " ") || before == UInt8(ascii: "\n") || before == UInt8(ascii: "\t") || before == UInt8(ascii: "\r") {
                    // An attribute: name="value" (or 'value').
                    var cursor = nameEnd
                    while cursor < range.upperBound, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
                    guard cursor + 1 < range.upperBound, bytes[cursor] == UInt8(ascii: "=") else { continue }
                    cursor += 1
                    while cursor < range.upperBound, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
                    guard cursor < range.upperBound, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else { continue }
                    let quote = bytes[cursor]
                    guard let closing = bytes[(cursor + 1)..<range.upperBound].firstIndex(of: quote) else { continue }
                    patches.append(Patch(offset: found, bytes: Data(repeating: UInt8(ascii: " "), count: closing + 1 - found)))
                    index = closing + 1
                } else if before == UInt8(ascii: "<") {
                    // An element: <name …>…</name>, or <name …/>.
                    let tag = Array(bytes[found..<nameEnd])
                    let closeTag = Array("</".utf8) + tag + [UInt8(ascii: ">")]
                    let elementStart = found - 1
                    if let stop = find(closeTag, in: bytes, from: nameEnd, to: range.upperBound) {
                        patches.append(Patch(offset: elementStart, bytes: Data(repeating: UInt8(ascii: " "), count: stop + closeTag.count - elementStart)))
                        index = stop + closeTag.count
                    } else if let slash = find(Array("/>".utf8), in: bytes, from: nameEnd, to: range.upperBound),
                        !bytes[nameEnd..<slash].contains(UInt8(ascii: ">"))
                    {
                        patches.append(Patch(offset: elementStart, bytes: Data(repeating: UInt8(ascii: " "), count: slash + 2 - elementStart)))
                        index = slash + 2
                    }
                }
            }
        }
        return patches
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
