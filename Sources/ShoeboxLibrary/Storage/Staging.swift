internal import Crypto
import Foundation
import ShoeboxSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A file copied into the library's `staging/` folder, hashed and flushed, waiting for its
/// change to commit.
struct StagedBlob: Sendable {
    let url: URL
    let contentHash: String
    let size: Int
    /// Held from the file's creation until the change commits or fails, so a process opening
    /// the library can tell a change in flight from a leftover of a crash: the kernel drops the
    /// lock when the importing process dies.
    let lock: FileLock?
}

/// The library folder's `staging/`: every new blob — import, upload, capture, edit render —
/// passes through it, whatever store files it afterwards. Copies and hashing run on the
/// blocking pool.
struct Staging: Sendable {
    let folder: URL
    let faults: FaultInjector

    /// Copies `source` into staging while hashing it, then flushes it to disk.
    func stage(copying source: URL) async throws(LibraryError) -> StagedBlob {
        let faults = self.faults
        let folder = self.folder
        return try await Self.offloaded {
            guard let input = FileHandle(forReadingAtPath: source.path) else {
                throw LibraryError.importFailed(path: source.path, code: .io, message: "cannot open the file for reading")
            }
            defer { try? input.close() }
            return try Self.stage(in: folder, faults: faults, name: source.lastPathComponent) { () throws -> Data? in
                let chunk = try input.read(upToCount: 1 << 20)
                return chunk?.isEmpty == false ? chunk : nil
            }
        }
    }

    /// Writes `data` into staging and hashes it.
    func stage(data: Data, name: String) async throws(LibraryError) -> StagedBlob {
        let faults = self.faults
        let folder = self.folder
        return try await Self.offloaded {
            var sent = false
            return try Self.stage(in: folder, faults: faults, name: name) { () throws -> Data? in
                defer { sent = true }
                return sent || data.isEmpty ? nil : data
            }
        }
    }

    private static func offloaded(_ work: @escaping @Sendable () throws -> StagedBlob) async throws(LibraryError) -> StagedBlob {
        do {
            return try await BlockingPool.shared.run(work)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .storage("\(error)", underlying: error)
        }
    }

    private static func stage(in folder: URL, faults: FaultInjector, name: String, next: () throws -> Data?) throws(LibraryError) -> StagedBlob {
        BlockingCheck.note("a staging copy")
        let url = folder.appendingPathComponent(UUID().uuidString)
        guard let lock = FileLock(creating: url.path) else {
            throw .storage("cannot create a staging file in \(folder.path): \(String(cString: strerror(errno)))")
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
            throw .importFailed(path: name, code: .io, message: "\(error)")
        }
        let hash = Hex.encode(hasher.finalize())
        return StagedBlob(url: url, contentHash: hash, size: size, lock: lock)
    }

    /// Moves `source` — a file the library wrote and hashed itself (``PendingImport/write(_:)``),
    /// inside the library folder — into staging: flushed and renamed, not copied and hashed a
    /// second time. Its lock is taken before the rename, so the file is never in `staging/`
    /// unlocked.
    func stage(adopting source: URL, contentHash: String, size: Int) async throws(LibraryError) -> StagedBlob {
        let faults = self.faults
        let folder = self.folder
        return try await Self.offloaded {
            guard let lock = FileLock(tryingExclusiveOn: source.path) else {
                throw LibraryError.importFailed(path: source.path, code: .io, message: "cannot open the written file")
            }
            let url = folder.appendingPathComponent(UUID().uuidString)
            do {
                guard let handle = FileHandle(forUpdatingAtPath: source.path) else {
                    throw LibraryError.importFailed(path: source.path, code: .io, message: "cannot open the written file")
                }
                defer { try? handle.close() }
                let actual = try handle.seekToEnd()
                guard actual == UInt64(size) else {
                    throw LibraryError.importFailed(
                        path: source.path, code: .io,
                        message: "the file has \(actual) bytes, not the \(size) written through the library")
                }
                faults.crashIfArmed(.afterStage)
                try handle.synchronize()
                faults.crashIfArmed(.afterFsync)
                try FileManager.default.moveItem(at: source, to: url)
            } catch let error as LibraryError {
                throw error
            } catch {
                throw LibraryError.importFailed(path: source.lastPathComponent, code: .io, message: "\(error)", underlying: error)
            }
            return StagedBlob(url: url, contentHash: contentHash, size: size, lock: lock)
        }
    }

    /// Drops a staged blob that will not be kept.
    func discard(_ staged: StagedBlob) {
        try? FileManager.default.removeItem(at: staged.url)
    }

    /// Entries no running change holds: leftovers of a crash.
    func leftovers() -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .map { folder.appendingPathComponent($0) }
            .filter { !FileLock.isLocked($0.path) }
    }

    /// Takes the leftover's lock without waiting and removes it while holding it; a change that
    /// creates a staging entry checks, once it holds the lock, that its name still leads to it.
    /// Returns whether it is gone.
    func removeLeftover(_ url: URL) -> Bool {
        guard let lock = FileLock(tryingExclusiveOn: url.path) else { return false }
        defer { withExtendedLifetime(lock) {} }
        return (try? FileManager.default.removeItem(at: url)) != nil
    }
}
