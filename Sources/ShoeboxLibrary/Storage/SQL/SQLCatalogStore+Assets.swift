import Foundation
import ShoeboxImaging

extension SQLCatalogStore {
    func assetRowIDs(matching options: FetchOptions) async throws(LibraryError) -> [Int64] {
        let statement = FetchQuery.select("id", options: options, dialect: dialect, owner: owner)
        return try await read { db in try await db.integers(statement) }
    }

    func assets(rowIDs: [Int64]) async throws(LibraryError) -> [Int64: Asset] {
        guard !rowIDs.isEmpty else { return [:] }
        let mine = assetOwnerCondition()
        let owner = self.owner
        return try await read { db in
            var found: [Int64: Asset] = [:]
            for row in try await db.query("SELECT * FROM asset WHERE id IN \(list: rowIDs) AND " + mine) {
                let record = AssetRecord(row: row)
                if let id = record.id { found[id] = record.asset }
            }
            // Purged since the fetch: their last state (a snapshot reads what it found).
            let missing = rowIDs.filter { found[$0] == nil }
            if !missing.isEmpty {
                let decoder = JSONDecoder()
                for row in try await db.query("SELECT record FROM purgedAsset WHERE id IN \(list: missing)") {
                    let json: String = row["record"]
                    if let record = try? decoder.decode(AssetRecord.self, from: Data(json.utf8)), let id = record.id,
                        owner == nil || record.ownerID == owner || record.ownerID == SharedLibrary.ownerRowID
                    {
                        found[id] = record.asset
                    }
                }
            }
            return found
        }
    }

    func assets(localIdentifiers: [String]) async throws(LibraryError) -> [String: Asset] {
        guard !localIdentifiers.isEmpty else { return [:] }
        let mine = assetOwnerCondition()
        return try await read { db in
            var found: [String: Asset] = [:]
            // In chunks: engines cap how many values one statement may bind.
            for start in stride(from: 0, to: localIdentifiers.count, by: 500) {
                let chunk = Array(localIdentifiers[start..<min(start + 500, localIdentifiers.count)])
                for row in try await db.query("SELECT * FROM asset WHERE localIdentifier IN \(list: chunk) AND " + mine) {
                    let record = AssetRecord(row: row)
                    found[record.localIdentifier] = record.asset
                }
            }
            return found
        }
    }

    func count(matching options: FetchOptions) async throws(LibraryError) -> Int {
        var unlimited = options
        unlimited.sortDescriptors = []
        var statement: SQLStatement = "SELECT COUNT(*) FROM asset"
        statement.append(FetchQuery.whereClause(for: unlimited, dialect: dialect, owner: owner))
        let limit = options.fetchLimit
        let query = statement
        let total = try await read { db in try await db.scalar(query, as: Int.self) ?? 0 }
        return limit.map { min(max(0, $0), total) } ?? total
    }

    func burstFrameCounts(_ burstIdentifiers: [String], matching options: FetchOptions) async throws(LibraryError) -> [String: Int] {
        guard !burstIdentifiers.isEmpty else { return [:] }
        var every = options
        every.includeAllBurstAssets = true
        let all = every
        let dialect = self.dialect
        return try await read { db in
            var counts: [String: Int] = [:]
            for start in stride(from: 0, to: burstIdentifiers.count, by: 500) {
                let chunk = Array(burstIdentifiers[start..<min(start + 500, burstIdentifiers.count)])
                var statement: SQLStatement = "SELECT burstIdentifier, COUNT(*) AS frames FROM asset"
                statement.append(FetchQuery.whereClause(for: all, dialect: dialect, owner: owner, extra: ["burstIdentifier IN \(list: chunk)"]))
                statement.append(" GROUP BY burstIdentifier")
                for row in try await db.query(statement) { counts[row["burstIdentifier"]] = row["frames"] }
            }
            return counts
        }
    }

