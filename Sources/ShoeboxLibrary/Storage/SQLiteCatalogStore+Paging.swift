import Foundation
import GRDB

extension SQLiteCatalogStore {
    /// Assets per calendar month (UTC) of their creation date, in the order of the options'
    /// creation-date sort (oldest first unless it descends).
    func monthCounts(matching options: FetchOptions) throws(LibraryError) -> [(month: String, count: Int)] {
        var unordered = options
        unordered.sortDescriptors = []
        unordered.fetchLimit = nil
        let descending = options.sortDescriptors.first { $0.key == .creationDate }?.ascending == false
        do {
            return try database.read { db in
                let filtered = Self.request(for: unordered).select(Column("id"))
                let (sql, arguments) = try Self.sqlAndArguments(filtered, in: db)
                let rows = try Row.fetchAll(db, sql: """
                    SELECT strftime('%Y-%m', creationDate) AS month, COUNT(*) AS count FROM asset
                    WHERE id IN (\(sql)) GROUP BY month ORDER BY month \(descending ? "DESC" : "ASC")
                    """, arguments: arguments)
                return rows.map { (month: $0["month"] as String, count: $0["count"] as Int) }
            }
        } catch {
            throw .storage("\(error)")
        }
    }

    /// Up to `limit` assets in the options' order that come after `after` (keyset paging: the
    /// sort keys and the row id of the last asset seen, so inserts and deletes never shift a page).
    func assetPage(matching options: FetchOptions, after: Asset?, limit: Int) throws(LibraryError) -> [Asset] {
        var request = Self.request(for: options).limit(max(0, limit))
        if let after {
            request = request.filter(Self.keysetCondition(options.sortDescriptors, after: after))
        }
        do {
            return try database.read { db in try request.fetchAll(db).map(\.asset) }
        } catch {
            throw .storage("\(error)")
        }
    }

    /// Rows after `asset` in the order of `descriptors` then `id`:
    /// `(k1 > v1) OR (k1 = v1 AND k2 > v2) OR … OR (all equal AND id > rowID)`, with `<` for
    /// descending keys.
    static func keysetCondition(_ descriptors: [FetchOptions.SortDescriptor], after asset: Asset) -> SQLExpression {
        var terms: [(column: Column, value: any DatabaseValueConvertible, ascending: Bool)] = descriptors.map { descriptor in
            (Column(columnName(descriptor.key)), sortValue(of: asset, for: descriptor.key), descriptor.ascending)
        }
        terms.append((Column("id"), asset.rowID, true))
        var alternatives: [SQLExpression] = []
        for (index, term) in terms.enumerated() {
            var parts: [SQLExpression] = terms[..<index].map { $0.column == $0.value }
            parts.append(term.ascending ? term.column > term.value : term.column < term.value)
            alternatives.append(parts.joined(operator: .and))
        }
        return alternatives.joined(operator: .or)
    }

    static func sortValue(of asset: Asset, for key: FetchOptions.SortDescriptor.Key) -> any DatabaseValueConvertible {
        switch key {
        case .creationDate: asset.creationDate
        case .modificationDate: asset.modificationDate
        case .addedDate: asset.addedDate
        case .filename: asset.originalFilename
        case .duration: asset.duration
        case .fileSize: asset.fileSize
        }
    }

    private static func sqlAndArguments(_ request: QueryInterfaceRequest<AssetRow>, in db: Database) throws -> (String, StatementArguments) {
        let prepared = try request.makePreparedRequest(db, forSingleResult: false)
        return (prepared.statement.sql, prepared.statement.arguments)
    }
}
