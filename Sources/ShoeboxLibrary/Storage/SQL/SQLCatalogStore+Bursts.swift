import Foundation

/// Bursts, in the transaction of the change that touches them (``AssetRecord/burstIdentifier``):
/// - Apple's cameras name a burst in every frame (the maker note's `BurstUUID`);
/// - for other cameras, a run of ``minimumRun`` or more photos that one body shot in sequence,
///   each taken under ``maximumGap`` after the one before, is a burst named `run:` and a UUID.
///   Only evidence that one body shot them makes a run: the body's serial number (EXIF's or the
///   maker note's), the same on every frame; names that say so as Android phones write them
///   (`…_BURST001.jpg`, the same stem before `BURST`); or the maker note's drive mode set to
///   continuous shooting on every frame (``AssetRecord/continuousDrive``: Canon, Nikon,
///   Fujifilm, Sony, Panasonic). One phone model is no evidence: two people with the same phone
///   shoot in the same second, and most phones write no serial. Frames that come later join the
///   run they extend, and a frame that joins two runs makes them one.
///
/// Each burst has one key photo, which default fetches show (``AssetRecord/representsBurst``):
/// the frame the user chose, else the first, among those neither trashed nor hidden.
extension SQLCatalogStore {
    /// Frames of one camera closer than this are one run.
    static let maximumGap: TimeInterval = 1
    /// A run of fewer frames is no burst (two quick shots are two photos).
    static let minimumRun = 3
    /// How far around a frame one query looks for its run (longer runs take more queries).
    private static let runWindow: TimeInterval = 120

    /// Finds the runs the change's new or re-read photos make, then settles the key photo of
    /// every burst the change touched. Frames whose burst or key photo changed are logged as
    /// updated.
    static func settleBursts(_ changes: inout CatalogChanges, in db: any SQLSession, now: Date) async throws {
        // Bursts by name and owner: two people may hold the same frames, each their own burst.
        var touched = Set<BurstKey>()
        let inserted = Set(changes.insertions.compactMap(\.id))
        var subjects = Array(inserted)
        let reread = changes.updates.filter { $0.fileMetadata != nil }.map(\.localIdentifier)
        // What can change a burst's key photo: deleting, restoring, hiding, showing, choosing, or
        // the file read again (a favorite cannot).
        let changed = changes.updates.filter {
            $0.trashedDate != nil || $0.isHidden != nil || $0.makesBurstKeyPhoto || $0.fileMetadata != nil
        }.map(\.localIdentifier)
        // In chunks: engines cap how many values one statement may bind (a Select All may change
        // every asset).
        for chunk in chunks(changed) {
            for row in try await db.query(
                "SELECT burstIdentifier, ownerID FROM asset WHERE localIdentifier IN \(list: chunk) AND burstIdentifier IS NOT NULL")
            {
                touched.insert(BurstKey(identifier: row["burstIdentifier"], owner: row["ownerID"]))
            }
        }
        for chunk in chunks(reread) {
            subjects += try await db.query("SELECT id FROM asset WHERE localIdentifier IN \(list: chunk)").map { $0["id"] as Int64 }
        }
        var records: [AssetRecord] = []
        for id in subjects {
            guard let row = try await db.first("SELECT * FROM asset WHERE id = \(id)") else { continue }
            records.append(AssetRecord(row: row))
        }
        if db.dialect == .postgres {
            // Two servers filing frames of one camera at once: the second sees the first's run.
            // Taken in one order, so that two changes with several cameras never wait on each other.
            for model in Set(records.compactMap(\.cameraModel)).sorted() {
                _ = try await db.query("SELECT pg_advisory_xact_lock(hashtextextended(\("camera:" + model), 0))")
            }
        }
        var relabelled: [Int64] = []
        for record in records {
            if let burst = record.burstIdentifier { touched.insert(BurstKey(identifier: burst, owner: record.ownerID)) }
            guard let run = try await findRun(around: record, in: db) else { continue }
            touched.insert(BurstKey(identifier: run.identifier, owner: record.ownerID))
            for frame in run.frames where frame.burstIdentifier != run.identifier {
                if let previous = frame.burstIdentifier { touched.insert(BurstKey(identifier: previous, owner: record.ownerID)) }
                try await db.execute("UPDATE asset SET burstIdentifier = \(run.identifier), modificationDate = \(now) WHERE id = \(frame.id)")
                relabelled.append(frame.id)
            }
        }
        let picked = Set(changes.updates.filter(\.makesBurstKeyPhoto).map(\.localIdentifier))
        var settled: [Int64] = []
        for burst in touched.sorted(by: { ($0.identifier, $0.owner) < ($1.identifier, $1.owner) }) {
            settled += try await settleKeyPhoto(of: burst.identifier, owner: burst.owner, picked: picked, in: db, now: now)
        }
        let logged = Set(changes.updates.map(\.localIdentifier))
        let ids = Set(relabelled + settled).subtracting(inserted)
        guard !ids.isEmpty else { return }
        for chunk in chunks(ids.sorted()) {
            for row in try await db.query("SELECT localIdentifier FROM asset WHERE id IN \(list: chunk)") {
                let identifier: String = row["localIdentifier"]
                if !logged.contains(identifier) { changes.updates.append(AssetUpdate(localIdentifier: identifier)) }
            }
        }
    }

