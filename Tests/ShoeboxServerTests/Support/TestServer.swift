import Foundation
import NIOCore
import NIOPosix
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

@testable import ShoeboxPicker
@testable import ShoeboxServer

/// A `PhotoLibraryServer` on a new library in a temporary folder, listening on a free port, with a few
/// generated photos; `stop()` ends it and removes the folder.
final class TestServer: @unchecked Sendable {
    // @unchecked: every property is set once in `start` and only read afterwards.
    let folder: URL
    let library: PhotoLibrary
    let server: PhotoLibraryServer
    private let running: Task<Void, any Error>
    let port: Int
    var http: RawHTTP { RawHTTP(port: port) }
    /// Identifiers of the generated photos, in the order made (oldest first).
    private(set) var photos: [String] = []

    private init(folder: URL, library: PhotoLibrary, server: PhotoLibraryServer, running: Task<Void, any Error>, port: Int) {
        self.folder = folder
        self.library = library
        self.server = server
        self.running = running
        self.port = port
    }

    /// Whether NIO's event loops are the process's global executor, as under `shoebox serve`:
    /// with `SHOEBOX_TEST_NIO_EXECUTOR=1` (scripts/test's first pass) the first server a test
    /// starts installs them, so every handler, and every blocking call a handler wrongly makes,
    /// runs on an event loop from then on. The executor stays for the rest of the process.
    static let servesOnEventLoops: Bool = {
        guard ProcessInfo.processInfo.environment["SHOEBOX_TEST_NIO_EXECUTOR"] == "1" else { return false }
        return NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }()

    /// - Parameters:
    ///   - objectStorage: Whether the library keeps its blobs in a fresh prefix of the test S3
    ///     bucket (SeaweedFS) instead of files.
    ///   - backgroundWork: How the library's changes do their work (on demand, unless a test is
    ///     about derivatives or jobs; `.queued` as `shoebox serve`).
    static func start(
        photos count: Int = 3, configuration: PhotoLibraryServer.Configuration = .init(port: 0),
        objectStorage: Bool = false, backgroundWork: PhotoLibrary.BackgroundWork = .onDemand
    ) async throws -> TestServer {
        _ = servesOnEventLoops
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let libraryURL = folder.appendingPathComponent("Server.shoebox")
        let library: PhotoLibrary
        if objectStorage {
            let blobs = try S3URL(try S3TestServer.freshBlobsURL())
            try await S3Client(url: blobs, credentials: try AWSCredentials.find()).createBucket()
            library = try await PhotoLibrary.create(at: libraryURL, configuration: .init(blobs: .s3(blobs), backgroundWork: backgroundWork))
        } else {
            library = try await PhotoLibrary.open(at: libraryURL, backgroundWork: backgroundWork)
        }
        var configuration = configuration
        configuration.port = 0
        let server = PhotoLibraryServer(library: library, configuration: configuration)
        let running = try await server.start()
        guard let port = server.port else { throw RawHTTP.Failure(description: "the server did not start") }
        let test = TestServer(folder: folder, library: library, server: server, running: running, port: port)
        for index in 0..<count { try await test.addPhoto(seed: UInt64(index + 1), daysAgo: Double(count - index)) }
        return test
    }

