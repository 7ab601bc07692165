import Foundation

/// The `assetSummary` table: how many assets there are per creation month (as the clock read
/// where they were taken: ``SQLDialect/localMonth(prefix:)``; UTC before migration v18) and per
/// combination of media type, subtypes, favorite, hidden and trashed, kept up to date by
/// triggers on `asset` in the same transaction as every change. Month sections and smart-album
/// counts of fetches it can answer read it (a few rows per month) instead of the asset index
/// (one entry per asset): on ten million assets, milliseconds instead of seconds.
enum AssetSummary {
    static let key = ["ownerID", "month", "mediaType", "mediaSubtypes", "isFavorite", "isHidden", "isTrashed"]

    /// SQLite's triggers and rows gone, for ``sqliteStatements(local:)`` (less its table) to make again.
    static let dropStatements = [
        "DROP TRIGGER assetSummary_insert", "DROP TRIGGER assetSummary_delete", "DROP TRIGGER assetSummary_update",
        "DELETE FROM assetSummary",
    ]

    /// The table, its triggers and its rows: by local month (`local`), or as migration v11 made
    /// them, by UTC month; with `owners` (migration v27 on), per person first.
    static func sqliteStatements(local: Bool = true, bursts: Bool = true, owners: Bool = false) -> [String] {
        let month = local ? SQLDialect.sqlite.localMonth(prefix:) : { "substr(\($0)creationDate, 1, 7)" }
        let columns =
            (local ? "creationDate, timeZoneOffset" : "creationDate") + (bursts ? ", burstIdentifier, representsBurst" : "") + (owners ? ", ownerID" : "")
        let burst = Burst(enabled: bursts)
        let owner = Owner(enabled: owners)
        return [
            """
            CREATE TABLE assetSummary (\(owner.column)
              month TEXT NOT NULL, mediaType INTEGER NOT NULL, mediaSubtypes INTEGER NOT NULL,
              isFavorite BOOLEAN NOT NULL, isHidden BOOLEAN NOT NULL, isTrashed BOOLEAN NOT NULL,
              count INTEGER NOT NULL,\(burst.column)
              PRIMARY KEY (\(owner.key)month, mediaType, mediaSubtypes, isFavorite, isHidden, isTrashed\(burst.key))
            ) WITHOUT ROWID
            """,
            """
            CREATE TRIGGER assetSummary_insert AFTER INSERT ON asset BEGIN
              INSERT INTO assetSummary VALUES (\(owner.value("NEW."))\(month("NEW.")), NEW.mediaType, NEW.mediaSubtypes, NEW.isFavorite,
                                               NEW.isHidden, NEW.trashedDate IS NOT NULL, 1\(burst.value("NEW.")))
              ON CONFLICT DO UPDATE SET count = count + 1;
            END
            """,
            """
            CREATE TRIGGER assetSummary_delete AFTER DELETE ON asset BEGIN
              UPDATE assetSummary SET count = count - 1
              WHERE \(owner.match("OLD."))month = \(month("OLD.")) AND mediaType = OLD.mediaType AND mediaSubtypes = OLD.mediaSubtypes
                AND isFavorite = OLD.isFavorite AND isHidden = OLD.isHidden AND isTrashed = (OLD.trashedDate IS NOT NULL)\(burst.match("OLD."));
            END
            """,
            """
            CREATE TRIGGER assetSummary_update AFTER UPDATE OF \(columns), mediaType, mediaSubtypes, isFavorite, isHidden, trashedDate ON asset BEGIN
              UPDATE assetSummary SET count = count - 1
              WHERE \(owner.match("OLD."))month = \(month("OLD.")) AND mediaType = OLD.mediaType AND mediaSubtypes = OLD.mediaSubtypes
                AND isFavorite = OLD.isFavorite AND isHidden = OLD.isHidden AND isTrashed = (OLD.trashedDate IS NOT NULL)\(burst.match("OLD."));
              INSERT INTO assetSummary VALUES (\(owner.value("NEW."))\(month("NEW.")), NEW.mediaType, NEW.mediaSubtypes, NEW.isFavorite,
                                               NEW.isHidden, NEW.trashedDate IS NOT NULL, 1\(burst.value("NEW.")))
              ON CONFLICT DO UPDATE SET count = count + 1;
            END
            """,
            """
            INSERT INTO assetSummary
            SELECT \(owner.value(""))\(month("")), mediaType, mediaSubtypes, isFavorite, isHidden, trashedDate IS NOT NULL, COUNT(*)\(burst.value(""))
            FROM asset GROUP BY \(owners ? "1, 2, 3, 4, 5, 6, 7" : "1, 2, 3, 4, 5, 6")\(bursts ? (owners ? ", 9" : ", 8") : "")
            """,
        ]
    }

