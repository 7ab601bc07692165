import Foundation

/// The JPEG APP12 "picture info" segment of cameras from before EXIF (Olympus, Agfa, Polaroid,
/// around 1998): `key=value` text lines in sections such as `[picture info]`.
///
/// Read only for what EXIF would have held and, as exiftool does, whatever the section: the date
/// (`TimeDate`, Unix seconds read as UTC wall-clock time, or a date as text), the exposure time
/// (`Shutter` or `shtr`, microseconds), the f-number (`FNumber`, `F2.8` for Agfa) and the flash
/// (`Flash`, 0 or 1).
enum PictureInfoSegment {
    /// The values of an APP12 segment's payload.
    static func metadata(segment: Data) -> ImageMetadata {
        var metadata = ImageMetadata()
        let text = String(decoding: segment, as: UTF8.self)
        for line in text.split(whereSeparator: { $0.isNewline || $0 == "\0" }) {  // "\r\n" is one Character
            guard let equals = line.firstIndex(of: "="), let value = ImageMetadata.cleanedText(line[line.index(after: equals)...])
            else { continue }
            switch line[..<equals] {
            case "TimeDate":
                if let seconds = Int(value), seconds > 0, seconds < 253_402_300_800 {
                    var date = ImageMetadata.DateTime(Date(timeIntervalSince1970: TimeInterval(seconds)), timeZone: .gmt)
                    date.utcOffset = nil  // a camera clock of no known zone
                    metadata.dateTimeOriginal = date
                } else {
                    metadata.dateTimeOriginal = ImageMetadata.DateTime(exif: value)
                }
            case "Shutter", "shtr":
                metadata.exposureTime = Double(value).flatMap { $0 > 0 && $0 < 1e11 ? $0 * 1e-6 : nil }
            case "FNumber":
                metadata.fNumber = Double(value.drop { $0.isLetter || $0 == " " }).flatMap { $0 > 0 && $0 < 1_000 ? $0 : nil }
            case "Flash":
                metadata.flashFired = Int(value).map { $0 & 1 == 1 }
            default:
                continue
            }
        }
        return metadata
    }
}
