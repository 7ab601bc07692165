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

    /// Writes and hashes `data`, as the server does (`hashing: false`: writes only).
    static func write(_ data: Data, to writer: UploadPieceWriter, hashing: Bool = true) throws {
        let bytes = [UInt8](data)
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> Void in
            try writer.write(raw)
            if hashing { writer.hash(raw) }
        }
    }

    /// Sends `bytes` as one piece through the streaming writer, as the server does; `cut`
    /// stops after that many bytes and drops the piece (a connection lost mid-piece).
    func stream(_ bytes: Data, at offset: Int, to id: String, in library: PhotoLibrary, cut: Int? = nil) async throws -> (record: UploadRecord, accepted: Bool)?
    {
        guard let writer = try await library.beginUploadPiece(id, at: offset) else { return nil }
        let sent = cut.map { bytes.prefix($0) } ?? bytes
        // Two writes, as a body arrives in buffers.
        let half = sent.count / 2
        for part in [sent.prefix(half), sent.suffix(from: sent.startIndex + half)] {
            try Self.write(part, to: writer)
        }
        if cut != nil {
            writer.discard()
            return nil
        }
        return try await library.finishUploadPiece(writer)
    }

    @Test("Pieces streamed in place become the upload's one file: a dropped piece, a refused one and a stored one do not spoil it")
    func piecesWrittenInPlace() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let photo = try SyntheticPhoto(width: 900, height: 700, seed: 5).image().encoded(as: .jpeg)
        let third = photo.count / 3
        var upload = try await library.beginUpload(filename: "streamed.jpg", size: photo.count)
        // The first third; then the second dropped halfway, and sent again whole.
        upload = try #require(try await stream(photo.prefix(third), at: 0, to: upload.id, in: library)).record
        #expect(upload.received == third)
        #expect(try await stream(photo.subdata(in: third..<2 * third), at: third, to: upload.id, in: library, cut: third / 2) == nil)
        #expect(try await library.upload(upload.id)?.received == third, "a dropped piece is not recorded")
        // Two requests for the same piece at once.
        let first = try #require(try await library.beginUploadPiece(upload.id, at: third))
        if library.blobs.uploadFilesInPlace != nil {
            // In place, one writer at a time: the second waits while the first holds the
            // upload's file, then finds the upload past its offset.
            let id = upload.id
            async let second = stream(photo.subdata(in: third..<2 * third), at: third, to: id, in: library)
            // Written without its hash (as a caller that does not hash): the finish reads the file instead.
            try Self.write(photo.subdata(in: third..<2 * third), to: first, hashing: false)
            let taken = try await library.finishUploadPiece(first)
            #expect(taken.accepted)
            upload = taken.record
            #expect(try await second == nil, "the second request waited its turn and wrote nothing")
        } else {
            // Staged pieces: the one recorded second is refused.
            let second = try await stream(photo.subdata(in: third..<2 * third), at: third, to: upload.id, in: library)
            upload = try #require(second).record
            try Self.write(Data(repeating: 0xEE, count: 100), to: first)
            let refused = try await library.finishUploadPiece(first)
            #expect(!refused.accepted && refused.record.received == 2 * third)
        }
        #expect(upload.received == 2 * third)
        #expect(try await library.beginUploadPiece(upload.id, at: third) == nil, "the upload stands elsewhere")
        // Past the end: refused before a byte is written.
        let long = try #require(try await library.beginUploadPiece(upload.id, at: 2 * third))
        #expect(throws: LibraryError.self) { try Self.write(Data(count: photo.count - 2 * third + 1), to: long) }
        long.discard()
        // The last third as a stored piece (the older way, or another server's).
        upload = try await append(photo.suffix(from: 2 * third), at: 2 * third, to: upload.id, in: library).record
        #expect(upload.isWhole)
        let (_, creation) = try await library.finishUpload(upload.id)
        let asset = try #require(try await library.fetchAssets(withLocalIdentifiers: [creation.localIdentifier]).firstObject)
        #expect(asset.contentHash == SHA256.hash(data: photo).map { String(format: "%02x", $0) }.joined())
        #expect(try Data(contentsOf: try await library.originalURL(for: asset)) == photo)
    }

    @Test("An upload streamed in place is hashed as it comes and its file becomes the original, written once")
    func anInPlaceUploadIsWrittenOnce() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let photo = try SyntheticPhoto(width: 1000, height: 800, seed: 6).image().encoded(as: .jpeg)
        var upload = try await library.beginUpload(filename: "once.jpg", size: photo.count)
        var offset = 0
        let step = photo.count / 4 + 1
        while offset < photo.count {
            let end = min(offset + step, photo.count)
            upload = try #require(try await stream(photo.subdata(in: offset..<end), at: offset, to: upload.id, in: library)).record
            offset = end
        }
        #expect(upload.isWhole && upload.pieces.count == 4)
        let inPlace = library.blobs.uploadFilesInPlace
        let inode = try inPlace.map { try FileManager.default.attributesOfItem(atPath: try $0.uploadFile(upload.id).path)[.systemFileNumber] as? Int }
        let (_, creation) = try await library.finishUpload(upload.id)
        let asset = try #require(try await library.fetchAssets(withLocalIdentifiers: [creation.localIdentifier]).firstObject)
        #expect(asset.contentHash == SHA256.hash(data: photo).map { String(format: "%02x", $0) }.joined())
        let original = try await library.originalURL(for: asset)
        #expect(try Data(contentsOf: original) == photo)
        if let inode {
            // The library folder: the upload's file is the original itself, and its folder is gone.
            #expect(try FileManager.default.attributesOfItem(atPath: original.path)[.systemFileNumber] as? Int == inode)
            #expect(!FileManager.default.fileExists(atPath: temporary.library.url.appendingPathComponent("uploads/\(upload.id)").path))
        }
    }

    @Test("An upload's file that lost recorded bytes (the machine stopped) is refused in words, before and at its finish")
    func lostBytesAreNamed() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        guard let inPlace = library.blobs.uploadFilesInPlace else { return }  // a bucket keeps each piece whole
        var upload = try await library.beginUpload(filename: "lost.bin", size: 200)
        upload = try #require(try await stream(Data(repeating: 7, count: 100), at: 0, to: upload.id, in: library)).record
        let file = try inPlace.uploadFile(upload.id)
        try FileHandle(forWritingTo: file).truncate(atOffset: 60)
        let refused = await #expect(throws: LibraryError.self) { _ = try await library.beginUploadPiece(upload.id, at: 100) }
        #expect(refused?.code == .storage && refused?.message.contains("holds 60 of the 100 bytes received") == true, "\(String(describing: refused))")
        // Finishing an upload whose file came up short says so, and the upload stays to be cancelled.
        var whole = try await library.beginUpload(filename: "short.bin", size: 50)
        whole = try #require(try await stream(Data(repeating: 8, count: 50), at: 0, to: whole.id, in: library)).record
        try FileHandle(forWritingTo: try inPlace.uploadFile(whole.id)).truncate(atOffset: 10)
        let short = await #expect(throws: LibraryError.self) { _ = try await library.finishUpload(whole.id) }
        #expect(short?.message.contains("holds 10 of its 50 bytes") == true, "\(String(describing: short))")
        try await library.cancelUpload(whole.id)
        #expect(try await library.fetchAssets().count == 0)
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
