import Foundation

/// ``FetchOptions`` as SQL over the `asset` table, the same text for every engine.
enum FetchQuery {
    /// What an asset must satisfy to be in the options' fetch (all of them); `owner`: whose
    /// assets (``CatalogStore/owner``; `nil`: everyone's).
    /// `ownership`: one of ``ownershipBranches(for:owner:)`` in place of them all.
    static func conditions(for options: FetchOptions, dialect: SQLDialect, owner: Int64?, ownership branch: SQLStatement? = nil) -> [SQLStatement] {
        var conditions: [SQLStatement] = []
        if let branch {
            conditions.append(branch)
        } else if let owner {
            conditions.append(ownership(for: options, owner: owner))
        }
        if !options.includeTrashedAssets {
            conditions.append("trashedDate IS NULL")
        }
        if !options.includeHiddenAssets {
            conditions.append("isHidden = \(false)")
        }
        if let predicate = options.predicate {
            conditions.append(
                condition(for: predicate, dialect: dialect, albumWords: options.wordsInAlbumTitles, titlesOf: options.visibleToClient, owner: owner))
        }
        if !options.includeAllBurstAssets, options.visibleToClient == nil {
            // A burst's other frames; those in Recently Deleted or hidden show where they are.
            conditions.append("(burstIdentifier IS NULL OR representsBurst = \(true) OR trashedDate IS NOT NULL OR isHidden = \(true))")
        }
        if let client = options.visibleToClient {
            conditions.append("(creatorClient = \(client) OR id IN (SELECT assetID FROM limitedSelection WHERE client = \(client)))")
        }
        return conditions
    }

    /// Whose assets: the person's own and, for each partner share the options carry
    /// (``FetchOptions/partnerWindows``), the sharer's that the share lets the person see (never
    /// hidden or deleted, none taken before its start date).
    /// With the person in the Shared Library, its assets too (``FetchOptions/library`` says which).
    static func ownership(for options: FetchOptions, owner: Int64) -> SQLStatement {
        let owners = options.assetOwners(for: owner)
        var alternatives: [SQLStatement] = []
        switch owners.count {
        case 0: break
        case 1: alternatives.append("ownerID = \(owners[0])")
        default: alternatives.append("ownerID IN \(list: owners)")
        }
        alternatives += partnerBranches(for: options)
        switch alternatives.count {
        case 0: return "FALSE"
        case 1: return alternatives[0]
        default: return "(" + SQLStatement.joined(alternatives, separator: " OR ") + ")"
        }
    }

    /// ``ownership(for:owner:)`` as its alternatives one by one, one owner each: the person's
    /// own, the Shared Library's, each partner's. Each is one range of the grid index (`ownerID,
    /// creationDate, id`), where their `OR` is not.
    static func ownershipBranches(for options: FetchOptions, owner: Int64) -> [SQLStatement] {
        options.assetOwners(for: owner).map { "ownerID = \($0)" } + partnerBranches(for: options)
    }

    private static func partnerBranches(for options: FetchOptions) -> [SQLStatement] {
        options.partnerWindows.map { window in
            var shared: SQLStatement = "(ownerID = \(window.owner) AND isHidden = \(false) AND trashedDate IS NULL"
            if let start = window.startDate { shared.append(" AND creationDate >= \(start)") }
            return shared + ")"
        }
    }

    /// `WHERE …` (or nothing) for the options, with `extra` conditions.
    static func whereClause(
        for options: FetchOptions, dialect: SQLDialect, owner: Int64?, extra: [SQLStatement] = [], ownership branch: SQLStatement? = nil
    ) -> SQLStatement {
        let all = conditions(for: options, dialect: dialect, owner: owner, ownership: branch) + extra
        guard !all.isEmpty else { return "" }
        return " WHERE " + SQLStatement.joined(all, separator: " AND ")
    }

    /// All the options' conditions as one expression (`TRUE` for none).
    static func condition(for options: FetchOptions, dialect: SQLDialect, owner: Int64?) -> SQLStatement {
        let all = conditions(for: options, dialect: dialect, owner: owner)
        return all.isEmpty ? "TRUE" : "(" + SQLStatement.joined(all, separator: " AND ") + ")"
    }

    /// ` ORDER BY …, id` for the options' sort.
    static func orderClause(for options: FetchOptions) -> String {
        let terms =
            options.sortDescriptors.map { "\(column($0.key)) \($0.ascending ? "ASC" : "DESC")" }
            + ["id \(rowIDAscending(options.sortDescriptors) ? "ASC" : "DESC")"]
        return " ORDER BY " + terms.joined(separator: ", ")
    }

