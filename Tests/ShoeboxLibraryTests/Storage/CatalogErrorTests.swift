import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// A failure of the catalog's engine reaches callers as a `LibraryError` whose code says what
/// kind it was and whose `underlying` error is the engine's own (GRDB's `DatabaseError`, or
/// postgres-nio's error with the server's SQLSTATE), not a string made of it. On SQLite, and on
/// PostgreSQL when the run says so (`SHOEBOX_TEST_CATALOG=postgres`).
@Suite struct CatalogErrorTests {
    @Test func aBrokenRuleIsAConstraintWithTheEnginesErrorUnderneath() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let store = try #require(temporary.library.catalog as? SQLCatalogStore)
        try await store.write { db in try await db.execute("INSERT INTO setting (key, value) VALUES ('probe', '1')") }
        do {
            try await store.write { db in try await db.execute("INSERT INTO setting (key, value) VALUES ('probe', '2')") }
            Issue.record("a second row with the same key was accepted")
        } catch {
            #expect(error.code == .constraint, "\(error)")
            let underlying = try #require(error.underlying, "the engine's error was dropped")
            let engine = String(reflecting: type(of: underlying))
            #expect(engine.hasSuffix("DatabaseError") || underlying is PostgresFailure, "underlying is a \(engine)")
            if let failure = underlying as? PostgresFailure { #expect(failure.sqlState == "23505") }
        }
        #expect(try await store.setting("probe") == "1", "the refused change changed something")
    }
}
