import Foundation
import ShoeboxImaging
import ShoeboxSupport

/// When a photo or movie was taken: the instant, and the offset from UTC of the clock where it
/// was taken, so that the time can be shown as it was there (15:56 in Rome stays 15:56 for a
/// viewer in Los Angeles) while sorting goes by the instant.
///
/// Where the offset comes from, first found wins:
/// 1. the file's own (EXIF `OffsetTimeOriginal`, QuickTime's `com.apple.quicktime.creationdate`);
/// 2. the time zone of where it was taken (its GPS position, through a ``Gazetteer``), at that
///    date, summer time included;
/// 3. none: the recorded clock is kept as it is, read as UTC (``timeZoneOffset`` is `nil`, and
///    the local time shown is the time the camera's clock said).
public struct CaptureTime: Sendable, Hashable {
    /// The instant.
    public var date: Date
    /// Seconds east of UTC of the clock where it was taken, or `nil` when unknown.
    public var timeZoneOffset: Int?
    /// The IANA zone the offset came from, when it came from the place (`Europe/Rome`).
    public var timeZoneIdentifier: String?

    /// A capture time from its parts, unchecked: `timeZoneOffset` in seconds east of UTC, `nil`
    /// for an unknown zone.
    public init(date: Date, timeZoneOffset: Int? = nil, timeZoneIdentifier: String? = nil) {
        self.date = date
        self.timeZoneOffset = timeZoneOffset
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    /// The time a file records as a wall clock (EXIF), placed by its own offset, else by the
    /// zone of `location`, else read as UTC; `nil` for a date that does not exist.
    public init?(recorded: ImageMetadata.DateTime, location: Asset.Location?, places: Gazetteer?) {
        if let offset = recorded.utcOffset, let zone = TimeZone(secondsFromGMT: offset), let date = recorded.date(assuming: zone) {
            self.init(date: date, timeZoneOffset: offset)
        } else if let location, let zone = places?.timeZone(latitude: location.latitude, longitude: location.longitude),
            let date = recorded.date(assuming: zone)
        {
            self.init(date: date, timeZoneOffset: zone.secondsFromGMT(for: date), timeZoneIdentifier: zone.identifier)
        } else if let utc = TimeZone(identifier: "UTC"), let date = recorded.date(assuming: utc) {
            self.init(date: date)
        } else {
            return nil
        }
    }

    /// An instant a file records (a movie's UTC creation time), with the offset it records, else
    /// that of the zone of `location`.
    public init(instant: Date, recordedOffset: Int?, location: Asset.Location?, places: Gazetteer?) {
        if let recordedOffset {
            self.init(date: instant, timeZoneOffset: recordedOffset)
        } else if let location, let zone = places?.timeZone(latitude: location.latitude, longitude: location.longitude) {
            self.init(date: instant, timeZoneOffset: zone.secondsFromGMT(for: instant), timeZoneIdentifier: zone.identifier)
        } else {
            self.init(date: instant)
        }
    }

    /// The same zone at another instant (the user moved the date): a named zone's offset is
    /// looked up again (summer time may differ); a bare offset is kept.
    public func moved(to date: Date) -> CaptureTime {
        if let timeZoneIdentifier, let zone = TimeZone(identifier: timeZoneIdentifier) {
            return CaptureTime(date: date, timeZoneOffset: zone.secondsFromGMT(for: date), timeZoneIdentifier: timeZoneIdentifier)
        }
        return CaptureTime(date: date, timeZoneOffset: timeZoneOffset, timeZoneIdentifier: nil)
    }

    /// The wall-clock time where it was taken, `2021-04-11T15:47:53` (no offset): the instant
    /// moved by ``timeZoneOffset`` (or by nothing when it is unknown).
    public var localDateString: String {
        Self.localFormat(date.addingTimeInterval(TimeInterval(timeZoneOffset ?? 0)))
    }

    /// `+01:00`, `-05:00`, or `nil` when the offset is unknown.
    public var offsetString: String? { timeZoneOffset.map(ImageMetadata.DateTime.offsetString) }

    /// Gregorian in UTC, made once: every asset of a listing page is formatted with it.
    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()

    private static func localFormat(_ date: Date) -> String {
        if let text = ISO8601Text.string(date) { return text }
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}
