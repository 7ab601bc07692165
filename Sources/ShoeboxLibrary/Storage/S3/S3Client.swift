import AsyncHTTPClient
internal import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import ShoeboxImaging
import Synchronization

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The few S3 calls a blob store needs — PUT (conditional, checksummed), GET (with Range),
/// HEAD, DELETE, ListObjectsV2, multipart create/upload/complete/abort/list — over
/// AsyncHTTPClient, signed with ``SigV4``. Throttling and dropped connections are retried with
/// exponential backoff; everything else becomes an ``ObjectStorageError`` naming the problem.
public final class S3Client: Sendable {
    /// The bucket, key prefix, endpoint and region the client's requests go to.
    public let url: S3URL
    let credentials: AWSCredentials
    let signer: SigV4
    let http: HTTPClient
    let retries: Int
    /// Added to this machine's clock when signing (tests make a skewed clock with it).
    let clockOffset: TimeInterval
    /// Whether the bucket was seen to exist: a HEAD's 404 has no body to tell a missing object
    /// from a missing bucket, so the first one is checked against the bucket.
    private let bucketSeen = Mutex(false)

    /// A client of `url`'s bucket signing with `credentials`. A throttled or failed (5xx) request is tried again
    /// up to `retries` times, a dropped connection once, waiting 100 ms and doubling each time.
    public convenience init(url: S3URL, credentials: AWSCredentials, http: HTTPClient = S3Client.sharedHTTPClient, retries: Int = 4) {
        self.init(url: url, credentials: credentials, http: http, retries: retries, clockOffset: 0)
    }

    init(url: S3URL, credentials: AWSCredentials, http: HTTPClient = S3Client.sharedHTTPClient, retries: Int, clockOffset: TimeInterval) {
        self.clockOffset = clockOffset
        self.url = url
        self.credentials = credentials
        self.signer = SigV4(credentials: credentials, region: url.region)
        self.http = http
        self.retries = retries
    }

