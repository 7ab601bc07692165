import AsyncHTTPClient
internal import Crypto
import Foundation
import NIOHTTP1
import ShoeboxSupport

/// A ``BlobStore`` on S3-compatible object storage (AWS, MinIO, Cloudflare R2, Backblaze B2,
/// Garage, SeaweedFS): `originals/ab/<sha256>` and `renders/ab/<sha256>` under the URL's prefix,
/// written once and never renamed.
///
/// - Writes: `If-None-Match: *` (a 412 means the bytes are there already: a duplicate, not an
///   error), with `x-amz-checksum-sha256` so the store refuses a damaged body; blobs over 64 MiB
///   go up in 16 MiB parts, streamed from the staged file, each part checksummed, and a failed
///   upload is aborted. The staged file then joins the local read cache.
/// - Reads: through a bounded local read cache (``BlobCache``), every download checked against
///   the blob's hash; or, for browsers, presigned URLs (``presignedURL(for:contentType:downloadName:)``).
/// - What may be removed is decided by the catalog, as for files; objects no row refers to (a
///   crash between upload and commit) are removed by the sweeper after a grace period.
package final class S3BlobStore: BlobStore, DirectBlobAccess, UnfinishedUploads {
    /// The client the store's requests go through; its ``S3Client/url`` names the bucket and prefix.
    package let client: S3Client
    let cache: BlobCache
    /// Blobs larger than this go up as multipart uploads (64 MiB)…
    let multipartThreshold: Int
    /// …in parts of this size (16 MiB; S3 wants at least 5 MiB but for the last).
    let partSize: Int

    let faults: FaultInjector?

    init(client: S3Client, cache: BlobCache, multipartThreshold: Int = 64 << 20, partSize: Int = 16 << 20, faults: FaultInjector? = nil) {
        self.client = client
        self.cache = cache
        self.multipartThreshold = multipartThreshold
        self.partSize = partSize
        self.faults = faults
    }

    /// A store as a library opens it: `SHOEBOX_S3_MULTIPART_THRESHOLD` (bytes, at least 5 MiB)
    /// lowers the size above which blobs go up in parts (and the parts with it), for slow links
    /// and for tests.
    static func forLibrary(
        client: S3Client, cache: BlobCache, faults: FaultInjector,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> S3BlobStore {
        guard let text = environment["SHOEBOX_S3_MULTIPART_THRESHOLD"], let threshold = Int(text) else {
            return S3BlobStore(client: client, cache: cache, faults: faults)
        }
        let bounded = Swift.max(threshold, 5 << 20)
        return S3BlobStore(client: client, cache: cache, multipartThreshold: bounded, partSize: Swift.min(16 << 20, bounded), faults: faults)
    }

    /// The bucket's URL, as ``S3URL/description`` writes it.
    package var location: String { client.url.description }

    func objectKey(_ key: BlobKey) -> String {
        client.url.key("\(key.kind.rawValue)s/\(key.hash.prefix(2))/\(key.hash)")
    }

    /// Uploads the staged file unless the object is there already (one checksummed PUT, or a
    /// multipart upload above the threshold, 64 MiB by default), then moves the file into the local
    /// read cache; a failed upload throws and leaves the file where it is. Returns whether this call
    /// uploaded the bytes.
    package func store(consuming file: URL, size: Int, as key: BlobKey) async throws(LibraryError) -> Bool {
        let stored = try await upload(file, size: size, as: key)
        cache.adopt(file, as: key)
        return stored
    }

    /// Uploads a local file whose bytes hash to `key.hash` (the server checks it), unless the
    /// object is there; the file is left as it is. Returns whether this call stored it.
    func upload(_ file: URL, size: Int, as key: BlobKey) async throws(LibraryError) -> Bool {
        let object = objectKey(key)
        if size > multipartThreshold {
            return try await multipart(file, size: size, to: object, key: key)
        }
        return try await client.putObject(object, file: file, size: size, sha256: key.hash)
    }

    /// Checks that the bucket holds the blob whole: its size, and its SHA-256 — from the checksum
    /// the store kept at upload when it reports one, else by reading it back.
    func verify(_ key: BlobKey, size: Int) async throws(LibraryError) -> Bool {
        guard let head = try await client.headObjectWithChecksum(objectKey(key)), head.size == size else { return false }
        if let checksum = head.sha256, checksum == S3Client.base64(hex: key.hash) { return true }
        return try await sha256(of: key) == key.hash
    }

    /// A multipart upload, unless the object is there already: each part streamed from the file
    /// with its own checksum, the whole file hashed on the way and compared with the key before
    /// the upload is completed. Aborted if anything fails.
    private func multipart(_ file: URL, size: Int, to object: String, key: BlobKey) async throws(LibraryError) -> Bool {
        if try await client.headObject(object) != nil { return false }
        let uploadID = try await client.createMultipartUpload(object)
        do {
            var parts: [(etag: String, checksum: String)] = []
            let whole = RunningHash()
            var offset = 0
            while offset < size {
                let length = Swift.min(partSize, size - offset)
                let hash = try await Self.sha256(of: file, offset: offset, length: length, continuing: whole)
                parts.append(
                    try await client.uploadPart(
                        object, uploadID: uploadID, number: parts.count + 1, file: file,
                        offset: offset, length: length, sha256: hash))
                faults?.crashIfArmed(.duringMultipartUpload)
                offset += length
            }
            let actual = whole.hex()
            guard actual == key.hash else {
                throw LibraryError.storage("\(file.path) hashes to \(actual), not to \(key.hash): not uploaded")
            }
            try await client.completeMultipartUpload(object, uploadID: uploadID, parts: parts)
            return true
        } catch {
            try? await client.abortMultipartUpload(object, uploadID: uploadID)
            throw error as? LibraryError ?? .storage("\(error)", underlying: error)
        }
    }

    /// A SHA-256 fed part by part, one part at a time (never concurrently).
    final class RunningHash: @unchecked Sendable {
        private var hasher = SHA256()
        func update(_ data: Data) { hasher.update(data: data) }
        func hex() -> String { Hex.encode(hasher.finalize()) }
    }

    /// The SHA-256 of a region of a file; `running`, if given, is fed the same bytes.
    static func sha256(of file: URL, offset: Int, length: Int, continuing running: RunningHash? = nil) async throws(LibraryError) -> String {
        do {
            return try await BlockingPool.shared.run {
                let handle = try FileHandle(forReadingFrom: file)
                defer { try? handle.close() }
                try handle.seek(toOffset: UInt64(offset))
                var hasher = SHA256()
                var remaining = length
                while remaining > 0, let chunk = try handle.read(upToCount: Swift.min(1 << 20, remaining)), !chunk.isEmpty {
                    hasher.update(data: chunk)
                    running?.update(chunk)
                    remaining -= chunk.count
                }
                return Hex.encode(hasher.finalize())
            }
        } catch {
            throw .storage("cannot read \(file.path): \(error)", underlying: error)
        }
    }

    /// The blob's file in the local read cache, downloaded first when missing (concurrent
    /// callers share one download) and checked against the key's hash; the cache may evict it later.
    ///
    /// - Throws: ``LibraryError/Code/objectStorage`` (`notFound`, or `corrupt` when the bytes do
    ///   not hash to the key), or ``LibraryError/Code/storage`` when the cache cannot file them.
    package func localFile(for key: BlobKey) async throws(LibraryError) -> URL {
        let client = self.client
        let object = objectKey(key)
        do {
            return try await cache.file(for: key) { temporary in try await client.getObject(object, to: temporary) }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .storage("\(error)", underlying: error)
        }
    }

    /// Whether the object exists (a HEAD request).
    package func contains(_ key: BlobKey) async throws(LibraryError) -> Bool {
        try await client.headObject(objectKey(key)) != nil
    }

    /// Downloads the object and hashes it on the way, keeping nothing and bypassing the cache;
    /// `nil` when the store answers 404.
    package func sha256(of key: BlobKey) async throws(LibraryError) -> String? {
        do {
            return try await client.getObject(objectKey(key), to: nil)
        } catch {
            // A missing object only: a missing bucket (also a 404) is an error, not a lost blob.
            if error.objectStorageError?.code == .notFound { return nil }
            throw error
        }
    }

    /// Deletes the object (a missing one counts as deleted) and its copy in the read cache.
    package func remove(_ key: BlobKey) async throws(LibraryError) {
        try await client.deleteObject(objectKey(key))
        cache.remove(key)
    }

    /// Every object under `originals/` or `renders/` (ListObjectsV2), named by its full object key;
    /// one not filed as `ab/<SHA-256 starting ab>` has a `nil` key.
    package func list(_ kind: BlobKind) async throws(LibraryError) -> [StoredBlob] {
        let prefix = client.url.key("\(kind.rawValue)s/")
        return try await client.listObjects(prefix: prefix).map { object in
            let name = String(object.key.dropFirst(prefix.count))
            let parts = name.split(separator: "/")
            let isBlob = parts.count == 2 && parts[1].count == 64 && parts[1].hasPrefix(parts[0]) && parts[1].allSatisfy(\.isHexDigit)
            return StoredBlob(
                key: isBlob ? BlobKey(kind: kind, hash: String(parts[1])) : nil, name: object.key, size: object.size,
                modified: object.lastModified)
        }
    }

    /// Downloads the object into `folder` (created 0700 if needed) under its last path
    /// component, then deletes it from the bucket. Returns the local file.
    package func quarantine(_ blob: StoredBlob, into folder: URL) async throws(LibraryError) -> URL {
        let destination = folder.appendingPathComponent((blob.name as NSString).lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storage("cannot create \(folder.path): \(error)", underlying: error)
        }
        _ = try await client.getObject(blob.name, to: destination)
        try await client.deleteObject(blob.name)
        return destination
    }

    /// A URL a browser can read the blob from without credentials. The signing time is rounded
    /// down to the hour and the URL lasts two, so the same URL repeats for an hour (browser caches
    /// work) and always has at least an hour left; the answer says `Cache-Control: private,
    /// immutable` (the bytes under a content hash never change), and names `downloadName` as an
    /// attachment when given.
    package func presignedURL(for key: BlobKey, contentType: String? = nil, downloadName: String? = nil) -> URL {
        Self.presign(client, object: objectKey(key), contentType: contentType, downloadName: downloadName)
    }

    /// How long a presigned URL's signing time stays the same.
    static let presignWindow: TimeInterval = 3_600

    /// The start of the current signing window, and when URLs signed in it stop working.
    static func presignValidity(now: Date = Date()) -> (start: Date, expires: Date) {
        let start = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / presignWindow).rounded(.down) * presignWindow)
        return (start, start.addingTimeInterval(presignWindow * 2))
    }

    static func presign(_ client: S3Client, object: String, contentType: String?, downloadName: String?) -> URL {
        let (start, _) = presignValidity()
        let disposition = downloadName.map { name -> String in
            let safe = name.filter { $0.isLetter || $0.isNumber || "._- ".contains($0) }
            return "attachment; filename=\"\(safe.isEmpty ? "download" : safe)\""
        }
        return client.presignedGet(
            object, date: start, expires: Int(presignWindow * 2), responseContentType: contentType,
            responseCacheControl: "private, max-age=3600, immutable", responseContentDisposition: disposition)
    }

    /// The stale multipart uploads (started more than `olderThan` ago and never completed).
    func staleUploads(olderThan age: TimeInterval) async throws(LibraryError) -> [S3Client.Upload] {
        let cutoff = Date().addingTimeInterval(-age)
        return try await client.listMultipartUploads(prefix: client.url.prefix).filter { ($0.initiated ?? .distantPast) < cutoff }
    }

    /// Aborts the multipart upload (its parts are removed).
    func abandon(_ upload: S3Client.Upload) async throws(LibraryError) {
        try await client.abortMultipartUpload(upload.key, uploadID: upload.uploadID)
    }

    // MARK: Pieces of resumable uploads

    /// `uploads/ID/NAME` under the URL's prefix.
    func uploadPieceKey(_ upload: String, _ name: String) -> String {
        client.url.key("uploads/\(upload)/\(name)")
    }

    /// Puts the piece at `uploads/ID/NAME` under the URL's prefix (checksummed, unless
    /// an object is there already) and removes the local file, whether or not the upload succeeded.
    package func storeUploadPiece(consuming file: URL, size: Int, sha256: String, upload: String, name: String) async throws(LibraryError) {
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await client.putObject(uploadPieceKey(upload, name), file: file, size: size, sha256: sha256)
    }

    /// Downloads `uploads/ID/NAME` to `destination`.
    package func fetchUploadPiece(upload: String, name: String, to destination: URL) async throws(LibraryError) {
        _ = try await client.getObject(uploadPieceKey(upload, name), to: destination)
    }

    /// Deletes every object under `uploads/ID/`, one request per object.
    package func removeUploadPieces(upload: String) async throws(LibraryError) {
        for object in try await client.listObjects(prefix: client.url.key("uploads/\(upload)/")) {
            try await client.deleteObject(object.key)
        }
    }
}

extension S3BlobStore {
    var directURLOrigin: String { client.url.location(of: "").base }

    func download(_ key: BlobKey, range: ClosedRange<Int>?) async throws(LibraryError) -> (length: Int?, body: HTTPClientResponse.Body) {
        let download = try await client.download(objectKey(key), range: range.map { "bytes=\($0.lowerBound)-\($0.upperBound)" })
        return (download.headers.first(name: "content-length").flatMap(Int.init), download.body)
    }

    func derivativeMirror() -> DerivativeMirror {
        DerivativeMirror(client: client)
    }
}