    /// `values` 500 at a time: engines cap how many values one statement may bind.
    static func chunks<Element>(_ values: [Element]) -> [[Element]] {
        stride(from: 0, to: values.count, by: 500).map { Array(values[$0..<min($0 + 500, values.count)]) }
    }

    /// A burst of one person's.
    private struct BurstKey: Hashable {
        let identifier: String
        let owner: Int64
    }

    /// A frame of a run: its row id, when it was taken, its burst.
    private struct Frame {
        let id: Int64
        let date: Date
        let burstIdentifier: String?
    }

    /// The run of one camera's photos around `record`, if it is long enough to be a burst, with
    /// the name it keeps (the first of its frames' run names, else a new one).
    private static func findRun(around record: AssetRecord, in db: any SQLSession) async throws -> (identifier: String, frames: [Frame])? {
        guard record.mediaType == Asset.MediaType.image.rawValue, let model = record.cameraModel, let id = record.id,
            record.originalAssetIdentifier == nil, record.burstIdentifier.map(isRun) ?? true
        else { return nil }
        // The evidence that one body shot the frames: its serial, else a burst name's stem, else
        // a drive set to shoot continuously.
        let stem = burstNameStem(record.originalFilename)
        let continuous = record.continuousDrive == true
        guard record.cameraSerialNumber != nil || stem != nil || continuous else { return nil }
        var low = record.creationDate.addingTimeInterval(-runWindow)
        var high = record.creationDate.addingTimeInterval(runWindow)
        while true {
            let frames = try await db.query(
                """
                SELECT id, creationDate, burstIdentifier, cameraMake, cameraSerialNumber, originalFilename, continuousDrive FROM asset
                WHERE cameraModel = \(model) AND mediaType = \(Asset.MediaType.image.rawValue) AND originalAssetIdentifier IS NULL
                  AND ownerID = \(record.ownerID)
                  AND creationDate > \(low) AND creationDate < \(high)
                ORDER BY creationDate, id
                """
            ).filter {
                ($0["cameraMake"] as String?) == record.cameraMake && ($0["cameraSerialNumber"] as String?) == record.cameraSerialNumber
                    && (record.cameraSerialNumber != nil || (stem != nil && burstNameStem($0["originalFilename"]) == stem)
                        || (continuous && ($0["continuousDrive"] as Bool?) == true))
                    && (($0["burstIdentifier"] as String?).map(isRun) ?? true)
            }.map { Frame(id: $0["id"], date: $0["creationDate"], burstIdentifier: $0["burstIdentifier"]) }
            guard let index = frames.firstIndex(where: { $0.id == id }) else { return nil }
            var start = index
            var end = index
            while start > 0, frames[start].date.timeIntervalSince(frames[start - 1].date) < maximumGap { start -= 1 }
            while end < frames.count - 1, frames[end + 1].date.timeIntervalSince(frames[end].date) < maximumGap { end += 1 }
            let run = Array(frames[start...end])
            // A run that reaches the edge of the window may go on beyond it: look again, wider.
            let first = run[0].date
            let last = run[run.count - 1].date
            if first.timeIntervalSince(low) < maximumGap || high.timeIntervalSince(last) < maximumGap {
                (low, high) = (first.addingTimeInterval(-runWindow), last.addingTimeInterval(runWindow))
                continue
            }
            guard run.count >= minimumRun else { return nil }
            let identifier = run.lazy.compactMap(\.burstIdentifier).first ?? "run:" + UUID().uuidString
            return (identifier, run)
        }
    }

