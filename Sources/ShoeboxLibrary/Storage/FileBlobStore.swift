import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The default ``BlobStore``: files in the library folder, content-addressed by SHA-256 under
/// `originals/ab/abcdef…` (imports) and `renders/ab/abcdef…` (edits), written once and never
/// modified; new blobs pass through `staging/`.
///
/// A file is copied into `staging/` while it is hashed, flushed to disk, and only then renamed
/// into `originals/` (a rename within one file system is atomic), so a crash leaves either no
/// original or a whole one; leftovers in `staging/` are never referenced by the catalog.
struct FileBlobStore: BlobStore {
    let root: URL

    var staging: URL { root.appendingPathComponent("staging") }
    var originals: URL { root.appendingPathComponent("originals") }
    var renders: URL { root.appendingPathComponent("renders") }

    func folder(for kind: BlobKind) -> URL {
        switch kind {
        case .original: originals
        case .render: renders
        }
    }

    /// Creates the folders.
    func prepare() throws {
        for folder in [staging, originals, renders, root.appendingPathComponent("derivatives")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    func fileURL(forHash hash: String, kind: BlobKind) -> URL {
        folder(for: kind).appendingPathComponent(String(hash.prefix(2))).appendingPathComponent(hash)
    }

    /// Copies `source` into staging while hashing it, then flushes it to disk.
    func stage(copying source: URL) throws(LibraryError) -> StagedBlob {
        guard let input = FileHandle(forReadingAtPath: source.path) else {
            throw .importFailed(path: source.path, code: "io", message: "cannot open the file for reading")
        }
        defer { try? input.close() }
        return try stage(name: source.lastPathComponent) { () throws -> Data? in
            let chunk = try input.read(upToCount: 1 << 20)
            return chunk?.isEmpty == false ? chunk : nil
        }
    }

    /// Writes `data` into staging and hashes it.
    func stage(data: Data, name: String) throws(LibraryError) -> StagedBlob {
        var sent = false
        return try stage(name: name) { () throws -> Data? in
            defer { sent = true }
            return sent || data.isEmpty ? nil : data
        }
    }

    /// The staged file holds an exclusive `flock` until the change commits or fails (the lock
    /// follows the file when it is renamed into place), so `doctor` in another process can tell
    /// an import in flight from a leftover of a crash: the kernel drops the lock when the
    /// importing process dies.
    private func stage(name: String, next: () throws -> Data?) throws(LibraryError) -> StagedBlob {
        let url = staging.appendingPathComponent(UUID().uuidString)
        guard FileManager.default.createFile(atPath: url.path, contents: nil), let output = FileHandle(forWritingAtPath: url.path) else {
            throw .storage("cannot create a staging file in \(staging.path)")
        }
        guard let lock = FileLock(exclusiveOn: url.path) else {
            try? FileManager.default.removeItem(at: url)
            throw .storage("cannot lock the staging file \(url.path)")
        }
        var hasher = SHA256()
        var size = 0
        do {
            defer { try? output.close() }
            while let chunk = try next() {
                hasher.update(data: chunk)
                try output.write(contentsOf: chunk)
                size += chunk.count
            }
            try output.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw .importFailed(path: name, code: "io", message: "\(error)")
        }
        let hash = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        return StagedBlob(url: url, contentHash: hash, size: size, lock: lock)
    }

    /// Moves a staged file to its place; if an identical blob is already there, the staged copy
    /// is dropped. The folder is flushed so the rename survives a crash.
    func commit(_ staged: StagedBlob, as kind: BlobKind) throws(LibraryError) -> CommittedBlob {
        let destination = fileURL(forHash: staged.contentHash, kind: kind)
        let folder = destination.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .storage("cannot create \(folder.path): \(error)")
        }
        // An identical blob is there: hold it shared (this waits while the change that placed it
        // is in flight) and use it, unless that change failed and took it back meanwhile.
        if let held = FileLock(sharedOnExisting: destination.path) {
            discard(staged)
            return CommittedBlob(contentHash: staged.contentHash, kind: kind, isNew: false, lock: held)
        }
        guard rename(staged.url.path, destination.path) == 0 else {
            throw .storage("cannot move \(staged.url.path) into \(kind.rawValue)s: \(String(cString: strerror(errno)))")
        }
        Self.synchronizeDirectory(folder)
        return CommittedBlob(contentHash: staged.contentHash, kind: kind, isNew: true, lock: staged.lock)
    }

    func rollBack(_ committed: CommittedBlob) {
        guard committed.isNew else { return }
        remove(hash: committed.contentHash, kind: committed.kind)
        Self.synchronizeDirectory(fileURL(forHash: committed.contentHash, kind: committed.kind).deletingLastPathComponent())
    }

    func discard(_ staged: StagedBlob) {
        try? FileManager.default.removeItem(at: staged.url)
    }

    func remove(hash: String, kind: BlobKind) {
        try? FileManager.default.removeItem(at: fileURL(forHash: hash, kind: kind))
    }

    func storedBlobs(_ kind: BlobKind) -> [StoredBlob] {
        let fileManager = FileManager.default
        let base = folder(for: kind)
        var found: [StoredBlob] = []
        for prefix in (try? fileManager.contentsOfDirectory(atPath: base.path)) ?? [] {
            let folderURL = base.appendingPathComponent(prefix)
            for name in (try? fileManager.contentsOfDirectory(atPath: folderURL.path)) ?? [] {
                let url = folderURL.appendingPathComponent(name)
                let isBlobName = name.count == 64 && name.hasPrefix(prefix) && name.allSatisfy(\.isHexDigit)
                found.append(StoredBlob(url: url, hash: isBlobName ? name : nil, isBusy: FileLock.isLocked(url.path)))
            }
        }
        return found
    }

    func stagingLeftovers() -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? [])
            .map { staging.appendingPathComponent($0) }
            .filter { !FileLock.isLocked($0.path) }
    }

    func removeLeftover(_ url: URL) -> Bool {
        (try? FileManager.default.removeItem(at: url)) != nil
    }

    /// Where unreadable orphans go instead of being deleted.
    var quarantineFolder: URL { root.appendingPathComponent("quarantine") }

    func quarantine(_ url: URL) throws(LibraryError) -> URL {
        let destination = quarantineFolder.appendingPathComponent(url.lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: quarantineFolder, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: url, to: destination)
        } catch {
            throw .storage("cannot quarantine \(url.path): \(error)")
        }
        return destination
    }

    static func synchronizeDirectory(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}

/// An exclusive advisory lock (`flock`) on a file, held until released or the process ends.
final class FileLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, waiting for it.
    init?(exclusiveOn path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    /// Takes a shared lock on a file that exists, waiting while another holds it exclusively,
    /// and answers `nil` when there is no file at `path` (any more) once the lock is had.
    init?(sharedOnExisting path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var opened = stat()
        var current = stat()
        guard flock(descriptor, LOCK_SH) == 0, fstat(descriptor, &opened) == 0,
              stat(path, &current) == 0, opened.st_ino == current.st_ino, opened.st_dev == current.st_dev else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)  // releases the lock
    }

    /// Whether some process holds a lock on `path` now.
    static func isLocked(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }
}
