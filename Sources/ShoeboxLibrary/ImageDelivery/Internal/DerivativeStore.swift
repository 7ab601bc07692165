import Foundation
import ShoeboxImaging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One file in the derivative cache.
struct CachedDerivative: Sendable, Hashable {
    let url: URL
    /// What was asked for: `fit-1024x1024`, `fill-256x256`, `poster`, `playback`, …
    let key: String
    /// The pixel size of an image derivative (nil for movies).
    let pixelSize: PixelSize?
}

/// The `derivatives/` folder: thumbnails, previews, posters and playback renditions, filed per
/// source (`derivatives/ab/<sha256 of the version>/<key>=<W>x<H>.jpg`). A cache: a size cap with
/// least-recently-used eviction (file modification times, touched on every disk hit), it survives
/// restarts, and deleting it loses nothing.
///
/// Work is coalesced (concurrent requests for one file do it once), bounded (at most one render
/// per core, on the blocking pool) and fair: renders wait in a queue per owner — the user, each
/// client, background work — served in turn (``FairWorkLimiter``), so one client's flood of
/// sizes never starves the user's thumbnails.
///
/// With blobs in object storage, derivatives are shared through the bucket too
/// (``DerivativeMirror``): a local miss looks there before rendering, and what is rendered here
/// is uploaded in the background.
final class DerivativeStore: Sendable {
    let root: URL
    let limiter: FairWorkLimiter
    let mirror: DerivativeMirror?

    /// Who the renders of the current task are for (the limiter's owner): set by
    /// ``ImageManager`` around each request; work started by an import is `background`.
    @TaskLocal static var owner = "background"

    private struct InFlight {
        let task: Task<CachedDerivative, any Error>
        var waiters: Int
    }

    private struct State {
        var inFlight: [String: InFlight] = [:]
        /// Bytes on disk, counted once on the first write and kept up to date by this process.
        var totalBytes: Int?
        var byteLimit: Int
        var pendingBackground = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>
    /// How many files this store has rendered (tests check coalescing with it).
    let renderCount = Atomic<Int>(0)

    /// 2 GiB.
    static let defaultByteLimit = 2 << 30

    init(
        root: URL, byteLimit: Int = DerivativeStore.defaultByteLimit, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
        mirror: DerivativeMirror? = nil
    ) {
        self.root = root
        self.mirror = mirror
        limiter = FairWorkLimiter(limit: concurrency)
        state = Mutex(State(byteLimit: byteLimit))
    }

    var byteLimit: Int {
        get { state.withLock { $0.byteLimit } }
        set { state.withLock { $0.byteLimit = newValue } }
    }

    func folder(forSource hash: String) -> URL {
        root.appendingPathComponent(String(hash.prefix(2))).appendingPathComponent(hash)
    }

    // MARK: Lookup

    /// Every derivative cached for a source.
    func derivatives(forSource hash: String) -> [CachedDerivative] {
        let folder = folder(forSource: hash)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.compactMap { name in
            guard !name.hasPrefix("."), let separator = name.firstIndex(of: "=") else { return nil }
            let key = String(name[..<separator])
            let info = name[name.index(after: separator)...].split(separator: ".").first.map(String.init) ?? ""
            let parts = info.split(separator: "x").compactMap { Int($0) }
            let size = parts.count == 2 ? PixelSize(width: parts[0], height: parts[1]) : nil
            return CachedDerivative(url: folder.appendingPathComponent(name), key: key, pixelSize: size)
        }
    }

    /// The whole-image sized derivatives of a source (no posters, crops or movies), with their
    /// sizes: what can stand in for, or be scaled down to, another size.
    func sizedDerivatives(forSource hash: String) -> [(file: CachedDerivative, size: PixelSize)] {
        derivatives(forSource: hash).compactMap { file in
            guard let size = file.pixelSize, file.key.hasPrefix("fit-") || file.key.hasPrefix("fill-"), !file.key.contains("-c") else { return nil }
            return (file, size)
        }
    }

    /// The cached file for `key`, touched as just used.
    func cached(_ key: String, source hash: String) -> CachedDerivative? {
        guard let found = derivatives(forSource: hash).first(where: { $0.key == key }) else { return nil }
        Self.touch(found.url)
        return found
    }

    // MARK: Making

