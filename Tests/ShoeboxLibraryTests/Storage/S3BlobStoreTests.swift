import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// The S3 blob store against a real S3 server (SeaweedFS, started by `scripts/s3`): what it
/// writes, how it reads, and the errors it gives. These run in every pass, whatever the
/// library suites' blob store is.
@Suite struct S3BlobStoreTests {
    /// A client on a fresh prefix of the test bucket, and a store on it with a cache in `folder`.
    struct Fixture {
        let folder: URL
        let client: S3Client
        let store: S3BlobStore

        init(multipartThreshold: Int = 64 << 20, partSize: Int = 16 << 20, cacheLimit: Int = BlobCache.defaultByteLimit) async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-s3-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            client = S3Client(url: try S3URL(try S3TestServer.freshBlobsURL()), credentials: try AWSCredentials.find())
            try await client.createBucket()
            store = S3BlobStore(
                client: client, cache: BlobCache(root: folder.appendingPathComponent("cache"), byteLimit: cacheLimit),
                multipartThreshold: multipartThreshold, partSize: partSize)
        }

        /// A staged file of `size` random bytes, and its key.
        func staged(_ size: Int, kind: BlobKind = .original) throws -> (URL, BlobKey) {
            var generator = SystemRandomNumberGenerator()
            var words = [UInt64](repeating: 0, count: (size + 7) / 8)
            for index in words.indices { words[index] = generator.next() }
            let data = words.withUnsafeBytes { Data($0.prefix(size)) }
            let url = folder.appendingPathComponent("staged-\(UUID().uuidString)")
            try data.write(to: url)
            return (url, BlobKey(kind: kind, hash: SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()))
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test func blobsAreWrittenOnceUnderTheirHashWithAChecksumTheServerKeeps() async throws {
        let fixture = try await Fixture()
        defer { fixture.remove() }
        let (file, key) = try fixture.staged(10_000)
        let copy = fixture.folder.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: file, to: copy)
        #expect(try await fixture.store.store(consuming: file, size: 10_000, as: key), "the first store uploads")
        #expect(!FileManager.default.fileExists(atPath: file.path), "the staged file was consumed (into the read cache)")
        #expect(try await !fixture.store.store(consuming: copy, size: 10_000, as: key), "the second is a duplicate (412), not an error")
        let object = fixture.client.url.key("originals/\(key.hash.prefix(2))/\(key.hash)")
        #expect(fixture.store.objectKey(key) == object)
        let head = try #require(try await fixture.client.headObjectWithChecksum(object))
        #expect(head.size == 10_000)
        #expect(head.sha256 == S3Client.base64(hex: key.hash), "the server kept the checksum sent with the PUT")
        #expect(try await fixture.store.verify(key, size: 10_000))
        #expect(try await fixture.store.list(.original).map(\.key) == [key])
    }