    /// Assets equal in every sort key follow their row ids in the first key's direction (newest
    /// first: the last added first), so a descending date order reads the grid index backwards
    /// with no sort at all (ids ascending under descending dates sorted each date's rows: 50 ms
    /// against 20 ms for Recents on 100,000 in SQLite).
    static func rowIDAscending(_ descriptors: [FetchOptions.SortDescriptor]) -> Bool {
        descriptors.first?.ascending ?? true
    }

    /// The whole query for the options' assets (`columns`: what to select).
    static func select(_ columns: String, options: FetchOptions, dialect: SQLDialect, owner: Int64?, extra: [SQLStatement] = []) -> SQLStatement {
        var statement: SQLStatement = "SELECT \(raw: columns) FROM asset"
        statement.append(whereClause(for: options, dialect: dialect, owner: owner, extra: extra))
        statement.append(SQLStatement(orderClause(for: options)))
        if let limit = options.fetchLimit {
            statement.append(" LIMIT \(max(0, limit))")
        }
        return statement
    }

    /// The first `limit` rows (every column) of the options' order, as ``select(_:options:dialect:owner:extra:)``
    /// with a fetch limit reads them; for a person who sees the assets of several owners (the
    /// Shared Library's, partners'), each owner's first `limit` by its own range of the grid index
    /// and then the first `limit` of those, where one query over all of them sorts every row
    /// they hold (300,000 rows for a page of 200).
    static func firstRows(options: FetchOptions, limit: Int, dialect: SQLDialect, owner: Int64?, extra: [SQLStatement] = []) -> SQLStatement {
        var limited = options
        limited.fetchLimit = max(0, limit)
        guard let owner, case let branches = ownershipBranches(for: options, owner: owner), branches.count > 1 else {
            return select("*", options: limited, dialect: dialect, owner: owner, extra: extra)
        }
        // The branches read the grid index alone (the row id and the sort keys); only the page's
        // own rows are read whole.
        var keys = ["id"]
        for key in options.sortDescriptors.map({ column($0.key) }) where !keys.contains(key) { keys.append(key) }
        let order = SQLStatement(orderClause(for: options))
        let parts = branches.enumerated().map { index, branch in
            "SELECT * FROM (SELECT \(raw: keys.joined(separator: ", ")) FROM asset"
                + whereClause(for: options, dialect: dialect, owner: owner, extra: extra, ownership: branch) + order
                + " LIMIT \(max(0, limit))) AS branch\(raw: String(index))"
        }
        let page = "SELECT id FROM (" + SQLStatement.joined(parts, separator: " UNION ALL ") + ") AS page" + order + " LIMIT \(max(0, limit))"
        return "SELECT * FROM asset WHERE id IN (" + page + ")" + order
    }

    static func column(_ key: FetchOptions.SortDescriptor.Key) -> String {
        switch key {
        case .creationDate: "creationDate"
        case .modificationDate: "modificationDate"
        case .addedDate: "addedDate"
        case .filename: "originalFilename"
        case .duration: "duration"
        case .fileSize: "fileSize"
        }
    }

