import Foundation

/// Locks that hold across every process of a library, as the engine keeps them
/// (``SQLDriver/withAdvisoryLock(_:_:)``): PostgreSQL's session advisory locks (any machine), or
/// for SQLite a `flock` on a file beside the database. The kernel or the database drops a lock
/// whose holder dies.
extension SQLCatalogStore {
    func withAdvisoryLock<T: Sendable>(_ name: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
        try await driver.withAdvisoryLock(name, body)
    }
}
