import Foundation
import ShoeboxLibrary
import ShoeboxTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `shoebox serve` as a child process on a temporary library, for the upload batteries: uploads
/// (plain and resumable) and raw socket exchanges that lie about their length or hang up, a
/// tally of every answer, and at the end the checks
/// that nothing was left behind.
///
/// The server's `TMPDIR` is a folder of the test's own, so whatever it (or libvips, or ffmpeg)
/// leaves in a temporary folder is seen.
final class BatteryServer: @unchecked Sendable {
    // @unchecked: the tally is behind a Mutex; everything else is set once in `init`.
    let folder: URL
    let libraryURL: URL
    let temporaryFolder: URL
    let key = "bad-upload-battery"
    let command: BackgroundCommand
    let port: Int
    let http: RawHTTP

    /// One answer the server gave.
    struct Answer: Sendable {
        let kind: String
        let name: String
        let status: Int
        let code: String?
        let message: String?
        let body: Data
    }

    private let answers = Mutex<[Answer]>([])
    /// SHA-256 of every body the server refused.
    private let refused = Mutex<Set<String>>([])

    init(extraArguments: [String] = []) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-battery-\(UUID().uuidString)")
        libraryURL = folder.appendingPathComponent("Battery.shoebox")
        temporaryFolder = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
        let made = try CLIRunner.run(["init", "--library", libraryURL.path])
        guard made.status == 0 else { throw ChildProcess.Failure("init failed: \(made.standardError)") }
        command = try BackgroundCommand(
            ["serve", "--library", libraryURL.path, "--port", "0", "--json", "--key", key] + extraArguments,
            environment: ["TMPDIR": temporaryFolder.path])
        let ready = try await command.line(containing: #""port""#)
        let object = try JSONSerialization.jsonObject(with: Data(ready.utf8)) as? [String: Any]
        port = try (object?["port"] as? Int).orThrow("serve printed no port: \(ready)")
        http = RawHTTP(port: port)
    }

    deinit {
        command.interrupt()
        try? FileManager.default.removeItem(at: folder)
    }

    var authorization: [String: String] { ["Authorization": "Bearer \(key)"] }

    // MARK: Uploads

    /// `POST /api/assets?filename=NAME` with `data` as the body.
    @discardableResult
    func upload(_ data: Data, filename: String, kind: String) async throws -> Answer {
        let path = "/api/assets?filename=" + (filename.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "upload")
        let response = try await http.send("POST", path, headers: authorization, body: data, timeout: 300)
        return await record(response.status, response.body, kind: kind, name: filename, sent: data)
    }

    /// The same file through `POST /api/uploads` and `PUT /api/uploads/ID?offset=N` in two
    /// pieces; a refused import's upload is then deleted (as the web app does), which must
    /// leave nothing.
    @discardableResult
    func resumableUpload(_ data: Data, filename: String, kind: String) async throws -> Answer {
        let begun = try await http.send("POST", "/api/uploads", json: ["filename": filename, "size": data.count], headers: authorization)
        guard begun.status == 201 else { return await record(begun.status, begun.body, kind: kind, name: filename, sent: data) }
        let id = try (try begun.object()["id"] as? String).orThrow("no upload id: \(begun.text)")
        let path = "/api/uploads/" + (id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id)
        let half = data.count / 2
        var last: RawHTTP.Response?
        for (offset, piece) in [(0, data.prefix(half)), (half, data.dropFirst(half))] where !piece.isEmpty {
            last = try await http.send("PUT", "\(path)?offset=\(offset)", headers: authorization, body: Data(piece), timeout: 300)
            guard last?.status == 200 else { break }
        }
        let response = try last.orThrow("nothing was sent for \(filename)")
        let answer = await record(response.status, response.body, kind: kind, name: filename, sent: data)
        if response.status >= 400 {
            let deleted = try await http.send("DELETE", path, headers: authorization)
            #expect(deleted.status == 204, "deleting the refused upload \(filename): \(deleted.status) \(deleted.text)")
        }
        return answer
    }

    /// Records an answer; a refusal's body hash goes on the list of what must not be an asset.
    @discardableResult
    func record(_ status: Int, _ body: Data, kind: String, name: String, sent: Data?) async -> Answer {
        let error = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? [String: Any]
        let answer = Answer(kind: kind, name: name, status: status, code: error?["code"] as? String, message: error?["message"] as? String, body: body)
        answers.withLock { $0.append(answer) }
        if status >= 400, let sent, let hash = await Self.sha256(sent) { refused.withLock { _ = $0.insert(hash) } }
        return answer
    }

    var allAnswers: [Answer] { answers.withLock { $0 } }
    var refusedHashes: Set<String> { refused.withLock { $0 } }

    /// Statuses per kind of upload: `truncation: 422×75, 201×3`.
    var tally: String {
        let grouped = Dictionary(grouping: allAnswers, by: \.kind)
        return grouped.keys.sorted().map { kind in
            let statuses = Dictionary(grouping: grouped[kind]!, by: \.status).mapValues(\.count)
            return "\(kind): " + statuses.keys.sorted().map { "\($0)×\(statuses[$0]!)" }.joined(separator: ", ")
        }.joined(separator: "; ")
    }

    /// The SHA-256 of `data`, as the library names originals.
    static func sha256(_ data: Data) async -> String? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("battery-hash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        guard (try? data.write(to: file)) != nil else { return nil }
        return await PhotoLibrary.contentHash(of: file)
    }

