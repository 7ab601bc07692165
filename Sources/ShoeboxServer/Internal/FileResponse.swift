import Foundation
import HTTPTypes
import Hummingbird
import ShoeboxSupport

/// Sends a file the server chose (never a path from the request), with entity tags and single
/// byte ranges (`Range: bytes=a-b`, `bytes=a-`, `bytes=-n`) for seeking in movies.
package enum FileResponse {
    /// The size of the file at `url` (`nil` when it is missing), asked on the blocking pool.
    static func size(of url: URL) async -> Int? {
        await BlockingPool.shared.run { (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int }
    }

    /// - Parameters:
    ///   - immutable: The URL names this exact content (a version in it): cache for a year.
    static func make(
        _ url: URL, contentType: String, entityTag: String, immutable: Bool, request: Request,
        context: ServerRequestContext, fileIO: FileIO, downloadName: String? = nil
    ) async throws -> Response {
        guard let size = await size(of: url) else {
            throw APIError(.notFound, "fileMissing", "the file is gone from the library (shoebox doctor finds such problems)")
        }
        var headers = headers(contentType: contentType, entityTag: entityTag, immutable: immutable, downloadName: downloadName)
        let tag = headers[.eTag] ?? ""
        if let match = request.headers[.ifNoneMatch], match == tag || match == "*" {
            return Response(status: .notModified, headers: headers)
        }
        if let range = request.headers[.range], request.headers[.ifRange].map({ $0 == tag }) ?? true {
            guard let bounds = parseRange(range, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                throw APIError(.rangeNotSatisfiable, "rangeNotSatisfiable", "the range \(range) is outside the file's \(size) bytes")
                    .with(headers: headers)
            }
            headers[.contentRange] = "bytes \(bounds.lowerBound)-\(bounds.upperBound)/\(size)"
            headers[.contentLength] = "\(bounds.count)"
            if request.method == .head { return Response(status: .partialContent, headers: headers) }
            let body = try await fileIO.loadFile(path: url.path, range: bounds, context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        }
        headers[.contentLength] = "\(size)"
        if request.method == .head || size == 0 { return Response(status: .ok, headers: headers) }
        let body = try await fileIO.loadFile(path: url.path, context: context)
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The headers of a file's answer: type, entity tag, ranges accepted, caching, and an
    /// attachment's name.
    static func headers(contentType: String, entityTag: String, immutable: Bool, downloadName: String?) -> HTTPFields {
        var headers: HTTPFields = [
            .contentType: contentType, .eTag: "\"\(entityTag)\"", .acceptRanges: "bytes",
            .cacheControl: immutable ? "private, max-age=31536000, immutable" : "private, no-cache",
        ]
        if let downloadName {
            let safe = downloadName.filter { $0.isLetter || $0.isNumber || "._- ".contains($0) }
            headers[.contentDisposition] = "attachment; filename=\"\(safe.isEmpty ? "download" : safe)\""
        }
        return headers
    }

    /// One range of a file of `size` bytes; `nil` when it is not satisfiable (or not one range).
    package static func parseRange(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), size > 0 else { return nil }
        let spec = header.dropFirst("bytes=".count)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = Int(last), suffix > 0 else { return nil }
            return max(0, size - suffix)...(size - 1)
        }
        guard let start = Int(first), start >= 0, start < size else { return nil }
        if last.isEmpty { return start...(size - 1) }
        guard let end = Int(last), end >= start else { return nil }
        return start...min(end, size - 1)
    }
}

extension APIError {
    func with(headers: HTTPFields) -> APIError {
        var copy = self
        copy.headers = headers
        return copy
    }
}
