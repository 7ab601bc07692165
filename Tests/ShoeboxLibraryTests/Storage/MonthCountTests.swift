import Foundation
import GRDB
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// A search's month sections counted from its own rows (one read of the catalog) are the
/// sections the engine's `GROUP BY` of the local month gives, month for month, on SQLite and,
/// when the run says so (`SHOEBOX_TEST_CATALOG=postgres`), on PostgreSQL.
@Suite struct MonthCountTests {
    /// Seconds around month ends, before 1970 and after 2038, with the offsets cameras write.
    static let instants: [Double] = [
        -631_152_000.125,  // 1950-01-01 00:00:00 UTC less an eighth
        951_782_399.5,  // 2000-02-28 23:59:59.5
        951_868_799,  // 2000-02-29 23:59:59 (a leap day)
        1_585_699_200,  // 2020-04-01 00:00:00
        1_609_459_199.999,  // 2020-12-31 23:59:59.999
        1_700_000_000,
        4_102_444_799,  // 2099-12-31 23:59:59
    ]
    static let offsets: [Int?] = [nil, 0, 3_600, -3_600, 50_400, -43_200, 19_800, 1]

    @Test func localMonthIsSQLitesDatetimeArithmetic() throws {
        #expect(MonthCount.localMonthNumber(ofCatalogText: "2020-13-01 00:00:00.000", offset: nil) == nil)
        #expect(MonthCount.localMonthNumber(ofCatalogText: "2020-01-01", offset: 3_600) == nil)
        let queue = try DatabaseQueue()
        var generator = SplitMix64(seed: 7)
        var cases: [(Double, Int?)] = []
        for instant in Self.instants { for offset in Self.offsets { cases.append((instant, offset)) } }
        for _ in 0..<2_000 {
            // 1600 to 2400, to the millisecond, offsets up to ±14 hours.
            let seconds = -11_676_096_000 + Double(generator.next() % 25_245_000_000_000) / 1_000
            cases.append((seconds, Int(generator.next() % 100_801) - 50_400))
        }
        try queue.read { db in
            for (seconds, offset) in cases {
                let date = Date(timeIntervalSince1970: seconds)
                // The text the driver stores (GRDB's), and the engine's month of it.
                let text = try #require(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]))
                let expected = try String.fetchOne(
                    db, sql: "SELECT substr(datetime(?, COALESCE(?, 0) || ' seconds'), 1, 7)", arguments: [text, offset])
                let stored = try #require(SQLDateFormat.date(from: text))
                #expect(MonthCount.localMonth(of: stored, offset: offset) == expected, "\(text) \(String(describing: offset))")
                let fromText = MonthCount.localMonthNumber(ofCatalogText: text, offset: offset).map(MonthCount.text(ofMonth:))
                #expect(fromText == expected, "\(text) \(String(describing: offset))")
            }
        }
    }

    @Test func searchSectionsFromTheRowsAreTheEnginesMonthCounts() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        var records: [AssetRecord] = []
        for (index, instant) in Self.instants.enumerated() {
            for (offsetIndex, offset) in Self.offsets.enumerated() {
                var record = BulkInsertTests.record(records.count)
                record.creationDate = Date(timeIntervalSince1970: instant + Double(offsetIndex))
                record.timeZoneOffset = offset
                // Most are found by the word; some are hidden or deleted, which a search leaves out.
                record.searchText = (index + offsetIndex) % 5 == 0 ? "nikon" : "canon img"
                record.isHidden = (index * 8 + offsetIndex) % 11 == 0
                record.trashedDate = (index * 8 + offsetIndex) % 13 == 0 ? Date() : nil
                records.append(record)
            }
        }
        #expect(try await library.catalog.insertAssets(records) == records.count)
        for predicate in [FetchOptions.Predicate.text("canon"), .text("can img"), .all([.text("canon"), .mediaType(.video)]), nil] {
            for ascending in [false, true] {
                let options = FetchOptions(predicate: predicate, sortDescriptors: [.init(key: .creationDate, ascending: ascending)])
                let (result, sections) = try await library.fetchAssetsWithMonthSections(with: options)
                let expectedIDs = try await library.fetchAssets(with: options).allObjects().map(\.localIdentifier)
                let label = "\(String(describing: predicate)) ascending: \(ascending)"
                #expect(try await result.allObjects().map(\.localIdentifier) == expectedIDs, "\(label)")
                #expect(sections == (try await library.fetchMonthSections(with: options)), "\(label)")
                #expect(sections.map(\.count).reduce(0, +) == expectedIDs.count, "\(label)")
                #expect(sections.count > 3, "\(label): \(sections)")
            }
        }
    }
}