    /// Imports a generated 320×240 photo taken `daysAgo` days ago; returns its identifier.
    @discardableResult
    func addPhoto(seed: UInt64, daysAgo: Double = 0, width: Int = 320, height: Int = 240) async throws -> String {
        var metadata = ImageMetadata()
        metadata.make = "Shoebox"
        metadata.model = "Test"
        metadata.dateTimeOriginal = ImageMetadata.DateTime(Date().addingTimeInterval(-daysAgo * 86_400), timeZone: TimeZone(identifier: "UTC")!)
        let url = folder.appendingPathComponent("photo-\(seed).jpg")
        try SyntheticPhoto(width: width, height: height, seed: seed).image().writingMetadata(metadata)
            .write(to: url, options: ImageEncodingOptions(keepsMetadata: true))
        let result = try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }
        let id = result.created[0].localIdentifier
        photos.append(id)
        return id
    }

    /// Waits for the server's task to end (after ``PhotoLibraryServer/stop()``), with what it threw.
    func waitUntilStopped() async throws {
        try await running.value
    }

    func stop() {
        Self.stopInBackground(server, running)
        try? FileManager.default.removeItem(at: folder)
        // With SHOEBOX_CHECK_BLOCKING=1 (scripts/test's first pass): every blocking call a request
        // made on an event loop, in whichever module, fails the test (BlockingCheckTests' own
        // self-test requests excepted).
        for violation in BlockingCheck.takeViolations(where: { !$0.hasPrefix(BlockingCheckTests.selfTest) }) {
            Issue.record("\(violation)")
        }
    }

    /// Stops `server` gracefully, in the background (a `defer` cannot wait), and cancels its task
    /// only if a request outlives 10 s: cancelling at once can trap in SwiftNIO when a connection
    /// just accepted is still buffered (apple/swift-nio#3481), which a test that floods the server
    /// with connections makes likely.
    static func stopInBackground(_ server: PhotoLibraryServer, _ running: Task<Void, any Error>) {
        Task {
            await server.stop()
            let stopped = await withTimeout(.seconds(10)) { () -> Bool? in
                _ = try? await running.value
                return true
            }
            if stopped == nil { running.cancel() }
        }
    }

    // MARK: Callers

    /// As Shoebox's own tools: the key as a bearer token.
    /// The question from `client` waiting for the user's answer, once it waits
    /// (``RawHTTP/awaitPrompt(from:userKey:timeout:)``: woken by the user's event stream).
    func awaitPrompt(from client: String, timeout: Double = 60) async throws -> [String: Any] {
        try await http.awaitPrompt(from: client, userKey: server.userKey, timeout: timeout)
    }

    func user(_ method: String, _ path: String, json: Any? = nil, body: Data? = nil, headers: [String: String] = [:]) async throws -> RawHTTP.Response {
        var headers = headers
        headers["Authorization"] = "Bearer \(server.userKey)"
        return try await send(method, path, json: json, body: body, headers: headers)
    }

    /// As a client with `token`.
    func client(_ token: String, _ method: String, _ path: String, json: Any? = nil, body: Data? = nil, headers: [String: String] = [:]) async throws
        -> RawHTTP.Response
    {
        var headers = headers
        headers["Authorization"] = "Bearer \(token)"
        return try await send(method, path, json: json, body: body, headers: headers)
    }

    func send(_ method: String, _ path: String, json: Any? = nil, body: Data? = nil, headers: [String: String] = [:]) async throws -> RawHTTP.Response {
        var headers = headers
        var payload = body
        if let json {
            payload = try JSONSerialization.data(withJSONObject: json)
            headers["Content-Type"] = "application/json"
        }
        return try await http.send(method, path, headers: headers, body: payload)
    }

    /// Signs in as a browser does: the cookie from `/?key=`, and the CSRF token from the page.
    func browserSession() async throws -> (cookie: String, csrf: String) {
        let signIn = try await http.send("GET", "/?key=\(server.userKey)")
        let cookie = try (signIn.headers["set-cookie"]?.split(separator: ";").first.map(String.init)).orThrow("no cookie")
        let page = try await http.send("GET", "/", headers: ["Cookie": cookie])
        let marker = #"name="shoebox-csrf" content=""#
        let start = try (page.text.range(of: marker)).orThrow("no CSRF token in the page").upperBound
        let csrf = String(page.text[start...].prefix { $0 != "\"" })
        return (cookie, csrf)
    }

    /// Signs a person in with their password, as the sign-in page does: the session cookie, and
    /// the CSRF token from the page it opens.
    func personSession(name: String, password: String) async throws -> (cookie: String, csrf: String) {
        let signIn = try await send("POST", "/api/session", json: ["name": name, "password": password])
        guard signIn.status == 201 else { throw RawHTTP.Failure(description: "sign-in: \(signIn.status) \(signIn.text)") }
        let cookie = try (signIn.headers["set-cookie"]?.split(separator: ";").first.map(String.init)).orThrow("no cookie")
        let page = try await http.send("GET", "/", headers: ["Cookie": cookie])
        let marker = #"name="shoebox-csrf" content=""#
        let start = try (page.text.range(of: marker)).orThrow("no CSRF token in the page").upperBound
        return (cookie, String(page.text[start...].prefix { $0 != "\"" }))
    }

    /// Registers a client; returns its token.
    func register(
        _ identifier: String, usage: [String: String] = ["NSPhotoLibraryUsageDescription": "To show your photos", "NSCameraUsageDescription": "To take photos"]
    ) async throws -> String {
        let response = try await send(
            "POST", "/api/clients", json: ["identifier": identifier, "displayName": identifier.capitalized, "usageDescriptions": usage])
        guard response.status == 201 else { throw RawHTTP.Failure(description: "registration: \(response.status) \(response.text)") }
        return try (response.object()["token"] as? String).orThrow("no token")
    }

    static func escaped(_ identifier: String) -> String {
        identifier.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? identifier
    }
}

extension PhotoLibraryServer {
    /// How many clients wait (`?wait=S`) for picker session `id` on this server, as it changes:
    /// a test awaits the client's request before the user chooses, instead of sleeping.
    func timedWaits(onPickerSession id: String) async throws -> EventRecorder<Int> {
        let entry = try #require(try await state.pickers.entry(id), "no picker session \(id) on this server")
        return EventRecorder(entry.session.timedWaitUpdates)
    }
}