    private static func isRun(_ burstIdentifier: String) -> Bool { burstIdentifier.hasPrefix("run:") }

    /// The part of a file name before `BURST` (any case), for names that phones give a burst's
    /// frames (`IMG_20230405_101112_BURST001.jpg`, `00001IMG_00001_BURST20230405101112.jpg`);
    /// `nil` for other names.
    static func burstNameStem(_ name: String?) -> String? {
        guard let name, let range = name.range(of: "burst", options: .caseInsensitive) else { return nil }
        return String(name[..<range.lowerBound]).lowercased()
    }

    /// Marks the key photo of `burst` (the frame in `picked`, else the one the user chose before,
    /// else the first, among frames neither trashed nor hidden) and clears the others.
    ///
    /// - Returns: The frames whose key-photo state changed.
    private static func settleKeyPhoto(of burst: String, owner: Int64, picked: Set<String>, in db: any SQLSession, now: Date) async throws -> [Int64] {
        if db.dialect == .postgres {
            _ = try await db.query("SELECT pg_advisory_xact_lock(hashtextextended(\("burst:" + burst), 0))")
        }
        let frames = try await db.query(
            """
            SELECT id, localIdentifier, trashedDate, isHidden, representsBurst, burstSelectionTypes FROM asset
            WHERE burstIdentifier = \(burst) AND ownerID = \(owner) ORDER BY creationDate, id\(raw: db.dialect.forUpdate)
            """)
        let auto = Asset.BurstSelectionTypes.autoPick.rawValue
        let user = Asset.BurstSelectionTypes.userPick.rawValue
        let pickedHere = frames.first { picked.contains($0["localIdentifier"]) }.map { $0["id"] as Int64 }
        var selections: [Int64: Int] = [:]
        for frame in frames {
            let id: Int64 = frame["id"]
            var types: Int = frame["burstSelectionTypes"]
            if let pickedHere, pickedHere != id { types &= ~user }
            selections[id] = types
        }
        let eligible = frames.filter { ($0["trashedDate"] as Date?) == nil && !($0["isHidden"] as Bool) }.map { $0["id"] as Int64 }
        let key = eligible.first { (selections[$0] ?? 0) & user != 0 } ?? eligible.first
        var changed: [Int64] = []
        for frame in frames {
            let id: Int64 = frame["id"]
            let represents = id == key
            var types = (selections[id] ?? 0) & ~auto
            if represents, types & user == 0 { types |= auto }
            guard represents != (frame["representsBurst"] as Bool) || types != (frame["burstSelectionTypes"] as Int) else { continue }
            try await db.execute(
                """
                UPDATE asset SET representsBurst = \(represents), burstSelectionTypes = \(types), modificationDate = \(now) WHERE id = \(id)
                """)
            changed.append(id)
        }
        return changed
    }
}
