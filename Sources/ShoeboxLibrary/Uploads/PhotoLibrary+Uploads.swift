internal import Crypto
import Foundation
import ShoeboxSupport

#if canImport(Glibc)
    import Glibc
#endif

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
    /// How many times, 50 ms apart, a piece waits for another request writing to its upload.
    static let uploadWriterWaits = 200

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

    /// Begins receiving a piece of upload `id` at `offset` (see ``UploadPieceWriter``): with the
    /// library's files on a local file system, into the upload's one file; with a bucket, into
    /// the library's staging.
    ///
    /// - Returns: The writer, or `nil` when the upload stands elsewhere (the client goes on from
    ///   ``UploadRecord/received`` of the record ``upload(_:)`` gives) or is complete.
    /// - Throws: ``LibraryError/Code/notFound`` for an unknown upload; the client's authorization
    ///   error when it may not add photos; ``LibraryError/Code/busy`` when another request kept
    ///   writing to it for 10 s (one writer at a time, across processes: a file lock);
    ///   ``LibraryError/Code/storage``
    ///   when the upload's file lacks bytes the catalog recorded (the machine stopped before they
    ///   reached the disk: the upload must start again).
    package func beginUploadPiece(_ id: String, at offset: Int) async throws(LibraryError) -> UploadPieceWriter? {
        guard let record = try await upload(id) else { throw .notFound(localIdentifier: id) }
        // A client that may no longer add photos sends no more bytes (as an import asks it).
        try await authorizeChanges([])
        guard record.state == .receiving, offset == record.received, offset < record.size else { return nil }
        guard let inPlace = blobs.uploadFilesInPlace else {
            return UploadPieceWriter(upload: record, offset: offset, target: .staged(try await beginImport(filename: "piece")), hasher: nil)
        }
        let opened = try await BlockingPool.shared.run { () throws(LibraryError) -> (file: URL, descriptor: Int32) in
            let file = try inPlace.uploadFile(id)
            let descriptor = Glibc.open(file.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw .storage("cannot open the upload's file \(file.path): \(String(cString: strerror(errno)))")
            }
            return (file, descriptor)
        }
        // One writer at a time, whatever process it is in: another request sending to this
        // upload (a client's retry while the first, cut off, is still ending) waits its turn, for
        // as long as a server takes to notice a connection that went away.
        var locked = false
        for attempt in 0..<Self.uploadWriterWaits {
            if attempt > 0 { try? await Task.sleep(for: .milliseconds(50)) }
            locked = await BlockingPool.shared.run { flock(opened.descriptor, LOCK_EX | LOCK_NB) == 0 }
            if locked { break }
        }
        guard locked else {
            Glibc.close(opened.descriptor)
            throw .busy("another request is sending bytes to this upload: send them again in a moment")
        }
        // Where the upload stands now that no one else writes: a writer before this one may
        // have recorded the piece meanwhile, and its bytes must not be written over.
        let current: UploadRecord?
        do {
            current = try await upload(id)
        } catch {
            Glibc.close(opened.descriptor)
            throw error
        }
        guard let current, current.state == .receiving, current.received == offset else {
            Glibc.close(opened.descriptor)
            return nil
        }
        // What the file must hold already: every byte the pieces written in place recorded.
        let recorded = current.pieces.filter { $0.name == FileBlobStore.inPlacePieceName }.map { $0.offset + $0.length }.max() ?? 0
        return try await BlockingPool.shared.run { () throws(LibraryError) -> UploadPieceWriter in
            let (file, descriptor) = opened
            var status = stat()
            guard fstat(descriptor, &status) == 0, Int(status.st_size) >= recorded else {
                Glibc.close(descriptor)
                throw .storage(
                    "the upload's file holds \(status.st_size) of the \(recorded) bytes received: they were lost before they reached the disk (the machine stopped); cancel the upload and send the file again"
                )
            }
            return UploadPieceWriter(
                upload: current, offset: offset, target: .inPlace(file: file, descriptor: descriptor),
                hasher: UploadStreams.shared.hasher(for: file, at: offset))
        }
    }

    /// Records a piece received through `writer` if the upload still stands at its offset.
    ///
    /// - Returns: The upload after it, and whether the piece was taken (as
    ///   ``appendToUpload(_:at:piece:size:sha256:)`` answers).
    /// - Throws: ``LibraryError/Code/invalidArgument`` for an empty piece.
    package func finishUploadPiece(_ writer: UploadPieceWriter) async throws(LibraryError) -> (record: UploadRecord, accepted: Bool) {
        let id = writer.upload.id
        guard writer.written > 0 else {
            await BlockingPool.shared.run { writer.discard() }
            throw .invalidArgument("the piece is empty: no bytes came")
        }
        guard let file = writer.inPlaceFile else {
            // Staged: closed, then stored as a piece of its own.
            let closed: (written: Int, staged: PendingImport.Written?)
            do {
                closed = try await BlockingPool.shared.run { () throws(LibraryError) in try writer.close() }
            } catch {
                await BlockingPool.shared.run { writer.discard() }
                throw error
            }
            guard let pending = writer.stagedImport, let staged = closed.staged else { throw .storage("an upload piece without a target") }
            defer { Task { await pending.discardOnPool() } }
            return try await appendToUpload(id, at: writer.offset, piece: pending.url, size: staged.size, sha256: staged.sha256)
        }
        // In place: recorded while the writer still holds the file, so that the next writer finds
        // the upload past these bytes and cannot write over them; then closed.
        let length = writer.written
        let after: UploadRecord?
        do {
            after = try await catalog.addUploadPiece(id: id, piece: .init(name: FileBlobStore.inPlacePieceName, offset: writer.offset, length: length))
        } catch {
            await BlockingPool.shared.run { writer.discard() }
            throw error
        }
        if after != nil { UploadStreams.shared.recorded(file, hasher: writer.hasher, through: writer.offset + length) }
        await BlockingPool.shared.run { writer.discard() }
        guard let after else { return (try await upload(id) ?? writer.upload, false) }
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
            if let inPlace = blobs.uploadFilesInPlace {
                try await adoptInPlace(record, from: inPlace, into: pending)
            } else {
                try await assemble(record, into: pending.url)
            }
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

    /// Makes the upload's file (``UploadFilesInPlace``) the pending import's, without copying
    /// it: pieces stored on their own (by ``appendToUpload(_:at:piece:size:sha256:)``) are
    /// written into it at their offsets first, bytes past the upload's size (a piece refused
    /// after it was written) are cut, and its hash is the one carried from piece to piece, or
    /// read once from the file.
    private func adoptInPlace(_ record: UploadRecord, from inPlace: any UploadFilesInPlace, into pending: PendingImport) async throws(LibraryError) {
        try Self.checkCovered(record)
        var separate: [(piece: UploadRecord.Piece, url: URL)] = []
        let folder = pending.url.deletingLastPathComponent()
        for (index, piece) in record.pieces.enumerated() where piece.name != FileBlobStore.inPlacePieceName {
            let url = folder.appendingPathComponent(".piece-\(index)")
            try await blobs.fetchUploadPiece(upload: record.id, name: piece.name, to: url)
            separate.append((piece, url))
        }
        let size = record.size
        let hashed = separate.isEmpty ? UploadStreams.shared.finish(inPlace.uploadFilePath(record.id), size: size) : nil
        let pieces = separate
        try await BlockingPool.shared.run { () throws(LibraryError) in
            let file = try inPlace.uploadFile(record.id)
            let descriptor = Glibc.open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw .storage("cannot open the upload's file \(file.path): \(String(cString: strerror(errno)))") }
            defer { Glibc.close(descriptor) }
            for (piece, url) in pieces {
                defer { try? FileManager.default.removeItem(at: url) }
                guard let bytes = FileManager.default.contents(atPath: url.path), bytes.count == piece.length else {
                    throw .storage("the upload \(record.id)'s piece at byte \(piece.offset) cannot be read")
                }
                let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(piece.offset)) }
                guard written == piece.length else { throw .storage("cannot put the upload together in \(file.path): \(String(cString: strerror(errno)))") }
            }
            var status = stat()
            guard fstat(descriptor, &status) == 0, Int(status.st_size) >= size else {
                throw .storage(
                    "the upload's file holds \(status.st_size) of its \(size) bytes: they were lost before they reached the disk (the machine stopped); cancel the upload and send the file again"
                )
            }
            if Int(status.st_size) > size { ftruncate(descriptor, off_t(size)) }
            let digest: String
            if let hashed { digest = hashed } else { digest = try Self.sha256(of: descriptor, path: file.path) }
            guard pending.adopt(linking: file, size: size, sha256: digest) else {
                throw .storage("cannot link the upload's file \(file.path) into the library's staging: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The SHA-256 of the file open as `descriptor`, read once from its start.
    private static func sha256(of descriptor: Int32, path: String) throws(LibraryError) -> String {
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 4 << 20)
        var position: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, position) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .storage("cannot read the upload's file \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            position += off_t(count)
        }
        return Hex.encode(hasher.finalize())
    }

    /// Throws unless the recorded pieces cover bytes 0 ..< size, one after another.
    private static func checkCovered(_ record: UploadRecord) throws(LibraryError) {
        var expected = 0
        for piece in record.pieces.sorted(by: { $0.offset < $1.offset }) {
            guard piece.offset == expected else { throw .storage("the upload \(record.id) misses bytes \(expected)–\(piece.offset)") }
            expected += piece.length
        }
        guard expected == record.size else { throw .storage("the upload \(record.id) has \(expected) of \(record.size) bytes recorded") }
    }

    /// Writes the pieces, in order, one after another into `file`.
    private func assemble(_ record: UploadRecord, into file: URL) async throws(LibraryError) {
        try Self.checkCovered(record)
        let pieces = record.pieces.sorted { $0.offset < $1.offset }
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