    /// How many assets each of `list` fetches, counted in one pass over the catalog (the smart
    /// albums' counts: one scan of the grid index instead of one per album).
    ///
    /// Those the summary table can answer are summed from it; the others are counted together in
    /// one pass over the asset index.
    func counts(matching list: [FetchOptions]) async throws(LibraryError) -> [Int] {
        guard !list.isEmpty else { return [] }
        let summarized = list.map { AssetSummary.condition(for: $0, owner: owner) }
        let fromSummary = summarized.enumerated().compactMap { index, condition in
            condition.map { "CAST(COALESCE(SUM(count) FILTER (WHERE " + $0 + "), 0) AS BIGINT) AS c\(raw: String(index))" }
        }
        let fromAssets = list.enumerated().filter { summarized[$0.offset] == nil }.map { index, options in
            "COUNT(*) FILTER (WHERE " + FetchQuery.condition(for: options, dialect: dialect, owner: owner) + ") AS c\(raw: String(index))"
        }
        return try await read { db in
            var counts: [Int: Int] = [:]
            for (parts, table) in [(fromSummary, "assetSummary"), (fromAssets, "asset")] where !parts.isEmpty {
                let row = try await db.first("SELECT " + SQLStatement.joined(parts, separator: ", ") + " FROM \(raw: table)")
                for index in list.indices {
                    if let row, case let value = row.value("c\(index)"), value != .null { counts[index] = Int(sqlValue: value) ?? 0 }
                }
            }
            return list.indices.map { counts[$0] ?? 0 }
        }
    }

    /// Assets per calendar month of their creation date (as the clock read where they were taken), in the order of the options'
    /// creation-date sort (oldest first unless it descends), read from the grid index.
    func monthCounts(matching options: FetchOptions) async throws(LibraryError) -> [MonthCount] {
        var unordered = options
        unordered.sortDescriptors = []
        unordered.fetchLimit = nil
        let descending = options.sortDescriptors.first { $0.key == .creationDate }?.ascending == false
        var statement: SQLStatement
        if let condition = AssetSummary.condition(for: unordered, owner: owner) {
            statement = "SELECT month, CAST(SUM(count) AS BIGINT) AS count FROM assetSummary WHERE " + condition + " GROUP BY month HAVING SUM(count) > 0"
        } else {
            statement = "SELECT \(raw: dialect.localMonth()) AS month, COUNT(*) AS count FROM asset"
            statement.append(FetchQuery.whereClause(for: unordered, dialect: dialect, owner: owner))
            statement.append(" GROUP BY 1")
        }
        statement.append(" ORDER BY 1 \(raw: descending ? "DESC" : "ASC")")
        let query = statement
        return try await read { db in
            try await db.query(query).map { MonthCount(month: $0["month"], count: $0["count"]) }
        }
    }

    /// The row ids and the months of the assets matching `options`: from the grid summary where
    /// it can count them (and a fetch limit cuts the ids, not the months); else the ids with
    /// their creation dates and offsets in one query, the months counted here (a search read
    /// the index twice, and the engines' date functions cost more than this arithmetic).
    func assetRowIDsAndMonthCounts(matching options: FetchOptions) async throws(LibraryError) -> (rowIDs: [Int64], months: [MonthCount]) {
        var unordered = options
        unordered.sortDescriptors = []
        unordered.fetchLimit = nil
        guard options.fetchLimit == nil, AssetSummary.condition(for: unordered, owner: owner) == nil else {
            return (try await assetRowIDs(matching: options), try await monthCounts(matching: options))
        }
        let descending = options.sortDescriptors.first { $0.key == .creationDate }?.ascending == false
        switch dialect {
        case .postgres:
            // Two arrays in one row: the ids in order and the local times as whole seconds
            // (date_part, a double: extract's numeric costs more), which need none.
            let local = "floor(date_part('epoch', creationDate))::int8 + COALESCE(timeZoneOffset, 0)"
            let statement: SQLStatement =
                "SELECT array_agg(id\(raw: FetchQuery.orderClause(for: options))), array_agg(\(raw: local)) FROM asset"
                + FetchQuery.whereClause(for: options, dialect: dialect, owner: owner)
            let arrays = try await read { db in try await db.integerArrays(statement) }
            guard arrays.count == 2, arrays[0].count == arrays[1].count else { throw .invalidArgument("the catalog answered \(arrays.count) arrays") }
            return (arrays[0], MonthCount.counting(arrays[1].map(MonthCount.monthNumber(seconds:)), descending: descending))
        case .sqlite:
            // The dates' own text, read by digit: SQLite's date functions truncate a time before
            // 1970 toward it, which would move a photo taken in a month's last second.
            let statement = FetchQuery.select("id, creationDate, timeZoneOffset", options: options, dialect: dialect, owner: owner)
            return try await read { db in
                let rows = try await db.query(statement)
                var ids: [Int64] = []
                var months: [Int64] = []
                ids.reserveCapacity(rows.count)
                months.reserveCapacity(rows.count)
                for row in rows {
                    ids.append(row["id"])
                    let offset: Int? = row["timeZoneOffset"]
                    if case .text(let text) = row.value("creationDate"), let month = MonthCount.localMonthNumber(ofCatalogText: text, offset: offset) {
                        months.append(month)
                    } else {
                        months.append(MonthCount.monthNumber(of: row["creationDate"], offset: offset))
                    }
                }
                return (ids, MonthCount.counting(months, descending: descending))
            }
        }
    }

