import Foundation

/// A photo or movie being captured straight into the library: it becomes an asset when
/// ``commit()`` succeeds and disappears otherwise, never half.
///
/// The capture writes its file at ``url``, a folder of its own inside the library's `staging/`
/// that this value holds locked. Until the commit the library has no asset for it; a crash at any
/// point leaves at most that folder, which `doctor` reports as a staging leftover and `--repair`
/// removes (the kernel drops the lock with the dead process, which is how `doctor` tells a
/// leftover from a capture in progress). ``commit()`` imports the file like any other (hashed,
/// probed, flushed, renamed, then the catalog row) and removes the folder.
///
/// ```swift
/// let pending = try library.beginCapture(filename: "clip.mp4")
/// try movies.startRecording(to: pending.url)
/// …
/// await movies.stopRecording()
/// let asset = try await pending.commit()
/// ```
public final class PendingCapture: Sendable {
    /// Where the capture writes its file.
    public let url: URL
    private let folder: URL
    private let lock: FileLock
    /// The library the capture goes into.
    public let library: PhotoLibrary

    init(library: PhotoLibrary, folder: URL, filename: String, lock: FileLock) {
        self.library = library
        self.folder = folder
        self.url = folder.appendingPathComponent(filename)
        self.lock = lock
    }

    /// Adds the captured file to the library and removes the pending folder.
    ///
    /// - Returns: The new asset (or the existing one, for identical bytes).
    /// - Throws: ``LibraryError`` when the file is missing or not one the library keeps; the
    ///   pending folder is removed either way, so nothing is left half.
    public func commit() async throws(LibraryError) -> Asset {
        defer { discard() }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .importFailed(path: url.path, code: "missing", message: "the capture wrote no file")
        }
        let url = self.url
        let result: ChangeResult
        do {
            result = try await library.performChanges {
                _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url)
            }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .storage("\(error)")
        }
        guard let identifier = result.created.first?.localIdentifier,
              let asset = try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject else {
            throw .storage("the capture's asset was not found after its import")
        }
        return asset
    }

    /// Drops the capture: its folder and whatever it wrote.
    public func discard() {
        try? FileManager.default.removeItem(at: folder)
        withExtendedLifetime(lock) {}
    }
}

extension PhotoLibrary {
    /// Starts a capture into the library (see ``PendingCapture``).
    ///
    /// - Parameter filename: The file's name, whose extension says its format (`clip.mp4`,
    ///   `IMG_0001.jpg`); it becomes the asset's original filename.
    /// - Throws: ``LibraryError/authorization(_:)`` when this library's client may not add
    ///   assets (checked before anything is captured); ``LibraryError/invalidArgument(_:)`` for a
    ///   name that is not a plain file name.
    public func beginCapture(filename: String) throws(LibraryError) -> PendingCapture {
        guard !filename.isEmpty, !filename.contains("/"), filename != ".", filename != "..", !filename.hasPrefix(".") else {
            throw .invalidArgument("a capture's file name must be a plain name, not \(filename)")
        }
        try authorizeChanges([])
        let folder = url.appendingPathComponent("staging").appendingPathComponent("capture-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .storage("cannot create \(folder.path): \(error)")
        }
        guard let lock = FileLock(exclusiveOn: folder.path) else {
            try? FileManager.default.removeItem(at: folder)
            throw .storage("cannot lock \(folder.path)")
        }
        return PendingCapture(library: self, folder: folder, filename: filename, lock: lock)
    }
}