    /// PostgreSQL's table, trigger function, trigger and rows (see ``sqliteStatements(local:)``).
    static func postgresStatements(local: Bool = true, bursts: Bool = true, owners: Bool = false) -> [String] {
        let month = local ? SQLDialect.postgres.localMonth(prefix:) : { "to_char(\($0)creationDate AT TIME ZONE 'UTC', 'YYYY-MM')" }
        let columns =
            (local ? "creationDate, timeZoneOffset" : "creationDate") + (bursts ? ", burstIdentifier, representsBurst" : "") + (owners ? ", ownerID" : "")
        let burst = Burst(enabled: bursts)
        let owner = Owner(enabled: owners)
        return [
            """
            CREATE TABLE assetSummary (\(owner.column)
              month TEXT NOT NULL, mediaType INTEGER NOT NULL, mediaSubtypes INTEGER NOT NULL,
              isFavorite BOOLEAN NOT NULL, isHidden BOOLEAN NOT NULL, isTrashed BOOLEAN NOT NULL,
              count BIGINT NOT NULL,\(burst.column)
              PRIMARY KEY (\(owner.key)month, mediaType, mediaSubtypes, isFavorite, isHidden, isTrashed\(burst.key))
            )
            """,
            """
            CREATE FUNCTION shoebox_asset_summary() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP IN ('DELETE', 'UPDATE') THEN
                UPDATE assetSummary SET count = count - 1
                WHERE \(owner.match("OLD."))month = \(month("OLD.")) AND mediaType = OLD.mediaType
                  AND mediaSubtypes = OLD.mediaSubtypes AND isFavorite = OLD.isFavorite AND isHidden = OLD.isHidden
                  AND isTrashed = (OLD.trashedDate IS NOT NULL)\(burst.match("OLD."));
              END IF;
              IF TG_OP IN ('INSERT', 'UPDATE') THEN
                INSERT INTO assetSummary VALUES (\(owner.value("NEW."))\(month("NEW.")), NEW.mediaType, NEW.mediaSubtypes,
                                                 NEW.isFavorite, NEW.isHidden, NEW.trashedDate IS NOT NULL, 1\(burst.value("NEW.")))
                ON CONFLICT (\(owner.key)month, mediaType, mediaSubtypes, isFavorite, isHidden, isTrashed\(burst.key)) DO UPDATE SET count = assetSummary.count + 1;
              END IF;
              RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER assetSummary_change AFTER INSERT OR DELETE OR UPDATE OF \(columns), mediaType, mediaSubtypes, isFavorite, isHidden, trashedDate
            ON asset FOR EACH ROW EXECUTE FUNCTION shoebox_asset_summary()
            """,
            """
            INSERT INTO assetSummary
            SELECT \(owner.value(""))\(month("")), mediaType, mediaSubtypes, isFavorite, isHidden, trashedDate IS NOT NULL, COUNT(*)\(burst.value(""))
            FROM asset GROUP BY \(owners ? "1, 2, 3, 4, 5, 6, 7" : "1, 2, 3, 4, 5, 6")\(bursts ? (owners ? ", 9" : ", 8") : "")
            """,
        ]
    }