    @Test func theServerRefusesABodyThatDoesNotMatchItsChecksum() async throws {
        let fixture = try await Fixture()
        defer { fixture.remove() }
        let (file, key) = try fixture.staged(4_096)
        let (_, other) = try fixture.staged(16)
        // The bytes of one blob sent as another's: the checksum header names the other hash.
        await #expect {
            _ = try await fixture.client.putObject(fixture.store.objectKey(other), file: file, size: 4_096, sha256: other.hash)
        } throws: { error in
            guard let failure = (error as? LibraryError)?.objectStorageError else { return false }
            return failure.code == .checksumRefused
        }
        #expect(try await fixture.client.headObject(fixture.store.objectKey(other)) == nil, "nothing was stored")
        #expect(try await fixture.store.upload(file, size: 4_096, as: key))
    }

    @Test func largeBlobsGoUpInPartsAndAFailedUploadIsAborted() async throws {
        // 5 MiB parts (S3's smallest) above 6 MiB, so a 13 MiB blob is three parts.
        let fixture = try await Fixture(multipartThreshold: 6 << 20, partSize: 5 << 20)
        defer { fixture.remove() }
        let size = 13 << 20
        let (file, key) = try fixture.staged(size)
        #expect(try await fixture.store.upload(file, size: size, as: key))
        #expect(try await fixture.client.headObject(fixture.store.objectKey(key)) == size)
        #expect(try await fixture.store.sha256(of: key) == key.hash, "read back whole")
        #expect(try await fixture.store.verify(key, size: size))
        #expect(try await !fixture.store.upload(file, size: size, as: key), "already there")

        // A file that does not hash to its key: a part's checksum or the whole hash fails, and the
        // upload is aborted (no multipart upload is left open, no object appears).
        let (other, _) = try fixture.staged(size)
        let wrong = BlobKey(kind: .original, hash: String(repeating: "ab", count: 32))
        let before = try await fixture.client.listMultipartUploads(prefix: fixture.client.url.prefix).count
        await #expect(throws: LibraryError.self) {
            // Each part is checksummed against its own bytes, so the parts go up; the whole file,
            // hashed on the way, does not match the key, so the upload is never completed.
            _ = try await fixture.store.upload(other, size: size, as: wrong)
        }
        #expect(try await fixture.client.listMultipartUploads(prefix: fixture.client.url.prefix).count == before)
        #expect(try await fixture.client.headObject(fixture.store.objectKey(wrong)) == nil)
    }

    @Test func readsGoThroughABoundedCacheCheckedAgainstTheHash() async throws {
        let fixture = try await Fixture(cacheLimit: 300_000)
        defer { fixture.remove() }
        var keys: [BlobKey] = []
        for _ in 0..<6 {
            let (file, key) = try fixture.staged(100_000)
            _ = try await fixture.store.upload(file, size: 100_000, as: key)
            keys.append(key)
        }
        for key in keys {
            let local = try await fixture.store.localFile(for: key)
            #expect(await PhotoLibrary.contentHash(of: local) == key.hash)
        }
        let cached = BlobCache.measure(fixture.store.cache.root)
        #expect(cached <= 300_000, "the cache keeps to its budget: \(cached) bytes")
        #expect(fixture.store.cache.cached(keys.last!) != nil, "the most recently used stays")

        // Bytes damaged in the bucket are refused on the way in, and not cached.
        let damaged = keys[0]
        fixture.store.cache.remove(damaged)
        try await fixture.client.putObject(fixture.store.objectKey(damaged), data: Data("not the bytes".utf8))
        await #expect {
            _ = try await fixture.store.localFile(for: damaged)
        } throws: { error in
            guard let failure = (error as? LibraryError)?.objectStorageError else { return false }
            return failure.code == .corrupt
        }
        #expect(fixture.store.cache.cached(damaged) == nil)
        #expect(try await fixture.store.sha256(of: damaged) != damaged.hash, "doctor --deep reads the bucket, not the cache")
    }

    @Test func presignedURLsRepeatWithinTheirWindowAndServeTheBytes() async throws {
        let fixture = try await Fixture()
        defer { fixture.remove() }
        let (file, key) = try fixture.staged(2_048)
        let bytes = try Data(contentsOf: file)
        _ = try await fixture.store.upload(file, size: 2_048, as: key)
        let first = fixture.store.presignedURL(for: key, contentType: "image/jpeg")
        let second = fixture.store.presignedURL(for: key, contentType: "image/jpeg")
        #expect(first == second, "the same URL within the window, so browser caches work")
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: first.absoluteString), timeout: .seconds(30))
        #expect(response.status.code == 200)
        #expect(response.headers.first(name: "content-type") == "image/jpeg")
        #expect(response.headers.first(name: "cache-control")?.contains("immutable") == true)
        #expect(Data(try await response.body.collect(upTo: 1 << 20).readableBytesView) == bytes)
        // Tampering with the signature is refused.
        let forged = URL(string: first.absoluteString.replacingOccurrences(of: "X-Amz-Signature=", with: "X-Amz-Signature=0"))!
        let refused = try await HTTPClient.shared.execute(HTTPClientRequest(url: forged.absoluteString), timeout: .seconds(30))
        #expect(refused.status.code == 403)
    }

    @Test func errorsAreTypedAndNameTheProblem() async throws {
        let fixture = try await Fixture()
        defer { fixture.remove() }
        let url = fixture.client.url
        func code(_ work: () async throws -> Void) async -> ObjectStorageError.Code? {
            do {
                try await work()
                return nil
            } catch let error as LibraryError where error.objectStorageError != nil {
                return error.objectStorageError?.code
            } catch {
                return .failed
            }
        }
        let wrongSecret = S3Client(url: url, credentials: AWSCredentials(accessKey: S3TestServer.accessKey, secretKey: "wrong"))
        #expect(await code { try await wrongSecret.checkBucket() } == .credentialsRefused)
        let unknownKey = S3Client(url: url, credentials: AWSCredentials(accessKey: "nobody", secretKey: "nothing"))
        #expect(await code { try await unknownKey.checkBucket() } == .credentialsRefused)
        let missing = S3Client(
            url: try S3URL("s3://no-such-bucket-\(UUID().uuidString.prefix(8).lowercased())/x?endpoint=\(try S3TestServer.endpoint())&region=us-east-1"),
            credentials: try AWSCredentials.find())
        #expect(await code { try await missing.checkBucket() } == .bucketMissing)
        // A missing bucket is an error, never a library whose blobs are all gone (a HEAD's 404
        // alone cannot tell the two apart).
        let onMissing = S3BlobStore(client: missing, cache: BlobCache(root: fixture.folder.appendingPathComponent("missing-cache"), byteLimit: 1 << 20))
        let someKey = BlobKey(kind: .original, hash: String(repeating: "a", count: 64))
        #expect(await code { _ = try await onMissing.contains(someKey) } == .bucketMissing)
        #expect(await code { _ = try await onMissing.sha256(of: someKey) } == .bucketMissing)
        #expect(try await fixture.store.contains(someKey) == false, "a missing object in a bucket that is there is just missing")
        #expect(try await fixture.store.sha256(of: someKey) == nil)
        let skewed = S3Client(url: url, credentials: try AWSCredentials.find(), retries: 0, clockOffset: -3 * 3_600)
        #expect(await code { try await skewed.checkBucket() } == .clockSkew)
        // A port nothing listens on.
        let closed = S3Client(url: try S3URL("s3://b/p?endpoint=http://127.0.0.1:9&region=us-east-1"), credentials: try AWSCredentials.find(), retries: 0)
        #expect(await code { try await closed.checkBucket() } == .unreachable)
        #expect(await code { _ = try await fixture.store.localFile(for: BlobKey(kind: .original, hash: String(repeating: "0", count: 64))) } == .notFound)
        #expect(throws: LibraryError.self) { try AWSCredentials.find(environment: ["HOME": fixture.folder.path]) }
    }

    @Test func credentialsComeFromTheEnvironmentOrTheAWSFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-aws-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".aws"), withIntermediateDirectories: true)
        try """
        [default]
        aws_access_key_id = AKIDEFAULT
        aws_secret_access_key = default-secret

        [work]
        aws_access_key_id = AKIWORK
        aws_secret_access_key = work-secret
        aws_session_token = token
        """.write(to: folder.appendingPathComponent(".aws/credentials"), atomically: true, encoding: .utf8)
        try "[profile work]\nregion = eu-west-3\n".write(to: folder.appendingPathComponent(".aws/config"), atomically: true, encoding: .utf8)
        let home = ["HOME": folder.path]
        #expect(try AWSCredentials.find(environment: home) == AWSCredentials(accessKey: "AKIDEFAULT", secretKey: "default-secret"))
        #expect(
            try AWSCredentials.find(environment: home.merging(["AWS_PROFILE": "work"]) { $1 })
                == AWSCredentials(accessKey: "AKIWORK", secretKey: "work-secret", sessionToken: "token"))
        #expect(AWSCredentials.configuredRegion(environment: home.merging(["AWS_PROFILE": "work"]) { $1 }) == "eu-west-3")
        // The environment wins over the files.
        #expect(
            try AWSCredentials.find(environment: home.merging(["AWS_ACCESS_KEY_ID": "AKIENV", "AWS_SECRET_ACCESS_KEY": "env"]) { $1 })
                == AWSCredentials(accessKey: "AKIENV", secretKey: "env"))
    }
}