    /// The file for `key`, made by `produce` if it is not cached. `produce` writes the file it is
    /// given and returns the part of the name after `=` (e.g. `384x256.jpg`). Concurrent calls for
    /// one key share one run; a caller's cancellation cancels the run only when no other caller
    /// still waits for it.
    func derivative(
        _ key: String, source hash: String, temporaryExtension: String = "jpg",
        produce: @escaping @Sendable (_ temporary: URL) async throws -> String
    ) async throws -> CachedDerivative {
        if let hit = cached(key, source: hash) { return hit }
        let flightKey = hash + "/" + key
        let task = state.withLock { current -> Task<CachedDerivative, any Error> in
            if var flight = current.inFlight[flightKey] {
                flight.waiters += 1
                current.inFlight[flightKey] = flight
                return flight.task
            }
            let task = Task<CachedDerivative, any Error> { [self] in
                defer { _ = state.withLock { $0.inFlight.removeValue(forKey: flightKey) } }
                if let shared = await fetchShared(key, source: hash) { return shared }
                try await limiter.acquire(owner: Self.owner)
                defer { limiter.release() }
                try Task.checkCancellation()
                if let hit = cached(key, source: hash) { return hit }  // another process made it
                return try await make(key, source: hash, temporaryExtension: temporaryExtension, produce: produce)
            }
            current.inFlight[flightKey] = InFlight(task: task, waiters: 1)
            return task
        }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            state.withLock { state in
                guard var flight = state.inFlight[flightKey] else { return }
                flight.waiters -= 1
                if flight.waiters <= 0 {
                    flight.task.cancel()
                    state.inFlight.removeValue(forKey: flightKey)
                } else {
                    state.inFlight[flightKey] = flight
                }
            }
        }
    }

    private func make(
        _ key: String, source hash: String, temporaryExtension: String,
        produce: @Sendable (URL) async throws -> String
    ) async throws -> CachedDerivative {
        let folder = folder(forSource: hash)
        let temporary = folder.appendingPathComponent(".\(key).\(Self.writerTag).\(UUID().uuidString).\(temporaryExtension)")
        // The folder's upkeep (a killed writer's leftovers: a listing, process checks, maybe a
        // kill) and, after the render, the filing and the cache's accounting (the first one in a
        // process, and each eviction, walks the whole cache) run on the pool: a render is asked
        // for by a request, whose event loop they would hold.
        try await BlockingPool.shared.run { () throws -> Void in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            Self.removeDeadTemporaries(in: folder)
        }
        do {
            let info = try await produce(temporary)
            renderCount.add(1, ordering: .relaxed)
            return try await BlockingPool.shared.run { [self] () throws -> CachedDerivative in
                defer { try? FileManager.default.removeItem(at: temporary) }
                let destination = folder.appendingPathComponent("\(key)=\(info)")
                guard rename(temporary.path, destination.path) == 0 else {
                    throw LibraryError.storage("cannot file the derivative \(destination.path): \(String(cString: strerror(errno)))")
                }
                added(bytes: Self.fileSize(destination))
                share(destination, source: hash)
                return derivatives(forSource: hash).first { $0.key == key } ?? CachedDerivative(url: destination, key: key, pixelSize: nil)
            }
        } catch {
            await BlockingPool.shared.run { try? FileManager.default.removeItem(at: temporary) }
            throw error
        }
    }

    /// This process in a temporary file's name (`p<pid>-<start>`): the derivatives folder is
    /// this machine's, so a temporary whose writer is gone (a killed worker's half-written
    /// rendition) can be told from one being written.
    static let writerTag = "p\(ProcessIdentity.current.pid)-\(ProcessIdentity.current.startTime)"

