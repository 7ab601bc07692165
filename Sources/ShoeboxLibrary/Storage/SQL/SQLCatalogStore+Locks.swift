import Foundation

/// Locks that hold across every process of a library: PostgreSQL's session advisory locks (any
/// machine), or for SQLite a `flock` on a file beside the database (one machine, which is all a
/// SQLite catalog is shared by). The kernel or the database drops a lock whose holder dies.
extension SQLCatalogStore {
    func withAdvisoryLock<T: Sendable>(_ name: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
        if let sqlite = driver as? SQLiteDriver {
            let path = sqlite.path + ".lock-" + name
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            guard let lock = FileLock(tryingExclusiveOn: path) else { return nil }
            defer { withExtendedLifetime(lock) {} }
            return try await body()
        }
        guard let postgres = driver as? PostgresDriver else { return try await body() }
        let key = "shoebox:" + name
        return try await postgres.withDedicatedConnection { db in
            guard try await db.scalar("SELECT pg_try_advisory_lock(hashtext(\(key)))", as: Bool.self) == true else { return nil }
            do {
                let result = try await body()
                _ = try? await db.query("SELECT pg_advisory_unlock(hashtext(\(key)))")
                return result
            } catch {
                _ = try? await db.query("SELECT pg_advisory_unlock(hashtext(\(key)))")
                throw error
            }
        }
    }
}
