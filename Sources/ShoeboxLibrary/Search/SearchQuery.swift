import Foundation
import ShoeboxImaging

/// What someone types into a search box, understood: words for the full-text index (file
/// names, cameras, lenses, places, album titles) and the words that mean something more — dates,
/// kinds of media, favorites. Every part must hold (`italy 2019 videos`: movies from 2019 whose
/// place, name or album says Italy).
///
/// Dates: a year (`2019`), a month with or without a year (`june 2021`, `jun`), a day (`oct 22
/// 2008`, `22 October 2008`, `2008-10-22`, `22/10/2008` or `10/22/2008`, both days when either
/// could be meant; `oct 22` is that day of every year), a season
/// (`summer 2019`, `last summer`, `this winter`; northern seasons by month: spring March–May,
/// summer June–August, autumn or fall September–November, winter December to February),
/// `today`, `yesterday`, `this week`, `last week`, `this month`, `last month`, `this year`,
/// `last year`. Days are the calendar's (the server's time zone). Kinds: `photos`, `pictures`,
/// `videos`, `movies`, `live` (Live Photos), `raw`, `screenshots`, `panoramas`, `favorites`.
/// Little words (`in`, `from`, `the`, …) are skipped. What one search costs is bounded: at most
/// Eight words are looked up, two of them under three letters, and
/// a word that begins another of the search's words is implied by it.
///
/// ```swift
/// let query = SearchQuery("italy 2019 videos")
/// let found = try await library.fetchAssets(with: FetchOptions(predicate: query.predicate))
/// print(query.terms.map(\.label))   // ["“italy”", "2019", "Videos"]
/// ```
public struct SearchQuery: Sendable, Hashable {
    /// One understood part of the text.
    public enum Term: Sendable, Hashable {
        /// A word to find in the full-text index or an album title.
        case word(String)
        /// Taken in one of these date ranges (`from` inclusive, `to` exclusive), called `label`.
        case dates([DateInterval], label: String)
        /// Photos (`photos`, `pictures`, `images`…) or movies (`videos`, `movies`, `clips`…) only,
        /// shown as `Photos` or `Videos`.
        case mediaType(Asset.MediaType)
        /// Photos with these subtypes (`live`, `screenshots`, `panoramas`), called `label`: `Live Photos`,
        /// `Screenshots`, `Panoramas`.
        case mediaSubtype(Asset.MediaSubtypes, label: String)
        /// Camera raw originals.
        case raw
        /// The user's favourites (`favorites`, `favourites`, `starred`, `loved`…).
        case favorites

        /// How a search box shows it: `“italy”`, `June 2021`, `Videos`.
        public var label: String {
            switch self {
            case .word(let word): "“\(word)”"
            case .dates(_, let label): label
            case .mediaType(let type): type == .video ? "Videos" : "Photos"
            case .mediaSubtype(_, let label): label
            case .raw: "RAW"
            case .favorites: "Favorites"
            }
        }

        var predicate: FetchOptions.Predicate {
            switch self {
            case .word(let word): .text(word)
            case .dates(let intervals, _):
                intervals.count == 1
                    ? .creationDate(from: intervals[0].start, to: intervals[0].end)
                    : .any(intervals.map { .creationDate(from: $0.start, to: $0.end) })
            case .mediaType(let type): .mediaType(type)
            case .mediaSubtype(let subtypes, _): .mediaSubtype(subtypes)
            case .raw: .uniformTypeIdentifier(SearchQuery.rawTypes)
            case .favorites: .isFavorite(true)
            }
        }
    }

    /// The text as typed.
    public let text: String
    /// What it was understood as, in order.
    public let terms: [Term]

    /// The fetch predicate that holds for what the text asks for; `nil` for text with nothing to
    /// look for (empty, or only little words).
    /// The words are one text predicate, so the index is asked about them at once.
    public var predicate: FetchOptions.Predicate? {
        var predicates: [FetchOptions.Predicate] = []
        var words: [String] = []
        for term in terms {
            if case .word(let word) = term { words.append(word) } else { predicates.append(term.predicate) }
        }
        if !words.isEmpty { predicates.insert(.text(words.joined(separator: " ")), at: 0) }
        return predicates.isEmpty ? nil : predicates.count == 1 ? predicates[0] : .all(predicates)
    }

    /// Every camera raw type Shoebox keeps.
    static let rawTypes = ImageFormat.allCases.filter(\.isRaw).map(\.uniformTypeIdentifier)

