import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import ShoeboxImaging
import ShoeboxLibrary

/// Receives an upload's body into the library's staging folder through
/// ``ShoeboxLibrary/PendingImport/write(_:)``, which hashes it on the way — the one pass over the
/// bytes: the commit moves the file into the library without copying or hashing it again. At
/// most `limit` bytes, and when the request carries `X-Content-SHA256`, bytes that hash to it.
/// The file is named after the client's file name (sanitized); the content decides what it is.
/// A failed upload leaves nothing; a killed server's partial upload is removed by the next
/// process that opens the library.
package struct UploadReceiver {
    struct Upload {
        let pending: PendingImport
        let size: Int
        let sha256: String
    }

    static func receive(_ request: Request, into library: PhotoLibrary, limit: Int, filename: String?) async throws -> Upload {
        let expected = try expectedDigest(contentLength: request.headers[.contentLength], sha256: request.headers[.contentSHA256], limit: limit)
        let pending = try await library.beginImport(filename: sanitize(filename))
        // What goes wrong drops what was written (its folder removed on the pool).
        do {
            // Counted while streaming only to refuse a body past the limit before writing it; the
            // size and hash of what was written come from the pending import.
            try await stream(request.body, limit: limit) { bytes throws(LibraryError) in try pending.write(bytes) }
            let written = try await BlockingPool.shared.run { try pending.finishWriting() }
            guard written.size > 0 else { throw APIError(.badRequest, "emptyUpload", "the upload is empty: no bytes came") }
            let digest = written.sha256
            if let expected, expected != digest {
                throw APIError(
                    .badRequest, "checksumMismatch", "the upload's SHA-256 is \(digest), not \(expected) as X-Content-SHA256 says: it was damaged on the way")
            }
            return Upload(pending: pending, size: written.size, sha256: digest)
        } catch {
            await pending.discardOnPool()
            throw error
        }
    }

    /// Hands a request body's bytes to `write`, a megabyte of buffers at a time on the blocking
    /// pool, not on the event loop that carries the connection (a slow disk would hold every
    /// request on it); the buffers themselves are handed over, not copied. One batch is written
    /// while the next arrives, and `hash`, when given, takes each batch on another pool thread
    /// beside `write`.
    ///
    /// - Returns: How many bytes came.
    /// - Throws: `413 tooLarge` once more than `limit` bytes came (none past it is written).
    @discardableResult
    static func stream(
        _ body: HummingbirdCore.RequestBody, limit: Int, into write: @escaping @Sendable (UnsafeRawBufferPointer) throws(LibraryError) -> Void,
        hash: (@Sendable (UnsafeRawBufferPointer) -> Void)? = nil
    ) async throws -> Int {
        var received = 0
        var batch: [ByteBuffer] = []
        var batched = 0
        var inFlight: Task<Void, any Error>?
        func flush() async throws {
            let pieces = batch
            (batch, batched) = ([], 0)
            // The batch before this one is written (and hashed) first: bytes go in order.
            try await inFlight?.value
            inFlight = nil
            guard !pieces.isEmpty else { return }
            inFlight = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    if let hash {
                        group.addTask {
                            await BlockingPool.shared.run { for piece in pieces { piece.withUnsafeReadableBytes { hash($0) } } }
                        }
                    }
                    group.addTask {
                        try await BlockingPool.shared.run {
                            for piece in pieces { try piece.withUnsafeReadableBytes { bytes throws(LibraryError) in try write(bytes) } }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
        do {
            for try await buffer in body {
                received += buffer.readableBytes
                guard received <= limit else {
                    throw APIError(.contentTooLarge, "tooLarge", "the upload passed \(limit) bytes, the most accepted")
                }
                batch.append(buffer)
                batched += buffer.readableBytes
                if batched >= 1 << 20 { try await flush() }
            }
            try await flush()
            try await inFlight?.value
        } catch {
            // Nothing is written after the request ends, whatever ended it.
            _ = try? await inFlight?.value
            throw error
        }
        return received
    }

    /// Removes `shoebox-upload-*` folders that servers older than staging-in-the-library left in
    /// the system's temporary folder when they were killed mid-upload (untouched for an hour:
    /// nothing writes there any more). Returns how many went.
    @discardableResult
    static func removeLegacyLeftovers(olderThan age: TimeInterval = 3_600) async -> Int {
        await BlockingPool.shared.run {
            let temporary = FileManager.default.temporaryDirectory
            let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
            var removed = 0
            for name in names where name.hasPrefix("shoebox-upload-") {
                let url = temporary.appendingPathComponent(name)
                guard let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
                    Date().timeIntervalSince(modified) > age
                else { continue }
                if (try? FileManager.default.removeItem(at: url)) != nil { removed += 1 }
            }
            return removed
        }
    }

    /// Checks an upload's headers before any byte is taken: `413` for a `Content-Length` over
    /// `limit`, `400` for an `X-Content-SHA256` that is not 64 hexadecimal digits. Returns that
    /// digest in lowercase, when there is one.
    package static func expectedDigest(contentLength: String?, sha256: String?, limit: Int) throws(APIError) -> String? {
        if let length = contentLength.flatMap(Int.init), length > limit {
            throw APIError(.contentTooLarge, "tooLarge", "the upload has \(length) bytes; at most \(limit) are accepted")
        }
        let expected = sha256?.lowercased()
        // ASCII only: `Character.isHexDigit` also takes the fullwidth forms (`０`, `ａ`).
        if let expected, expected.utf8.count != 64 || !expected.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) {
            throw APIError.badRequest("X-Content-SHA256 must be 64 hexadecimal digits")
        }
        return expected
    }

    /// A file name that is one plain path component: no folders, no control characters, at most
    /// 200 characters and 240 bytes (its extension kept), never empty or hidden.
    package static func sanitize(_ name: String?) -> String {
        // Unicode scalars, not characters: some characters join the one after them (U+0600,
        // U+0D4E, …), and "\u{D4E}/" is one character that a split by characters does not cut.
        let kept = (name ?? "").unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) && $0 != "\\" }
        let last = kept.split(separator: "/").last.map { String(Substring($0)) } ?? ""
        var cleaned = last.trimmingCharacters(in: .whitespaces)
        while cleaned.unicodeScalars.first == "." { cleaned.unicodeScalars.removeFirst() }  // "." and a mark are one character
        if cleaned.isEmpty { cleaned = "upload" }
        // At most 200 characters and 240 bytes of UTF-8 (file systems take 255), cut in the
        // name, keeping a short extension: 16 characters and 32 bytes at most, since a character
        // may carry any number of combining marks.
        let ext = (cleaned as NSString).pathExtension
        let suffix = !ext.isEmpty && ext.count <= 16 && ext.utf8.count <= 32 && ext.count < cleaned.count - 1 ? "." + ext : ""
        var stem = String(cleaned.dropLast(suffix.count))
        while !stem.isEmpty, stem.count + suffix.count > 200 || stem.utf8.count + suffix.utf8.count > 240 { stem.removeLast() }
        // A stem of one long character cuts to nothing; the extension alone would be hidden.
        if stem.isEmpty { stem = "upload" }
        return stem + suffix
    }
}
