import Foundation
import NIOCore
import ShoeboxLibrary

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

    private let cache: LeastRecentlyUsedCache<Entry>

    /// At most `byteLimit` bytes, none over a sixteenth of it; past the limit the least recently
    /// used quarter goes in one pass, so eviction is rare.
    init(byteLimit: Int = 64 << 20) {
        cache = LeastRecentlyUsedCache(byteLimit: byteLimit, retainedFraction: 0.75, largestFraction: 1.0 / 16)
    }

    /// The entry for `key`; a redirect due to be signed anew is stale, and removed.
    func entry(_ key: String) -> Entry? {
        cache.value(forKey: key) { $0.location == nil || $0.renewal > Date() }
    }

    func insert(_ entry: Entry, for key: String) {
        cache.insert(entry, cost: entry.cost, forKey: key)
    }

    var count: Int { cache.count }
}
