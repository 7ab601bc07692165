internal import Crypto
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What this process knows of the in-place uploads it receives (``UploadFilesInPlace``): the
/// hash of each one's bytes so far, carried from piece to piece so that the finish need not read
/// the file again, and whether its writeback is under way. Keyed by the upload's file. Another
/// server that takes an upload over hashes its file once when finishing it.
final class UploadStreams: Sendable {
    static let shared = UploadStreams()

    /// Unchecked for `SHA256` alone: a value type of plain bytes that Crypto does not mark Sendable.
    private struct Stream: @unchecked Sendable {
        /// The hash of bytes 0 ..< `hashedTo`.
        var hasher: SHA256
        var hashedTo: Int
        var lastUsed: Date
        var flushing = false
        var flushAgain = false
    }

    private let streams = Mutex<[String: Stream]>([:])
    /// The flushes run here, one at a time, never on the blocking pool that receives the pieces.
    private let writeback = DispatchQueue(label: "shoebox.upload-writeback", qos: .utility)

    /// The hash of `file`'s bytes before `offset`, when this process hashed just those.
    func hasher(for file: URL, at offset: Int) -> SHA256? {
        if offset == 0 { return SHA256() }
        return streams.withLock { streams in
            guard let stream = streams[file.path], stream.hashedTo == offset else { return nil }
            return stream.hasher
        }
    }

    /// A piece was recorded: its hash carries on from here, and the file's writeback starts.
    func recorded(_ file: URL, hasher: SHA256?, through end: Int) {
        let startFlush = streams.withLock { streams -> Bool in
            // Streams untouched for a day are uploads abandoned or finished elsewhere.
            let now = Date()
            if streams.count > 64 { streams = streams.filter { now.timeIntervalSince($0.value.lastUsed) < 86_400 } }
            guard let hasher else {
                streams[file.path] = nil
                return false
            }
            var stream = streams[file.path] ?? Stream(hasher: hasher, hashedTo: end, lastUsed: now)
            stream.hasher = hasher
            stream.hashedTo = end
            stream.lastUsed = now
            defer { streams[file.path] = stream }
            if stream.flushing {
                stream.flushAgain = true
                return false
            }
            stream.flushing = true
            return true
        }
        if startFlush { flush(file) }
    }

    /// Writes the file's dirty pages out in the background (one flush at a time per file, again
    /// if pieces came meanwhile): the finish's own flush then waits for little.
    private func flush(_ file: URL) {
        writeback.async { [self] in
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 {
                fdatasync(descriptor)
                Glibc.close(descriptor)
            }
            let again = streams.withLock { streams -> Bool in
                guard var stream = streams[file.path] else { return false }
                defer { streams[file.path] = stream }
                if stream.flushAgain {
                    stream.flushAgain = false
                    return true
                }
                stream.flushing = false
                return false
            }
            if again { flush(file) }
        }
    }

    /// The whole file's hash, when this process hashed all `size` bytes of it; the stream is forgotten.
    func finish(_ file: URL, size: Int) -> String? {
        streams.withLock { streams in
            defer { streams[file.path] = nil }
            guard let stream = streams[file.path], stream.hashedTo == size else { return nil }
            return Hex.encode(stream.hasher.finalize())
        }
    }
}
