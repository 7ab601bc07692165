import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An advisory lock (`flock`) on a file or folder, held until released or the process ends. The
/// kernel drops it when its process dies, which is how a library tells what a live process is
/// writing from what a crash left behind.
final class FileLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Creates a file (0600) that must not exist yet and locks it exclusively, or `nil` with
    /// `errno` set. Between the creation and the lock another process may have removed the
    /// entry as a leftover; once locked, the path is checked to still lead to this file, and the
    /// creation is retried if it does not.
    convenience init?(creating path: String) {
        guard let descriptor = Self.createLocked(path, create: { open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }) else { return nil }
        self.init(descriptor: descriptor)
    }

    /// Creates a folder (0700) that must not exist yet and locks it exclusively, as
    /// ``init(creating:)`` does for files.
    convenience init?(creatingFolder path: String) {
        let create = { () -> Int32 in
            guard mkdir(path, 0o700) == 0 else { return -1 }
            return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard let descriptor = Self.createLocked(path, create: create) else { return nil }
        self.init(descriptor: descriptor)
    }

    private static func createLocked(_ path: String, create: () -> Int32) -> Int32? {
        for _ in 0..<8 {
            let descriptor = create()
            guard descriptor >= 0 else { return nil }
            if flock(descriptor, LOCK_EX) == 0, sameFile(descriptor, path) { return descriptor }
            close(descriptor)
        }
        errno = EAGAIN
        return nil
    }

    /// Takes an exclusive lock on an existing file or folder, waiting for it.
    convenience init?(exclusiveOn path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX) == 0 else {
            close(descriptor)
            return nil
        }
        self.init(descriptor: descriptor)
    }

    /// Takes an exclusive lock on an existing file or folder if nobody holds one, without
    /// waiting; `nil` if it is held (or gone).
    convenience init?(tryingExclusiveOn path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, Self.sameFile(descriptor, path) else {
            close(descriptor)
            return nil
        }
        self.init(descriptor: descriptor)
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

    private static func sameFile(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var current = stat()
        return fstat(descriptor, &opened) == 0 && stat(path, &current) == 0
            && opened.st_ino == current.st_ino && opened.st_dev == current.st_dev
    }
}
