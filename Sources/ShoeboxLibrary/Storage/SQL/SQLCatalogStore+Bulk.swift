import Foundation

extension SQLCatalogStore {
    func insertAssets(_ records: [AssetRecord]) async throws(LibraryError) -> Int {
        guard !records.isEmpty else { return 0 }
        let rows = records.map(\.values)
        try await write { db in
            try await db.insertRows(into: "asset", columns: AssetRecord.columns, rows: rows)
        }
        return records.count
    }

    func assetRecords(afterRowID rowID: Int64, limit: Int) async throws(LibraryError) -> [AssetRecord] {
        try await read { db in
            try await db.query(SQLStatement("SELECT * FROM asset WHERE id > ? ORDER BY id LIMIT ?", arguments: [rowID.sqlValue, limit.sqlValue]))
                .map(AssetRecord.init(row:))
        }
    }
}
