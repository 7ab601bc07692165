import Foundation

/// What an image's EXIF, TIFF, GPS and ICC data say about it.
///
/// Every property is optional: a value the file does not hold, or holds in a form that cannot be
/// trusted (a zero denominator, an impossible date, text full of control bytes), is `nil`. A
/// malformed EXIF block never makes the image fail to open; it only leaves values `nil`.
///
/// ```swift
/// let metadata = try Image(contentsOf: url).metadata
/// if let latitude = metadata.latitude, let longitude = metadata.longitude {
///     print("taken at \(latitude), \(longitude)")
/// }
/// print(metadata.dateTimeOriginal?.iso8601String ?? "undated")
/// ```
public struct ImageMetadata: Sendable, Hashable, Codable {
    /// The orientation as the file states it: EXIF, else XMP `tiff:Orientation` (`nil` when
    /// absent or not 1…8).
    public var orientation: ImageOrientation?
    /// Camera maker (`Make`).
    public var make: String?
    /// Camera model (`Model`).
    public var model: String?
    /// Lens maker (`LensMake`).
    public var lensMake: String?
    /// Lens model (`LensModel`).
    public var lensModel: String?
    /// The camera body's serial number (`BodySerialNumber`, else the maker note's: Canon, Nikon,
    /// Fujifilm and Panasonic record one; else XMP `exifEX:BodySerialNumber` or
    /// `aux:SerialNumber`), which tells two cameras of one model apart.
    public var bodySerialNumber: String?
    /// The software that wrote the file (`Software`).
    public var software: String?
    /// When the picture was taken, in exiftool's order of sources: EXIF `DateTimeOriginal` (with
    /// `SubSecTimeOriginal` and `OffsetTimeOriginal` when present), else a maker note's (Reconyx
    /// trail cameras), else XMP `exif:DateTimeOriginal` or `photoshop:DateCreated`, else IPTC
    /// `DateCreated` with `TimeCreated`, else a pre-EXIF camera's APP12 picture info (Olympus,
    /// Agfa). Dates kept only in Casio's QVCI segment are not read.
    public var dateTimeOriginal: DateTime?
    /// Latitude in signed decimal degrees (north positive): EXIF GPS (a later EXIF block's over
    /// an earlier one's), else XMP `exif:GPSLatitude`, else a FLIR thermal camera's GPS record.
    public var latitude: Double?
    /// Longitude in signed decimal degrees (east positive).
    public var longitude: Double?
    /// Altitude in metres above sea level (negative below).
    public var altitude: Double?
    /// Exposure time in seconds.
    public var exposureTime: Double?
    /// The f-number (aperture).
    public var fNumber: Double?
    /// ISO speed: EXIF `ISOSpeedRatings`, else the maker note's (Canon, Nikon, Casio).
    public var isoSpeed: Int?
    /// Focal length in millimetres.
    public var focalLength: Double?
    /// Whether the flash fired, from the `Flash` tag.
    public var flashFired: Bool?
    /// The embedded ICC profile's description, e.g. `sRGB IEC61966-2.1` or `Display P3`.
    public var colorProfileName: String?
    /// The identifier Apple's cameras give both halves of a Live Photo (the maker note's
    /// `ContentIdentifier`, tag 0x11; the movie carries it as
    /// `com.apple.quicktime.content.identifier`).
    public var contentIdentifier: String?
    /// The identifier Apple's cameras give every photo of one burst (the maker note's
    /// `BurstUUID`, tag 0x0B).
    public var burstIdentifier: String?
    /// Whether the camera's drive was set to shoot continuously when it took the picture (`false`:
    /// single frames), as only maker notes say: Canon's `ContinuousDrive`, Nikon's `ShootingMode`,
    /// Fujifilm's `SequenceNumber` or `DriveSettings`, Sony's `ReleaseMode` or `SequenceNumber`,
    /// Panasonic's `BurstMode`. `nil` for other cameras and notes that do not say. Frames of one
    /// body shot continuously, close in time, are a burst.
    public var continuousDrive: Bool?

    /// Empty metadata.
    public init() {}

    /// A wall-clock date and time as EXIF records it, with the UTC offset when the file gives one.
    ///
    /// EXIF dates without `OffsetTime…` are local times of an unknown zone: ``iso8601String`` then
    /// has no offset, and ``date(assuming:)`` needs the zone from the caller.
    public struct DateTime: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The year, 1800…9999.
        public var year: Int
        /// The month, 1…12.
        public var month: Int
        /// The day of the month, 1…31.
        public var day: Int
        /// The hour, 0…23.
        public var hour: Int
        /// The minute, 0…59.
        public var minute: Int
        /// The second, 0…60.
        public var second: Int
        /// Fractional seconds from `SubSecTimeOriginal`, `0..<1`.
        public var fractionalSecond: Double?
        /// The offset from UTC in seconds, from `OffsetTimeOriginal`.
        public var utcOffset: Int?

        /// Creates a date and time; `utcOffset` is in seconds east of UTC.
        public init(
            year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
            fractionalSecond: Double? = nil, utcOffset: Int? = nil
        ) {
            self.year = year
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
            self.second = second
            self.fractionalSecond = fractionalSecond
            self.utcOffset = utcOffset
        }

