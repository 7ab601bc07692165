import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Memories from when and where photos were taken: On This Day, a trip away from home, a year
/// in review; their photos by their identifiers; hiding one.
@Suite struct MemoriesTests {
    /// Home is Rome (six photos in 2021), a trip to Kyoto on 2, 3 and 5 April 2021 (four photos),
    /// one day in Paris (no trip), and 26 November in 2019 (no place) and 2023 (Rome).
    static func library() async throws -> TemporaryLibrary {
        try #require(Gazetteer.standard.isAvailable, "the place table is absent: scripts/places install, and SHOEBOX_PLACES=$(scripts/places path)")
        let temporary = try await TemporaryLibrary()
        let rome = (41.8902, 12.4922)
        let kyoto = (35.0116, 135.7681)
        let paris = (48.8584, 2.2945)
        let shots: [(String, (Double, Double)?)] = [
            ("2021-03-01", rome), ("2021-03-10", rome), ("2021-05-01", rome), ("2021-06-15", rome), ("2021-07-20", rome), ("2021-04-06", rome),
            ("2021-04-02", kyoto), ("2021-04-03", kyoto), ("2021-04-03", kyoto), ("2021-04-05", kyoto),
            ("2021-08-01", paris),
            ("2019-11-26", nil), ("2023-11-26", rome),
        ]
        var urls: [URL] = []
        for (index, (day, place)) in shots.enumerated() {
            let parts = day.split(separator: "-").compactMap { Int($0) }
            var metadata = ImageMetadata()
            metadata.dateTimeOriginal = ImageMetadata.DateTime(year: parts[0], month: parts[1], day: parts[2], hour: 12, minute: index, second: 0)
            if let (latitude, longitude) = place { (metadata.latitude, metadata.longitude) = (latitude, longitude) }
            let url = temporary.folder.appendingPathComponent("shot-\(index).jpg")
            try SyntheticPhoto(width: 48, height: 32, seed: UInt64(index + 1)).image().writingMetadata(metadata).encoded(as: .jpeg).write(to: url)
            urls.append(url)
        }
        _ = try await temporary.importFiles(urls)
        return temporary
    }

    static let now = Date(timeIntervalSince1970: 1_795_694_400)  // 2026-11-26 12:00 UTC
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    @Test("On This Day first, then a year in review and a trip away from home, the latest first, each fetching its photos")
    func memories() async throws {
        let temporary = try await Self.library()
        defer { temporary.remove() }
        let library = temporary.library
        let memories = try await library.fetchMemories(now: Self.now, calendar: Self.utc)
        #expect(memories.map(\.id) == ["on-this-day-11-26-2026", "year-2021", "trip-2021-04-02-2021-04-05"], "2021 ends after the trip")
        #expect(memories.map(\.kind) == [.onThisDay, .year, .trip])
        #expect(memories.map(\.count) == [2, 11, 4])
        #expect(memories[0].title == "On This Day" && memories[0].subtitle == "2019 and 2023")
        #expect(memories[2].title == "Kyoto, Japan", "named after where the trip's photos were taken")
        #expect(memories[2].subtitle.contains("2021") && memories[2].subtitle.contains("5"), "\(memories[2].subtitle)")
        #expect(memories[1].title == "2021")
        #expect(memories.allSatisfy { $0.cover != nil })
        for memory in memories {
            let photos = try await library.fetchAssets(with: FetchOptions(predicate: memory.predicate))
            #expect(photos.count == memory.count, "\(memory.id) fetches \(photos.count)")
        }
        // Another day: no anniversary.
        let otherDay = try await library.fetchMemories(now: Self.now.addingTimeInterval(86_400), calendar: Self.utc)
        #expect(otherDay.map(\.id) == ["year-2021", "trip-2021-04-02-2021-04-05"])
    }

    @Test("A hidden memory stays hidden; identifiers that name no memory are refused")
    func hiding() async throws {
        let temporary = try await Self.library()
        defer { temporary.remove() }
        let library = temporary.library
        try await library.hideMemory("trip-2021-04-02-2021-04-05")
        try await library.hideMemory("trip-2021-04-02-2021-04-05")
        #expect(try await library.hiddenMemories() == ["trip-2021-04-02-2021-04-05"])
        #expect(try await library.fetchMemories(now: Self.now, calendar: Self.utc).map(\.id) == ["on-this-day-11-26-2026", "year-2021"])
        await #expect(throws: LibraryError.self) { try await library.hideMemory("trip-2021-04-05-2021-04-02") }
        await #expect(throws: LibraryError.self) { try await library.hideMemory("year-20x1") }
        #expect(Memory.predicate(forIdentifier: "on-this-day-02-30-2026") != nil, "a day of the year, checked only for its form")
        #expect(Memory.predicate(forIdentifier: "../../etc") == nil)
    }

    @Test("Unhiding a memory (the web app's Undo) shows it again; one not hidden stays shown")
    func unhiding() async throws {
        let temporary = try await Self.library()
        defer { temporary.remove() }
        let library = temporary.library
        try await library.hideMemory("trip-2021-04-02-2021-04-05")
        try await library.hideMemory("year-2021")
        try await library.unhideMemory("trip-2021-04-02-2021-04-05")
        try await library.unhideMemory("trip-2021-04-02-2021-04-05")
        #expect(try await library.hiddenMemories() == ["year-2021"])
        #expect(try await library.fetchMemories(now: Self.now, calendar: Self.utc).map(\.id) == ["on-this-day-11-26-2026", "trip-2021-04-02-2021-04-05"])
        await #expect(throws: LibraryError.self) { try await library.unhideMemory("year-20x1") }
    }
}
