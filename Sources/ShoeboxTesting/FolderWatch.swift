import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What happens in a folder and the folders under it, as Linux's inotify reports it: a test
/// waits for the file system to change instead of looking at it again and again.
///
/// Waiting until a state holds (each change re-checks it, so nothing between two looks is missed
/// and nothing is looked at while nothing happens):
///
/// ```swift
/// let staging = try FolderWatch(library.appendingPathComponent("staging"))
/// let empty = try await staging.wait(timeout: .seconds(10)) {
///     try FileManager.default.contentsOfDirectory(atPath: staging.url.path).isEmpty
/// }
/// ```
///
/// Acting at a moment of another process's work (a fault injected at its Nth write, not after a
/// guessed delay):
///
/// ```swift
/// let watch = try FolderWatch(library)
/// let child = try ChildProcess.spawnWithLifeline(shoebox, ["import", "--library", library.path, photo])
/// defer { close(child.lifeline) }
/// _ = try await watch.events(count: 40, timeout: .seconds(60), lifeline: child.lifeline)
/// kill(child.pid, SIGKILL)
/// ```
///
/// A watch is made before what it watches for can happen, and is read by one waiter at a time.
/// Folders made under a recursive watch are watched from the moment it sees them; what was made in
/// one before then (a file moved into a folder just made, say) is reported as made when the folder
/// is, once. Other changes in it before then show in a re-check of the state, not as events.
public final class FolderWatch: Sendable {
    /// One change in the watched folders.
    public struct Event: Sendable, CustomStringConvertible {
        /// What happened.
        public enum Kind: Sendable {
            /// A file or folder was made, or moved in.
            case created
            /// A file or folder was removed, or moved out.
            case removed
            /// A file was written to.
            case modified
            /// A file open for writing was closed.
            case closedAfterWriting
        }

        /// The path of the file or folder, relative to the watched folder.
        public let path: String
        /// What happened to it.
        public let kind: Kind
        /// Whether it is a folder.
        public let isFolder: Bool

        /// What happened and where, as in `created staging/photo.jpg` (a folder ends in `/`).
        public var description: String { "\(kind) \(path)\(isFolder ? "/" : "")" }
    }

