internal import Crypto
import Foundation
import ShoeboxSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A file being written straight into the library — a capture, an upload: it becomes an asset
/// when ``commit()`` succeeds and disappears otherwise, never half.
///
/// The writer writes the file at ``url``, in a folder of its own inside the library's `staging/`
/// that this value holds locked. Until the commit the library has no asset for it; a crash at any
/// point leaves at most that folder, which the next process to open the library removes (the
/// kernel drops the lock with the dead process, which is how a leftover is told from a write in
/// progress). ``commit()`` imports the file like any other (hashed, probed, flushed, renamed,
/// then the catalog row) and removes the folder.
///
/// A writer that has the bytes in hand (an upload arriving in pieces) writes them with
/// ``write(_:)`` instead: the library hashes them as they come, and ``commit()`` moves the file
/// into the library rather than copying and hashing it again — one pass over the bytes, one
/// flush. Write through ``url`` or through ``write(_:)``, not both.
///
/// ```swift
/// let pending = try await library.beginCapture(filename: "clip.mp4")
/// try await movies.startRecording(to: pending.url)
/// …
/// await movies.stopRecording()
/// let asset = try await pending.commit()
/// ```
public final class PendingImport: Sendable {
    /// Where the writer writes the file.
    public let url: URL
    private let folder: URL
    private let lock: FileLock
    /// The library the file goes into.
    public let library: PhotoLibrary
    private let writer = Mutex(Writer())

    /// The file written through ``write(_:)``: its handle while open, what it hashed.
    private struct Writer {
        var handle: FileHandle?
        var hasher = SHA256()
        var size = 0
        var written: Written?
    }

    /// A file written through ``PendingImport/write(_:)``, as ``PendingImport/finishWriting()``
    /// reports it.
    public struct Written: Sendable, Hashable {
        /// The file's length in bytes.
        public let size: Int
        /// The SHA-256 of its bytes, in lowercase hexadecimal: the content hash the library will
        /// file it under.
        public let sha256: String
    }

    init(library: PhotoLibrary, folder: URL, filename: String, lock: FileLock) {
        self.library = library
        self.folder = folder
        self.url = folder.appendingPathComponent(filename)
        self.lock = lock
    }

