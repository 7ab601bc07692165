import Foundation

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

    init(library: PhotoLibrary, folder: URL, filename: String, lock: FileLock) {
        self.library = library
        self.folder = folder
        self.url = folder.appendingPathComponent(filename)
        self.lock = lock
    }

    /// Adds the file to the library and removes the pending folder.
    ///
    /// - Returns: The new asset (or the existing one, for identical bytes).
    /// - Throws: ``LibraryError`` when the file is missing or not one the library keeps; the
    ///   pending folder is removed either way, so nothing is left half.
    public func commit() async throws(LibraryError) -> Asset {
        let result = try await commit { _ in }
        guard let identifier = result.created.first?.localIdentifier,
              let asset = try await library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject else {
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
        defer { discard() }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .importFailed(path: url.path, code: .missing, message: "no file was written")
        }
        let url = self.url
        do {
            return try await library.performChanges {
                try changes(AssetChangeRequest.creationRequestForAsset(fromFileAt: url))
            }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .storage("\(error)", underlying: error)
        }
    }

    /// Drops the file: its folder and whatever was written.
    public func discard() {
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
