import Foundation

/// Live Photos: a photo and a movie with the same ``AssetRecord/pairingIdentifier`` become one
/// asset, in the transaction that brings the second of them in, whichever order they come in.
extension SQLCatalogStore {
    /// Pairs each new photo or movie of `changes` with its other half when the library holds it:
    /// the movie's bytes become the photo's paired video (its original blob is not moved; the
    /// photo's row refers to it), the movie's albums and limited-access grants move to the photo,
    /// and the movie's row goes. A movie already in the library is logged as deleted (its last
    /// row kept a day like a purged one's, so snapshots still read it); a new one never shows.
    ///
    /// Left alone: trashed assets, an edited movie (its render would be lost), a photo that has
    /// a paired video already.
    static func pairLivePhotos(_ changes: inout CatalogChanges, commit: inout CatalogCommit, in db: any SQLSession, now: Date) async throws {
        let image = Asset.MediaType.image.rawValue, video = Asset.MediaType.video.rawValue
        for new in changes.insertions {
            guard let identifier = new.pairingIdentifier, let id = new.id, commit.paired[new.localIdentifier] == nil,
                  let row = try await db.first("SELECT * FROM asset WHERE id = \(id)\(raw: db.dialect.forUpdate)")
            else { continue }
            // Two servers bringing in the halves at once: the second to take this lock sees the
            // first's committed row (PostgreSQL; SQLite's writer is alone).
            if db.dialect == .postgres {
                _ = try await db.query("SELECT pg_advisory_xact_lock(hashtextextended(\("pairing:" + identifier), 0))")
            }
            let current = AssetRecord(row: row)
            let other: SQLRow?
            if current.mediaType == image {
                guard current.companionHash == nil else { continue }
                other = try await db.first("""
                    SELECT * FROM asset WHERE pairingIdentifier = \(identifier) AND mediaType = \(video) AND id <> \(id)
                      AND trashedDate IS NULL AND renderHash IS NULL ORDER BY id LIMIT 1\(raw: db.dialect.forUpdate)
                    """)
            } else {
                guard current.renderHash == nil else { continue }
                other = try await db.first("""
                    SELECT * FROM asset WHERE pairingIdentifier = \(identifier) AND mediaType = \(image) AND id <> \(id)
                      AND trashedDate IS NULL AND companionHash IS NULL ORDER BY id LIMIT 1\(raw: db.dialect.forUpdate)
                    """)
            }
            guard let other else { continue }
            let (photo, movie) = current.mediaType == image ? (current, AssetRecord(row: other)) : (AssetRecord(row: other), current)
            try await pair(photo: photo, movie: movie, in: db, now: now)

            let movieIsNew = changes.insertions.contains { $0.id == movie.id }
            if movieIsNew {
                changes.insertions.removeAll { $0.id == movie.id }
                changes.aliases[movie.localIdentifier] = photo.localIdentifier
            } else {
                try await db.execute("""
                    INSERT INTO purgedAsset (id, date, record) VALUES (\(movie.id ?? 0), \(now), \(String(decoding: try JSONEncoder().encode(movie), as: UTF8.self)))
                    ON CONFLICT (id) DO UPDATE SET date = excluded.date, record = excluded.record
                    """)
                changes.purges.append(movie.localIdentifier)
            }
            if !changes.insertions.contains(where: { $0.id == photo.id }) {
                changes.updates.append(AssetUpdate(localIdentifier: photo.localIdentifier))
            }
            commit.paired[movie.localIdentifier] = photo.localIdentifier
        }
    }

    /// Makes `movie` the paired video of `photo` and deletes the movie's row.
    private static func pair(photo: AssetRecord, movie: AssetRecord, in db: any SQLSession, now: Date) async throws {
        guard let photoID = photo.id, let movieID = movie.id else { return }
        var live = photo
        live.companionType = AssetResource.ResourceType.pairedVideo.rawValue
        live.companionHash = movie.contentHash
        live.companionUniformTypeIdentifier = movie.uniformTypeIdentifier
        live.companionFilename = movie.originalFilename
        live.companionFileSize = movie.fileSize
        live.mediaSubtypes |= Asset.MediaSubtypes.photoLive.rawValue
        live.isFavorite = photo.isFavorite || movie.isFavorite
        live.modificationDate = now
        try await db.execute("""
            INSERT INTO membership (collectionID, assetID, position)
              SELECT collectionID, \(photoID), position FROM membership WHERE assetID = \(movieID)
              ON CONFLICT (collectionID, assetID) DO NOTHING
            """)
        try await db.execute("""
            INSERT INTO limitedSelection (client, assetID)
              SELECT client, \(photoID) FROM limitedSelection WHERE assetID = \(movieID)
              ON CONFLICT (client, assetID) DO NOTHING
            """)
        // The movie's row goes first: its content hash and the photo's companion hash are the
        // same bytes, and each index keeps them unique on its own.
        try await db.execute("DELETE FROM asset WHERE id = \(movieID)")
        try await db.execute(live.updateStatement)
    }
}
