import Foundation

extension PhotoLibrary {
    /// How far a trip's days must be from home: a day counts as away when most of its photos
    /// with a place were taken in another city than home's.
    static let tripMinimumDays = 2
    /// A year makes a review with at least this many photos.
    static let yearMinimumCount = 10
    /// The setting that lists the memories the user hid.
    static let hiddenMemoriesSetting = "hiddenMemories"

    /// The memories of the library as of `now`, those the user hid left out: "On This Day" (the
    /// photos of this day of the year in earlier years), trips (two days or more in a row, a day
    /// without photos between allowed, whose photos were taken away from home — home being the
    /// city with the most photos — named after the place most photographed on them), and a
    /// review of each past year with at least ``yearMinimumCount`` photos. On This Day comes
    /// first, then trips and years, the latest first.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not read; a
    ///   limited client's memories are made of the photos it may see.
    public func fetchMemories(now: Date = Date(), calendar: Calendar = .current) async throws(LibraryError) -> [Memory] {
        let days = try await catalog.dayCounts(matching: try await scoped(FetchOptions()))
        let hidden = Set(try await hiddenMemories())
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        let thisYear = today.year ?? 2000
        let monthDay = String(format: "%02d-%02d", today.month ?? 1, today.day ?? 1)
        var found: [(id: String, kind: Memory.Kind, title: String, subtitle: String, count: Int, cover: Int64)] = []

        // On This Day.
        let anniversaries = days.filter { $0.day.dropFirst(5) == monthDay && Int($0.day.prefix(4)) ?? thisYear < thisYear }
        if !anniversaries.isEmpty {
            let years = Array(Set(anniversaries.map { String($0.day.prefix(4)) })).sorted()
            found.append(
                (
                    "on-this-day-\(monthDay)-\(thisYear)", .onThisDay, "On This Day", Self.list(years),
                    anniversaries.reduce(0) { $0 + $1.count }, anniversaries.map(\.coverRowID).max() ?? 0
                ))
        }

        // Trips: runs of days away from home.
        var byPlace: [String: Int] = [:]
        for day in days { if let key = Self.placeKey(day) { byPlace[key, default: 0] += day.count } }
        if let home = byPlace.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key {
            var perDay: [String: [DayCount]] = [:]
            for day in days { perDay[day.day, default: []].append(day) }
            let away = perDay.keys.sorted().filter { key in
                let placed = perDay[key]!.filter { Self.placeKey($0) != nil }
                let elsewhere = placed.filter { Self.placeKey($0) != home }.reduce(0) { $0 + $1.count }
                return elsewhere * 2 > placed.reduce(0) { $0 + $1.count }
            }
            let awaySet = Set(away)
            let homeDays = Set(perDay.keys.filter { key in !awaySet.contains(key) && perDay[key]!.contains { Self.placeKey($0) != nil } })
            var runs: [[String]] = []
            for day in away {
                // The next day, or the one after when the day between has no photo taken at home.
                if let last = runs.last?.last, let gap = Self.daysBetween(last, day),
                    gap == 1 || (gap == 2 && !homeDays.contains(Self.dayAfter(last)))
                {
                    runs[runs.count - 1].append(day)
                } else {
                    runs.append([day])
                }
            }
            for run in runs where run.count >= Self.tripMinimumDays {
                let rows = run.flatMap { perDay[$0]! }
                var places: [String: Int] = [:]
                for row in rows { if let key = Self.placeKey(row), key != home { places[key, default: 0] += row.count } }
                let main = places.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? ""
                let (first, last) = (run.first!, run.last!)
                found.append(
                    (
                        "trip-\(first)-\(last)", .trip, Self.placeTitle(main), Self.dayRange(first, last, calendar: calendar),
                        rows.reduce(0) { $0 + $1.count }, rows.map(\.coverRowID).max() ?? 0
                    ))
            }
        }

        // Years in review.
        var years: [String: (count: Int, cover: Int64)] = [:]
        for day in days {
            let year = String(day.day.prefix(4))
            years[year] = ((years[year]?.count ?? 0) + day.count, max(years[year]?.cover ?? 0, day.coverRowID))
        }
        for (year, value) in years where (Int(year) ?? thisYear) < thisYear && value.count >= Self.yearMinimumCount {
            found.append(("year-\(year)", .year, year, "A year in photos", value.count, value.cover))
        }

        let kept = found.filter { !hidden.contains($0.id) }
        let covers = try await catalog.assets(rowIDs: kept.map(\.cover))
        func order(_ memory: (id: String, kind: Memory.Kind, title: String, subtitle: String, count: Int, cover: Int64)) -> (Int, String) {
            (memory.kind == .onThisDay ? 0 : 1, memory.kind == .year ? "\(memory.title)-12-31" : String(memory.id.suffix(10)))
        }
        return kept.sorted { order($0).0 != order($1).0 ? order($0).0 < order($1).0 : order($0).1 > order($1).1 }.map {
            Memory(id: $0.id, kind: $0.kind, title: $0.title, subtitle: $0.subtitle, count: $0.count, cover: covers[$0.cover])
        }
    }

