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
        // The month is the first seven characters of the stored date ("YYYY-MM-DD HH:MM:SS.SSS",
        // UTC), read straight from the covering grid index.
        let month = SQL("substr(creationDate, 1, 7)").sqlExpression
        let request = Self.request(for: unordered)
            .select(month.forKey("month"), GRDB.count(Column("id")).forKey("count"))
            .group(month)
            .order(descending ? month.desc : month.asc)
            .asRequest(of: Row.self)
        do {
            return try database.read { db in
                try request.fetchAll(db).map { (month: $0["month"] as String, count: $0["count"] as Int) }
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
}