    /// The HTTP client S3 clients share: 32 connections per host (thumbnails and imports run
    /// many requests at once), and a store that does not accept connections fails a request after
    /// 5 seconds (the client then retries once) instead of the default wait for the request's
    /// whole deadline.
    public static let sharedHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(5)
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 32)
        configuration.decompression = .disabled
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// An answer.
    struct Response {
        let status: Int
        let headers: HTTPHeaders
        let body: ByteBuffer
    }

    /// What a request sends.
    enum Payload: Sendable {
        case empty
        case bytes(Data, sha256: String)
        /// A file region streamed from disk (never whole in memory), already hashed.
        case file(URL, offset: Int, length: Int, sha256: String)
    }

    // MARK: Objects

    /// Stores a file's bytes under `key` unless an object is there already (`If-None-Match: *`;
    /// a 412 answers `false`). `sha256` is the hex SHA-256 of the bytes: sent as
    /// `x-amz-content-sha256` and, base64, as `x-amz-checksum-sha256`, so the server refuses a
    /// body damaged on the way.
    func putObject(_ key: String, file: URL, size: Int, sha256: String, contentType: String? = nil) async throws(LibraryError) -> Bool {
        var headers = [("if-none-match", "*"), ("x-amz-checksum-sha256", Self.base64(hex: sha256))]
        if let contentType { headers.append(("content-type", contentType)) }
        let response = try await send("PUT", key: key, headers: headers, payload: .file(file, offset: 0, length: size, sha256: sha256), accept: [200, 412])
        return response.status == 200
    }

    /// Stores small bytes under `key`, replacing what is there (derivatives).
    func putObject(_ key: String, data: Data, contentType: String? = nil) async throws(LibraryError) {
        let hash = Hex.sha256(data)
        var headers = [("x-amz-checksum-sha256", Self.base64(hex: hash))]
        if let contentType { headers.append(("content-type", contentType)) }
        _ = try await send("PUT", key: key, headers: headers, payload: .bytes(data, sha256: hash))
    }

    /// Streams an object into `destination` (created or replaced; `nil` only hashes it),
    /// hashing it on the way; returns the hex SHA-256 of what arrived.
    func getObject(_ key: String, to destination: URL?) async throws(LibraryError) -> String {
        try await withRetries(key: key) { () async throws -> String in
            let request = try self.request("GET", key: key, query: [], headers: [], payload: .empty)
            let response = try await self.http.execute(request, timeout: .seconds(300))
            let status = Int(response.status.code)
            guard status == 200 else {
                let body = try await response.body.collect(upTo: 1 << 20)
                throw Self.error(status: status, body: body, key: key, headers: response.headers)
            }
            var hasher = SHA256()
            guard let destination else {
                for try await buffer in response.body {
                    buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                }
                return Hex.encode(hasher.finalize())
            }
            FileManager.default.createFile(atPath: destination.path, contents: nil, attributes: [.posixPermissions: 0o600])
            let handle = try FileHandle(forWritingTo: destination)
            do {
                // Writes go to the blocking pool a megabyte at a time, not per network buffer.
                var pending = Data()
                pending.reserveCapacity(1 << 20)
                for try await buffer in response.body {
                    buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                    pending.append(contentsOf: buffer.readableBytesView)
                    if pending.count >= 1 << 20 {
                        let data = pending
                        pending.removeAll(keepingCapacity: true)
                        try await BlockingPool.shared.run { try handle.write(contentsOf: data) }
                    }
                }
                let data = pending
                try await BlockingPool.shared.run {
                    try handle.write(contentsOf: data)
                    try handle.close()
                }
            } catch {
                try? handle.close()
                try? FileManager.default.removeItem(at: destination)
                throw error
            }
            return Hex.encode(hasher.finalize())
        }
    }

    /// An object being read: the status (200, or 206 for a range), its headers, and its bytes as
    /// they arrive.
    package struct Download: Sendable {
        /// 200 for the whole object, 206 for a range.
        package let status: Int
        /// The answer's headers (`content-length`, `content-range`, `etag`, …).
        package let headers: HTTPHeaders
        /// The bytes as they arrive; they can be read only once.
        package let body: HTTPClientResponse.Body
    }

    /// Starts reading an object, or the `range` of it (`bytes=0-9`), for streaming elsewhere (a
    /// proxied HTTP response). Throws when the store answers anything but 200 or 206.
    package func download(_ key: String, range: String? = nil) async throws(LibraryError) -> Download {
        try await withRetries(key: key) { () async throws -> Download in
            let request = try self.request("GET", key: key, query: [], headers: range.map { [("range", $0)] } ?? [], payload: .empty)
            let response = try await self.http.execute(request, timeout: .seconds(3_600))
            let status = Int(response.status.code)
            guard status == 200 || status == 206 else {
                let body = try await response.body.collect(upTo: 1 << 20)
                throw Self.error(status: status, body: body, key: key, headers: response.headers)
            }
            return Download(status: status, headers: response.headers, body: response.body)
        }
    }

    /// An object's bytes (small objects), or those of `range` (`bytes=0-9`).
    func getData(_ key: String, range: String? = nil) async throws(LibraryError) -> Data {
        let headers = range.map { [("range", $0)] } ?? []
        let response = try await send("GET", key: key, headers: headers, payload: .empty, accept: [200, 206])
        return Data(response.body.readableBytesView)
    }

    /// The object's size, or `nil` when there is none.
    func headObject(_ key: String) async throws(LibraryError) -> Int? {
        let response = try await send("HEAD", key: key, headers: [], payload: .empty, accept: [200, 404])
        guard response.status == 200 else {
            try await requireBucket()
            return nil
        }
        return response.headers.first(name: "content-length").flatMap(Int.init) ?? 0
    }

    /// The object's size and, when the store kept one for a whole-object upload, its SHA-256
    /// checksum (base64); `nil` when there is no object.
    func headObjectWithChecksum(_ key: String) async throws(LibraryError) -> (size: Int, sha256: String?)? {
        let response = try await send("HEAD", key: key, headers: [("x-amz-checksum-mode", "ENABLED")], payload: .empty, accept: [200, 404])
        guard response.status == 200 else {
            try await requireBucket()
            return nil
        }
        let checksum = response.headers.first(name: "x-amz-checksum-sha256").flatMap { $0.contains("-") ? nil : $0 }
        return (response.headers.first(name: "content-length").flatMap(Int.init) ?? 0, checksum)
    }

    /// Deletes an object (one that is not there is deleted already).
    func deleteObject(_ key: String) async throws(LibraryError) {
        _ = try await send("DELETE", key: key, headers: [], payload: .empty, accept: [200, 204, 404])
    }

    /// An object in a listing.
    struct Object: Sendable {
        let key: String
        let size: Int
        let lastModified: Date?
    }

    /// Every object whose key starts with `prefix` (ListObjectsV2, a thousand a page).
    func listObjects(prefix: String) async throws(LibraryError) -> [Object] {
        var objects: [Object] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix), ("max-keys", "1000")]
            if let token { query.append(("continuation-token", token)) }
            let response = try await send("GET", key: "", query: query, headers: [], payload: .empty)
            let parsed = XMLFields(Data(response.body.readableBytesView))
            for item in parsed.elements("Contents") {
                guard let key = item["Key"] else { continue }
                objects.append(Object(key: key, size: item["Size"].flatMap(Int.init) ?? 0, lastModified: item["LastModified"].flatMap(Self.iso8601)))
            }
            token = parsed.top["IsTruncated"] == "true" ? parsed.top["NextContinuationToken"] : nil
        } while token != nil
        return objects
    }

    /// The "folders" one level under `prefix` (ListObjectsV2 with `delimiter=/`: the common
    /// prefixes, each ending in `/`).
    func listFolders(prefix: String) async throws(LibraryError) -> [String] {
        var folders: [String] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix), ("delimiter", "/"), ("max-keys", "1000")]
            if let token { query.append(("continuation-token", token)) }
            let response = try await send("GET", key: "", query: query, headers: [], payload: .empty)
            let parsed = XMLFields(Data(response.body.readableBytesView))
            folders += parsed.elements("CommonPrefixes").compactMap { $0["Prefix"] }
            token = parsed.top["IsTruncated"] == "true" ? parsed.top["NextContinuationToken"] : nil
        } while token != nil
        return folders
    }

    // MARK: Multipart

    func createMultipartUpload(_ key: String) async throws(LibraryError) -> String {
        let response = try await send("POST", key: key, query: [("uploads", "")], headers: [("x-amz-checksum-algorithm", "SHA256")], payload: .empty)
        guard let id = XMLFields(Data(response.body.readableBytesView)).top["UploadId"] else {
            throw .objectStorage(ObjectStorageError(.failed, "the store started a multipart upload of \(key) without an upload id"))
        }
        return id
    }

    /// Uploads part `number` from a region of `file`; returns its ETag and checksum.
    func uploadPart(_ key: String, uploadID: String, number: Int, file: URL, offset: Int, length: Int, sha256: String) async throws(LibraryError) -> (
        etag: String, checksum: String
    ) {
        let checksum = Self.base64(hex: sha256)
        let response = try await send(
            "PUT", key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)],
            headers: [("x-amz-checksum-sha256", checksum)],
            payload: .file(file, offset: offset, length: length, sha256: sha256))
        return (response.headers.first(name: "etag") ?? "", checksum)
    }

    func completeMultipartUpload(_ key: String, uploadID: String, parts: [(etag: String, checksum: String)]) async throws(LibraryError) {
        var xml = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        for (index, part) in parts.enumerated() {
            xml += "<Part><PartNumber>\(index + 1)</PartNumber><ETag>\(Self.escape(part.etag))</ETag><ChecksumSHA256>\(part.checksum)</ChecksumSHA256></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        let body = Data(xml.utf8)
        let response = try await send(
            "POST", key: key, query: [("uploadId", uploadID)], headers: [("content-type", "application/xml")],
            payload: .bytes(body, sha256: Hex.sha256(body)))
        // A completion can fail inside a 200 answer.
        if let code = XMLFields(Data(response.body.readableBytesView)).top["Code"] {
            throw .objectStorage(ObjectStorageError(.failed, "completing the upload of \(key) failed: \(code)", status: response.status))
        }
    }

    func abortMultipartUpload(_ key: String, uploadID: String) async throws(LibraryError) {
        _ = try await send("DELETE", key: key, query: [("uploadId", uploadID)], headers: [], payload: .empty, accept: [200, 204, 404])
    }

    /// A multipart upload that was started and not completed or aborted.
    struct Upload: Sendable {
        let key: String
        let uploadID: String
        let initiated: Date?
    }

    func listMultipartUploads(prefix: String) async throws(LibraryError) -> [Upload] {
        let response = try await send("GET", key: "", query: [("uploads", ""), ("prefix", prefix)], headers: [], payload: .empty)
        return XMLFields(Data(response.body.readableBytesView)).elements("Upload").compactMap { item in
            guard let key = item["Key"], let id = item["UploadId"] else { return nil }
            return Upload(key: key, uploadID: id, initiated: item["Initiated"].flatMap(Self.iso8601))
        }
    }

    /// Creates the bucket (an existing one of this account is fine).
    public func createBucket() async throws(LibraryError) {
        var body = ""
        if url.endpoint == nil, url.region != "us-east-1" {
            body =
                "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>\(url.region)</LocationConstraint></CreateBucketConfiguration>"
        }
        let data = Data(body.utf8)
        do {
            _ = try await send("PUT", key: "", headers: [], payload: .bytes(data, sha256: Hex.sha256(data)), bucketOnly: true)
        } catch {
            if error.objectStorageError?.status == 409 { return }  // BucketAlreadyOwnedByYou
            throw error
        }
    }

    /// Whether the bucket is there and these credentials may use it.
    func checkBucket() async throws(LibraryError) {
        _ = try await send("GET", key: "", query: [("list-type", "2"), ("max-keys", "1"), ("prefix", url.prefix)], headers: [], payload: .empty)
        bucketSeen.withLock { $0 = true }
    }

    /// After a HEAD's 404: fails with ``ObjectStorageError/Code/bucketMissing`` when it was the
    /// bucket that is missing, so that a deleted or mistyped bucket never reads as a library
    /// whose every blob is lost (which `doctor --repair` would act on). Asks once per client.
    private func requireBucket() async throws(LibraryError) {
        if bucketSeen.withLock({ $0 }) { return }
        try await checkBucket()
    }

    // MARK: Presigned URLs

    /// A URL that reads `key` without credentials until `date + expires`; the `response…`
    /// values set the answer's `Content-Type`, `Cache-Control` and `Content-Disposition`.
    package func presignedGet(
        _ key: String, date: Date, expires: Int, responseContentType: String? = nil,
        responseCacheControl: String? = nil, responseContentDisposition: String? = nil
    ) -> URL {
        let location = url.location(of: key)
        var query: [(String, String)] = []
        if let responseCacheControl { query.append(("response-cache-control", responseCacheControl)) }
        if let responseContentDisposition { query.append(("response-content-disposition", responseContentDisposition)) }
        if let responseContentType { query.append(("response-content-type", responseContentType)) }
        let request = SigV4.Request(method: "GET", path: location.path, query: query, headers: [("host", location.host)], payloadHash: "UNSIGNED-PAYLOAD")
        let signed = signer.presignedQuery(for: request, date: date, expires: expires)
        return URL(
            string: location.base + Self.encodePath(location.path) + "?" + signed.map { "\(SigV4.encode($0.0))=\(SigV4.encode($0.1))" }.joined(separator: "&"))!
    }

    // MARK: Sending

    /// Sends a signed request, retrying throttling and lost connections; answers statuses in
    /// `accept`, and turns the others into errors.
    func send(
        _ method: String, key: String, query: [(String, String)] = [], headers: [(String, String)], payload: Payload,
        accept: Set<Int> = [200, 204], bucketOnly: Bool = false
    ) async throws(LibraryError) -> Response {
        try await withRetries(key: key) { () async throws -> Response in
            let request = try self.request(method, key: key, query: query, headers: headers, payload: payload, bucketOnly: bucketOnly)
            let response = try await self.http.execute(request, timeout: .seconds(300))
            let body = try await response.body.collect(upTo: 64 << 20)
            let status = Int(response.status.code)
            guard accept.contains(status) else { throw Self.error(status: status, body: body, key: key, headers: response.headers) }
            return Response(status: status, headers: response.headers, body: body)
        }
    }

    private func withRetries<T: Sendable>(key: String, _ attempt: @Sendable () async throws -> T) async throws(LibraryError) -> T {
        var delay = Duration.milliseconds(100)
        var tries = 0
        while true {
            tries += 1
            do {
                return try await attempt()
            } catch let error as ObjectStorageError {
                guard error.code == .throttled || error.code == .serverError, tries <= retries else { throw .objectStorage(error) }
            } catch let error as LibraryError {
                throw error
            } catch is CancellationError {
                throw .cancelled
            } catch {
                guard tries <= min(retries, 1) else {
                    throw .objectStorage(
                        ObjectStorageError(.unreachable, "cannot reach the object store at \(url.location(of: "").base) (\(Self.describe(error)))"))
                }
            }
            try? await Task.sleep(for: delay)
            delay *= 2
        }
    }

    private func request(
        _ method: String, key: String, query: [(String, String)], headers: [(String, String)], payload: Payload,
        bucketOnly: Bool = false
    ) throws -> HTTPClientRequest {
        var location = url.location(of: key)
        if bucketOnly, location.path.hasSuffix("/"), location.path.count > 1 { location.path.removeLast() }
        let date = Date().addingTimeInterval(clockOffset)
        let payloadHash: String
        switch payload {
        case .empty: payloadHash = Hex.sha256(Data())
        case .bytes(_, let hash), .file(_, _, _, let hash): payloadHash = hash
        }
        var signedHeaders = headers + [("host", location.host), ("x-amz-date", SigV4.amzDate(date)), ("x-amz-content-sha256", payloadHash)]
        if let token = credentials.sessionToken { signedHeaders.append(("x-amz-security-token", token)) }
        let signing = SigV4.Request(method: method, path: location.path, query: query, headers: signedHeaders, payloadHash: payloadHash)
        let authorization = signer.authorization(for: signing, date: date)
        let queryText = query.map { "\(SigV4.encode($0.0))=\(SigV4.encode($0.1))" }.joined(separator: "&")
        var request = HTTPClientRequest(url: location.base + Self.encodePath(location.path) + (queryText.isEmpty ? "" : "?" + queryText))
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in signedHeaders where name != "host" { request.headers.add(name: name, value: value) }
        request.headers.add(name: "authorization", value: authorization)
        switch payload {
        case .empty:
            if method == "PUT" || method == "POST" { request.body = .bytes(ByteBuffer()) }
        case .bytes(let data, _):
            request.body = .bytes(ByteBuffer(bytes: data))
        case .file(let file, let offset, let length, _):
            request.body = .stream(FileChunks(url: file, offset: offset, length: length), length: .known(Int64(length)))
        }
        return request
    }

    /// The path as sent: each segment percent-encoded as it is signed.
    static func encodePath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { SigV4.encode(String($0)) }.joined(separator: "/")
    }

    static func error(status: Int, body: ByteBuffer, key: String, headers: HTTPHeaders) -> ObjectStorageError {
        let fields = XMLFields(Data(body.readableBytesView)).top
        let code = fields["Code"] ?? ""
        let message = fields["Message"].map { " (\($0))" } ?? ""
        let what = key.isEmpty ? "the bucket" : key
        switch (status, code) {
        case (_, "NoSuchBucket"):
            return ObjectStorageError(.bucketMissing, "the bucket does not exist\(message); create it first", status: status)
        case (_, "RequestTimeTooSkewed"):
            return ObjectStorageError(.clockSkew, "this machine's clock is too far from the object store's\(message); set the clock (NTP)", status: status)
        case (_, "InvalidAccessKeyId"), (_, "SignatureDoesNotMatch"), (403, _):
            return ObjectStorageError(
                .credentialsRefused, "the object store refused the credentials for \(what): \(code.isEmpty ? "access denied" : code)\(message)", status: status)
        case (_, "BadDigest"), (_, "InvalidDigest"), (_, "XAmzContentSHA256Mismatch"):
            return ObjectStorageError(.checksumRefused, "the object store refused \(what): its checksum did not match the bytes sent (\(code))", status: status)
        case (_, "SlowDown"), (503, _), (429, _):
            return ObjectStorageError(.throttled, "the object store kept asking to slow down (\(status) \(code))\(message) for \(what)", status: status)
        case (500, _), (502, _), (504, _):
            return ObjectStorageError(.serverError, "the object store kept failing (\(status) \(code))\(message) for \(what)", status: status)
        case (404, _), (_, "NoSuchKey"):
            return ObjectStorageError(.notFound, "\(what) is not in the object store", status: status)
        default:
            return ObjectStorageError(.failed, "the object store answered \(status) \(code)\(message) for \(what)", status: status)
        }
    }

    /// A network failure in a few words: the connection was refused, timed out, or dropped.
    static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        let lowered = text.lowercased()
        if lowered.contains("refused") || lowered.contains("errno: 111") { return "connection refused" }
        if lowered.contains("timeout") || lowered.contains("timed out") { return "no answer in time" }
        if lowered.contains("reset") || lowered.contains("closed") || lowered.contains("eof") { return "the connection was dropped" }
        if lowered.contains("resolve") || lowered.contains("dns") || lowered.contains("lookup") { return "its host name does not resolve" }
        return text
    }

    static func base64(hex: String) -> String {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return Data(bytes).base64EncodedString()
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func iso8601(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// A region of a file as an async sequence of buffers, read on the blocking pool a mebibyte at
/// a time: an upload's body never sits whole in memory.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let url: URL
    let offset: Int
    let length: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let url: URL
        var position: Int
        let end: Int

        mutating func next() async throws -> ByteBuffer? {
            guard position < end else { return nil }
            let count = Swift.min(1 << 20, end - position)
            let (url, start) = (url, position)
            let data = try await BlockingPool.shared.run { () throws -> Data in
                let handle = try FileHandle(forReadingFrom: url)
                defer { try? handle.close() }
                try handle.seek(toOffset: UInt64(start))
                return try handle.read(upToCount: count) ?? Data()
            }
            guard !data.isEmpty else { throw ObjectStorageError(.failed, "\(url.path) ended before its \(end) bytes") }
            position += data.count
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(url: url, position: offset, end: offset + length)
    }
}

/// The text of an S3 XML answer: the top element's direct fields, and each element with a given
/// name as a dictionary of its fields.
struct XMLFields {
    private(set) var top: [String: String] = [:]
    private var groups: [String: [[String: String]]] = [:]

    init(_ data: Data) {
        guard !data.isEmpty else { return }
        let collector = Collector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        parser.parse()
        top = collector.top
        groups = collector.groups
    }

    func elements(_ name: String) -> [[String: String]] { groups[name] ?? [] }

    private final class Collector: NSObject, XMLParserDelegate {
        var stack: [String] = []
        var text = ""
        var top: [String: String] = [:]
        var groups: [String: [[String: String]]] = [:]
        var current: [String: String] = [:]

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            stack.append(name)
            text = ""
            if stack.count == 2 { current = [:] }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch stack.count {
            case 2:
                if current.isEmpty {
                    top[name] = value
                } else {
                    groups[name, default: []].append(current)
                }
            case 3:
                current[name] = value
            default:
                break
            }
            stack.removeLast()
            text = ""
        }
    }
}
