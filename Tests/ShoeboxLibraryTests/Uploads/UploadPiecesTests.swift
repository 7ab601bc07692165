import Crypto
import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Resumable uploads in the library, with pieces in the library folder or (with
/// `SHOEBOX_TEST_BLOBS=s3`) in the bucket: pieces add up only in order, the whole becomes one
/// asset however often it is finished, and cancelled or abandoned uploads leave no piece.
@Suite struct UploadPiecesTests {
    /// Writes `bytes` to a staged file of the library, as the server receives a piece.
    func piece(_ bytes: Data, in library: PhotoLibrary) async throws -> (url: URL, size: Int, sha256: String) {
        let pending = try await library.beginImport(filename: "piece")
        try bytes.write(to: pending.url)
        return (pending.url, bytes.count, SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined())
    }

    func append(_ bytes: Data, at offset: Int, to id: String, in library: PhotoLibrary) async throws -> (record: UploadRecord, accepted: Bool) {
        let file = try await piece(bytes, in: library)
        return try await library.appendToUpload(id, at: offset, piece: file.url, size: file.size, sha256: file.sha256)
    }

    @Test func piecesInOrderBecomeOneAssetAndLeaveNothing() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let photo = try SyntheticPhoto(width: 800, height: 600, seed: 3).image().encoded(as: .jpeg)
        var upload = try await library.beginUpload(filename: "pieces.jpg", size: photo.count)
        #expect(upload.received == 0 && upload.state == .receiving)
        let cut = photo.count / 2
        upload = try await append(photo.prefix(cut), at: 0, to: upload.id, in: library).record
        #expect(upload.received == cut && upload.pieces.count == 1)
        // The same piece again, or one from the wrong place, is not taken.
        let repeated = try await append(photo.prefix(cut), at: 0, to: upload.id, in: library)
        #expect(!repeated.accepted && repeated.record.received == cut)
        await #expect(throws: LibraryError.self) { try await library.finishUpload(upload.id) }  // bytes are missing
        await #expect(throws: LibraryError.self) { _ = try await append(photo.suffix(from: cut) + Data([0]), at: cut, to: upload.id, in: library) }
        upload = try await append(photo.suffix(from: cut), at: cut, to: upload.id, in: library).record
        #expect(upload.isWhole)
        let (done, creation) = try await library.finishUpload(upload.id)
        #expect(done.state == .complete && done.assetIdentifier == creation.localIdentifier && !creation.isDuplicate)
        let asset = try #require(try await library.fetchAssets(withLocalIdentifiers: [creation.localIdentifier]).firstObject)
        #expect(try Data(contentsOf: try await library.originalURL(for: asset)) == photo)
        // Finishing again answers the same asset; the pieces are gone.
        #expect(try await library.finishUpload(upload.id).creation.localIdentifier == creation.localIdentifier)
        let first = try #require(upload.pieces.first)
        await #expect(throws: LibraryError.self) {
            try await library.blobs.fetchUploadPiece(upload: upload.id, name: first.name, to: temporary.folder.appendingPathComponent("gone"))
        }
        #expect(try await library.fetchAssets().count == 1)
    }

    @Test func cancelledAbandonedAndForeignUploads() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        await #expect(throws: LibraryError.self) { try await library.beginUpload(filename: "a.jpg", size: 0) }
        await #expect(throws: LibraryError.self) { try await library.beginUpload(filename: "../a.jpg", size: 10) }
        await #expect(throws: LibraryError.self) { try await library.beginUpload(filename: ".hidden", size: 10) }

        let cancelled = try await library.beginUpload(filename: "a.bin", size: 100)
        let stored = try await append(Data(repeating: 1, count: 40), at: 0, to: cancelled.id, in: library).record
        try await library.cancelUpload(cancelled.id)
        #expect(try await library.upload(cancelled.id) == nil)
        await #expect(throws: LibraryError.self) {
            try await library.blobs.fetchUploadPiece(upload: cancelled.id, name: stored.pieces[0].name, to: temporary.folder.appendingPathComponent("gone"))
        }

        // An upload nobody added to for a day goes with the sweep; a fresh one stays.
        let abandoned = try await library.beginUpload(filename: "b.bin", size: 100)
        let abandonedPiece = try await append(Data(repeating: 2, count: 10), at: 0, to: abandoned.id, in: library).record.pieces[0]
        #expect(try await library.expireUploads() == 0, "nothing is a day old yet")
        #expect(try await library.upload(abandoned.id) != nil)
        #expect(try await library.expireUploads(now: Date().addingTimeInterval(UploadRecord.abandonedAfter + 60)) == 1)
        #expect(try await library.upload(abandoned.id) == nil)
        await #expect(throws: LibraryError.self) {
            try await library.blobs.fetchUploadPiece(upload: abandoned.id, name: abandonedPiece.name, to: temporary.folder.appendingPathComponent("gone"))
        }

        // A client sees only its own uploads.
        let mine = try await library.beginUpload(filename: "d.bin", size: 100)
        let client = library.forClient("com.example.uploader")
        #expect(try await client.upload(mine.id) == nil)
        let staged = try await piece(Data([1]), in: library)
        await #expect(throws: LibraryError.self) {
            _ = try await client.appendToUpload(mine.id, at: 0, piece: staged.url, size: staged.size, sha256: staged.sha256)
        }
        #expect(try await library.upload(mine.id)?.received == 0)
    }

    /// File names are checked byte by byte: "a\u{D4E}/b.jpg" is one character before the "b", and
    /// `contains("/")` on characters did not see the separator in it (found by `scripts/fuzz`).
    @Test func aSeparatorInsideACharacterIsRefused() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        for name in ["a\u{D4E}/b.jpg", "\u{D4E}/..", ".\u{301}hidden.jpg", "a\u{0}b.jpg"] {
            await #expect(throws: LibraryError.self, "\(name.debugDescription)") { _ = try await library.beginImport(filename: name) }
            await #expect(throws: LibraryError.self, "\(name.debugDescription)") { _ = try await library.beginUpload(filename: name, size: 10) }
        }
        let pending = try await library.beginImport(filename: "Ωmega \u{D4E}.jpg")  // joined to nothing: a plain name
        pending.discard()
    }
}