    /// Appends `bytes` to the file at ``url`` (created on the first call), hashing them on the way.
    ///
    /// - Throws: ``LibraryError/Code/io`` when the file cannot be created or written, or after
    ///   ``finishWriting()``.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(LibraryError) {
        BlockingCheck.note("a file write")
        let url = self.url
        try writer.withLock { (writer: inout Writer) throws(LibraryError) in
            guard writer.written == nil else {
                throw .importFailed(path: url.lastPathComponent, code: .io, message: "the file was already finished")
            }
            if writer.handle == nil {
                guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]),
                    let handle = FileHandle(forWritingAtPath: url.path)
                else {
                    throw .importFailed(path: url.lastPathComponent, code: .io, message: "cannot create the file: \(String(cString: strerror(errno)))")
                }
                writer.handle = handle
            }
            do {
                try writer.handle?.write(contentsOf: bytes)
            } catch {
                throw .importFailed(path: url.lastPathComponent, code: .io, message: "cannot write the file: \(error)", underlying: error)
            }
            writer.hasher.update(bufferPointer: bytes)
            writer.size += bytes.count
        }
    }

    /// Closes the file written through ``write(_:)`` and says what it holds. Calling it again
    /// answers the same.
    ///
    /// - Throws: ``LibraryError/Code/io`` when the file cannot be closed.
    @discardableResult
    public func finishWriting() throws(LibraryError) -> Written {
        let url = self.url
        return try writer.withLock { (writer: inout Writer) throws(LibraryError) -> Written in
            if let written = writer.written { return written }
            BlockingCheck.note("closing a written file")
            do {
                try writer.handle?.close()
            } catch {
                throw .importFailed(path: url.lastPathComponent, code: .io, message: "cannot close the file: \(error)", underlying: error)
            }
            writer.handle = nil
            let written = Written(size: writer.size, sha256: Hex.encode(writer.hasher.finalize()))
            writer.written = written
            return written
        }
    }

    /// Takes `file`, `size` bytes of the library's own that hash to `sha256` (a resumable upload's
    /// file), as the file at ``url`` by a second name (a hard link: no byte is copied), as if it
    /// had been written through ``write(_:)``. `file` keeps its bytes should the commit fail.
    /// Blocks: call it on the blocking pool.
    ///
    /// - Returns: `false` when the link cannot be made (another file system): nothing changed.
    package func adopt(linking file: URL, size: Int, sha256: String) -> Bool {
        BlockingCheck.note("linking a file into staging")
        return writer.withLock { writer in
            guard writer.handle == nil, writer.written == nil, link(file.path, url.path) == 0 else { return false }
            writer.written = Written(size: size, sha256: sha256)
            return true
        }
    }

    /// Adds the file to the library and removes the pending folder.
    ///
    /// - Returns: The new asset (or the existing one, for identical bytes).
    /// - Throws: ``LibraryError`` when the file is missing or not one the library keeps; the
    ///   pending folder is removed either way, so nothing is left half.
    public func commit() async throws(LibraryError) -> Asset {
        let result = try await commit { _ in }
        guard let identifier = result.created.first?.localIdentifier,
            let asset = try await library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject
        else {
            throw .storage("the imported asset was not found after its import")
        }
        return asset
    }

    /// Adds the file to the library in one change with whatever `changes` adds (for example, the
    /// new asset into an album, through the creation request it is given), and removes the
    /// pending folder.
    ///
    /// - Returns: The change's result; its first creation is the file's.
    public func commit(_ changes: @escaping (AssetChangeRequest) throws -> Void) async throws(LibraryError) -> ChangeResult {
        let url = self.url
        // The file's closing, the look for it and, at the end, the folder's removal are the
        // disk's work: on the pool, since a request (an upload, a capture) commits it.
        let written: Written?
        do {
            written = try await BlockingPool.shared.run { [self] () throws(LibraryError) -> Written? in
                let wroteThroughLibrary = writer.withLock { $0.handle != nil || $0.written != nil }
                let written = wroteThroughLibrary ? try finishWriting() : nil
                guard FileManager.default.fileExists(atPath: url.path) else {
                    throw .importFailed(path: url.path, code: .missing, message: "no file was written")
                }
                return written
            }
        } catch {
            await BlockingPool.shared.run { [self] in discard() }
            throw error
        }
        let result: Result<ChangeResult, LibraryError>
        do {
            result = .success(
                try await library.performChanges {
                    // Bytes the library hashed as they came are moved in; a file written through
                    // the URL is copied and hashed like any import.
                    let request =
                        written.map { AssetChangeRequest(creating: .written(url, contentHash: $0.sha256, size: $0.size), placeholder: nil) }
                        ?? AssetChangeRequest.creationRequestForAsset(fromFileAt: url)
                    try changes(request)
                })
        } catch let error as LibraryError {
            result = .failure(error)
        } catch {
            result = .failure(.storage("\(error)", underlying: error))
        }
        await BlockingPool.shared.run { [self] in discard() }
        return try result.get()
    }

    /// ``discard()`` on the blocking pool, for async code (a request's staging folder).
    package func discardOnPool() async {
        await BlockingPool.shared.run { [self] in discard() }
    }

    /// Drops the file: its folder and whatever was written.
    public func discard() {
        BlockingCheck.note("removing a pending import")
        writer.withLock { writer in
            try? writer.handle?.close()
            writer.handle = nil
        }
        try? FileManager.default.removeItem(at: folder)
        withExtendedLifetime(lock) {}
    }
}

/// A capture into the library (see ``PendingImport``).
public typealias PendingCapture = PendingImport

extension PhotoLibrary {
    /// Starts a capture into the library (see ``PendingImport``).
    ///
    /// - Parameter filename: The file's name, whose extension says its format (`clip.mp4`,
    ///   `IMG_0001.jpg`); it becomes the asset's original filename.
    /// - Throws: ``LibraryError/Code/authorization`` when this library's client may not add
    ///   assets (checked before anything is captured); ``LibraryError/Code/invalidArgument`` for a
    ///   name that is not a plain file name.
    public func beginCapture(filename: String) async throws(LibraryError) -> PendingCapture {
        try await beginImport(filename: filename, purpose: "capture")
    }

    /// Starts writing a file into the library — an upload, a download — that becomes an asset on
    /// ``PendingImport/commit()`` (see ``PendingImport``).
    ///
    /// - Parameter filename: The file's name; it becomes the asset's original filename.
    /// - Throws: As ``beginCapture(filename:)``.
    public func beginImport(filename: String) async throws(LibraryError) -> PendingImport {
        try await beginImport(filename: filename, purpose: "import")
    }

    private func beginImport(filename: String, purpose: String) async throws(LibraryError) -> PendingImport {
        try Self.checkFilename(filename)
        try await authorizeChanges([])
        let folder = url.appendingPathComponent("staging").appendingPathComponent("\(purpose)-\(UUID().uuidString)")
        guard let lock = FileLock(creatingFolder: folder.path) else {
            throw .storage("cannot create \(folder.path): \(String(cString: strerror(errno)))")
        }
        return PendingImport(library: self, folder: folder, filename: filename, lock: lock)
    }
}