/// Throttling is retried with backoff, then reported. No S3 server throttles on demand, so a tiny
/// HTTP server answers `503 SlowDown` to the first `n` requests and then as S3 would.
@Suite struct S3ThrottlingTests {
    /// A Python HTTP server on a free port that throttles (or with `status` 500, fails) its first
    /// `count` requests. Started
    /// with `posix_spawn` and stopped with SIGKILL and `waitpid` (Foundation's `Process` can
    /// wait forever on Linux when it is stopped from a cooperative thread).
    final class Throttler: @unchecked Sendable {
        let pid: pid_t
        let port: Int
        let folder: URL

        init(throttling count: Int, status: Int = 503, code: String = "SlowDown") throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-throttler-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let portFile = folder.appendingPathComponent("port")
            let script = """
                import http.server, os
                left = [\(count)]
                class H(http.server.BaseHTTPRequestHandler):
                    def do_GET(self):
                        if left[0] > 0:
                            left[0] -= 1
                            body = b'<Error><Code>\(code)</Code><Message>Please try again.</Message></Error>'
                            self.send_response(\(status))
                        else:
                            body = b'<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>'
                            self.send_response(200)
                        self.send_header('Content-Length', str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                    def log_message(self, *args): pass
                server = http.server.HTTPServer(('127.0.0.1', 0), H)
                with open('\(portFile.path)', 'w') as f: f.write(str(server.server_port))
                server.serve_forever()
                """
            let scriptFile = folder.appendingPathComponent("throttler.py")
            try Data(script.utf8).write(to: scriptFile)
            // The port comes through a FIFO: the read end, open before the server starts, wakes
            // when the server writes (a server that dies first leaves the wait to time out).
            guard mkfifo(portFile.path, 0o600) == 0 else { throw ChildProcess.Failure("cannot make a FIFO at \(portFile.path)") }
            let reader = open(portFile.path, O_RDONLY | O_NONBLOCK)
            guard reader >= 0 else { throw ChildProcess.Failure("cannot open the FIFO at \(portFile.path)") }
            defer { close(reader) }
            pid = try ChildProcess.spawnSilently("/usr/bin/python3", [scriptFile.path])
            var text = ""
            var poller = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            while poll(&poller, 1, 5_000) > 0 {
                var buffer = [UInt8](repeating: 0, count: 16)
                let count = read(reader, &buffer, buffer.count)
                if count < 0, errno == EAGAIN { continue }
                if count <= 0 { break }
                text += String(decoding: buffer[..<count], as: UTF8.self)
            }
            guard let found = Int(text) else {
                kill(pid, SIGKILL)
                waitpid(pid, nil, 0)
                throw ChildProcess.Failure("the throttling server did not start within 5 s (it said \(text.debugDescription))")
            }
            port = found
        }

