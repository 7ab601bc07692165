internal import Crypto
import Foundation
import ShoeboxSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A piece of a resumable upload being received (``PhotoLibrary/beginUploadPiece(_:at:)``):
/// the receiver hands it the request's bytes with ``write(_:)`` on the blocking pool, then
/// ``PhotoLibrary/finishUploadPiece(_:)`` records it (or ``discard()`` drops it).
///
/// With the library's files on a local file system the bytes go straight into the upload's one
/// file at their offset, hashed on the way when this process hashed the bytes before them (the
/// usual case: one client sending its pieces in order to one server). Nothing is flushed per
/// piece: the file's writeback is started after each piece, and the finish flushes it once. With
/// a bucket, the piece is written into the library's staging and stored as an object of its own.
package final class UploadPieceWriter: Sendable {
    /// The upload as it stood when the piece began.
    package let upload: UploadRecord
    /// Where the piece starts.
    package let offset: Int
    private let target: Target
    private let state: Mutex<State>

    enum Target: Sendable {
        /// Written into the upload's file (``UploadFilesInPlace``).
        case inPlace(file: URL, descriptor: Int32)
        /// Written into a pending import, stored as a piece of its own by the finish.
        case staged(PendingImport)
    }

    struct State {
        var written = 0
        var isClosed = false
    }

    /// The upload's hash from byte 0 through the bytes ``hash(_:)`` was given; `nil` when this
    /// process did not see the bytes before the piece. Apart from ``state`` so that hashing and
    /// writing run side by side. Unchecked for `SHA256` alone: a value type of plain bytes that
    /// Crypto does not mark Sendable.
    private struct Hashing: @unchecked Sendable {
        var hasher: SHA256?
        /// Bytes hashed in this piece.
        var count = 0
    }
    private let hashing: Mutex<Hashing>

    init(upload: UploadRecord, offset: Int, target: Target, hasher: SHA256?) {
        self.upload = upload
        self.offset = offset
        self.target = target
        self.state = Mutex(State())
        self.hashing = Mutex(Hashing(hasher: hasher))
    }

    deinit {
        if case .inPlace(_, let descriptor) = target, !state.withLock({ $0.isClosed }) { Glibc.close(descriptor) }
    }

    /// The hash of the upload's bytes through those written so far, when this process saw them all.
    /// `nil` unless every byte written was hashed too: a hash of fewer bytes is never carried on.
    var hasher: SHA256? {
        let written = self.written
        return hashing.withLock { $0.count == written ? $0.hasher : nil }
    }

    /// Whether ``hash(_:)`` has a hash to carry on (else the finish reads the file once).
    package var hashes: Bool { hashing.withLock { $0.hasher != nil } }

    /// Adds `bytes`, the next after those hashed so far, to the upload's hash: the same bytes as
    /// ``write(_:)`` is given, in the same order, on another thread if the caller likes. Blocks:
    /// call it on the blocking pool.
    package func hash(_ bytes: UnsafeRawBufferPointer) {
        hashing.withLock { hashing in
            hashing.hasher?.update(bufferPointer: bytes)
            hashing.count += bytes.count
        }
    }

    /// Bytes written so far.
    package var written: Int { state.withLock { $0.written } }

    /// The most a piece may hold: what the upload still lacks from its offset.
    package var limit: Int { upload.size - offset }

    /// Writes `bytes` after those written so far (``hash(_:)`` hashes them). Blocks: call it on
    /// the blocking pool.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` past the upload's size;
    ///   ``LibraryError/Code/io`` when the disk refuses them.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(LibraryError) {
        BlockingCheck.note("an upload piece's write")
        let limit = self.limit
        let offset = self.offset
        let target = self.target
        try state.withLock { (state: inout State) throws(LibraryError) in
            guard state.written + bytes.count <= limit else {
                throw .invalidArgument("the piece runs past the upload's \(upload.size) bytes (it starts at byte \(offset))")
            }
            switch target {
            case .inPlace(let file, let descriptor):
                var done = 0
                while done < bytes.count {
                    let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + state.written + done))
                    guard count > 0 else {
                        if count < 0, errno == EINTR { continue }
                        throw .importFailed(path: file.path, code: .io, message: "cannot write the upload: \(String(cString: strerror(errno)))")
                    }
                    done += count
                }
            case .staged(let pending):
                try pending.write(bytes)
            }
            state.written += bytes.count
        }
    }

    /// Closes a staged piece; what it wrote. Blocks: call it on the blocking pool.
    func close() throws(LibraryError) -> (written: Int, staged: PendingImport.Written?) {
        let target = self.target
        return try state.withLock { (state: inout State) throws(LibraryError) in
            var staged: PendingImport.Written?
            switch target {
            case .inPlace(_, let descriptor):
                if !state.isClosed { Glibc.close(descriptor) }
            case .staged(let pending):
                staged = try pending.finishWriting()
            }
            state.isClosed = true
            return (state.written, staged)
        }
    }

    var stagedImport: PendingImport? {
        if case .staged(let pending) = target { return pending }
        return nil
    }

    var inPlaceFile: URL? {
        if case .inPlace(let file, _) = target { return file }
        return nil
    }

    /// Closes the piece, ending its hold on the upload's file, and drops a staged one's file.
    /// Bytes written in place and not recorded stay beyond what the upload recorded, and the next
    /// piece writes over them.
    package func discard() {
        BlockingCheck.note("dropping an upload piece")
        let target = self.target
        state.withLock { state in
            switch target {
            case .inPlace(_, let descriptor): if !state.isClosed { Glibc.close(descriptor) }
            case .staged(let pending): pending.discard()
            }
            state.isClosed = true
        }
    }
}
