import Foundation
import ShoeboxImaging

/// The files of one shot become one asset, in the transaction that brings in the second of them,
/// whichever order they come in (``AssetRecord/pairingIdentifier``):
/// - a Live Photo: a photo and a movie with one Apple content identifier; the movie becomes the
///   photo's ``AssetResource/ResourceType/pairedVideo``;
/// - RAW+JPEG: a raw file and a photo that is not raw, with the same name stem and time taken;
///   the raw becomes the other's ``AssetResource/ResourceType/alternatePhoto``, as in Photos.
extension SQLCatalogStore {
    /// Pairs each new file of `changes` with its other half when the library holds it: the
    /// second file's bytes become the primary asset's companion (its original blob is not moved;
    /// the primary's row refers to it), its albums and limited-access grants move to the primary,
    /// and its row goes. One already in the library is logged as deleted (its last row kept a day
    /// like a purged one's, so snapshots still read it); a new one never shows.
    ///
    /// Left alone: trashed assets, an edited companion-to-be (its render would be lost), an asset
    /// that has a companion already.
    static func pairShots(_ changes: inout CatalogChanges, commit: inout CatalogCommit, in db: any SQLSession, now: Date) async throws {
        for new in changes.insertions {
            // Skipped once it became another's companion (it left the insertions then).
            guard let identifier = new.pairingIdentifier, let id = new.id, changes.insertions.contains(where: { $0.id == id })
            else { continue }
            // Two servers bringing in the halves at once: the second to take this lock sees the
            // first's committed row (PostgreSQL; SQLite's writer is alone).
            if db.dialect == .postgres {
                _ = try await db.query("SELECT pg_advisory_xact_lock(hashtextextended(\("pairing:" + identifier), 0))")
            }
            guard let row = try await db.first("SELECT * FROM asset WHERE id = \(id)\(raw: db.dialect.forUpdate)") else { continue }
            let current = AssetRecord(row: row)
            guard current.trashedDate == nil else { continue }
            let candidates = try await db.query(
                """
                SELECT * FROM asset WHERE pairingIdentifier = \(identifier) AND id <> \(id) AND trashedDate IS NULL AND ownerID = \(current.ownerID)
                ORDER BY id LIMIT 8\(raw: db.dialect.forUpdate)
                """
            ).map(AssetRecord.init(row:))
            guard let (primary, companion, type) = candidates.lazy.compactMap({ Self.pairing(current, $0) }).first else { continue }
            try await attach(companion, to: primary, as: type, in: db, now: now)

            if changes.insertions.contains(where: { $0.id == companion.id }) {
                changes.insertions.removeAll { $0.id == companion.id }
                changes.aliases[companion.localIdentifier] = primary.localIdentifier
            } else {
                try await keepPurgedRecord(companion, in: db, now: now)
                changes.purges.append(companion.localIdentifier)
            }
            if !changes.insertions.contains(where: { $0.id == primary.id }) {
                changes.updates.append(AssetUpdate(localIdentifier: primary.localIdentifier))
            }
            commit.paired[companion.localIdentifier] = primary.localIdentifier
        }
    }

    /// Which of two files of one shot is the asset and which its companion, if they pair.
    private static func pairing(_ a: AssetRecord, _ b: AssetRecord) -> (AssetRecord, AssetRecord, AssetResource.ResourceType)? {
        let image = Asset.MediaType.image.rawValue
        let video = Asset.MediaType.video.rawValue
        if a.mediaType == image, b.mediaType == video, a.companionHash == nil, b.renderHash == nil { return (a, b, .pairedVideo) }
        if a.mediaType == video, b.mediaType == image, b.companionHash == nil, a.renderHash == nil { return (b, a, .pairedVideo) }
        guard a.mediaType == image, b.mediaType == image, isRaw(a) != isRaw(b) else { return nil }
        let (primary, raw) = isRaw(a) ? (b, a) : (a, b)
        guard primary.companionHash == nil, raw.companionHash == nil, raw.renderHash == nil else { return nil }
        return (primary, raw, .alternatePhoto)
    }

    private static let rawTypes = Set(ImageFormat.allCases.filter(\.isRaw).map(\.uniformTypeIdentifier))

    private static func isRaw(_ record: AssetRecord) -> Bool { rawTypes.contains(record.uniformTypeIdentifier) }

    /// Makes `companion`'s original a resource of `primary` and deletes `companion`'s row.
    private static func attach(
        _ companion: AssetRecord, to primary: AssetRecord, as type: AssetResource.ResourceType,
        in db: any SQLSession, now: Date
    ) async throws {
        guard let primaryID = primary.id, let companionID = companion.id else { return }
        var joined = primary
        joined.companionType = type.rawValue
        joined.companionHash = companion.contentHash
        joined.companionUniformTypeIdentifier = companion.uniformTypeIdentifier
        joined.companionFilename = companion.originalFilename
        joined.companionFileSize = companion.fileSize
        // Found by the second file's name too.
        var words = AssetSearchText.words(in: primary.searchText ?? "")
        words += AssetSearchText.words(in: companion.originalFilename).filter { !words.contains($0) }
        joined.searchText = primary.searchText == nil ? nil : words.joined(separator: " ")
        joined.mediaSubtypes |= joined.companionSubtypes
        joined.isFavorite = primary.isFavorite || companion.isFavorite
        joined.modificationDate = now
        try await db.execute(
            """
            INSERT INTO membership (collectionID, assetID, position)
              SELECT collectionID, \(primaryID), position FROM membership WHERE assetID = \(companionID)
              ON CONFLICT (collectionID, assetID) DO NOTHING
            """)
        try await db.execute(
            """
            INSERT INTO limitedSelection (client, assetID)
              SELECT client, \(primaryID) FROM limitedSelection WHERE assetID = \(companionID)
              ON CONFLICT (client, assetID) DO NOTHING
            """)
        // The companion's row goes first: its content hash and the primary's companion hash are
        // the same bytes, and each index keeps them unique on its own.
        try await db.execute("DELETE FROM asset WHERE id = \(companionID)")
        try await db.execute(joined.updateStatement)
    }
}
