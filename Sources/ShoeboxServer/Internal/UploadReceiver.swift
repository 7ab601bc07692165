import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// Receives an upload's body into a temporary file, hashing it on the way: at most `limit` bytes,
/// and when the request carries `X-Content-SHA256`, bytes that hash to it. The file is named after
/// the client's file name (sanitized) in a folder of its own; the content decides what it is.
struct UploadReceiver {
    struct Upload {
        let folder: URL
        let file: URL
        let size: Int
        let sha256: String

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    static func receive(_ request: Request, limit: Int, filename: String?) async throws -> Upload {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError(.contentTooLarge, "tooLarge", "the upload has \(length) bytes; at most \(limit) are accepted")
        }
        let expected = request.headers[.contentSHA256]?.lowercased()
        if let expected, expected.count != 64 || !expected.allSatisfy(\.isHexDigit) {
            throw APIError.badRequest("X-Content-SHA256 must be 64 hexadecimal digits")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-upload-\(UUID().uuidString)", isDirectory: true)
        let file = folder.appendingPathComponent(sanitize(filename))
        var keep = false
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw APIError(.internalServerError, "io", "cannot make a temporary file for the upload")
        }
        let handle = try FileHandle(forWritingTo: file)
        var hasher = SHA256()
        var size = 0
        do {
            for try await buffer in request.body {
                size += buffer.readableBytes
                guard size <= limit else {
                    throw APIError(.contentTooLarge, "tooLarge", "the upload passed \(limit) bytes, the most accepted")
                }
                buffer.withUnsafeReadableBytes { bytes in hasher.update(bufferPointer: bytes) }
                try handle.write(contentsOf: buffer.readableBytesView)
            }
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        guard size > 0 else { throw APIError.badRequest("the upload is empty") }
        let digest = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        if let expected, expected != digest {
            throw APIError(.badRequest, "checksumMismatch", "the upload's SHA-256 is \(digest), not \(expected) as X-Content-SHA256 says: it was damaged on the way")
        }
        keep = true
        return Upload(folder: folder, file: file, size: size, sha256: digest)
    }

    /// A file name that is one plain path component: no folders, no control characters, at most
    /// 200 characters, never empty or hidden.
    static func sanitize(_ name: String?) -> String {
        let last = (name ?? "").split(separator: "/").last.map(String.init) ?? ""
        var cleaned = String(last.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) && $0 != "\\" }.map(Character.init))
        cleaned = cleaned.trimmingCharacters(in: .whitespaces)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        if cleaned.isEmpty { cleaned = "upload" }
        return String(cleaned.prefix(200))
    }
}