    /// `albumWords`: the search words album titles may hold (``FetchOptions/wordsInAlbumTitles``);
    /// `titlesOf`: a client with limited access, whose search reads only the titles of the albums
    /// it made (the only ones it sees), so a search is no oracle for the user's titles; `owner`:
    /// whose albums an album identifier or title names.
    static func condition(
        for predicate: FetchOptions.Predicate, dialect: SQLDialect, albumWords: Set<String>? = nil, titlesOf client: String? = nil,
        owner: Int64?
    ) -> SQLStatement {
        switch predicate {
        case .mediaType(let type):
            return "mediaType = \(type.rawValue)"
        case .creationDate(let from, let to):
            return range("creationDate", from: from, to: to)
        case .isFavorite(let value):
            return "isFavorite = \(value)"
        case .isHidden(let value):
            return "isHidden = \(value)"
        case .hasLocation(let value):
            return value ? "latitude IS NOT NULL" : "latitude IS NULL"
        case .inAlbum(let identifier):
            return inAlbum(identifier, owner: owner)
        case .mediaSubtype(let subtypes):
            return "(mediaSubtypes & \(subtypes.rawValue)) = \(subtypes.rawValue)"
        case .addedDate(let from, let to):
            return range("addedDate", from: from, to: to)
        case .isTrashed(let value):
            return value ? "trashedDate IS NOT NULL" : "trashedDate IS NULL"
        case .creatorClient(let client):
            return "creatorClient = \(client)"
        case .filenameContains(let text):
            return "originalFilename \(raw: dialect.caseInsensitiveLike) \("%" + escapeLike(text) + "%") ESCAPE '\\'"
        case .uniformTypeIdentifier(let types):
            return "uniformTypeIdentifier IN \(list: types)"
        case .fileSize(let maximum):
            return "fileSize <= \(maximum)"
        case .duration(let maximum):
            return "duration <= \(maximum)"
        case .burstIdentifier(let identifier):
            return "burstIdentifier = \(identifier)"
        case .text(let text):
            return textCondition(AssetSearchText.words(in: text), dialect: dialect, albumWords: albumWords, titlesOf: client, owner: owner)
        case .place(let country, let name):
            guard let name else { return "placeCountry = \(country)" }
            return "(placeCountry = \(country) AND placeName = \(name))"
        case .keyword(let keyword):
            // One keyword a line: the whole line, or a path below it.
            let lines: SQLStatement = "(\(raw: dialect.newlineText) || COALESCE(keywords, '') || \(raw: dialect.newlineText))"
            let like = dialect.caseInsensitiveLike
            let escaped = escapeLike(keyword)
            return "(keywords IS NOT NULL AND (" + lines + " \(raw: like) \("%\n" + escaped + "\n%") ESCAPE '\\' OR " + lines
                + " \(raw: like) \("%\n" + escaped + "/%") ESCAPE '\\'))"
        case .region(let south, let west, let north, let east):
            let longitude: SQLStatement = west <= east ? "longitude BETWEEN \(west) AND \(east)" : "(longitude >= \(west) OR longitude <= \(east))"
            return "(latitude BETWEEN \(south) AND \(north) AND " + longitude + ")"
        case .localDays(let from, let to):
            return "\(raw: dialect.localDay()) BETWEEN \(from) AND \(to)"
        case .localMonthDay(let monthDay, let beforeYear):
            let day = dialect.localDay()
            return "(substr(\(raw: day), 6, 5) = \(monthDay) AND substr(\(raw: day), 1, 4) < \(String(format: "%04d", beforeYear)))"
        case .all(let predicates):
            guard !predicates.isEmpty else { return "TRUE" }
            return "("
                + SQLStatement.joined(
                    predicates.map { condition(for: $0, dialect: dialect, albumWords: albumWords, titlesOf: client, owner: owner) }, separator: " AND ")
                + ")"
        case .any(let predicates):
            guard !predicates.isEmpty else { return "FALSE" }
            return "("
                + SQLStatement.joined(
                    predicates.map { condition(for: $0, dialect: dialect, albumWords: albumWords, titlesOf: client, owner: owner) }, separator: " OR ")
                + ")"
        case .not(let inner):
            // An asset the inner condition cannot say of (SQL's unknown: no creator client, no
            // place, no location) does not match it, so it matches the negation, as in Swift.
            return "NOT COALESCE(" + condition(for: inner, dialect: dialect, albumWords: albumWords, titlesOf: client, owner: owner) + ", FALSE)"
        }
    }