        /// The wall-clock time of `date` in `timeZone`, with its offset.
        public init(_ date: Date, timeZone: TimeZone = .current) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            self.init(
                year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0,
                minute: parts.minute ?? 0, second: parts.second ?? 0, utcOffset: timeZone.secondsFromGMT(for: date))
        }

        /// `2021-04-11T15:47:53`, or `2021-04-11T15:47:53+01:00` when the offset is known.
        public var iso8601String: String {
            String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second) + (offsetString ?? "")
        }

        /// The EXIF spelling of the offset, `+01:00`, or `nil` when it is unknown.
        public var offsetString: String? { utcOffset.map(Self.offsetString) }

        /// `+01:00` for 3600 seconds east of UTC, `-05:00` for -18000.
        public static func offsetString(_ seconds: Int) -> String {
            let magnitude = abs(seconds)
            return String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", magnitude / 3600, (magnitude % 3600) / 60)
        }

        /// The EXIF spelling, `2021:04:11 15:47:53`.
        public var exifString: String {
            String(format: "%04d:%02d:%02d %02d:%02d:%02d", year, month, day, hour, minute, second)
        }

        /// The instant, using the recorded offset, or `timeZone` when none was recorded.
        public func date(assuming timeZone: TimeZone = .current) -> Date? {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = utcOffset.flatMap { TimeZone(secondsFromGMT: $0) } ?? timeZone
            let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            guard let date = calendar.date(from: components) else { return nil }
            return date.addingTimeInterval(fractionalSecond ?? 0)
        }

        /// The ``iso8601String``: `2021-04-11T15:47:53`, with `+01:00` when the offset is known.
        public var description: String { iso8601String }

        /// Parses `YYYY:MM:DD HH:MM:SS` (also with `-` in the date); `nil` for blanks, zeros and
        /// impossible values.
        package init?(exif text: String, subseconds: String? = nil, offset: String? = nil) {
            let scalars = Array(text.utf8)
            guard scalars.count >= 19 else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for index in range {
                    let c = scalars[index]
                    guard (0x30...0x39).contains(c) else { return nil }
                    value = value * 10 + Int(c - 0x30)
                }
                return value
            }
            let separatorsOK =
                [4, 7].allSatisfy { scalars[$0] == 0x3A || scalars[$0] == 0x2D }
                && (scalars[10] == 0x20 || scalars[10] == 0x54) && scalars[13] == 0x3A && scalars[16] == 0x3A
            guard separatorsOK, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                (1800...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
                (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
            else { return nil }
            self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            // Nine digits at most (nanoseconds): ".9999…" of twenty digits rounds to 1.0 as a
            // Double, a whole second more than the file says (found by scripts/fuzz xmp).
            if let subseconds, !subseconds.isEmpty, subseconds.allSatisfy(\.isASCIIDigit),
                let fraction = Double("0." + subseconds.prefix(9))
            {
                fractionalSecond = fraction
            }
            if let offset { utcOffset = Self.parseOffset(offset) }
        }

        /// `+01:00`, `-05:30`, `Z`.
        package static func parseOffset(_ text: String) -> Int? {
            let scalars = Array(text.utf8)
            if scalars == [0x5A] { return 0 }
            // Digits only: `Int("+0")` and `Int("-5")` parse, and `+09:-5` is no offset.
            let digits = [1, 2, 4, 5]
            guard scalars.count == 6, scalars[0] == 0x2B || scalars[0] == 0x2D, scalars[3] == 0x3A,
                digits.allSatisfy({ (0x30...0x39).contains(scalars[$0]) })
            else { return nil }
            let hours = Int(scalars[1] - 0x30) * 10 + Int(scalars[2] - 0x30)
            let minutes = Int(scalars[4] - 0x30) * 10 + Int(scalars[5] - 0x30)
            guard hours <= 14, minutes < 60 else { return nil }
            let seconds = hours * 3600 + minutes * 60
            return scalars[0] == 0x2D ? -seconds : seconds
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension ImageMetadata {
    /// These fields with `other`'s set fields written over them (what a caller passes when
    /// saving wins over what the image carried). A place is the three values together: it is
    /// taken only when `other` has both coordinates.
    public func merging(_ other: ImageMetadata) -> ImageMetadata {
        var merged = self
        merged.takeValues(of: other)
        if other.latitude != nil, other.longitude != nil {
            (merged.latitude, merged.longitude, merged.altitude) = (other.latitude, other.longitude, other.altitude)
        }
        return merged
    }

    /// Takes every value `other` holds but the place (latitude, longitude, altitude), which
    /// callers merge by their own rule. The one list of fields: a field added to the type is
    /// added here (``ImageMetadataTests`` checks that none is missing).
    mutating func takeValues(of other: ImageMetadata) {
        func take<Value>(_ field: WritableKeyPath<ImageMetadata, Value?>) {
            if let value = other[keyPath: field] { self[keyPath: field] = value }
        }
        take(\.orientation)
        [\.make, \.model, \.bodySerialNumber, \.lensMake, \.lensModel, \.software, \.colorProfileName, \.contentIdentifier, \.burstIdentifier]
            .forEach(take)
        take(\.dateTimeOriginal)
        [\.exposureTime, \.fNumber, \.focalLength].forEach(take)
        take(\.isoSpeed)
        [\.flashFired, \.continuousDrive].forEach(take)
    }
}

extension ImageMetadata {
    /// A text value as the metadata readers keep it: trimmed, and `nil` when empty or when it holds
    /// control characters (garbage rather than text).
    package static func cleanedText(_ text: some StringProtocol) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return trimmed
    }
}
