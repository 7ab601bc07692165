import Foundation

/// Dates as ISO 8601 text in UTC (`2021-04-11T15:47:53`), written by arithmetic on the
/// proleptic Gregorian calendar rather than through a formatter: a listing of 200 assets writes
/// four dates each, and Foundation's formatters cost microseconds a value.
///
/// Whole seconds, the fraction dropped toward the past (as `JSONEncoder`'s `.iso8601` and a
/// Gregorian calendar's components do). Years 1583 to 9999 only: before 1583 Foundation's
/// calendar counts Julian days, and the callers fall back to it there, so both write the same.
package enum ISO8601Text {
    /// Appends the date's text; `false`, appending nothing, outside 1583-01-01…9999-12-31 (use
    /// Foundation there).
    package static func append(_ date: Date, to bytes: inout [UInt8]) -> Bool {
        let interval = date.timeIntervalSince1970.rounded(.down)
        // 1583-01-01 and 10000-01-01.
        guard interval >= -12_212_553_600, interval < 253_402_300_800 else { return false }
        let seconds = Int64(interval)
        var days = seconds / 86_400
        var inDay = seconds % 86_400
        if inDay < 0 {
            inDay += 86_400
            days -= 1
        }
        let (year, month, day) = civilDate(daysSince1970: days)
        digits(Int(year), 4, &bytes)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(month), 2, &bytes)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(day), 2, &bytes)
        bytes.append(UInt8(ascii: "T"))
        digits(Int(inDay / 3_600), 2, &bytes)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(inDay % 3_600 / 60), 2, &bytes)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(inDay % 60), 2, &bytes)
        return true
    }

    /// The proleptic Gregorian year, month and day of a count of days since 1970-01-01 (Howard
    /// Hinnant's `civil_from_days`; year 0 is 1 BC).
    package static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The count of days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
    /// `days_from_civil`, the inverse of ``civilDate(daysSince1970:)``).
    package static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date's text as a string, or `nil` where ``append(_:to:)`` is.
    package static func string(_ date: Date) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(19)
        guard append(date, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func digits(_ value: Int, _ count: Int, _ bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
