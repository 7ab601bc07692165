import Foundation
import GRDB
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// SQLite's prepared statements are kept per connection (SQLiteDriver's statement cache), a
/// bounded number of texts, and never for texts of several statements.
@Suite struct SQLiteStatementCacheTests {
    @Test(.enabled(if: !PostgresTestServer.isCatalogUnderTest, "SQLite's own cache"))
    func statementsAreKeptBoundedAndStillRight() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let driver = try #require((temporary.library.catalog as? SQLCatalogStore)?.driver as? SQLiteDriver)
        #expect(!driver.cachedTexts.keeps("CREATE TABLE a (x); CREATE TABLE b (y)"), "several statements are not kept")

        // The same text with other arguments gives each its own answer.
        try await driver.write { db in
            _ = try await db.execute("CREATE TABLE kept (n INTEGER)")
            for n in 1...50 { _ = try await db.execute("INSERT INTO kept (n) VALUES (\(n))") }
        }
        let answers = try await driver.read { db in
            var answers: [Int64] = []
            for n in [7, 21, 50] { answers += try await db.integers("SELECT n * 2 FROM kept WHERE n = \(n)") }
            return answers
        }
        #expect(answers == [14, 42, 100])

        // Past the limit of different texts, the caches start again: still right, and bounded.
        let before = driver.cachedTexts.count
        let limit = SQLiteDriver.statementCacheLimit
        let sums = try await driver.read { db in
            var sums: [Int64] = []
            for n in 0...(limit + 10) { sums += try await db.integers("SELECT COUNT(*) + \(raw: String(n)) FROM kept") }
            return sums
        }
        #expect(sums == (0...(limit + 10)).map { 50 + Int64($0) })
        #expect(before > 0 && driver.cachedTexts.count <= limit)
        // A schema change makes SQLite prepare kept statements again by themselves.
        try await driver.write { db in _ = try await db.execute("ALTER TABLE kept ADD COLUMN m INTEGER NOT NULL DEFAULT 3") }
        let after = try await driver.read { db in try await db.integers("SELECT n * 2 FROM kept WHERE n = \(21)") }
        #expect(after == [42])
    }
}
