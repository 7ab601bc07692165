import Foundation

/// Reads a few properties out of an XMP packet (RDF/XML), in either of RDF's two spellings:
/// `prefix:Name="value"` attributes or `<prefix:Name>value</prefix:Name>` elements.
///
/// Only simple text values are read; this is a fallback for files whose EXIF lacks them.
package struct XMPPacket {
    /// The packet as UTF-8 (a Latin-1 packet is converted first). Names are found with `Data`'s
    /// byte search: Foundation's `String.range(of:)` bridged the whole packet once per name.
    private let bytes: Data

    package init?(_ data: Data) {
        let head = data.prefix(1 << 20)
        if String(data: head, encoding: .utf8) != nil {
            bytes = Data(head)
        } else if let text = String(data: head, encoding: .isoLatin1) {
            bytes = Data(text.utf8)
        } else {
            return nil
        }
    }

    package func value(_ name: String) -> String? {
        let whole = bytes.startIndex..<bytes.endIndex
        if let attribute = bytes.range(of: Data((name + "=\"").utf8), in: whole),
           let close = bytes.range(of: Data("\"".utf8), in: attribute.upperBound..<whole.upperBound) {
            return clean(attribute.upperBound..<close.lowerBound)
        }
        if let open = bytes.range(of: Data(("<" + name + ">").utf8), in: whole),
           let close = bytes.range(of: Data(("</" + name + ">").utf8), in: open.upperBound..<whole.upperBound) {
            return clean(open.upperBound..<close.lowerBound)
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
    /// Fills what EXIF left empty from an XMP packet: orientation, dates, make and model.
    package mutating func mergeXMP(_ data: Data) {
        guard let xmp = XMPPacket(data) else { return }
        mergeXMP(xmp)
    }

    /// Fills what EXIF left empty from a packet already read.
    package mutating func mergeXMP(_ xmp: XMPPacket) {
        if orientation == nil {
            orientation = xmp.value("tiff:Orientation").flatMap(Int.init).flatMap(ImageOrientation.init(rawValue:))
        }
        if dateTimeOriginal == nil {
            dateTimeOriginal = (xmp.value("exif:DateTimeOriginal") ?? xmp.value("photoshop:DateCreated"))
                .flatMap { DateTime(iso8601: $0) }
        }
        if make == nil { make = xmp.value("tiff:Make") }
        if model == nil { model = xmp.value("tiff:Model") }
        if lensModel == nil { lensModel = xmp.value("exifEX:LensModel") ?? xmp.value("aux:Lens") }
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
