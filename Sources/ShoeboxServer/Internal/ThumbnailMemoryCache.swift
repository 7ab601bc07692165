import Foundation
import NIOCore
import Synchronization

/// Thumbnails the server has sent, in memory, by the request target that asked for them (path and
/// query as sent: the asset, its version, the size, mode and crop). A URL with a version always
/// names the same pixels, so the bytes can be sent again without touching the catalog or the disk
/// — for the user (``ThumbnailFastPath``); a client's grant is still checked on every request. At most `byteLimit` bytes; the least recently used go first.
final class ThumbnailMemoryCache: Sendable {
    struct Entry: Sendable {
        let bytes: ByteBuffer
        let entityTag: String
        let contentType: String
        /// A presigned URL into object storage to redirect to instead of sending bytes.
        var location: String? = nil
        /// When a redirect's URL would be signed anew (the entry is stale from then on), and when
        /// it stops working.
        var renewal: Date = .distantFuture
        var expiry: Date = .distantFuture

        /// The bytes it takes.
        var cost: Int { bytes.readableBytes + (location?.utf8.count ?? 0) }

        /// How long a browser may keep the redirect: until a minute before its URL expires.
        var redirectMaxAge: Int { max(0, Int(expiry.timeIntervalSinceNow) - 60) }
    }

    private struct Stored {
        let entry: Entry
        var lastUsed: UInt64
    }

    private struct State {
        var entries: [String: Stored] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    let byteLimit: Int
    private let state = Mutex(State())

    init(byteLimit: Int = 64 << 20) {
        self.byteLimit = byteLimit
    }

    func entry(_ key: String) -> Entry? {
        state.withLock { state in
            guard var stored = state.entries[key] else { return nil }
            if stored.entry.location != nil, stored.entry.renewal <= Date() {
                state.entries[key] = nil
                state.bytes -= stored.entry.cost
                return nil
            }
            state.clock += 1
            stored.lastUsed = state.clock
            state.entries[key] = stored
            return stored.entry
        }
    }

    func insert(_ entry: Entry, for key: String) {
        let size = entry.cost
        guard size <= byteLimit / 16 else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries[key] { state.bytes -= old.entry.cost }
            state.entries[key] = Stored(entry: entry, lastUsed: state.clock)
            state.bytes += size
            guard state.bytes > byteLimit else { return }
            // Evict the oldest quarter in one pass, so eviction is rare.
            let sorted = state.entries.sorted { $0.value.lastUsed < $1.value.lastUsed }
            for (oldKey, stored) in sorted.prefix(max(1, sorted.count / 4)) {
                state.entries[oldKey] = nil
                state.bytes -= stored.entry.cost
            }
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
