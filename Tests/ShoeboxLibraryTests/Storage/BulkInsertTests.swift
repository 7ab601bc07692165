import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// The catalog's one bulk entry point (``CatalogStore/insertAssets(_:)``, a prepared statement
/// on SQLite and `COPY` on PostgreSQL) writes records that read back field for field through the
/// one column table, keeps the counts the timeline reads, and writes nothing when a record breaks
/// a rule. On SQLite, and on PostgreSQL when the run says so (`SHOEBOX_TEST_CATALOG=postgres`).
@Suite struct BulkInsertTests {
    /// Text that COPY's text format must escape, and text that looks like its escapes.
    static let awkwardNames = [
        "tab\there.jpg", "line\nbreak.jpg", "carriage\rreturn.jpg", "back\\slash.jpg", "\\N", "\\.", "comma, \"quoted\".jpg",
        "写真 2024.heic", "café 🎉.png", "",
    ]

    /// Record `index`, with every kind of value the asset table holds, NULLs included.
    static func record(_ index: Int) -> AssetRecord {
        let seconds = [-631_152_000.125, 0, 1_700_000_000.5, 4_102_444_800.999][index % 4] + Double(index)
        let taken = Date(timeIntervalSince1970: seconds)
        var record = AssetRecord(
            id: nil, localIdentifier: String(format: "%08X-B01C-0000-0000-000000000000/L0/001", index), mediaType: index % 3 == 0 ? 2 : 1,
            mediaSubtypes: index % 5, pixelWidth: 4032 + index, pixelHeight: 3024, creationDate: taken, modificationDate: taken,
            addedDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)), latitude: index % 2 == 0 ? -33.8568 + Double(index) / 1000 : nil,
            longitude: index % 2 == 0 ? 151.2153 : nil, altitude: index % 4 == 0 ? -12.5 : nil, duration: index % 3 == 0 ? 12.25 : 0,
            isFavorite: index % 7 == 0, isHidden: false, trashedDate: nil,
            originalFilename: awkwardNames[index % awkwardNames.count], contentHash: String(format: "%064x", 0xB01C_0000 + index),
            uniformTypeIdentifier: "public.jpeg", fileSize: 1 << 40 + index, creatorClient: index % 6 == 0 ? "com.example.app" : nil)
        record.timeZoneOffset = index % 2 == 0 ? 36_000 : nil
        record.timeZoneIdentifier = index % 2 == 0 ? "Australia/Sydney" : nil
        record.cameraMake = "Canon"
        record.cameraModel = awkwardNames[(index + 1) % awkwardNames.count]
        record.continuousDrive = [nil, true, false][index % 3]
        record.lensModel = index % 2 == 0 ? "RF24-105mm F4 L IS USM" : nil
        return record
    }

    /// `record` with its row id dropped and its dates to the millisecond (what SQLite keeps).
    static func comparable(_ record: AssetRecord) -> AssetRecord {
        func rounded(_ date: Date) -> Date { Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000) }
        var record = record
        record.id = nil
        record.creationDate = rounded(record.creationDate)
        record.modificationDate = rounded(record.modificationDate)
        record.addedDate = rounded(record.addedDate)
        record.trashedDate = record.trashedDate.map(rounded)
        return record
    }

    @Test func recordsReadBackFieldForFieldAndCountAsTheTimelineCountsThem() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let catalog = temporary.library.catalog
        let records = (0..<500).map(Self.record)
        #expect(try await catalog.insertAssets(Array(records[..<200])) == 200)
        #expect(try await catalog.insertAssets(Array(records[200...])) == 300)

        var read: [AssetRecord] = []
        var after: Int64 = 0
        while true {
            let page = try await catalog.assetRecords(afterRowID: after, limit: 128)
            guard let last = page.last?.id else { break }
            read += page
            after = last
        }
        #expect(read.count == records.count)
        let rowIDs = read.compactMap(\.id)
        #expect(rowIDs.count == read.count && rowIDs == rowIDs.sorted(), "pages are in row-id order")
        for (written, back) in zip(records, read) {
            #expect(Self.comparable(back) == Self.comparable(written), "record \(written.localIdentifier) changed on the way")
        }

        // The timeline's counts come from the summary the engines' triggers keep.
        let all = try await temporary.library.fetchAssets(with: FetchOptions())
        #expect(all.count == records.count)
        let movies = try await temporary.library.fetchAssets(with: FetchOptions(predicate: .mediaType(.video)))
        #expect(movies.count == records.filter { $0.mediaType == 2 }.count)
        let sections = try await temporary.library.fetchMonthSections(with: FetchOptions())
        #expect(sections.map(\.count).reduce(0, +) == records.count)
    }

    @Test func aBatchWithARecordThatBreaksARuleWritesNothing() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let catalog = temporary.library.catalog
        _ = try await catalog.insertAssets([Self.record(1)])
        var duplicate = Self.record(2)
        duplicate.contentHash = Self.record(1).contentHash
        do {
            _ = try await catalog.insertAssets([Self.record(3), duplicate, Self.record(4)])
            Issue.record("a second asset with the same content hash was inserted")
        } catch {
            #expect(error.code == .constraint, "\(error)")
        }
        let left = try await catalog.assetRecords(afterRowID: 0, limit: 10)
        #expect(left.map(\.localIdentifier) == [Self.record(1).localIdentifier], "the failed batch left rows behind")
    }

    /// The column table is the asset table: each engine's schema has exactly its columns (and
    /// `id`), so a column added to one and not the other fails here.
    @Test func theColumnTableIsTheSchemasAssetTable() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let store = try #require(temporary.library.catalog as? SQLCatalogStore)
        let columns = try await store.read { db in
            let statement: SQLStatement =
                db.dialect == .postgres
                ? "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'asset'"
                : "SELECT name FROM pragma_table_info('asset')"
            return try await db.query(statement).map { ($0["name"] as String).lowercased() }
        }
        #expect(Set(columns) == Set(AssetRecord.columns.map { $0.lowercased() } + ["id"]))
        #expect(AssetRecord.columns.count == Set(AssetRecord.columns).count, "a column is listed twice")
    }
}
