import Foundation
import NIOCore
import ShoeboxSupport

/// Rows in the text format of PostgreSQL's `COPY … FROM STDIN`: one line a row, values split by
/// tabs, `\N` for NULL, and backslash, tab, newline and carriage return escaped.
enum PostgresCopyText {
    /// Appends one row's line to `buffer`.
    static func append(_ row: [SQLValue], to buffer: inout ByteBuffer) {
        for (index, value) in row.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            append(value, to: &buffer)
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
    }

    /// Appends one value as `COPY`'s text format spells it.
    static func append(_ value: SQLValue, to buffer: inout ByteBuffer) {
        switch value {
        case .null: buffer.writeStaticString("\\N")
        case .integer(let number): buffer.writeString(String(number))
        case .real(let number):
            if number.isNaN {
                buffer.writeStaticString("NaN")
            } else if number.isInfinite {
                buffer.writeStaticString(number < 0 ? "-Infinity" : "Infinity")
            } else {
                buffer.writeString(String(number))
            }
        case .bool(let flag): buffer.writeStaticString(flag ? "t" : "f")
        case .text(let text): appendEscaped(text, to: &buffer)
        case .blob(let data):
            // bytea's hex form, its backslash escaped for COPY: `\\x0a1b…`.
            buffer.writeStaticString("\\\\x")
            buffer.writeString(Hex.encode(data))
        case .date(let date): buffer.writeString(timestamp(date))
        }
    }

    /// Text with COPY's escapes.
    static func appendEscaped(_ text: String, to buffer: inout ByteBuffer) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
            case UInt8(ascii: "\t"): buffer.writeStaticString("\\t")
            case UInt8(ascii: "\n"): buffer.writeStaticString("\\n")
            case UInt8(ascii: "\r"): buffer.writeStaticString("\\r")
            default: buffer.writeInteger(byte)
            }
        }
    }

    /// An instant as a `timestamptz` literal in UTC with microseconds (`2024-03-09 17:04:05.250000+00`),
    /// made without Foundation's formatters; years before 1 end in ` BC`, as PostgreSQL writes them.
    static func timestamp(_ date: Date) -> String {
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let perDay: Int64 = 86_400_000_000
        var days = micros / perDay
        var ofDay = micros % perDay
        if ofDay < 0 {
            ofDay += perDay
            days -= 1
        }
        let (civilYear, month, day) = ISO8601Text.civilDate(daysSince1970: days)
        var year = civilYear
        var bcSuffix = ""
        if year <= 0 {
            year = 1 - year
            bcSuffix = " BC"
        }
        let seconds = ofDay / 1_000_000
        func padded(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + " " + padded(seconds / 3_600, 2) + ":"
            + padded(seconds / 60 % 60, 2) + ":" + padded(seconds % 60, 2) + "." + padded(ofDay % 1_000_000, 6) + "+00" + bcSuffix
    }
}
