import Foundation

extension SQLCatalogStore {
    func importMatches(contentHashes: [String]) async throws(LibraryError) -> [String: Bool] {
        // Whose duplicates an import finds (SQLCatalogStore.apply): the writer's own assets and
        // the Shared Library's while they are in it.
        let mine = Self.assetOwnerCondition(person: writer)
        return try await read { db in
            var matches: [String: Bool] = [:]
            func note(_ hash: String, trashed: Bool) {
                // A live asset with the bytes wins over one in Recently Deleted.
                matches[hash] = (matches[hash] ?? true) && trashed
            }
            for chunk in Self.chunks(contentHashes) {
                for row in try await db.query("SELECT contentHash, trashedDate FROM asset WHERE contentHash IN \(list: chunk) AND " + mine) {
                    note(row["contentHash"], trashed: (row["trashedDate"] as Date?) != nil)
                }
                for row in try await db.query("SELECT companionHash, trashedDate FROM asset WHERE companionHash IN \(list: chunk) AND " + mine) {
                    note(row["companionHash"], trashed: (row["trashedDate"] as Date?) != nil)
                }
            }
            return matches
        }
    }
}
