import Foundation
import ShoeboxServer

/// What an upload brings besides its bytes, and what a download asks for: the client's file name
/// (`?filename=`, the resumable upload's `filename`), `Content-Length` and `X-Content-SHA256`, and a
/// `Range` header. The first byte picks which; the rest is the text.
enum UploadFuzzTarget {
    static func run(_ data: Data) {
        guard let selector = data.first else { return }
        let rest = data.dropFirst()
        switch selector % 3 {
        case 0: checkName(String(decoding: rest, as: UTF8.self))
        case 1: checkHeaders(rest)
        default: checkRange(rest)
        }
    }

    /// SECURITY.md: one plain file name of at most 200 characters and 240 bytes, extension kept,
    /// never empty or hidden, without folders or control characters.
    static func checkName(_ name: String) {
        let clean = UploadReceiver.sanitize(name)
        // Bytes, as the file system reads the name (a character may hide a "/" or a leading ".").
        FuzzCheck.require(!clean.isEmpty, "\(name.debugDescription) became an empty name")
        FuzzCheck.require(clean.utf8.first != UInt8(ascii: "."), "\(name.debugDescription) became the hidden name \(clean.debugDescription)")
        FuzzCheck.require(
            !clean.utf8.contains(UInt8(ascii: "/")) && !clean.utf8.contains(UInt8(ascii: "\\")),
            "\(name.debugDescription) became \(clean.debugDescription), with a separator")
        FuzzCheck.require(
            !clean.unicodeScalars.contains { CharacterSet.controlCharacters.contains($0) },
            "\(name.debugDescription) became \(clean.debugDescription), with control characters")
        FuzzCheck.require(
            clean.count <= 200 && clean.utf8.count <= 240,
            "\(clean.count) characters, \(clean.utf8.count) bytes from \(name.utf8.count) bytes")
        // A plain name comes through whole, and a long one keeps its extension.
        if let dot = name.lastIndex(of: "."), plain(name[..<dot]), plain(name[name.index(after: dot)...]),
            !name[..<dot].isEmpty, (1...16).contains(name.distance(from: dot, to: name.endIndex) - 1)
        {
            let ext = String(name[dot...])
            FuzzCheck.require(clean.hasSuffix(ext), "\(name.debugDescription) lost its extension: \(clean.debugDescription)")
            if name.count <= 200 { FuzzCheck.require(clean == name, "the plain name \(name) became \(clean)") }
        }
    }

    private static func plain(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// `Content-Length` and `X-Content-SHA256`, separated by a NUL byte (no NUL: no digest).
    private static func checkHeaders(_ bytes: Data.SubSequence) {
        let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let length = parts.first.map { String(decoding: $0, as: UTF8.self) }
        let digest = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
        let limit = 1 << 30
        do {
            let expected = try UploadReceiver.expectedDigest(contentLength: length, sha256: digest, limit: limit)
            FuzzCheck.require(length.flatMap(Int.init).map { $0 <= limit } ?? true, "Content-Length \(length ?? "") over the limit was accepted")
            if let expected {
                FuzzCheck.require(
                    expected.utf8.count == 64 && expected.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) },
                    "X-Content-SHA256 \(digest?.debugDescription ?? "") was accepted as \(expected.debugDescription)")
            } else {
                FuzzCheck.require(digest == nil, "a digest was given and none is expected")
            }
        } catch {
            // Refused: a length over the limit, or a digest that is not one.
        }
    }

    /// A `Range` header against a file of the size in the first four bytes.
    private static func checkRange(_ bytes: Data.SubSequence) {
        guard bytes.count >= 4 else { return }
        let size = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let header = String(decoding: bytes.dropFirst(4), as: UTF8.self)
        guard let range = FileResponse.parseRange(header, size: size) else { return }
        FuzzCheck.require(
            size > 0 && range.lowerBound >= 0 && range.upperBound < size,
            "\(header.debugDescription) gave \(range) of a \(size)-byte file")
        // The plain forms, read by the RFC 9110 rules.
        let spec = header.dropFirst("bytes=".count)
        let numbers = spec.split(separator: "-", omittingEmptySubsequences: false)
        let digits = { (text: Substring) in !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard numbers.count == 2 else { return }
        if numbers[0].isEmpty, digits(numbers[1]), let suffix = Int(numbers[1]) {
            FuzzCheck.require(range == max(0, size - suffix)...(size - 1), "\(header) gave \(range) of \(size) bytes")
        } else if digits(numbers[0]), let first = Int(numbers[0]) {
            let last = digits(numbers[1]) ? Int(numbers[1]).map { min($0, size - 1) } : (numbers[1].isEmpty ? size - 1 : nil)
            if let last { FuzzCheck.require(range == first...last, "\(header) gave \(range) of \(size) bytes") }
        }
    }
}