    /// The watched folder.
    public let url: URL
    private let descriptor: Int32
    private let recursive: Bool
    /// Each watch's folder, relative to `url` ("" for `url` itself).
    private let folders = Mutex<[Int32: String]>([:])
    /// Changes read but not yet handed out.
    private let pending = Mutex<[Event]>([])
    /// Paths reported as made by a look into a folder just made, whose own creation event may
    /// still follow (it is then not reported again).
    private let scanned = Mutex<Set<String>>([])

    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_CLOSE_WRITE)

    /// Watches `url`, an existing folder, and (when `recursive`) every folder under it.
    public init(_ url: URL, recursive: Bool = true) throws {
        self.url = url.standardizedFileURL
        self.recursive = recursive
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw ChildProcess.Failure("inotify_init1 failed: errno \(errno)") }
        _ = try watch("")
    }

    deinit { close(descriptor) }

    /// Watches the folder at `relative` and, when recursive, the folders under it; when
    /// `reporting`, returns what they already hold as made.
    private func watch(_ relative: String, reporting: Bool = false) throws -> [Event] {
        let path = relative.isEmpty ? url.path : url.appendingPathComponent(relative).path
        let handle = inotify_add_watch(descriptor, path, Self.mask | UInt32(IN_ONLYDIR))
        guard handle >= 0 else {
            // A folder removed before it could be watched has nothing left to report.
            if relative.isEmpty || errno != ENOENT { throw ChildProcess.Failure("cannot watch \(path): errno \(errno)") }
            return []
        }
        folders.withLock { $0[handle] = relative }
        guard recursive, let children = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
        var found: [Event] = []
        for child in children.sorted() {
            var isFolder: ObjCBool = false
            let childPath = relative.isEmpty ? child : relative + "/" + child
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent(childPath).path, isDirectory: &isFolder) else { continue }
            if reporting {
                scanned.withLock { _ = $0.insert(childPath) }
                found.append(Event(path: childPath, kind: .created, isFolder: isFolder.boolValue))
            }
            if isFolder.boolValue { found += try watch(childPath, reporting: reporting) }
        }
        return found
    }

    /// Waits until `condition` holds: checked at once and again after each change, for at most
    /// `timeout`. Returns whether it held.
    public func wait(timeout: Duration, until condition: @escaping @Sendable () throws -> Bool) async throws -> Bool {
        try await OwnThread.run {
            let deadline = ContinuousClock.now + timeout
            while true {
                if try condition() { return true }
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return false }
                _ = try self.take(timeout: left)
            }
        }
    }

    /// Reads changes until `count` that `include` accepts have come, `timeout` has passed or
    /// `lifeline` (from ``ChildProcess/spawnWithLifeline(_:_:)``) has hung up because the process
    /// making the changes ended, and returns those (fewer than `count` at the timeout or the end);
    /// the ones `include` rejects are passed over. The last one returned is the `count`th (a read
    /// can bring more at once: they are kept for the next call).
    public func events(
        count: Int, where include: @escaping @Sendable (Event) -> Bool = { _ in true }, timeout: Duration, lifeline: Int32? = nil
    ) async throws -> [Event] {
        try await OwnThread.run {
            let deadline = ContinuousClock.now + timeout
            var seen: [Event] = []
            var ended = false
            while seen.count < count, !ended {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { break }
                let (events, hungUp) = try self.take(timeout: left, lifeline: lifeline)
                seen += events.filter(include)
                ended = hungUp
            }
            if seen.count > count {
                let extra = seen[count...]
                self.pending.withLock { $0.insert(contentsOf: extra, at: 0) }
                seen.removeLast(seen.count - count)
            }
            return seen
        }
    }

    /// The changes kept from an earlier read, or else the next ones read; and whether `lifeline`
    /// hung up.
    private func take(timeout: Duration, lifeline: Int32? = nil) throws -> (events: [Event], hungUp: Bool) {
        let kept = pending.withLock { kept in
            defer { kept = [] }
            return kept
        }
        return kept.isEmpty ? try read(timeout: timeout, lifeline: lifeline) : (kept, false)
    }

    /// Blocks until changes can be read, `lifeline` hangs up or `timeout` passes, then reads all
    /// the changes there are.
    private func read(timeout: Duration, lifeline: Int32? = nil) throws -> (events: [Event], hungUp: Bool) {
        var pollers = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        if let lifeline { pollers.append(pollfd(fd: lifeline, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&pollers, nfds_t(pollers.count), max(milliseconds, 1))
        guard ready > 0 else {
            if ready < 0, errno != EINTR { throw ChildProcess.Failure("poll on inotify failed: errno \(errno)") }
            return ([], false)
        }
        let hungUp = pollers.count > 1 && pollers[1].revents != 0
        guard pollers[0].revents & Int16(POLLIN) != 0 else { return ([], hungUp) }
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                if errno == EINTR { continue }
                throw ChildProcess.Failure("reading inotify failed: errno \(errno)")
            }
            if count == 0 { break }
            events += try parse(buffer[0..<count])
        }
        return (events, hungUp)
    }

    /// The events in `bytes`, one `inotify_event` header and its padded name after another;
    /// watches the folders they make.
    private func parse(_ bytes: ArraySlice<UInt8>) throws -> [Event] {
        var events: [Event] = []
        var offset = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.endIndex {
            let (handle, mask, length) = bytes.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                let base = offset - bytes.startIndex
                return (
                    raw.loadUnaligned(fromByteOffset: base, as: Int32.self),
                    raw.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self),
                    Int(raw.loadUnaligned(fromByteOffset: base + 12, as: UInt32.self))
                )
            }
            let nameBytes = bytes[(offset + header)..<min(offset + header + length, bytes.endIndex)]
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            offset += header + length
            if mask & UInt32(IN_IGNORED) != 0 {
                _ = folders.withLock { $0.removeValue(forKey: handle) }
                continue
            }
            guard let folder = folders.withLock({ $0[handle] }), !name.isEmpty else { continue }
            let path = folder.isEmpty ? name : folder + "/" + name
            let isFolder = mask & UInt32(IN_ISDIR) != 0
            let kind: Event.Kind
            if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                // Already reported by the look into its new folder.
                if scanned.withLock({ $0.remove(path) != nil }) { continue }
                events.append(Event(path: path, kind: .created, isFolder: isFolder))
                if isFolder, recursive { events += try watch(path, reporting: true) }
                continue
            } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                scanned.withLock { _ = $0.remove(path) }
                kind = .removed
            } else if mask & UInt32(IN_CLOSE_WRITE) != 0 {
                kind = .closedAfterWriting
            } else {
                kind = .modified
            }
            events.append(Event(path: path, kind: kind, isFolder: isFolder))
        }
        return events
    }
}