    static let littleWords: Set<String> = ["in", "at", "on", "of", "from", "the", "and", "my", "with", "during", "a", "an", "to", "taken", "shot"]
    static let months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
    static let seasons: [String: Int] = ["spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12]  // first month

    /// Understands `text` against `now` in `calendar` (its time zone decides where days begin).
    public init(_ text: String, now: Date = Date(), calendar: Calendar = .current) {
        self.text = text
        // Sixteen words at most: a search box, not a document.
        let words = Array(AssetSearchText.words(in: text).prefix(16))
        var terms: [Term] = []
        let thisYear = calendar.component(.year, from: now)
        func interval(_ year: Int, _ month: Int, months count: Int) -> DateInterval? {
            guard let start = calendar.date(from: DateComponents(year: year, month: month, day: 1)),
                let end = calendar.date(byAdding: .month, value: count, to: start)
            else { return nil }
            return DateInterval(start: start, end: end)
        }
        func year(_ word: String?) -> Int? {
            guard let word, word.count == 4, let value = Int(word), (1800...2200).contains(value) else { return nil }
            return value
        }
        func month(_ word: String) -> Int? {
            if let index = Self.months.firstIndex(of: word) { return index + 1 }
            // `jun`, `sept`: three letters or more that begin one month's name only.
            guard word.count >= 3 else { return nil }
            let matches = Self.months.indices.filter { Self.months[$0].hasPrefix(word) }
            return matches.count == 1 ? matches[0] + 1 : nil
        }
        /// The season starting in `first` month that has (or had) its start in `year`.
        func season(_ first: Int, _ year: Int) -> DateInterval? { interval(year, first, months: 3) }
        /// The last season starting in `first` month that has ended (`last`) or the one now or
        /// most recently begun (`this`).
        func relativeSeason(_ first: Int, last: Bool) -> (DateInterval, Int)? {
            for year in stride(from: thisYear, through: thisYear - 2, by: -1) {
                guard let range = season(first, year) else { continue }
                if last ? range.end <= now : range.start <= now { return (range, year) }
            }
            return nil
        }
        /// Midnight to midnight of a day, if the day exists (no 30 February).
        func day(_ year: Int, _ month: Int, _ day: Int) -> DateInterval? {
            guard (1...12).contains(month), (1...31).contains(day),
                let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
                calendar.component(.day, from: start) == day, calendar.component(.month, from: start) == month,
                let end = calendar.date(byAdding: .day, value: 1, to: start)
            else { return nil }
            return DateInterval(start: start, end: end)
        }
        /// A day of the month as typed: `22`, `22nd`, `1st`.
        func dayOfMonth(_ word: String?) -> Int? {
            guard var word, !word.isEmpty else { return nil }
            for suffix in ["st", "nd", "rd", "th"] where word.hasSuffix(suffix) {
                word.removeLast(2)
                break
            }
            guard word.count <= 2, let value = Int(word), (1...31).contains(value) else { return nil }
            return value
        }
        func dayLabel(_ year: Int?, _ month: Int, _ day: Int) -> String {
            "\(day) \(Self.months[month - 1].capitalized)" + (year.map { " \($0)" } ?? "")
        }
        /// The day the words from `start` name, and how many words it took.
        func dayTerm(at start: Int) -> (Term, Int)? {
            func at(_ offset: Int) -> String? { start + offset < words.count ? words[start + offset] : nil }
            let first = words[start]
            // 2008 10 22 (`2008-10-22`).
            if let y = year(first), let m = at(1).flatMap({ Int($0) }), at(1)?.count ?? 0 <= 2, let d = dayOfMonth(at(2)), let range = day(y, m, d) {
                return (.dates([range], label: dayLabel(y, m, d)), 3)
            }
            // 22 10 2008 (`22/10/2008`, `10/22/2008`).
            if let a = dayOfMonth(first), Int(first) != nil, let second = at(1), second.count <= 2, let b = Int(second), let y = year(at(2)) {
                // (month, day): the day first unless it cannot be; both when either can.
                let days: [(Int, Int)] = a > 12 ? [(b, a)] : b > 12 ? [(a, b)] : a == b ? [(a, a)] : [(b, a), (a, b)]
                let found = days.compactMap { m, d in day(y, m, d).map { ($0, dayLabel(y, m, d)) } }
                if !found.isEmpty { return (.dates(found.map(\.0), label: found.map(\.1).joined(separator: " or ")), 3) }
            }
            // oct 22 2008, oct 22; 22 oct 2008, 22 oct.
            var monthDay: (month: Int, day: Int)?
            if let m = month(first), year(at(1)) == nil, let d = dayOfMonth(at(1)) {
                monthDay = (m, d)
            } else if let d = dayOfMonth(first), let next = at(1), let m = month(next) {
                monthDay = (m, d)
            }
            guard let (m, d) = monthDay else { return nil }
            if let y = year(at(2)) {
                return day(y, m, d).map { (.dates([$0], label: dayLabel(y, m, d)), 3) }
            }
            let ranges = (1970...thisYear).compactMap { day($0, m, d) }.filter { $0.start <= now }
            return ranges.isEmpty ? nil : (.dates(ranges, label: dayLabel(nil, m, d)), 2)
        }
        var index = 0
        while index < words.count {
            let word = words[index]
            let next = index + 1 < words.count ? words[index + 1] : nil
            defer { index += 1 }
            if Self.littleWords.contains(word) { continue }
            if word == "last" || word == "this", let next {
                let last = word == "last"
                var handled: Term?
                if let first = Self.seasons[next], let (range, year) = relativeSeason(first, last: last) {
                    handled = .dates([range], label: "\(next.capitalized) \(first == 12 ? "\(year)–\(year + 1)" : "\(year)")")
                } else if next == "year", let range = interval(last ? thisYear - 1 : thisYear, 1, months: 12) {
                    handled = .dates([range], label: "\(last ? thisYear - 1 : thisYear)")
                } else if next == "month", let start = calendar.dateInterval(of: .month, for: now)?.start,
                    let from = last ? calendar.date(byAdding: .month, value: -1, to: start) : start,
                    let range = interval(calendar.component(.year, from: from), calendar.component(.month, from: from), months: 1)
                {
                    handled = .dates([range], label: Self.monthLabel(range.start, calendar: calendar))
                } else if next == "week", let this = calendar.dateInterval(of: .weekOfYear, for: now) {
                    let range = last ? DateInterval(start: calendar.date(byAdding: .day, value: -7, to: this.start) ?? this.start, end: this.start) : this
                    handled = .dates([range], label: last ? "Last Week" : "This Week")
                }
                if let handled {
                    terms.append(handled)
                    index += 1
                    continue
                }
            }
            if word == "today" || word == "yesterday" {
                let day = calendar.startOfDay(for: word == "today" ? now : calendar.date(byAdding: .day, value: -1, to: now) ?? now)
                terms.append(.dates([DateInterval(start: day, end: calendar.date(byAdding: .day, value: 1, to: day) ?? day)], label: word.capitalized))
                continue
            }
            // A single day: `oct 22 2008`, `22 october 2008`, `2008-10-22`, `22/10/2008`
            // (`10/22/2008` too; `5/6/2008`, which may be either, finds both days), `oct 22`
            // (that day every year).
            if let (term, used) = dayTerm(at: index) {
                terms.append(term)
                index += used - 1
                continue
            }
            if let first = Self.seasons[word] {
                if let year = year(next), let range = season(first, year) {
                    terms.append(.dates([range], label: "\(word.capitalized) \(first == 12 ? "\(year)–\(year + 1)" : "\(year)")"))
                    index += 1
                } else {
                    let ranges = (1970...thisYear).compactMap { season(first, $0) }.filter { $0.start <= now }
                    terms.append(.dates(ranges, label: word.capitalized))
                }
                continue
            }
            if let month = month(word) {
                if let year = year(next), let range = interval(year, month, months: 1) {
                    terms.append(.dates([range], label: Self.monthLabel(range.start, calendar: calendar)))
                    index += 1
                } else {
                    let ranges = (1970...thisYear).compactMap { interval($0, month, months: 1) }.filter { $0.start <= now }
                    terms.append(.dates(ranges, label: Self.months[month - 1].capitalized))
                }
                continue
            }
            if let year = year(word), let range = interval(year, 1, months: 12) {
                terms.append(.dates([range], label: "\(year)"))
                continue
            }
            switch word {
            case "photo", "photos", "picture", "pictures", "pic", "pics", "image", "images", "stills":
                terms.append(.mediaType(.image))
            case "video", "videos", "movie", "movies", "clip", "clips", "film", "films":
                terms.append(.mediaType(.video))
            case "favorite", "favorites", "favourite", "favourites", "fav", "favs", "starred", "loved":
                terms.append(.favorites)
            case "live":
                terms.append(.mediaSubtype(.photoLive, label: "Live Photos"))
            case "screenshot", "screenshots":
                terms.append(.mediaSubtype(.photoScreenshot, label: "Screenshots"))
            case "panorama", "panoramas", "pano", "panos":
                terms.append(.mediaSubtype(.photoPanorama, label: "Panoramas"))
            case "raw", "raws":
                terms.append(.raw)
            default:
                terms.append(.word(word))
            }
        }
        var seen: Set<Term> = []
        self.terms = Self.bounded(terms.filter { seen.insert($0).inserted })
    }

    /// How many words are looked up in the index at most.
    package static let maximumWords = 8
    /// How many of them may be shorter than three letters (a short prefix begins many words, and
    /// each costs the index a walk over all of them).
    package static let maximumShortWords = 2

    /// The terms with the words bounded: a word that begins another word of the search adds
    /// nothing (`ro rome`: whatever holds `rome…` holds `ro…`) and is dropped, then at most
    /// ``maximumShortWords`` words under three letters and ``maximumWords`` in all are kept, in
    /// the order typed. What one search can cost the catalog is bounded so, whatever is typed.
    static func bounded(_ terms: [Term]) -> [Term] {
        let words = terms.compactMap { term -> String? in
            if case .word(let word) = term { return word }
            return nil
        }
        var kept = 0
        var short = 0
        return terms.filter { term in
            guard case .word(let word) = term else { return true }
            if words.contains(where: { $0 != word && $0.hasPrefix(word) }) { return false }
            if word.count < 3 {
                guard short < maximumShortWords else { return false }
                short += 1
            }
            guard kept < maximumWords else { return false }
            kept += 1
            return true
        }
    }

    static func monthLabel(_ date: Date, calendar: Calendar) -> String {
        "\(months[calendar.component(.month, from: date) - 1].capitalized) \(calendar.component(.year, from: date))"
    }
}