    /// The column that keeps apart a burst's frames other than its key photo, which default
    /// fetches leave out (summaries made before migration v21 have none).
    private struct Burst {
        let enabled: Bool
        var column: String { enabled ? " isCollapsedFrame BOOLEAN NOT NULL," : "" }
        var key: String { enabled ? ", isCollapsedFrame" : "" }
        func value(_ prefix: String) -> String {
            enabled ? ", (\(prefix)burstIdentifier IS NOT NULL AND NOT \(prefix)representsBurst)" : ""
        }
        func match(_ prefix: String) -> String {
            enabled ? " AND isCollapsedFrame = (\(prefix)burstIdentifier IS NOT NULL AND NOT \(prefix)representsBurst)" : ""
        }
    }

    /// The column that keeps people's counts apart (summaries made before migration v27 have none).
    private struct Owner {
        let enabled: Bool
        var column: String { enabled ? " ownerID BIGINT NOT NULL," : "" }
        var key: String { enabled ? "ownerID, " : "" }
        func value(_ prefix: String) -> String { enabled ? "\(prefix)ownerID, " : "" }
        func match(_ prefix: String) -> String { enabled ? "ownerID = \(prefix)ownerID AND " : "" }
    }

    /// The options' conditions over `assetSummary`'s columns, or `nil` when the fetch filters
    /// by something the summary does not keep (an album, a date, a name, a client's selection,
    /// a limit, a partner's photos from a date on): then the asset index answers.
    /// `owner`: whose counts (`nil`: everyone's).
    static func condition(for options: FetchOptions, owner: Int64?) -> SQLStatement? {
        guard options.visibleToClient == nil, options.fetchLimit == nil else { return nil }
        var parts: [SQLStatement] = []
        if let owner {
            // A partner's whole library counts by its summary rows too; one shared from a date
            // on splits a month the summary keeps whole: then the asset index answers.
            guard options.partnerWindows.allSatisfy({ $0.startDate == nil }) else { return nil }
            var whose: [SQLStatement] = options.assetOwners(for: owner).map { "ownerID = \($0)" }
            for window in options.partnerWindows {
                whose.append("(ownerID = \(window.owner) AND isHidden = \(false) AND isTrashed = \(false))")
            }
            parts.append(whose.isEmpty ? "FALSE" : "(" + SQLStatement.joined(whose, separator: " OR ") + ")")
        }
        if !options.includeTrashedAssets { parts.append("isTrashed = \(false)") }
        if !options.includeHiddenAssets { parts.append("isHidden = \(false)") }
        if !options.includeAllBurstAssets { parts.append("(isCollapsedFrame = \(false) OR isTrashed = \(true) OR isHidden = \(true))") }
        if let predicate = options.predicate {
            guard let part = condition(for: predicate) else { return nil }
            parts.append(part)
        }
        return parts.isEmpty ? "TRUE" : "(" + SQLStatement.joined(parts, separator: " AND ") + ")"
    }

    private static func condition(for predicate: FetchOptions.Predicate) -> SQLStatement? {
        switch predicate {
        case .mediaType(let type): return "mediaType = \(type.rawValue)"
        case .isFavorite(let value): return "isFavorite = \(value)"
        case .isHidden(let value): return "isHidden = \(value)"
        case .isTrashed(let value): return "isTrashed = \(value)"
        case .mediaSubtype(let subtypes): return "(mediaSubtypes & \(subtypes.rawValue)) = \(subtypes.rawValue)"
        case .all(let predicates):
            guard !predicates.isEmpty else { return "TRUE" }
            let parts = predicates.compactMap(condition(for:))
            guard parts.count == predicates.count else { return nil }
            return "(" + SQLStatement.joined(parts, separator: " AND ") + ")"
        case .any(let predicates):
            guard !predicates.isEmpty else { return "FALSE" }
            let parts = predicates.compactMap(condition(for:))
            guard parts.count == predicates.count else { return nil }
            return "(" + SQLStatement.joined(parts, separator: " OR ") + ")"
        case .not(let inner):
            return condition(for: inner).map { "NOT COALESCE(" + $0 + ", FALSE)" }
        case .creationDate, .hasLocation, .creatorClient, .inAlbum, .addedDate, .filenameContains, .uniformTypeIdentifier,
            .fileSize, .duration, .burstIdentifier, .text, .place, .region, .localDays, .localMonthDay, .keyword:
            return nil
        }
    }
}
