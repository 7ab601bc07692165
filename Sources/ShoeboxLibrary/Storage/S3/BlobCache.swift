import Foundation
import ShoeboxSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A bounded local copy of blobs that live elsewhere (object storage), for the readers that need
/// files: libvips, ffmpeg, HTTP responses. Files are filed by kind and hash under the library's
/// `cache/blobs/`, written once (downloaded to a temporary name, checked against their hash,
/// renamed), and the least recently used go when the cache passes its byte budget. Deleting it
/// loses nothing.
final class BlobCache: Sendable {
    let root: URL
    private struct State {
        var byteLimit: Int
        var totalBytes: Int?
        var inFlight: [String: Task<URL, any Error>] = [:]
    }
    private let state: Mutex<State>

    /// 4 GiB.
    static let defaultByteLimit = 4 << 30

    init(root: URL, byteLimit: Int = BlobCache.defaultByteLimit) {
        self.root = root
        state = Mutex(State(byteLimit: byteLimit))
    }

    var byteLimit: Int {
        get { state.withLock { $0.byteLimit } }
        set { state.withLock { $0.byteLimit = newValue } }
    }

    func url(for key: BlobKey) -> URL {
        root.appendingPathComponent(key.kind.rawValue).appendingPathComponent(String(key.hash.prefix(2))).appendingPathComponent(key.hash)
    }

    /// The cached file, touched as just used, or `nil`.
    func cached(_ key: BlobKey) -> URL? {
        let url = url(for: key)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        utimes(url.path, nil)
        return url
    }

    /// The cached file, or one `fetch` writes (to the temporary file it is given; it returns the
    /// SHA-256 of what it wrote, which must be the key's hash). Concurrent calls for one blob
    /// share one fetch.
    func file(for key: BlobKey, fetch: @escaping @Sendable (URL) async throws -> String) async throws -> URL {
        if let hit = cached(key) { return hit }
        let name = key.description
        let task = state.withLock { current -> Task<URL, any Error> in
            if let running = current.inFlight[name] { return running }
            let task = Task<URL, any Error> { [self] in
                defer { _ = self.state.withLock { $0.inFlight.removeValue(forKey: name) } }
                if let hit = cached(key) { return hit }
                let destination = url(for: key)
                let temporary = destination.deletingLastPathComponent().appendingPathComponent(".\(key.hash).\(UUID().uuidString)")
                // The folder, and after the fetch the filing and the accounting (the first in a
                // process, and each eviction, walks the whole cache), on the pool: a request
                // waits for this fetch, and its event loop would wait with it.
                do {
                    try await BlockingPool.shared.run { () throws -> Void in
                        try FileManager.default.createDirectory(
                            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true,
                            attributes: [.posixPermissions: 0o700])
                    }
                    let hash = try await fetch(temporary)
                    guard hash == key.hash else {
                        throw LibraryError.objectStorage(
                            ObjectStorageError(
                                .corrupt, "the \(key.kind.rawValue) \(key.hash) read back from object storage hashes to \(hash): it is damaged there"))
                    }
                    return try await BlockingPool.shared.run { [self] () throws -> URL in
                        guard rename(temporary.path, destination.path) == 0 else {
                            throw LibraryError.storage("cannot file \(destination.path) in the blob cache: \(String(cString: strerror(errno)))")
                        }
                        added(destination)
                        return destination
                    }
                } catch {
                    await BlockingPool.shared.run { try? FileManager.default.removeItem(at: temporary) }
                    throw error
                }
            }
            current.inFlight[name] = task
            return task
        }
        return try await task.value
    }

    /// Files a local file that already holds the blob's bytes (a staged upload), moving it.
    func adopt(_ file: URL, as key: BlobKey) {
        let destination = url(for: key)
        try? FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        if FileManager.default.fileExists(atPath: destination.path) || rename(file.path, destination.path) != 0 {
            try? FileManager.default.removeItem(at: file)
            return
        }
        added(destination)
    }

    func remove(_ key: BlobKey) {
        let url = url(for: key)
        let size = Self.size(url)
        if (try? FileManager.default.removeItem(at: url)) != nil {
            state.withLock { if let total = $0.totalBytes { $0.totalBytes = total - size } }
        }
    }

    private func added(_ url: URL) {
        let size = Self.size(url)
        let over = state.withLock { state -> Bool in
            if state.totalBytes == nil { state.totalBytes = Self.measure(root) } else { state.totalBytes! += size }
            return state.totalBytes! > state.byteLimit
        }
        if over { evict() }
    }

    /// Removes the least recently used files until the cache is under 90 % of its budget.
    private func evict() {
        BlockingCheck.note("a walk of the blob cache")
        var files: [(url: URL, used: Date, size: Int)] = []
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard let values = try? url.resourceValues(forKeys: [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]),
                values.isRegularFile == true, !url.lastPathComponent.hasPrefix(".")
            else { continue }
            files.append((url, values.contentModificationDate ?? .distantPast, values.fileSize ?? 0))
        }
        files.sort { $0.used < $1.used }
        var total = files.reduce(0) { $0 + $1.size }
        let target = byteLimit * 9 / 10
        for file in files where total > target {
            if (try? FileManager.default.removeItem(at: file.url)) != nil { total -= file.size }
        }
        state.withLock { $0.totalBytes = total }
    }

    static func size(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }

    static func measure(_ root: URL) -> Int {
        BlockingCheck.note("a walk of the blob cache")
        var total = 0
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true else { continue }
            total += values.fileSize ?? 0
        }
        return total
    }
}
