import Foundation
import ShoeboxLibrary
import Testing

/// How `SearchQuery` understands what is typed, against a fixed "now" (Thursday 26 November
/// 2026, 15:00 UTC) in UTC.
@Suite struct SearchQueryTests {
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.firstWeekday = 2
        return calendar
    }

    static let now = date(2026, 11, 26, hour: 15)

    static func date(_ year: Int, _ month: Int, _ day: Int, hour: Int = 0) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour))!
    }

    static func query(_ text: String) -> SearchQuery { SearchQuery(text, now: now, calendar: calendar) }

    static func ranges(_ term: SearchQuery.Term) -> [DateInterval] {
        if case .dates(let ranges, _) = term { return ranges }
        return []
    }

    @Test("Words, a year and a kind, in any order; little words skipped")
    func combined() {
        let query = Self.query("Italy in 2019 videos")
        #expect(query.terms.map(\.label) == ["“italy”", "2019", "Videos"])
        #expect(Self.ranges(query.terms[1]) == [DateInterval(start: Self.date(2019, 1, 1), end: Self.date(2020, 1, 1))])
        #expect(query.terms[2] == .mediaType(.video))
        #expect(Self.query("photos of São Paulo").terms == [.mediaType(.image), .word("sao"), .word("paulo")])
        #expect(Self.query("  ").predicate == nil && Self.query("in the of").predicate == nil)
    }

    @Test("A month with a year is that month; without one, that month of every year so far")
    func months() {
        let june = Self.query("june 2021").terms
        #expect(june.map(\.label) == ["June 2021"])
        #expect(Self.ranges(june[0]) == [DateInterval(start: Self.date(2021, 6, 1), end: Self.date(2021, 7, 1))])
        #expect(Self.query("Sept 2020").terms.map(\.label) == ["September 2020"])
        let december = Self.ranges(Self.query("dec").terms[0])
        #expect(december.count == 2026 - 1970, "every December that has begun: \(december.count)")
        #expect(december.last?.start == Self.date(2025, 12, 1))
        #expect(Self.query("ma").terms == [.word("ma")], "two letters are a word, not a month")
        #expect(Self.query("ju").terms == [.word("ju")])
    }

    @Test("A single day, however it is written; a day without a year is that day of every year so far")
    func days() {
        let day = [DateInterval(start: Self.date(2008, 10, 22), end: Self.date(2008, 10, 23))]
        for text in ["oct 22 2008", "October 22, 2008", "22 oct 2008", "22nd October 2008", "2008-10-22", "22/10/2008", "10/22/2008", "22.10.2008"] {
            let terms = Self.query(text).terms
            #expect(terms.map(\.label) == ["22 October 2008"], "\(text)")
            #expect(terms.first.map(Self.ranges) == day, "\(text)")
        }
        // Either could be meant: both days.
        let either = Self.query("5/6/2008").terms
        #expect(either.map(\.label) == ["5 June 2008 or 6 May 2008"])
        #expect(either.first.map(Self.ranges)?.map(\.start) == [Self.date(2008, 6, 5), Self.date(2008, 5, 6)])
        // Every 22 October so far.
        let yearly = Self.query("oct 22 videos").terms
        #expect(yearly.map(\.label) == ["22 October", "Videos"])
        #expect(yearly.first.map(Self.ranges)?.count == 2026 - 1970 + 1 && yearly.first.map(Self.ranges)?.last?.start == Self.date(2026, 10, 22))
        // No such day: the words stay words (and a month stays a month).
        #expect(Self.query("30/02/2008").terms.map(\.label) == ["“30”", "“02”", "2008"])
        #expect(Self.query("june 2021").terms.map(\.label) == ["June 2021"])
        #expect(Self.query("2019 videos").terms.map(\.label) == ["2019", "Videos"])
    }

    @Test("Seasons: named with a year, last (the latest over), this (the latest begun)")
    func seasons() {
        #expect(Self.ranges(Self.query("summer 2019").terms[0]) == [DateInterval(start: Self.date(2019, 6, 1), end: Self.date(2019, 9, 1))])
        let last = Self.query("last summer").terms
        #expect(last.map(\.label) == ["Summer 2026"])
        #expect(Self.ranges(last[0]) == [DateInterval(start: Self.date(2026, 6, 1), end: Self.date(2026, 9, 1))])
        // Autumn 2026 is not over on 26 November: the last one over is 2025's.
        #expect(Self.ranges(Self.query("last autumn").terms[0]).first?.start == Self.date(2025, 9, 1))
        #expect(Self.ranges(Self.query("this fall").terms[0]).first?.start == Self.date(2026, 9, 1))
        let winter = Self.query("last winter").terms
        #expect(winter.map(\.label) == ["Winter 2025–2026"])
        #expect(Self.ranges(winter[0]) == [DateInterval(start: Self.date(2025, 12, 1), end: Self.date(2026, 3, 1))])
    }

    @Test("Today, yesterday, this and last week, month and year")
    func relative() {
        #expect(Self.ranges(Self.query("today").terms[0]) == [DateInterval(start: Self.date(2026, 11, 26), end: Self.date(2026, 11, 27))])
        #expect(Self.ranges(Self.query("yesterday").terms[0]) == [DateInterval(start: Self.date(2026, 11, 25), end: Self.date(2026, 11, 26))])
        #expect(Self.ranges(Self.query("last month").terms[0]) == [DateInterval(start: Self.date(2026, 10, 1), end: Self.date(2026, 11, 1))])
        #expect(Self.ranges(Self.query("this year").terms[0]) == [DateInterval(start: Self.date(2026, 1, 1), end: Self.date(2027, 1, 1))])
        #expect(Self.ranges(Self.query("last year").terms[0]).first?.start == Self.date(2025, 1, 1))
        // Weeks begin on Monday in this calendar: 23 November 2026.
        #expect(Self.ranges(Self.query("this week").terms[0]).first?.start == Self.date(2026, 11, 23))
        #expect(Self.ranges(Self.query("last week").terms[0]) == [DateInterval(start: Self.date(2026, 11, 16), end: Self.date(2026, 11, 23))])
        #expect(Self.query("last").terms == [.word("last")], "a last word alone is a word")
    }

    @Test("Kinds and favorites; a word said twice counts once; sixteen words read, eight looked up")
    func kinds() {
        #expect(Self.query("favourite live photos").terms == [.favorites, .mediaSubtype(.photoLive, label: "Live Photos"), .mediaType(.image)])
        #expect(Self.query("RAW screenshots panoramas").terms.map(\.label) == ["RAW", "Screenshots", "Panoramas"])
        #expect(Self.query("rome ROME Róme").terms == [.word("rome")])
        #expect(Self.query((1...40).map { "w\($0)" }.joined(separator: " ")).terms.count == 8)
    }
}

extension SearchQueryTests {
    @Test("What one search looks up is bounded: implied prefixes dropped, two short words, eight in all, asked at once")
    func bounded() {
        // A long run of short prefixes (each a walk over every word it begins).
        let run = Self.query("b c d e f g h i j k l m n o p q")
        #expect(run.terms == [.word("b"), .word("c")], "\(run.terms)")
        guard case .text(let text)? = run.predicate else {
            Issue.record("the words are not one text predicate: \(String(describing: run.predicate))")
            return
        }
        #expect(text == "b c")
        // A word another one begins adds nothing; the rest are kept in order, eight at most.
        #expect(Self.query("ro rome").terms == [.word("rome")])
        let many = Self.query("alpha bravo charlie delta echo foxtrot golf hotel india juliet 2019")
        #expect(many.terms.count == 9 && many.terms.last?.label == "2019", "\(many.terms.map(\.label))")
        #expect(many.terms.prefix(8).allSatisfy { if case .word = $0 { true } else { false } })
        // Words and the rest: one text predicate for the words.
        guard case .all(let parts)? = Self.query("rome old videos").predicate, case .text(let words) = parts.first else {
            Issue.record("the words are not one text predicate")
            return
        }
        #expect(words == "rome old" && parts.count == 2)
    }
}