        /// A bucket on this server.
        var url: S3URL {
            get throws { try S3URL("s3://b/p?endpoint=http://127.0.0.1:\(port)&region=us-east-1") }
        }

        /// Expects a client with 2 retries to give up on this server with `code`, naming `answer`
        /// (such as `503 SlowDown`).
        func expectGivingUp(with code: ObjectStorageError.Code, naming answer: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let url = try self.url
            await #expect(sourceLocation: sourceLocation) {
                try await S3Client(url: url, credentials: AWSCredentials(accessKey: "k", secretKey: "s"), retries: 2).checkBucket()
            } throws: { error in
                guard let failure = (error as? LibraryError)?.objectStorageError else { return false }
                return failure.code == code && failure.message.contains(answer)
            }
        }

        func stop() {
            kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func throttlingIsRetriedWithBackoffThenReported() async throws {
        let patient = try Throttler(throttling: 3)
        defer { patient.stop() }
        let started = ContinuousClock.now
        try await S3Client(url: try patient.url, credentials: AWSCredentials(accessKey: "k", secretKey: "s"), retries: 4).checkBucket()
        // Backoff of 100, 200 and 400 ms before the fourth try.
        #expect(ContinuousClock.now - started >= .milliseconds(700))

        let impatient = try Throttler(throttling: 10)
        defer { impatient.stop() }
        try await impatient.expectGivingUp(with: .throttled, naming: "503 SlowDown")
    }

    @Test func serverErrorsAreRetriedThenReportedAsSuch() async throws {
        let flaky = try Throttler(throttling: 2, status: 500, code: "InternalError")
        defer { flaky.stop() }
        // The third try answers.
        try await S3Client(url: try flaky.url, credentials: AWSCredentials(accessKey: "k", secretKey: "s"), retries: 4).checkBucket()

        let broken = try Throttler(throttling: 10, status: 500, code: "InternalError")
        defer { broken.stop() }
        try await broken.expectGivingUp(with: .serverError, naming: "500 InternalError")
    }
}
