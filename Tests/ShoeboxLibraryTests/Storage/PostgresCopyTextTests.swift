import Foundation
import NIOCore
import Testing

@testable import ShoeboxLibrary

/// `COPY`'s text format as the bulk insert writes it: escapes, NULLs, and instants written
/// without Foundation's formatters, checked against them (since 1583, where both calendars agree).
@Suite struct PostgresCopyTextTests {
    static func line(_ row: [SQLValue]) -> String {
        var buffer = ByteBuffer()
        PostgresCopyText.append(row, to: &buffer)
        return buffer.readString(length: buffer.readableBytes) ?? ""
    }

    @Test func valuesAreEscapedAndSeparated() {
        #expect(Self.line([.null, .integer(-42), .bool(true), .bool(false)]) == "\\N\t-42\tt\tf\n")
        #expect(Self.line([.text("a\tb\nc\rd\\e"), .text("\\N")]) == "a\\tb\\nc\\rd\\\\e\t\\\\N\n")
        #expect(Self.line([.real(1.5), .real(-.infinity), .real(.nan)]) == "1.5\t-Infinity\tNaN\n")
        #expect(Self.line([.blob(Data([0x00, 0xAB, 0x10]))]) == "\\\\x00ab10\n")
        #expect(Self.line([.text("写真")]) == "写真\n")
    }

    @Test func instantsMatchFoundationsCalendar() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        var generator = SystemRandomNumberGenerator()
        var seconds: [Int64] = [0, -1, 86_399, 86_400, -86_400, 951_782_400, 4_107_542_399, -2_208_988_800]
        for _ in 0..<2_000 { seconds.append(Int64.random(in: -5_000_000_000...10_000_000_000, using: &generator)) }
        for second in seconds {
            let micros = Int64.random(in: 10..<999_990, using: &generator)
            let date = Date(timeIntervalSince1970: Double(second) + Double(micros) / 1_000_000)
            let text = PostgresCopyText.timestamp(date)
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(second)))
            #expect(text.hasPrefix(expected + "."), "\(second): \(text), Foundation says \(expected)")
            #expect(text.hasSuffix("+00"))
            let written = Int64(text.dropFirst(20).prefix(6)) ?? -1
            #expect(abs(written - micros) <= 2, "\(second).\(micros): \(text)")
        }
        // Before the Gregorian reform Foundation's calendar is Julian; PostgreSQL's (and this) is
        // proleptic Gregorian, with year 0 written as 1 BC.
        #expect(PostgresCopyText.timestamp(Date(timeIntervalSince1970: -62_135_596_800 + 86_400)) == "0001-01-02 00:00:00.000000+00")
        #expect(PostgresCopyText.timestamp(Date(timeIntervalSince1970: -62_135_596_800 - 86_400)) == "0001-12-31 00:00:00.000000+00 BC")
    }
}
