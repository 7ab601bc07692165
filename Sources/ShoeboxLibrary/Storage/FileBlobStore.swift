import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Original files, content-addressed by SHA-256 under `originals/ab/abcdef…`, written once and
/// never modified; imports pass through `staging/`.
///
/// A file is copied into `staging/` while it is hashed, flushed to disk, and only then renamed
/// into `originals/` (a rename within one file system is atomic), so a crash leaves either no
/// original or a whole one; leftovers in `staging/` are never referenced by the catalog.
struct FileBlobStore: Sendable {
    let root: URL

    var staging: URL { root.appendingPathComponent("staging") }
    var originals: URL { root.appendingPathComponent("originals") }

    /// A file copied into staging, with its hash.
    ///
    /// It holds an exclusive `flock` on the file until the change commits or fails (the lock
    /// follows the file when it is renamed into `originals/`), so `doctor` in another process can
    /// tell an import in flight from a leftover of a crash: the kernel drops the lock when the
    /// importing process dies.
    struct StagedFile: Sendable {
        let url: URL
        let contentHash: String
        let size: Int
        let lock: FileLock
    }

    /// Creates the folders.
    func prepare() throws {
        for folder in [staging, originals, root.appendingPathComponent("renders"), root.appendingPathComponent("derivatives")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    /// Where an original with this hash lives.
    func originalURL(forHash hash: String) -> URL {
        originals.appendingPathComponent(String(hash.prefix(2))).appendingPathComponent(hash)
    }

    /// Copies `source` into staging while hashing it, then flushes it to disk.
    func stage(copying source: URL) throws(LibraryError) -> StagedFile {
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
    func stage(data: Data, name: String) throws(LibraryError) -> StagedFile {
        var sent = false
        return try stage(name: name) { () throws -> Data? in
            defer { sent = true }
            return sent || data.isEmpty ? nil : data
        }
    }

    private func stage(name: String, next: () throws -> Data?) throws(LibraryError) -> StagedFile {
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
        return StagedFile(url: url, contentHash: hash, size: size, lock: lock)
    }

    /// Moves a staged file to its place in `originals/`; if an identical original is already
    /// there, the staged copy is dropped. The folder is flushed so the rename survives a crash.
    func commit(_ staged: StagedFile) throws(LibraryError) {
        let destination = originalURL(forHash: staged.contentHash)
        let folder = destination.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .storage("cannot create \(folder.path): \(error)")
        }
        if FileManager.default.fileExists(atPath: destination.path) {
            discard(staged)
            return
        }
        guard rename(staged.url.path, destination.path) == 0 else {
            throw .storage("cannot move \(staged.url.path) into originals: \(String(cString: strerror(errno)))")
        }
        Self.synchronizeDirectory(folder)
    }

    /// Removes a staged file that will not be kept.
    func discard(_ staged: StagedFile) {
        try? FileManager.default.removeItem(at: staged.url)
    }

    /// Where unreadable orphans go instead of being deleted.
    var quarantine: URL { root.appendingPathComponent("quarantine") }

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
