import Foundation
import ShoeboxImaging

/// Resumable uploads in the catalog's `upload` table (see ``UploadRecord``).
extension SQLCatalogStore {
    func addUpload(_ record: UploadRecord) async throws(LibraryError) {
        let pieces = try Self.encodePieces(record.pieces)
        try await write { db in
            try await db.execute(
                """
                INSERT INTO upload (id, owner, filename, size, album, received, pieces, state, assetIdentifier, createdDate, updatedDate)
                VALUES (\(record.id), \(record.owner), \(record.filename), \(record.size), \(record.album), \(record.received), \(pieces),
                        \(record.state.rawValue), \(record.assetIdentifier), \(record.createdDate), \(record.updatedDate))
                """)
        }
    }

    func upload(id: String) async throws(LibraryError) -> UploadRecord? {
        try await read { db in
            try await db.query("SELECT * FROM upload WHERE id = \(id)").first.map(Self.upload(from:))
        }
    }

    func uploads(updatedBefore date: Date) async throws(LibraryError) -> [UploadRecord] {
        try await read { db in
            try await db.query("SELECT * FROM upload WHERE updatedDate < \(date) ORDER BY createdDate").map(Self.upload(from:))
        }
    }

    func receivingUploads(owner: String?) async throws(LibraryError) -> (count: Int, bytes: Int) {
        try await read { db in
            let row = try await db.first(
                "SELECT COUNT(*) AS count, CAST(COALESCE(SUM(size), 0) AS BIGINT) AS bytes FROM upload WHERE state = 'receiving' AND COALESCE(owner, '') = \(owner ?? "")"
            )
            let count: Int64 = row?["count"] ?? 0
            let bytes: Int64 = row?["bytes"] ?? 0
            return (Int(count), Int(bytes))
        }
    }

    func addUploadPiece(id: String, piece: UploadRecord.Piece) async throws(LibraryError) -> UploadRecord? {
        try await write { db in
            guard let row = try await db.first("SELECT * FROM upload WHERE id = \(id)\(raw: db.dialect.forUpdate)") else { return nil }
            var record = Self.upload(from: row)
            guard record.state == .receiving, record.received == piece.offset, piece.offset + piece.length <= record.size else { return nil }
            record.pieces.append(piece)
            record.received += piece.length
            record.updatedDate = Date()
            let pieces = try Self.encodePieces(record.pieces)
            try await db.execute(
                """
                UPDATE upload SET received = \(record.received), pieces = \(pieces), updatedDate = \(record.updatedDate) WHERE id = \(id)
                """)
            return record
        }
    }

    func completeUpload(id: String, assetIdentifier: String) async throws(LibraryError) {
        try await write { db in
            try await db.execute(
                """
                UPDATE upload SET state = 'complete', assetIdentifier = \(assetIdentifier), updatedDate = \(Date()) WHERE id = \(id)
                """)
        }
    }

    func removeUpload(id: String) async throws(LibraryError) {
        try await write { db in try await db.execute("DELETE FROM upload WHERE id = \(id)") }
    }

    static func encodePieces(_ pieces: [UploadRecord.Piece]) throws(LibraryError) -> Data {
        do {
            return try JSONEncoder().encode(pieces)
        } catch {
            throw .invalidArgument("cannot encode an upload's pieces: \(error)")
        }
    }

    static func upload(from row: SQLRow) -> UploadRecord {
        let pieces = (try? JSONDecoder().decode([UploadRecord.Piece].self, from: row["pieces"] as Data)) ?? []
        return UploadRecord(
            id: row["id"], owner: row["owner"], filename: row["filename"], size: row["size"], album: row["album"],
            received: row["received"], pieces: pieces, state: UploadRecord.State(rawValue: row["state"]) ?? .receiving,
            assetIdentifier: row["assetIdentifier"], createdDate: row["createdDate"], updatedDate: row["updatedDate"])
    }
}