    // MARK: Raw exchanges

    /// Sends `bytes` on a fresh connection and reads what comes back until the server closes or
    /// `timeout` passes. `shutdownWrite`: half-close after sending (the server sees the end of
    /// the body); `hangUp`: close at once without reading (a client that disconnects).
    func exchange(_ bytes: Data, shutdownWrite: Bool = false, hangUp: Bool = false, timeout: Double = 60) async throws -> Data {
        let port = self.port
        return try await RawHTTP.offThePool {
            let socket = try RawHTTP(port: port).connect(timeout: timeout)
            defer { close(socket) }
            try bytes.withUnsafeBytes { buffer in
                var sent = 0
                while sent < buffer.count {
                    let count = send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                    guard count > 0 else { throw RawHTTP.Failure(description: "send: \(errno)") }
                    sent += count
                }
            }
            if hangUp { return Data() }
            if shutdownWrite { shutdown(socket, Int32(SHUT_WR)) }
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = recv(socket, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                received.append(buffer, count: count)
            }
            return received
        }
    }

    /// A request head for a raw exchange.
    func head(_ method: String, _ path: String, contentLength: Int) -> Data {
        Data(
            ("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(key)\r\n"
                + "Content-Length: \(contentLength)\r\nConnection: close\r\n\r\n").utf8)
    }

    /// The first response in `data`: its status and body (by its `Content-Length`).
    static func firstResponse(_ data: Data) -> (status: Int, body: Data)? {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        let length =
            lines.dropFirst().compactMap { line -> Int? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }.first ?? 0
        let body = data[split.upperBound...].prefix(length)
        return (status, Data(body))
    }

    // MARK: The library

    /// The content hashes of every asset (trashed and hidden too).
    func assetHashes() async throws -> [String] {
        var hashes: [String] = []
        var after: String?
        repeat {
            var path = "/api/assets?limit=1000"
            if let after { path += "&after=" + (after.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? after) }
            let page = try await http.send("GET", path, headers: authorization)
            guard page.status == 200 else { throw RawHTTP.Failure(description: "listing assets: \(page.status) \(page.text)") }
            let object = try page.object()
            hashes += ((object["assets"] as? [[String: Any]]) ?? []).compactMap { $0["contentHash"] as? String }
            after = object["next"] as? String
        } while after != nil
        return hashes
    }

    /// Waits until no background job is queued or running (thumbnails and previews made).
    func waitForJobs(timeout: Double = 300) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        var tag = ""
        while Date() < deadline {
            // A long poll: the server answers when the jobs change (or after 30 s).
            let jobs = try await http.send("GET", "/api/jobs?wait=30&since=\(tag)", headers: authorization, timeout: 60)
            let listing = try jobs.object()
            if listing["open"] as? Int == 0 { return }
            tag = listing["tag"] as? String ?? ""
        }
        throw RawHTTP.Failure(description: "background jobs were still open after \(timeout) s")
    }

    // MARK: The end

    /// What the server wrote on standard error about internal errors (a `500`, even one no
    /// client saw because it had hung up).
    var internalErrors: [String] {
        command.standardError.split(separator: "\n").filter { $0.contains("internal error") }.map(String.init)
    }

    /// The server still answers; then it stops, and the library is checked as the next process
    /// sees it: `doctor --deep` ok without repair, `staging/` and the resumable uploads' pieces
    /// empty, no temporary derivative, and nothing in the server's temporary folder.
    func stopAndCheckNothingIsLeft(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let health = try await http.send("GET", "/api/health")
        #expect(health.status == 200, "the server no longer answers /api/health: \(health.status)", sourceLocation: sourceLocation)
        #expect(internalErrors.isEmpty, "the server logged internal errors: \(internalErrors)", sourceLocation: sourceLocation)
        command.interrupt()
        let status = try await command.waitForExit(timeout: 60)
        #expect(status == 0, "serve exited with \(status): \(command.standardError.suffix(2_000))", sourceLocation: sourceLocation)
        #expect(
            entries(in: libraryURL.appendingPathComponent("staging")).isEmpty,
            "left in staging/: \(entries(in: libraryURL.appendingPathComponent("staging")))", sourceLocation: sourceLocation)
        #expect(
            entries(in: libraryURL.appendingPathComponent("uploads")).isEmpty,
            "left of resumable uploads: \(entries(in: libraryURL.appendingPathComponent("uploads")))", sourceLocation: sourceLocation)
        let halfMade = files(in: libraryURL.appendingPathComponent("derivatives")).filter { ($0 as NSString).lastPathComponent.hasPrefix(".") }
        #expect(halfMade.isEmpty, "temporary derivatives left: \(halfMade)", sourceLocation: sourceLocation)
        #expect(entries(in: temporaryFolder).isEmpty, "left in the server's TMPDIR: \(entries(in: temporaryFolder))", sourceLocation: sourceLocation)
        let doctor = try CLIRunner.run(["doctor", "--library", libraryURL.path, "--deep", "--json"])
        #expect(
            doctor.status == 0 && doctor.standardOutput.contains(#""ok" : true"#),
            "doctor: \(doctor.standardOutput) \(doctor.standardError)", sourceLocation: sourceLocation)
    }

    func entries(in folder: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    func files(in folder: URL) -> [String] {
        (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
    }
}
