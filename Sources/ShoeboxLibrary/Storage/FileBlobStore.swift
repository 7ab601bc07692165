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
/// into `originals/` (a rename within one file system is atomic) and the folder flushed, so a
/// crash leaves either no original or a whole one, and a blob is on disk before the catalog row
/// that refers to it commits. Everything is private to the library's owner (files 0600, folders
/// 0700).
struct FileBlobStore: BlobStore {
    let root: URL
    let faults: FaultInjector

    init(root: URL, faults: FaultInjector = FaultInjector()) {
        self.root = root
        self.faults = faults
    }

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
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }

    func fileURL(forHash hash: String, kind: BlobKind) -> URL {
        folder(for: kind).appendingPathComponent(String(hash.prefix(2))).appendingPathComponent(hash)
    }

    func contains(_ key: BlobKey) -> Bool {
        FileManager.default.fileExists(atPath: fileURL(forHash: key.hash, kind: key.kind).path)
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

    /// The staged file holds an exclusive `flock` from its creation until the change commits or
    /// fails (the lock follows the file when it is renamed into place), so a process opening the
    /// library can tell a change in flight from a leftover of a crash: the kernel drops the lock
    /// when the importing process dies.
    private func stage(name: String, next: () throws -> Data?) throws(LibraryError) -> StagedBlob {
        let url = staging.appendingPathComponent(UUID().uuidString)
        guard let lock = FileLock(creating: url.path) else {
            throw .storage("cannot create a staging file in \(staging.path): \(String(cString: strerror(errno)))")
        }
        guard let output = FileHandle(forWritingAtPath: url.path) else {
            try? FileManager.default.removeItem(at: url)
            throw .storage("cannot write the staging file \(url.path)")
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
            faults.crashIfArmed(.afterStage)
            try output.synchronize()
            faults.crashIfArmed(.afterFsync)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw .importFailed(path: name, code: "io", message: "\(error)")
        }
        let hash = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        return StagedBlob(url: url, contentHash: hash, size: size, lock: lock)
    }

    /// Moves a staged file to its place unless an identical blob is there (the caller's claim
    /// keeps that one from being removed), then flushes the folder so the rename survives a
    /// crash or a power loss.
    func place(_ staged: StagedBlob, as kind: BlobKind) throws(LibraryError) -> Bool {
        let destination = fileURL(forHash: staged.contentHash, kind: kind)
        let folder = destination.deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: destination.path) {
            discard(staged)
            return false
        }
        if !FileManager.default.fileExists(atPath: folder.path) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .storage("cannot create \(folder.path): \(error)")
            }
            Self.synchronizeDirectory(folder.deletingLastPathComponent())
        }
        guard rename(staged.url.path, destination.path) == 0 else {
            throw .storage("cannot move \(staged.url.path) into \(kind.rawValue)s: \(String(cString: strerror(errno)))")
        }
        Self.synchronizeDirectory(folder)
        return true
    }

    func discard(_ staged: StagedBlob) {
        try? FileManager.default.removeItem(at: staged.url)
    }

    func remove(_ key: BlobKey) throws(LibraryError) {
        let url = fileURL(forHash: key.hash, kind: key.kind)
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw .storage("cannot remove \(url.path): \(String(cString: strerror(errno)))")
        }
        Self.synchronizeDirectory(url.deletingLastPathComponent())
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
                found.append(StoredBlob(url: url, hash: isBlobName ? name : nil))
            }
        }
        return found
    }

    func stagingLeftovers() -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? [])
            .map { staging.appendingPathComponent($0) }
            .filter { !FileLock.isLocked($0.path) }
    }

    /// Takes the leftover's lock without waiting and removes it while holding it; a change that
    /// creates a staging entry checks, once it holds the lock, that its name still leads to it.
    func removeLeftover(_ url: URL) -> Bool {
        guard let lock = FileLock(tryingExclusiveOn: url.path) else { return false }
        defer { withExtendedLifetime(lock) {} }
        return (try? FileManager.default.removeItem(at: url)) != nil
    }

    /// Where unreadable orphans go instead of being deleted.
    var quarantineFolder: URL { root.appendingPathComponent("quarantine") }

    func quarantine(_ url: URL) throws(LibraryError) -> URL {
        let destination = quarantineFolder.appendingPathComponent(url.lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: quarantineFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.moveItem(at: url, to: destination)
        } catch {
            throw .storage("cannot quarantine \(url.path): \(error)")
        }
        return destination
    }

    static func synchronizeDirectory(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
