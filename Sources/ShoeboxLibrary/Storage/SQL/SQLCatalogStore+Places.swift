import Foundation

extension SQLCatalogStore {
    func placeCounts(matching options: FetchOptions) async throws(LibraryError) -> [PlaceCount] {
        var unordered = options
        unordered.sortDescriptors = []
        unordered.fetchLimit = nil
        var statement: SQLStatement = """
            SELECT placeCountry, placeName, COUNT(*) AS count, AVG(latitude) AS middleLatitude, AVG(longitude) AS middleLongitude, MAX(id) AS cover
            FROM asset
            """
        statement.append(FetchQuery.whereClause(for: unordered, dialect: dialect, owner: owner, extra: ["placeCountry IS NOT NULL", "latitude IS NOT NULL"]))
        statement.append(" GROUP BY placeCountry, placeName")
        let query = statement
        return try await read { db in
            try await db.query(query).map { row in
                PlaceCount(
                    country: row["placeCountry"], name: row["placeName"], count: row["count"], latitude: row["middleLatitude"],
                    longitude: row["middleLongitude"], coverRowID: row["cover"])
            }
        }
    }

    func keywordLists(matching options: FetchOptions) async throws(LibraryError) -> [(keywords: String, count: Int)] {
        var unordered = options
        unordered.sortDescriptors = []
        unordered.fetchLimit = nil
        var statement: SQLStatement = "SELECT keywords, COUNT(*) AS count FROM asset"
        statement.append(FetchQuery.whereClause(for: unordered, dialect: dialect, owner: owner, extra: ["keywords IS NOT NULL"]))
        statement.append(" GROUP BY keywords")
        let query = statement
        return try await read { db in
            try await db.query(query).map { row in (keywords: row["keywords"], count: row["count"]) }
        }
    }

    func mapClusters(matching options: FetchOptions, cellDegrees: Double) async throws(LibraryError) -> [MapClusterRow] {
        var unordered = options
        unordered.sortDescriptors = []
        unordered.fetchLimit = nil
        let cell = min(180, max(0.0001, cellDegrees.isFinite ? cellDegrees : 1))
        // Cells counted from the south-west corner of the world, so both coordinates are positive
        // and truncation is the floor in either engine.
        func index(_ column: String, _ offset: Int) -> String {
            switch dialect {
            case .sqlite: "CAST((\(column) + \(offset)) / \(cell) AS INTEGER)"
            case .postgres: "FLOOR((\(column) + \(offset)) / \(cell))"
            }
        }
        var statement: SQLStatement = """
            SELECT COUNT(*) AS count, AVG(latitude) AS middleLatitude, AVG(longitude) AS middleLongitude, MIN(latitude) AS south,
              MIN(longitude) AS west, MAX(latitude) AS north, MAX(longitude) AS east, MAX(id) AS cover
            FROM asset
            """
        statement.append(FetchQuery.whereClause(for: unordered, dialect: dialect, owner: owner, extra: ["latitude IS NOT NULL", "longitude IS NOT NULL"]))
        statement.append(" GROUP BY \(raw: index("latitude", 90)), \(raw: index("longitude", 180))")
        let query = statement
        return try await read { db in
            try await db.query(query).map { row in
                // Output names apart from the columns: SQLite would read `latitude` in GROUP BY as the average.
                MapClusterRow(
                    count: row["count"], latitude: row["middleLatitude"], longitude: row["middleLongitude"], south: row["south"],
                    west: row["west"], north: row["north"], east: row["east"], coverRowID: row["cover"])
            }
        }
    }
}

extension SQLCatalogStore {
    func dayCounts(matching options: FetchOptions) async throws(LibraryError) -> [DayCount] {
        var unordered = options
        unordered.sortDescriptors = []
        unordered.fetchLimit = nil
        var statement: SQLStatement = """
            SELECT \(raw: dialect.localDay()) AS day, placeCountry, placeName, COUNT(*) AS count, MAX(id) AS cover FROM asset
            """
        statement.append(FetchQuery.whereClause(for: unordered, dialect: dialect, owner: owner))
        statement.append(" GROUP BY 1, placeCountry, placeName ORDER BY 1")
        let query = statement
        return try await read { db in
            try await db.query(query).map { row in
                DayCount(day: row["day"], country: row["placeCountry"], place: row["placeName"], count: row["count"], coverRowID: row["cover"])
            }
        }
    }
}