    /// Removes temporaries in `folder` whose writing process is gone, and stops what that
    /// process left writing them (a killed worker's `ffmpeg`).
    static func removeDeadTemporaries(in folder: URL) {
        BlockingCheck.note("the derivative folder's upkeep")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        var deadTags = Set<String>()
        for name in names where name.hasPrefix(".") {
            let parts = name.split(separator: ".")
            guard parts.count >= 3, let tag = parts.first(where: { $0.hasPrefix("p") && $0.contains("-") }) else { continue }
            let numbers = tag.dropFirst().split(separator: "-")
            guard numbers.count == 2, let pid = Int32(numbers[0]), let start = UInt64(numbers[1]) else { continue }
            if !ProcessIdentity(host: ProcessIdentity.current.host, pid: pid, startTime: start).mayBeAlive {
                deadTags.insert(String(tag))
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
        for tag in deadTags { OrphanedProcesses.stop(writingInto: folder, tag: tag) }
    }

    // MARK: Shared through object storage

    /// The derivative from the bucket, filed here, if another server (or this one, before a
    /// restart or an eviction) made it.
    private func fetchShared(_ key: String, source hash: String) async -> CachedDerivative? {
        guard let mirror, let name = await mirror.storedName(of: key, source: hash) else { return nil }
        let folder = folder(forSource: hash)
        let temporary = folder.appendingPathComponent(".\(key).\(UUID().uuidString).fetch")
        do {
            try await BlockingPool.shared.run { () throws -> Void in try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            try await mirror.fetch(name, source: hash, to: temporary)
        } catch {
            await BlockingPool.shared.run { try? FileManager.default.removeItem(at: temporary) }
            return nil
        }
        // Filed and counted on the pool, as a render is (see make).
        return await BlockingPool.shared.run { [self] () -> CachedDerivative? in
            defer { try? FileManager.default.removeItem(at: temporary) }
            guard rename(temporary.path, folder.appendingPathComponent(name).path) == 0 else { return nil }
            added(bytes: Self.fileSize(folder.appendingPathComponent(name)))
            return derivatives(forSource: hash).first { $0.key == key }
        }
    }

    /// Uploads a derivative made here to the bucket, in the background.
    private func share(_ file: URL, source hash: String) {
        guard let mirror else { return }
        let name = file.lastPathComponent
        inBackground {
            // Read from a hard link: eviction may remove the cache's name meanwhile.
            let pinned = file.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).upload")
            guard link(file.path, pinned.path) == 0 else { return }
            defer { try? FileManager.default.removeItem(at: pinned) }
            await mirror.upload(pinned, name: name, source: hash)
        }
    }

    // MARK: Made elsewhere

    /// A derivative written before its source is in the library (an import's by-product), under
    /// a name the cache ignores until ``adopt(_:)`` files it.
    struct Staged: Sendable {
        let temporary: URL
        let key: String
        let sourceHash: String
        /// The name tail, as `produce` returns it.
        let info: String
    }

    /// Where to write a derivative of a source that is not committed yet.
    func temporaryURL(forSource hash: String, key: String) throws -> URL {
        let folder = folder(forSource: hash)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(".\(key).\(UUID().uuidString).jpg")
    }

    /// Files a staged derivative under its key (a copy already there wins).
    func adopt(_ staged: Staged) {
        BlockingCheck.note("filing a staged derivative")
        let destination = folder(forSource: staged.sourceHash).appendingPathComponent("\(staged.key)=\(staged.info)")
        if cached(staged.key, source: staged.sourceHash) != nil || rename(staged.temporary.path, destination.path) != 0 {
            try? FileManager.default.removeItem(at: staged.temporary)
            return
        }
        renderCount.add(1, ordering: .relaxed)
        added(bytes: Self.fileSize(destination))
        share(destination, source: staged.sourceHash)
    }

    // MARK: Removing

    /// Drops every derivative of a source (its bytes left the library).
    func removeAll(forSource hash: String) {
        BlockingCheck.note("removing a source's derivatives")
        let folder = folder(forSource: hash)
        let bytes = derivatives(forSource: hash).reduce(0) { $0 + Self.fileSize($1.url) }
        if (try? FileManager.default.removeItem(at: folder)) != nil {
            state.withLock { state in state.totalBytes = state.totalBytes.map { $0 - bytes } }
        }
        if let mirror { inBackground { await mirror.removeAll(forSource: hash) } }
    }

    private func added(bytes: Int) {
        let needsScan = state.withLock { $0.totalBytes == nil }
        if needsScan {
            let scanned = allFiles().reduce(0) { $0 + $1.size }
            state.withLock { $0.totalBytes = scanned }
        } else {
            state.withLock { state in state.totalBytes = (state.totalBytes ?? 0) + bytes }
        }
        let (total, limit) = state.withLock { ($0.totalBytes ?? 0, $0.byteLimit) }
        if total > limit { evict(to: limit * 9 / 10) }
    }

    /// Removes least recently used files until at most `target` bytes remain.
    func evict(to target: Int) {
        var files = allFiles()
        var total = files.reduce(0) { $0 + $1.size }
        files.sort { $0.used < $1.used }
        for file in files where total > target {
            if (try? FileManager.default.removeItem(at: file.url)) != nil { total -= file.size }
        }
        state.withLock { $0.totalBytes = total }
    }

    /// Bytes on disk now (a full scan).
    func diskUsage() -> Int {
        allFiles().reduce(0) { $0 + $1.size }
    }

    private func allFiles() -> [(url: URL, size: Int, used: Date)] {
        BlockingCheck.note("a walk of the derivative cache")
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else { return [] }
        var files: [(URL, Int, Date)] = []
        let stale = Date().addingTimeInterval(-3_600)
        while let url = enumerator.nextObject() as? URL {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            if url.lastPathComponent.hasPrefix(".") {
                // A render in progress, or one a killed process left: gone after an hour.
                if (values.contentModificationDate ?? .distantPast) < stale { try? FileManager.default.removeItem(at: url) }
                continue
            }
            files.append((url, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast))
        }
        return files
    }

    static func fileSize(_ url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }

    /// Marks a file as just used (its modification time is the LRU clock).
    static func touch(_ url: URL) {
        _ = url.withUnsafeFileSystemRepresentation { path in
            path.map { utimensat(AT_FDCWD, $0, nil, 0) }
        }
    }

    // MARK: Background work

    /// Runs `work` in the background, counted until it ends (see ``waitUntilIdle()``).
    func inBackground(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { $0.pendingBackground += 1 }
        Task.detached(priority: .utility) { [self] in
            await work()
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.pendingBackground -= 1
                guard state.pendingBackground == 0 else { return [] }
                defer { state.idleWaiters.removeAll() }
                return state.idleWaiters
            }
            waiters.forEach { $0.resume() }
        }
    }

    /// Returns once no background work is pending.
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.pendingBackground == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }
}
