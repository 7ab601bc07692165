import Foundation
import Synchronization

/// The S3-compatible store tests use: the one `scripts/test` started (`SHOEBOX_TEST_S3`, its
/// endpoint), or else SeaweedFS started with `scripts/s3` for this process and stopped when it
/// exits. Its one identity is ``accessKey`` / ``secretKey``. A test that needs it and cannot get
/// it fails; it never skips silently.
public enum S3TestServer {
    /// The access key id of the store's one identity, as ``endpoint()`` sets `AWS_ACCESS_KEY_ID`.
    public static let accessKey = "shoeboxtest"
    /// The secret key of the store's one identity, as ``endpoint()`` sets `AWS_SECRET_ACCESS_KEY`.
    public static let secretKey = "shoeboxtestsecret"
    private static let started = Mutex<Result<String, ChildProcess.Failure>?>(nil)

    /// Whether the library tests keep their blobs in S3 (`SHOEBOX_TEST_BLOBS=s3`) rather than
    /// files: `scripts/test` runs them both ways.
    public static var isBlobStoreUnderTest: Bool {
        ProcessInfo.processInfo.environment["SHOEBOX_TEST_BLOBS"] == "s3"
    }

    /// The endpoint, `http://127.0.0.1:PORT`; puts the identity into this process's environment
    /// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`) for the library and child processes.
    public static func endpoint() throws -> String {
        setenv("AWS_ACCESS_KEY_ID", accessKey, 1)
        setenv("AWS_SECRET_ACCESS_KEY", secretKey, 1)
        if let given = ProcessInfo.processInfo.environment["SHOEBOX_TEST_S3"], !given.isEmpty { return given }
        let result = started.withLock { current -> Result<String, ChildProcess.Failure> in
            if let current { return current }
            let outcome = Result { () throws(ChildProcess.Failure) -> String in try start() }
            current = outcome
            return outcome
        }
        return try result.get()
    }

    /// The bucket tests share (each test keeps its blobs under a prefix of its own: SeaweedFS
    /// gives every bucket volumes of its own, and a bucket per test would run out of them). The
    /// caller creates it, with ShoeboxLibrary's `S3Client`.
    public static let bucket = "shoebox-tests"

    /// An `s3://` URL naming a fresh prefix of ``bucket`` on the test store (for
    /// `shoebox init --blobs`, `S3URL(_:)`).
    public static func freshBlobsURL() throws -> String {
        "s3://\(bucket)/\(freshPrefix())?endpoint=\(try endpoint())&region=us-east-1"
    }

    /// A prefix for one test, `t-…`.
    public static func freshPrefix() -> String {
        "t-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(24)
    }

    private static func start() throws(ChildProcess.Failure) -> String {
        let script = Corpus.packageRoot().appendingPathComponent("scripts/s3").path
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-s3-test-\(UUID().uuidString)").path
        let run: ChildProcess.Result
        do {
            run = try ChildProcess.run(script, ["start", folder])
        } catch {
            throw ChildProcess.Failure("cannot run \(script): \(error)")
        }
        guard run.status == 0 else {
            throw ChildProcess.Failure("an S3 store is needed and could not be started (\(script) start): \(run.standardError)")
        }
        let first = toStop.withLock { list in
            list.append((script, folder))
            return list.count == 1
        }
        if first {
            atexit {
                for (script, folder) in S3TestServer.toStop.withLock({ $0 }) {
                    _ = try? ChildProcess.run(script, ["stop", folder], captureOutput: false)
                }
            }
        }
        return run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static let toStop = Mutex<[(String, String)]>([])
}
