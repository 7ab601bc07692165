import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// What the SQL layer's sessions read the same on both engines: on SQLite, and on PostgreSQL
/// when the run says so (`SHOEBOX_TEST_CATALOG=postgres`).
@Suite struct SQLDriverTests {
    @Test func integerArraysReadEachColumnOfTheRowAsOneArray() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let store = try #require(temporary.library.catalog as? SQLCatalogStore)
        let (aggregate, numbers): (String, String) =
            switch store.dialect {
            case .sqlite: ("json_group_array", "(SELECT value AS n FROM json_each('[5, -3, 9007199254740993, 0]'))")
            case .postgres: ("array_agg", "(SELECT unnest(ARRAY[5, -3, 9007199254740993, 0]::int8[]) AS n)")
            }
        let both = try await store.read { db in
            try await db.integerArrays(SQLStatement(stringLiteral: "SELECT \(aggregate)(n), \(aggregate)(n * 2) FROM \(numbers) AS t"))
        }
        #expect(both.map { $0.sorted() } == [[-3, 0, 5, 9_007_199_254_740_993], [-6, 0, 10, 18_014_398_509_481_986]])
        // No rows: an empty array (PostgreSQL's aggregate is NULL, SQLite's `[]`).
        let none = try await store.read { db in
            try await db.integerArrays(SQLStatement(stringLiteral: "SELECT \(aggregate)(n) FROM \(numbers) AS t WHERE n > 1e18"))
        }
        #expect(none == [[]])
    }
}