    /// Folded words (letters and digits only), each of which starts a word of the asset's search
    /// text (the engine's full-text index) or is in the title of an album it is in. The index is
    /// asked about all the words at once (FTS5 `MATCH '"w1"* "w2"*'`, PostgreSQL
    /// `@@ 'w1:* & w2:*'`: the engine intersects its lists, so a word every photo has, `img`,
    /// costs nothing beside a rare one). Only when some album's title may hold one of the words
    /// (`albumWords`: those that may; `nil`: any) is a second set added to the `IN`: the members
    /// of those albums, each checked word by word against its text or its albums' titles.
    /// (Asking albums every time, or an `IN` per word, made both engines read every asset with
    /// a common word or test every row: 35 ms in SQLite, 350 ms in PostgreSQL on 100,000.)
    /// With `titlesOf`, only the titles of the albums that client made are read.
    static func textCondition(
        _ words: [String], dialect: SQLDialect, albumWords: Set<String>? = nil, titlesOf client: String? = nil, owner: Int64?
    ) -> SQLStatement {
        guard !words.isEmpty else { return "TRUE" }
        func matches(_ words: [String]) -> SQLStatement {
            "to_tsvector('simple', COALESCE(searchText, '')) @@ to_tsquery('simple', \(words.map { $0 + ":*" }.joined(separator: " & ")))"
        }
        func indexed(_ words: [String]) -> SQLStatement {
            switch dialect {
            case .sqlite: "SELECT rowid FROM assetSearch WHERE assetSearch MATCH \(words.map { "\"" + $0 + "\"*" }.joined(separator: " "))"
            case .postgres: "SELECT id FROM asset WHERE " + matches(words)
            }
        }
        let titled = words.filter { albumWords?.contains($0) ?? true }
        guard !titled.isEmpty else {
            // PostgreSQL tests the row itself, a bitmap scan of its GIN index (`id IN` its own
            // table joined the table to itself: 93 ms for a common word on 100,000, not 28).
            if dialect == .postgres { return matches(words) }
            return "id IN (" + indexed(words) + ")"
        }
        func titleHolds(_ word: String, _ alias: String) -> SQLStatement {
            var holds: SQLStatement = "\(raw: alias).title \(raw: dialect.caseInsensitiveLike) \("%" + escapeLike(word) + "%") ESCAPE '\\'"
            // Only the person's own albums' titles: a search is no oracle for another's.
            if let owner { holds = "(" + holds + " AND \(raw: alias).ownerID = \(owner))" }
            guard let client else { return holds }
            return "(" + holds + " AND \(raw: alias).creatorClient = \(client))"
        }
        let perWord = words.map { word -> SQLStatement in
            let inText: SQLStatement = "m.assetID IN (" + indexed([word]) + ")"
            guard titled.contains(word) else { return inText }
            return "(" + inText + " OR EXISTS (SELECT 1 FROM membership m2 JOIN assetCollection c2 ON c2.id = m2.collectionID "
                + "WHERE m2.assetID = m.assetID AND " + titleHolds(word, "c2") + "))"
        }
        // From the albums (few) to their members: never a walk over every asset.
        let albums: SQLStatement =
            "SELECT m.assetID FROM assetCollection c JOIN membership m ON m.collectionID = c.id WHERE ("
            + SQLStatement.joined(titled.map { titleHolds($0, "c") }, separator: " OR ") + ") AND " + SQLStatement.joined(perWord, separator: " AND ")
        return "id IN (" + indexed(words) + " UNION " + albums + ")"
    }

    /// `id IN (the album's assets)`, when the album is `owner`'s.
    static func inAlbum(_ localIdentifier: String, owner: Int64?) -> SQLStatement {
        let mine: SQLStatement = owner.map { " AND c.ownerID = \($0)" } ?? ""
        return """
            id IN (SELECT m.assetID FROM membership m JOIN assetCollection c ON c.id = m.collectionID \
            WHERE c.localIdentifier = \(localIdentifier)
            """ + mine + ")"
    }

    /// `from <= column < to`, either bound open.
    static func range(_ column: String, from: Date?, to: Date?) -> SQLStatement {
        var parts: [SQLStatement] = []
        if let from { parts.append("\(raw: column) >= \(from)") }
        if let to { parts.append("\(raw: column) < \(to)") }
        return parts.isEmpty ? "TRUE" : "(" + SQLStatement.joined(parts, separator: " AND ") + ")"
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    /// Rows after `asset` in the order of `descriptors` then `id`. Written so that an index on
    /// the first key serves it as a range (`k1 >= v1 AND (k1 > v1 OR (k1 = v1 AND …))`, with
    /// `<` for descending keys): a deep page starts where the last one ended instead of skipping
    /// everything before it.
    static func keyset(_ descriptors: [FetchOptions.SortDescriptor], after asset: Asset) -> SQLStatement {
        var terms: [(column: String, value: SQLValue, ascending: Bool)] = descriptors.map { descriptor in
            (column(descriptor.key), sortValue(of: asset, for: descriptor.key), descriptor.ascending)
        }
        terms.append(("id", .integer(asset.rowID), rowIDAscending(descriptors)))
        var alternatives: [SQLStatement] = []
        for (index, term) in terms.enumerated() {
            var parts: [SQLStatement] = terms[..<index].map { "\(raw: $0.column) = \($0.value)" }
            parts.append("\(raw: term.column) \(raw: term.ascending ? ">" : "<") \(term.value)")
            alternatives.append("(" + SQLStatement.joined(parts, separator: " AND ") + ")")
        }
        let first = terms[0]
        let bound: SQLStatement = "\(raw: first.column) \(raw: first.ascending ? ">=" : "<=") \(first.value)"
        return "(" + bound + " AND (" + SQLStatement.joined(alternatives, separator: " OR ") + "))"
    }

    static func sortValue(of asset: Asset, for key: FetchOptions.SortDescriptor.Key) -> SQLValue {
        switch key {
        case .creationDate: .date(asset.creationDate)
        case .modificationDate: .date(asset.modificationDate)
        case .addedDate: .date(asset.addedDate)
        case .filename: .text(asset.originalFilename)
        case .duration: .real(asset.duration)
        case .fileSize: .integer(Int64(asset.fileSize))
        }
    }
}

extension SQLStatement {
    static func + (lhs: SQLStatement, rhs: SQLStatement) -> SQLStatement {
        var result = lhs
        result.append(rhs)
        return result
    }
}
