import Foundation

/// A collection the library makes by itself from when and where photos were taken, as Photos'
/// memories: the photos taken on this day in earlier years, a trip (consecutive days away from
/// home), a year in review. ``PhotoLibrary/fetchMemories(now:calendar:)`` finds them;
/// ``predicate`` fetches their photos.
public struct Memory: Sendable, Hashable, Identifiable {
    /// What a memory gathers: this day of the year in earlier years (`onThisDay`), consecutive days
    /// away from home (`trip`), or a past year (`year`).
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The photos taken on the current day of the year in earlier years, by the clock where
        /// they were taken.
        case onThisDay
        /// Two days or more in a row (a day without photos between allowed) whose photos were
        /// taken away from home, the city with the most photos.
        case trip
        /// A past year with at least ten photos: a year in review.
        case year
    }

    /// Stable while the memory means the same photos: `on-this-day-11-26-2026`,
    /// `trip-2021-04-02-2021-04-05`, `year-2023`. Hiding one hides that id.
    public let id: String
    /// Which kind of memory it is; its ``id`` starts with the same.
    public let kind: Kind
    /// `On This Day`, `Kyoto, Japan`, `2023`.
    public let title: String
    /// `2019, 2021 and 2022`, `2–5 April 2021`, `A year in photos`.
    public let subtitle: String
    /// How many assets it held when ``PhotoLibrary/fetchMemories(now:calendar:)`` found it
    /// (photos and movies alike).
    public let count: Int
    /// The most recently added of its photos.
    public let cover: Asset?

    /// Its photos, from its identifier alone (no need to find the memory again).
    public var predicate: FetchOptions.Predicate { Self.predicate(forIdentifier: id)! }

    /// The photos of the memory with `id` (as ``id`` spells them), or `nil` for a string that
    /// names no memory.
    public static func predicate(forIdentifier id: String) -> FetchOptions.Predicate? {
        let parts = id.split(separator: "-").map(String.init)
        func isDay(_ year: String, _ month: String, _ day: String) -> Bool {
            year.count == 4 && month.count == 2 && day.count == 2 && [year, month, day].allSatisfy { $0.allSatisfy(\.isASCII) && Int($0) != nil }
        }
        if parts.count == 7, parts[0] == "trip", isDay(parts[1], parts[2], parts[3]), isDay(parts[4], parts[5], parts[6]) {
            let from = parts[1...3].joined(separator: "-")
            let to = parts[4...6].joined(separator: "-")
            return from <= to ? .localDays(from: from, to: to) : nil
        }
        if parts.count == 2, parts[0] == "year", parts[1].count == 4, let year = Int(parts[1]) {
            return .localDays(from: String(format: "%04d-01-01", year), to: String(format: "%04d-12-31", year))
        }
        if parts.count == 6, parts[0] == "on", parts[1] == "this", parts[2] == "day", isDay(parts[5], parts[3], parts[4]), let year = Int(parts[5]) {
            return .localMonthDay("\(parts[3])-\(parts[4])", beforeYear: year)
        }
        return nil
    }
}
