import Foundation

/// Reads a few properties out of an XMP packet (RDF/XML), in either of RDF's two spellings:
/// `prefix:Name="value"` attributes or `<prefix:Name>value</prefix:Name>` elements.
///
/// Only simple text values are read; this is a fallback for files whose EXIF lacks them.
package struct XMPPacket {
    /// The packet as UTF-8 (a Latin-1 packet is converted first).
    private let bytes: [UInt8]
    /// Where the packet has a colon. Every name read is `prefix:Name`, so a search for one only
    /// looks where a colon is: a packet is scanned once, not once per name and spelling
    /// (Foundation's `String.range(of:)` bridged the whole packet once per name).
    private let colons: [Int]

    /// Every packet reads: bytes that are not UTF-8 are read as Latin-1.
    package init(_ data: Data) {
        let head = data.prefix(1 << 20)
        if String(validating: head, as: UTF8.self) != nil {
            bytes = Array(head)
        } else {
            // Latin-1: every byte is the scalar of its value, two UTF-8 bytes from 0x80 on.
            var utf8: [UInt8] = []
            utf8.reserveCapacity(head.count * 2)
            for byte in head {
                if byte < 0x80 {
                    utf8.append(byte)
                } else {
                    utf8.append(0xC0 | byte >> 6)
                    utf8.append(0x80 | byte & 0x3F)
                }
            }
            bytes = utf8
        }
        let bytes = self.bytes
        colons = bytes.indices.filter { bytes[$0] == UInt8(ascii: ":") }
    }

    package func value(_ name: String) -> String? {
        if let attribute = find(Array((name + "=\"").utf8)),
            let close = bytes[attribute.upperBound...].firstIndex(of: UInt8(ascii: "\""))
        {
            return clean(attribute.upperBound..<close)
        }
        if let open = find(Array(("<" + name + ">").utf8)),
            let close = find(Array(("</" + name + ">").utf8), from: open.upperBound)
        {
            return clean(open.upperBound..<close.lowerBound)
        }
        return nil
    }

    /// The first place at or after `start` where `needle`, which has a colon, occurs.
    private func find(_ needle: [UInt8], from start: Int = 0) -> Range<Int>? {
        guard let colon = needle.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        for position in colons where position - colon >= start {
            let lower = position - colon
            let upper = lower + needle.count
            if upper <= bytes.count, bytes[lower..<upper].elementsEqual(needle) { return lower..<upper }
        }
        return nil
    }

    private func clean(_ range: Range<Int>) -> String? {
        // Markup left over is garbage rather than text, as control characters are.
        guard let text = ImageMetadata.cleanedText(String(decoding: bytes[range], as: UTF8.self)), !text.contains("<")
        else { return nil }
        return text
    }
}

extension ImageMetadata {
    /// Fills what EXIF left empty from an XMP packet.
    package mutating func mergeXMP(_ data: Data) {
        mergeXMP(XMPPacket(data))
    }

    /// Fills what EXIF left empty from a packet already read: orientation, dates, the place, make,
    /// model and lens.
    package mutating func mergeXMP(_ xmp: XMPPacket) {
        if orientation == nil {
            orientation = xmp.value("tiff:Orientation").flatMap(Int.init).flatMap(ImageOrientation.init(rawValue:))
        }
        if dateTimeOriginal == nil {
            dateTimeOriginal = (xmp.value("exif:DateTimeOriginal") ?? xmp.value("photoshop:DateCreated"))
                .flatMap { DateTime(iso8601: $0) }
        }
        // The place, where EXIF has none: XMP spells a coordinate `DDD,MM.mmN` or `DDD,MM,SSN`.
        if latitude == nil, longitude == nil,
            let north = xmp.value("exif:GPSLatitude").flatMap({ Self.xmpCoordinate($0, positive: "N", negative: "S", bound: 90) }),
            let east = xmp.value("exif:GPSLongitude").flatMap({ Self.xmpCoordinate($0, positive: "E", negative: "W", bound: 180) })
        {
            latitude = north
            longitude = east
            if altitude == nil, let metres = xmp.value("exif:GPSAltitude").flatMap(Self.xmpRational), abs(metres) < 100_000 {
                altitude = xmp.value("exif:GPSAltitudeRef") == "1" ? -metres : metres
            }
        }
        if make == nil { make = xmp.value("tiff:Make") }
        if model == nil { model = xmp.value("tiff:Model") }
        if lensModel == nil { lensModel = xmp.value("exifEX:LensModel") ?? xmp.value("aux:Lens") }
        if bodySerialNumber == nil { bodySerialNumber = xmp.value("exifEX:BodySerialNumber") ?? xmp.value("aux:SerialNumber") }
    }
}

extension ImageMetadata {
    /// `37,46.8N`, `122,25,9.6W` or `37.78N` as signed degrees; `nil` past `bound` or misspelled.
    package static func xmpCoordinate(_ text: String, positive: Character, negative: Character, bound: Double) -> Double? {
        guard let reference = text.last?.uppercased().first, reference == positive || reference == negative else { return nil }
        let parts = text.dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var degrees = 0.0
        for (part, scale) in zip(parts, [1.0, 60, 3600]) {
            guard let value = Double(part.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0, value < 1_000
            else { return nil }
            degrees += value / scale
        }
        guard degrees <= bound else { return nil }
        return reference == negative ? -degrees : degrees
    }

    /// XMP's rational `1234/10`, or a plain number.
    package static func xmpRational(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let numerator = Double(parts[0]) else { return nil }
        let value = parts.count == 2 ? Double(parts[1]).map { numerator / $0 } : numerator
        return value.flatMap { $0.isFinite ? $0 : nil }
    }
}

extension ImageMetadata.DateTime {
    /// Parses XMP's ISO 8601 form: `2004-08-27T13:52:55`, with optional `.253` and `+02:00`/`Z`.
    /// A date without a time is not a moment a picture was taken, and reads as `nil`.
    package init?(iso8601 text: String) {
        guard text.count >= 19 else { return nil }
        let head = String(text.prefix(19))
        var rest = Substring(text.dropFirst(19))
        var fraction: String?
        if rest.first == "." {
            rest = rest.dropFirst()
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            fraction = String(digits)
            rest = rest.dropFirst(digits.count)
        }
        self.init(exif: head, subseconds: fraction, offset: rest.isEmpty ? nil : String(rest))
        if !rest.isEmpty, utcOffset == nil { return nil }
    }
}
