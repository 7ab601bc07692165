import Foundation
import ShoeboxSupport

/// Resumable uploads: a large file sent in pieces, each stored where every server of the library
/// finds it (the library folder, or the bucket) and recorded in the catalog, so that an upload
/// interrupted by a dropped connection or a dead server goes on — on any server — from the byte
/// it reached, instead of from the start.
///
/// ```swift
/// var upload = try await library.beginUpload(filename: "IMG_0042.MOV", size: 2_000_000_000)
/// // For each piece received (into a staged file of the library):
/// upload = try await library.appendToUpload(upload.id, at: upload.received, piece: file, size: n, sha256: hash).record
/// if upload.isWhole { let (done, creation) = try await library.finishUpload(upload.id) }
/// ```
extension PhotoLibrary {
    /// How many uploads one uploader (a client, or the user) may have receiving at once.
    package static let maximumReceivingUploads = 16

    /// How many bytes the uploads one uploader has receiving may declare together (32 GiB): an
    /// uploader cannot hold more than this of the library's storage in unfinished uploads, which
    /// stay for a day (``UploadRecord/abandonedAfter``) after their last piece.
    package static let maximumReceivingUploadBytes = 32 << 30

    /// Starts a resumable upload of a file of `size` bytes named `filename`, by this library
    /// handle's client (or the user).
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` for a name that is not one plain file name
    ///   or a size that is not positive; ``LibraryError/Code/tooManyUploads`` when the uploader has
    ///   ``maximumReceivingUploads`` receiving already, or they and this one would declare more
    ///   than ``maximumReceivingUploadBytes``; the client's authorization error when it may not add
    ///   photos.
    /// `person:` and a person's row id: whose resumable upload a person's is.
    static let personUploader = "person:"

    /// Who uploads through this object: its client, else a person other than the first admin
    /// (`person:ROWID`), else `nil` (the first admin and Shoebox's tools).
    var uploader: String? {
        if let clientIdentifier { return clientIdentifier }
        guard let owner = catalog.owner, owner != Person.adminRowID else { return nil }
        return Self.personUploader + String(owner)
    }

    package func beginUpload(filename: String, size: Int, album: String? = nil) async throws(LibraryError) -> UploadRecord {
        try Self.checkFilename(filename)
        guard size > 0 else { throw .invalidArgument("an upload's size must be a positive number of bytes, not \(size)") }
        try await authorizeChanges([])
        try await checkRoom(for: Int64(size))
        let receiving = try await catalog.receivingUploads(owner: uploader)
        guard receiving.count < Self.maximumReceivingUploads else {
            throw LibraryError(
                .tooManyUploads,
                "\(receiving.count) uploads are receiving already, the most one uploader may have (\(Self.maximumReceivingUploads)): finish or cancel one first"
            )
        }
        guard size <= Self.maximumReceivingUploadBytes - receiving.bytes else {
            let gib = Double(Self.maximumReceivingUploadBytes) / Double(1 << 30)
            throw LibraryError(
                .tooManyUploads,
                "the uploads receiving declare \(receiving.bytes) bytes already; with this one's \(size) they would pass the \(Int(gib)) GiB (\(Self.maximumReceivingUploadBytes) bytes) one uploader may have receiving: finish or cancel one first"
            )
        }
        let record = UploadRecord(id: RandomToken.hex(words: 2), owner: uploader, filename: filename, size: size, album: album)
        try await catalog.addUpload(record)
        return record
    }

    /// Refuses, before any byte is received, a file of `bytes` that would take this object's
    /// person past their quota with what their library holds now (the commit checks again, with
    /// what it holds then).
    ///
    /// - Throws: ``LibraryError/Code/quotaExceeded``.
    package func checkRoom(for bytes: Int64) async throws(LibraryError) {
        let row = catalog.owner ?? Person.adminRowID
        guard let quota = try await catalog.person(rowID: row)?.quota else { return }
        let used = try await catalog.usage()[row]?.byteCount ?? 0
        guard used + bytes <= quota else {
            let format = { (count: Int64) in ByteCountFormatter.string(fromByteCount: count, countStyle: .binary) }
            throw LibraryError(
                .quotaExceeded,
                "this file of \(format(bytes)) would take the library (\(format(used)) now) past its quota of \(format(quota)); nothing was received")
        }
    }

    /// The upload `id`, if this handle's client (or the user, who sees every upload) made it.
    package func upload(_ id: String) async throws(LibraryError) -> UploadRecord? {
        guard let record = try await catalog.upload(id: id) else { return nil }
        // A client's and a person's uploads are theirs; the first admin's tools reach their own
        // and clients' (not another person's: it would land in the admin's library).
        let mine = uploader == nil ? !(record.owner?.hasPrefix(Self.personUploader) ?? false) : record.owner == uploader
        guard mine else { return nil }
        return record
    }

    /// Adds a received piece of `size` bytes (a file that hashes to `sha256`, consumed) at
    /// `offset`, which must be where the upload stands (``UploadRecord/received``).
    ///
    /// - Returns: The upload after it, and whether the piece was taken: `false` when the upload
    ///   stands elsewhere (another request added the piece first, or the client lost count) or
    ///   is complete; the client goes on from the returned record's `received`.
    /// - Throws: ``LibraryError/Code/notFound`` for an unknown upload;
    ///   ``LibraryError/Code/invalidArgument`` for a piece that runs past the announced size.
    package func appendToUpload(_ id: String, at offset: Int, piece file: URL, size: Int, sha256: String)
        async throws(LibraryError) -> (record: UploadRecord, accepted: Bool)
    {
        defer { try? FileManager.default.removeItem(at: file) }
        guard let record = try await upload(id) else { throw .notFound(localIdentifier: id) }
        guard record.state == .receiving, offset == record.received else { return (record, false) }
        guard offset + size <= record.size else {
            throw .invalidArgument("the piece ends at byte \(offset + size), past the upload's \(record.size) bytes")
        }
        let name = String(format: "%016d-", offset) + RandomToken.hex(words: 1)
        try await blobs.storeUploadPiece(consuming: file, size: size, sha256: sha256, upload: id, name: name)
        // Recorded only if nothing moved meanwhile; a piece not recorded goes with the upload.
        guard let after = try await catalog.addUploadPiece(id: id, piece: .init(name: name, offset: offset, length: size)) else {
            return (try await upload(id) ?? record, false)
        }
        return (after, true)
    }

    /// Imports a whole upload: its pieces are put together in the library's staging folder and
    /// imported as any file is (in one change with what `changes` adds), then the pieces go and
    /// the upload is marked complete. Finishing an upload twice (two servers at once, or a
    /// client asking again) gives the same asset.
    ///
    /// - Returns: The completed upload and the import's creation.
    /// - Throws: ``LibraryError/Code/invalidArgument`` while bytes are missing; the import's errors
    ///   (the upload stays, for a retry or a cancel).
    package func finishUpload(_ id: String, changes: @escaping (AssetChangeRequest) throws -> Void = { _ in })
        async throws(LibraryError) -> (record: UploadRecord, creation: ChangeResult.Creation)
    {
        guard var record = try await upload(id) else { throw .notFound(localIdentifier: id) }
        guard record.isWhole else {
            throw .invalidArgument("the upload has \(record.received) of its \(record.size) bytes: send the rest from byte \(record.received)")
        }
        if record.state == .complete, let asset = record.assetIdentifier {
            return (record, ChangeResult.Creation(placeholderIdentifier: asset, localIdentifier: asset, isDuplicate: true))
        }
        let pending = try await beginImport(filename: record.filename)
        do {
            try await assemble(record, into: pending.url)
        } catch {
            await pending.discardOnPool()
            throw error
        }
        let result = try await pending.commit(changes)
        let creation = result.created[0]
        try await catalog.completeUpload(id: id, assetIdentifier: creation.localIdentifier)
        try? await blobs.removeUploadPieces(upload: id)
        record.state = .complete
        record.assetIdentifier = creation.localIdentifier
        return (record, creation)
    }

    /// Stops an upload and removes what it received.
    package func cancelUpload(_ id: String) async throws(LibraryError) {
        guard try await upload(id) != nil else { throw .notFound(localIdentifier: id) }
        try await blobs.removeUploadPieces(upload: id)
        try await catalog.removeUpload(id: id)
    }

    /// Removes uploads nobody added to for ``UploadRecord/abandonedAfter`` (their pieces first)
    /// and forgets complete ones after ``UploadRecord/completeRetention``. The sweeper runs it.
    ///
    /// - Returns: How many uploads went.
    @discardableResult
    func expireUploads(now: Date = Date()) async throws(LibraryError) -> Int {
        var removed = 0
        for record in try await catalog.uploads(updatedBefore: now.addingTimeInterval(-UploadRecord.completeRetention)) {
            let age = now.timeIntervalSince(record.updatedDate)
            guard record.state == .complete || age > UploadRecord.abandonedAfter else { continue }
            try await blobs.removeUploadPieces(upload: record.id)
            try await catalog.removeUpload(id: record.id)
            removed += 1
        }
        return removed
    }

    /// Writes the pieces, in order, one after another into `file`.
    private func assemble(_ record: UploadRecord, into file: URL) async throws(LibraryError) {
        let pieces = record.pieces.sorted { $0.offset < $1.offset }
        var expected = 0
        for piece in pieces {
            guard piece.offset == expected else { throw .storage("the upload \(record.id) misses bytes \(expected)–\(piece.offset)") }
            expected += piece.length
        }
        guard expected == record.size else { throw .storage("the upload \(record.id) has \(expected) of \(record.size) bytes recorded") }
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw .storage("cannot create \(file.path)")
        }
        let piecePath = file.deletingLastPathComponent().appendingPathComponent(".piece")
        defer { try? FileManager.default.removeItem(at: piecePath) }
        for piece in pieces {
            try await blobs.fetchUploadPiece(upload: record.id, name: piece.name, to: piecePath)
            let failure: String? = try? await BlockingPool.shared.run { () -> String? in
                do {
                    let output = try FileHandle(forWritingTo: file)
                    defer { try? output.close() }
                    try output.seekToEnd()
                    let input = try FileHandle(forReadingFrom: piecePath)
                    defer { try? input.close() }
                    while let chunk = try input.read(upToCount: 4 << 20), !chunk.isEmpty { try output.write(contentsOf: chunk) }
                    return nil
                } catch {
                    return "cannot put the upload together in \(file.path): \(error)"
                }
            }
            if let failure { throw .storage(failure) }
        }
    }

    /// A file name that is one plain path component of at most 255 bytes.
    static func checkFilename(_ filename: String) throws(LibraryError) {
        // Bytes, as the file system reads the name: "a\u{D4E}/b" is one character before the "b",
        // and `contains("/")` on characters does not see the separator in it.
        let bytes = filename.utf8
        guard !bytes.isEmpty, !bytes.contains(UInt8(ascii: "/")), !bytes.contains(0), bytes.first != UInt8(ascii: "."),
            bytes.count <= 255
        else {
            throw .invalidArgument("a file name must be a plain name of at most 255 bytes, not \(filename)")
        }
    }
}