    /// Up to `limit` assets in the options' order that come after `after` (keyset paging: the
    /// sort keys and the row id of the last asset seen, so inserts and deletes never shift a page).
    func assetPage(matching options: FetchOptions, after: Asset?, limit: Int) async throws(LibraryError) -> [Asset] {
        let extra = after.map { [FetchQuery.keyset(options.sortDescriptors, after: $0)] } ?? []
        let statement = FetchQuery.firstRows(options: options, limit: limit, dialect: dialect, owner: owner, extra: extra)
        return try await read { db in try await db.query(statement).map { AssetRecord(row: $0).asset } }
    }

    func contentEdit(localIdentifier: String) async throws(LibraryError) -> ContentEdit? {
        let mine = assetOwnerCondition("a")
        return try await read { db in
            guard
                let row = try await db.first(
                    """
                    SELECT a.renderHash, a.renderUniformTypeIdentifier, a.renderFileSize, a.pixelWidth, a.pixelHeight, a.duration,
                           e.formatIdentifier, e.formatVersion, e.data, e.editorClient, e.date,
                           e.originalPixelWidth, e.originalPixelHeight, e.originalDuration
                    FROM asset a JOIN assetEdit e ON e.assetID = a.id
                    WHERE a.localIdentifier = \(localIdentifier) AND a.renderHash IS NOT NULL
                    """ + " AND " + mine)
            else { return nil }
            return ContentEdit(
                renderHash: row["renderHash"], renderUniformTypeIdentifier: row["renderUniformTypeIdentifier"],
                renderFileSize: row["renderFileSize"], pixelWidth: row["pixelWidth"], pixelHeight: row["pixelHeight"],
                duration: row["duration"],
                adjustmentData: AdjustmentData(formatIdentifier: row["formatIdentifier"], formatVersion: row["formatVersion"], data: row["data"]),
                editorClient: row["editorClient"], date: row["date"],
                originalPixelWidth: row["originalPixelWidth"], originalPixelHeight: row["originalPixelHeight"],
                originalDuration: row["originalDuration"])
        }
    }

    func originalDuration(localIdentifier: String) async throws(LibraryError) -> Double? {
        let mine = assetOwnerCondition("a")
        return try await read { db in
            try await db.scalar(
                "SELECT e.originalDuration FROM assetEdit e JOIN asset a ON a.id = e.assetID WHERE a.localIdentifier = \(localIdentifier) AND "
                    + mine)
        }
    }
}

extension SQLCatalogStore {
    func fillSearchText(limit: Int) async throws(LibraryError) -> Int {
        await preparePlaces()
        return try await write { db in
            let rows = try await db.query("SELECT * FROM asset WHERE searchText IS NULL ORDER BY id LIMIT \(max(1, limit))\(raw: db.dialect.forUpdate)")
            for row in rows {
                let record = self.indexed(AssetRecord(row: row))
                try await db.execute(
                    """
                    UPDATE asset SET searchText = \(record.searchText ?? ""), placeName = \(record.placeName), placeCountry = \(record.placeCountry)
                    WHERE id = \(record.id ?? 0)
                    """)
            }
            return rows.count
        }
    }

    func forgetPlaceNames(zonesToReread: PlaceZoneReread) async throws(LibraryError) -> [String] {
        try await write { db in
            try await db.execute("UPDATE asset SET searchText = NULL WHERE latitude IS NOT NULL")
            let zones: String
            switch zonesToReread {
            case .none: return []
            case .missing: zones = "timeZoneOffset IS NULL"
            case .all: zones = "(timeZoneOffset IS NULL OR timeZoneIdentifier IS NOT NULL)"
            }
            return try await db.query("SELECT localIdentifier FROM asset WHERE latitude IS NOT NULL AND \(raw: zones) ORDER BY id").map { row in
                row["localIdentifier"] as String
            }
        }
    }
}
