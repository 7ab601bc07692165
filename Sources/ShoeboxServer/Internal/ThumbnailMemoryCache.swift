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

    /// An entry with the fast path's response heads made once, when it was kept: the status line
    /// and every header but `Date`, as they go on the wire.
    final class Answer: Sendable {
        let entry: Entry
        /// `200 OK` with the type and length (empty for a redirect, whose head is made per answer).
        let okHead: ByteBuffer
        /// `304 Not Modified`.
        let notModifiedHead: ByteBuffer

        init(_ entry: Entry, fixedHeaders: String) {
            self.entry = entry
            var ok = ByteBuffer()
            var notModified = ByteBuffer()
            if entry.location == nil {
                ok.writeString(
                    "HTTP/1.1 200 OK\r\n\(fixedHeaders)ETag: \(entry.entityTag)\r\nContent-Type: \(entry.contentType)\r\nContent-Length: \(entry.bytes.readableBytes)\r\n"
                )
                notModified.writeString("HTTP/1.1 304 Not Modified\r\n\(fixedHeaders)ETag: \(entry.entityTag)\r\n")
            }
            okHead = ok
            notModifiedHead = notModified
        }
    }

    private let cache: LeastRecentlyUsedCache<Answer>
    /// What every fast-path answer carries (``ThumbnailFastPath/fixedHeaders(policy:)``).
    private let fixedHeaders: String

    /// At most `byteLimit` bytes, none over a sixteenth of it; past the limit the least recently
    /// used quarter goes in one pass, so eviction is rare.
    init(byteLimit: Int = 64 << 20, fixedHeaders: String) {
        cache = LeastRecentlyUsedCache(byteLimit: byteLimit, retainedFraction: 0.75, largestFraction: 1.0 / 16)
        self.fixedHeaders = fixedHeaders
    }

    /// The entry for `key`; a redirect due to be signed anew is stale, and removed.
    func entry(_ key: String) -> Entry? {
        answer(key)?.entry
    }

    /// The entry for `key` with its response heads (see ``entry(_:)``).
    func answer(_ key: String) -> Answer? {
        cache.value(forKey: key) { $0.entry.location == nil || $0.entry.renewal > Date() }
    }

    func insert(_ entry: Entry, for key: String) {
        let answer = Answer(entry, fixedHeaders: fixedHeaders)
        cache.insert(answer, cost: entry.cost + answer.okHead.readableBytes + answer.notModifiedHead.readableBytes, forKey: key)
    }

    var count: Int { cache.count }
}
