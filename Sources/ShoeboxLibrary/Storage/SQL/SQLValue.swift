import Foundation

/// A value bound into a statement or read from a row, the same for every SQL engine the catalog
/// runs on: each ``SQLDriver`` converts it to and from its engine's own types.
package enum SQLValue: Sendable, Hashable {
    /// SQL `NULL`: what `nil` binds as, and what an empty column reads as.
    case null
    /// A 64-bit integer (PostgreSQL's `smallint`, `integer` and `bigint` read as this).
    case integer(Int64)
    /// A double-precision number (PostgreSQL's `real`, `double precision` and `numeric` read as
    /// this).
    case real(Double)
    /// Text. SQLite hands dates back as this (`YYYY-MM-DD HH:MM:SS.SSS`, UTC), which `Date` reads.
    case text(String)
    /// Bytes: a SQLite `BLOB`, a PostgreSQL `bytea`.
    case blob(Data)
    /// A boolean: PostgreSQL keeps a `boolean`; SQLite stores 1 or 0, which reads back as
    /// ``SQLValue/integer(_:)`` (and `Bool` reads that).
    case bool(Bool)
    /// An instant. SQLite keeps it as GRDB's UTC text (`YYYY-MM-DD HH:MM:SS.SSS`, which sorts as
    /// time does); PostgreSQL as `timestamptz`.
    case date(Date)
}

/// A Swift value a statement can bind (`"… WHERE id = \(id)"`).
package protocol SQLBindable {
    /// The value as a statement binds it: what its `?` placeholder takes.
    var sqlValue: SQLValue { get }
}

/// A Swift value a row can be read as (`let id: Int64 = row["id"]`).
package protocol SQLReadable {
    /// The value, or `nil` when the column holds something else (or NULL).
    init?(sqlValue: SQLValue)
}

extension Int64: SQLBindable, SQLReadable {
    /// The value as ``SQLValue/integer(_:)``.
    package var sqlValue: SQLValue { .integer(self) }
    /// Reads an integer; also a real (truncated toward zero; a non-finite or out-of-range one traps),
    /// a bool (1 or 0) or text holding a decimal integer. `nil` for anything else.
    package init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let value): self = value
        case .real(let value): self = Int64(value)
        case .bool(let value): self = value ? 1 : 0
        case .text(let text):
            guard let value = Int64(text) else { return nil }
            self = value
        default: return nil
        }
    }
}

extension Int: SQLBindable, SQLReadable {
    /// The value as ``SQLValue/integer(_:)``.
    package var sqlValue: SQLValue { .integer(Int64(self)) }
    /// Reads what `Int64` reads (an integer, a truncated real, a bool, decimal text).
    package init?(sqlValue: SQLValue) {
        guard let value = Int64(sqlValue: sqlValue) else { return nil }
        self = Int(value)
    }
}

extension Double: SQLBindable, SQLReadable {
    /// The value as ``SQLValue/real(_:)``.
    package var sqlValue: SQLValue { .real(self) }
    /// Reads a real; also an integer, or text holding a number. `nil` for anything else.
    package init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        case .text(let text):
            guard let value = Double(text) else { return nil }
            self = value
        default: return nil
        }
    }
}

extension String: SQLBindable, SQLReadable {
    /// The value as ``SQLValue/text(_:)``.
    package var sqlValue: SQLValue { .text(self) }
    /// Reads text; also an integer (in decimal) or a blob (as UTF-8, invalid bytes replaced).
    /// `nil` for anything else, reals and dates included.
    package init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .text(let value): self = value
        case .integer(let value): self = String(value)
        case .blob(let data): self = String(decoding: data, as: UTF8.self)
        default: return nil
        }
    }
}

extension Bool: SQLBindable, SQLReadable {
    /// The value as ``SQLValue/bool(_:)``.
    package var sqlValue: SQLValue { .bool(self) }
    /// Reads a bool; also an integer (any but 0 is `true`). `nil` for anything else.
    package init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .bool(let value): self = value
        case .integer(let value): self = value != 0
        default: return nil
        }
    }
}

extension Data: SQLBindable, SQLReadable {
    /// The value as ``SQLValue/blob(_:)``.
    package var sqlValue: SQLValue { .blob(self) }
    /// Reads a blob; also text (its UTF-8 bytes). `nil` for anything else.
    package init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .blob(let value): self = value
        case .text(let text): self = Data(text.utf8)
        default: return nil
        }
    }
}

extension Date: SQLBindable, SQLReadable {
    /// The value as ``SQLValue/date(_:)``.
    package var sqlValue: SQLValue { .date(self) }
    /// Reads a date; also text as SQLite keeps dates (`YYYY-MM-DD HH:MM:SS.SSS`, UTC) or a
    /// number of seconds since 1970. `nil` for anything else.
    package init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .date(let value): self = value
        case .text(let text):
            guard let value = SQLDateFormat.date(from: text) else { return nil }
            self = value
        case .real(let seconds): self = Date(timeIntervalSince1970: seconds)
        case .integer(let seconds): self = Date(timeIntervalSince1970: TimeInterval(seconds))
        default: return nil
        }
    }
}

extension SQLValue: SQLBindable {
    /// The value itself.
    package var sqlValue: SQLValue { self }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    /// The wrapped value's, or ``SQLValue/null`` for `nil`.
    package var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

extension Optional: SQLReadable where Wrapped: SQLReadable {
    /// Reads ``SQLValue/null`` as `nil`, anything else as `Wrapped` reads it; fails when
    /// `Wrapped` cannot, so a mismatch is not taken for NULL.
    package init?(sqlValue: SQLValue) {
        if case .null = sqlValue {
            self = .none
        } else if let value = Wrapped(sqlValue: sqlValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}

/// Dates as SQLite keeps them in the catalog: `YYYY-MM-DD HH:MM:SS.SSS` in UTC (GRDB's format;
/// the SQLite driver writes them with GRDB, so catalogs written before the SQL layer read the same).
enum SQLDateFormat {
    /// Parses `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, `…:SS` and `…:SS.SSS` (also with `T`), in UTC.
    static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 10, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        if bytes.count >= 16 {
            guard let h = number(11..<13), let m = number(14..<16) else { return nil }
            hour = h
            minute = m
            if bytes.count >= 19 {
                guard let s = number(17..<19) else { return nil }
                second = s
                if bytes.count > 20, bytes[19] == UInt8(ascii: ".") {
                    let digits = bytes[20...].prefix { $0 >= 48 && $0 <= 57 }
                    var scale = 0.1
                    for digit in digits {
                        fraction += Double(digit - 48) * scale
                        scale /= 10
                    }
                }
            }
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }
}
