import Foundation

/// The capture date of an IPTC-IIM record, as news and stock photographers' tools (Photo
/// Mechanic, older Photoshop) write it: `DateCreated` (2:55, `CCYYMMDD`) with `TimeCreated` (2:60,
/// `HHMMSS±HHMM`), both needed, as in exiftool's composite `DateTimeOriginal`.
///
/// The record comes as libvips hands it over (`iptc-data`): Photoshop image resources (`8BIM`
/// blocks, optionally after `Photoshop 3.0\0`) holding resource 0x0404, or the bare IIM datasets.
/// Every length is bounds-checked; anything malformed reads as `nil`.
package enum IPTCRecord {
    package static func dateCreated(_ data: Data) -> ImageMetadata.DateTime? {
        let bytes = [UInt8](data.prefix(1 << 20))
        guard let datasets = datasets(in: bytes) else { return nil }
        var date: [UInt8]?
        var time: [UInt8]?
        var index = datasets.lowerBound
        while index + 5 <= datasets.upperBound, bytes[index] == 0x1C {
            let length = Int(bytes[index + 3]) << 8 | Int(bytes[index + 4])
            // An extended dataset (length over 32767) is never a date; stop rather than guess.
            guard length & 0x8000 == 0, index + 5 + length <= datasets.upperBound else { break }
            let value = Array(bytes[index + 5..<index + 5 + length])
            if bytes[index + 1] == 2, bytes[index + 2] == 55 { date = value }
            if bytes[index + 1] == 2, bytes[index + 2] == 60 { time = value }
            index += 5 + length
        }
        // Bytes, not characters: a value holding "\r\n" is one Character but two bytes.
        guard let date, date.count == 8, date.allSatisfy(isDigit),
            let time, time.count >= 6, time[0..<6].allSatisfy(isDigit)
        else { return nil }
        func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        let wallClock =
            "\(text(date[0..<4])):\(text(date[4..<6])):\(text(date[6..<8])) "
            + "\(text(time[0..<2])):\(text(time[2..<4])):\(text(time[4..<6]))"
        var offset: String?
        if time.count == 11, time[6] == UInt8(ascii: "+") || time[6] == UInt8(ascii: "-"), time[7..<11].allSatisfy(isDigit) {
            offset = "\(text(time[6..<9])):\(text(time[9..<11]))"
        }
        return ImageMetadata.DateTime(exif: wallClock, offset: offset)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Where the IIM datasets are: inside resource 0x0404, or the whole block when it starts with one.
    private static func datasets(in bytes: [UInt8]) -> Range<Int>? {
        if bytes.first == 0x1C { return 0..<bytes.count }
        var index = bytes.starts(with: Array("Photoshop 3.0\0".utf8)) ? 14 : 0
        while index + 12 <= bytes.count, bytes[index..<index + 4].elementsEqual("8BIM".utf8) {
            let identifier = Int(bytes[index + 4]) << 8 | Int(bytes[index + 5])
            // A Pascal-string name, padded to an even length with its length byte.
            let nameField = (1 + Int(bytes[index + 6]) + 1) & ~1
            let sizeAt = index + 6 + nameField
            guard sizeAt + 4 <= bytes.count else { return nil }
            let size = bytes[sizeAt..<sizeAt + 4].reduce(0) { $0 << 8 | Int($1) }
            let start = sizeAt + 4
            guard size <= bytes.count - start else { return nil }
            if identifier == 0x0404 { return start..<start + size }
            index = start + size + (size & 1)
        }
        return nil
    }
}