    /// Hides a memory (as its id is spelled) from ``fetchMemories(now:calendar:)`` for good.
    public func hideMemory(_ id: String) async throws(LibraryError) {
        guard Memory.predicate(forIdentifier: id) != nil else { throw LibraryError.invalidArgument("\(id) names no memory") }
        var hidden = try await hiddenMemories()
        guard !hidden.contains(id) else { return }
        hidden.append(id)
        let text = String(decoding: (try? JSONEncoder().encode(hidden)) ?? Data("[]".utf8), as: UTF8.self)
        try await catalog.setSetting(hiddenMemoriesKey, to: text)
    }

    /// Shows a hidden memory again (the web app's Undo after hiding one); a memory not hidden
    /// stays as it is.
    public func unhideMemory(_ id: String) async throws(LibraryError) {
        guard Memory.predicate(forIdentifier: id) != nil else { throw LibraryError.invalidArgument("\(id) names no memory") }
        var hidden = try await hiddenMemories()
        guard hidden.contains(id) else { return }
        hidden.removeAll { $0 == id }
        let text = String(decoding: (try? JSONEncoder().encode(hidden)) ?? Data("[]".utf8), as: UTF8.self)
        try await catalog.setSetting(hiddenMemoriesKey, to: text)
    }

    /// The setting of the memories this object's person hid: each person hides their own (the
    /// admin's is the setting libraries kept before people existed).
    private var hiddenMemoriesKey: String {
        Self.personSettingKey(Self.hiddenMemoriesSetting, of: catalog.owner ?? Person.adminRowID)
    }

    /// The memories the person hid.
    public func hiddenMemories() async throws(LibraryError) -> [String] {
        guard let text = try await catalog.setting(hiddenMemoriesKey) else { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }

    static func placeKey(_ day: DayCount) -> String? {
        guard let country = day.country else { return nil }
        return "\(country)/\(day.place ?? "")"
    }

    /// `Kyoto, Japan` for `JP/Kyoto`, `Japan` for `JP/`.
    static func placeTitle(_ key: String) -> String {
        let parts = key.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let country = parts.first.flatMap { Gazetteer.standard.countryName(code: $0) } ?? parts.first ?? ""
        guard parts.count > 1, !parts[1].isEmpty else { return country }
        return "\(parts[1]), \(country)"
    }

    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: ""
        case 1: items[0]
        default: items.dropLast().joined(separator: ", ") + " and " + items.last!
        }
    }

    static func date(_ day: String) -> Date? {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }

    static func dayAfter(_ day: String) -> String {
        guard let date = date(day) else { return day }
        let next = date.addingTimeInterval(86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: next)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    static func daysBetween(_ first: String, _ second: String) -> Int? {
        guard let a = date(first), let b = date(second) else { return nil }
        return Int((b.timeIntervalSince(a) / 86_400).rounded())
    }

    /// `2–5 April 2021`, `30 March – 2 April 2021`, `30 December 2020 – 2 January 2021`.
    static func dayRange(_ first: String, _ last: String, calendar: Calendar) -> String {
        guard let from = date(first), let to = date(last) else { return "\(first) – \(last)" }
        let format = DateIntervalFormatter()
        format.dateStyle = .long
        format.timeStyle = .none
        format.timeZone = TimeZone(identifier: "UTC")
        format.locale = calendar.locale ?? Locale(identifier: "en_GB")
        return format.string(from: from, to: to)
    }
}
