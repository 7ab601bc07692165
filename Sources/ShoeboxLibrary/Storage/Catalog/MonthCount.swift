import Foundation
import ShoeboxSupport

/// How many assets of a fetch were taken in one calendar month
/// (``AssetCatalog/monthCounts(matching:)``).
package struct MonthCount: Sendable, Hashable {
    /// `YYYY-MM`, the month as the clock read where the assets were taken.
    package let month: String
    /// How many assets of the fetch were taken in ``month``.
    package let count: Int

    /// A count as ``AssetCatalog/monthCounts(matching:)`` returns it.
    package init(month: String, count: Int) {
        self.month = month
        self.count = count
    }

    /// The `YYYY-MM` of `date` plus `offset` seconds (the clock where it was taken), by the
    /// same arithmetic as the engines' `datetime(…, '+N seconds')` and `to_char(… AT TIME ZONE
    /// 'UTC')`: whole seconds toward the past, the proleptic Gregorian calendar.
    package static func localMonth(of date: Date, offset: Int?) -> String {
        text(ofMonth: monthNumber(of: date, offset: offset))
    }

    /// The month number (``text(ofMonth:)``) of ``localMonth(of:offset:)``.
    package static func monthNumber(of date: Date, offset: Int?) -> Int64 {
        monthNumber(seconds: Int64(date.timeIntervalSince1970.rounded(.down)) + Int64(offset ?? 0))
    }

    /// The month of a date as SQLite's catalog keeps it (`YYYY-MM-DD HH:MM:SS.SSS`, UTC) plus
    /// `offset` seconds, as a month number (``text(ofMonth:)``), read from the text's digits
    /// without a `Date` or a string: a search's sections count every match. `nil` for text of
    /// another shape.
    package static func localMonthNumber(ofCatalogText text: String, offset: Int?) -> Int64? {
        var text = text
        return text.withUTF8 { bytes -> Int64? in
            guard bytes.count >= 19 else { return nil }
            func number(_ from: Int, _ count: Int) -> Int64? {
                var value: Int64 = 0
                for index in from..<from + count {
                    let digit = bytes[index] &- 48
                    guard digit < 10 else { return nil }
                    value = value * 10 + Int64(digit)
                }
                return value
            }
            guard let year = number(0, 4), let month = number(5, 2), (1...12).contains(month) else { return nil }
            let offset = Int64(offset ?? 0)
            if offset == 0 { return year * 12 + month - 1 }
            guard let day = number(8, 2), let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2) else { return nil }
            let days = ISO8601Text.daysSince1970(year: year, month: month, day: day)
            return monthNumber(seconds: days * 86_400 + hour * 3_600 + minute * 60 + second + offset)
        }
    }

    /// Months since year 0 (`year × 12 + month − 1`) of a count of seconds since 1970 (UTC).
    package static func monthNumber(seconds: Int64) -> Int64 {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, _) = ISO8601Text.civilDate(daysSince1970: days)
        return year * 12 + month - 1
    }

    /// `YYYY-MM` of a month number.
    package static func text(ofMonth number: Int64) -> String {
        let year = number >= 0 ? number / 12 : (number - 11) / 12
        let month = number - year * 12 + 1
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + (month < 10 ? "-0" : "-") + String(month)
    }

    /// Counts of month numbers (one an asset), ordered by month, newest first when `descending`.
    package static func counting(_ months: [Int64], descending: Bool) -> [MonthCount] {
        var counts: [Int64: Int] = [:]
        for month in months { counts[month, default: 0] += 1 }
        return counts.sorted { descending ? $0.key > $1.key : $0.key < $1.key }.map { MonthCount(month: text(ofMonth: $0.key), count: $0.value) }
    }
}
