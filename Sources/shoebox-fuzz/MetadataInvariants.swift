import Foundation
import ShoeboxImaging

/// What ``ImageMetadata`` promises of every value it holds, whatever the file said: text that is
/// printable and trimmed, numbers in their documented ranges, dates that are real dates.
enum MetadataInvariants {
    static func check(_ metadata: ImageMetadata) {
        for (name, text) in [
            ("make", metadata.make), ("model", metadata.model), ("lensMake", metadata.lensMake),
            ("lensModel", metadata.lensModel), ("software", metadata.software),
        ] {
            guard let text else { continue }
            FuzzCheck.require(!text.isEmpty, "\(name) is empty")
            FuzzCheck.require(text == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(name) \(text.debugDescription) is not trimmed")
            FuzzCheck.require(FuzzCheck.isPrintable(text), "\(name) \(text.debugDescription) holds control characters")
        }
        if let date = metadata.dateTimeOriginal { check(date) }
        if let latitude = metadata.latitude {
            FuzzCheck.require(latitude.isFinite && abs(latitude) <= 90, "latitude \(latitude)")
        }
        if let longitude = metadata.longitude {
            FuzzCheck.require(longitude.isFinite && abs(longitude) <= 180, "longitude \(longitude)")
        }
        if let altitude = metadata.altitude {
            FuzzCheck.require(altitude.isFinite && abs(altitude) < 100_000, "altitude \(altitude)")
        }
        if let exposure = metadata.exposureTime {
            FuzzCheck.require(exposure > 0 && exposure < 100_000, "exposure time \(exposure)")
        }
        if let fNumber = metadata.fNumber {
            FuzzCheck.require(fNumber > 0 && fNumber < 1_000, "f-number \(fNumber)")
        }
        if let focalLength = metadata.focalLength {
            FuzzCheck.require(focalLength > 0 && focalLength < 100_000, "focal length \(focalLength)")
        }
        if let iso = metadata.isoSpeed {
            FuzzCheck.require(iso > 0, "ISO \(iso)")
        }
    }

    /// The ranges ``ImageMetadata/DateTime`` documents, an offset of whole minutes within ±14:59,
    /// and an instant that a calendar can place.
    static func check(_ date: ImageMetadata.DateTime) {
        FuzzCheck.require(
            (1800...9999).contains(date.year) && (1...12).contains(date.month) && (1...31).contains(date.day)
                && (0...23).contains(date.hour) && (0...59).contains(date.minute) && (0...60).contains(date.second),
            "date \(date.exifString) out of range")
        if let fraction = date.fractionalSecond {
            FuzzCheck.require(fraction >= 0 && fraction < 1, "fractional second \(fraction)")
        }
        if let offset = date.utcOffset {
            FuzzCheck.require(abs(offset) <= 14 * 3600 + 59 * 60 && offset % 60 == 0, "UTC offset \(offset) s")
            FuzzCheck.require(
                ImageMetadata.DateTime.parseOffset(ImageMetadata.DateTime.offsetString(offset)) == offset,
                "UTC offset \(offset) does not read back from \(ImageMetadata.DateTime.offsetString(offset))")
        }
        FuzzCheck.require(date.date(assuming: TimeZone(identifier: "UTC")!) != nil, "date \(date) has no instant")
    }

    /// Offsets are read only in their documented spellings: `Z`, or a sign, two digits, a colon and
    /// two digits.
    static func checkOffsetSpelling(_ text: String, parsed: Int?) {
        guard parsed != nil else { return }
        let bytes = Array(text.utf8)
        let digit = { (byte: UInt8) in (0x30...0x39).contains(byte) }
        let canonical =
            bytes == [0x5A]
            || (bytes.count == 6 && (bytes[0] == 0x2B || bytes[0] == 0x2D) && digit(bytes[1]) && digit(bytes[2])
                && bytes[3] == 0x3A && digit(bytes[4]) && digit(bytes[5]))
        FuzzCheck.require(canonical, "the UTC offset \(text.debugDescription) was read as \(parsed!) s")
    }
}
