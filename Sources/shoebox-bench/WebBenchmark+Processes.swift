import Foundation
import ShoeboxTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A child process that runs until stopped, started when a line matching `readyPattern` appears
/// on its standard output or error.
final class LongRunning: @unchecked Sendable {
    // @unchecked: `readyLine` is written once before `init` returns.
    let process = Process()
    private(set) var readyLine: String?

    init(_ program: String, _ arguments: [String], readyPattern: String, timeout: Double = 60) throws {
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let handle = output.fileHandleForReading
        var buffer = Data()
        let deadline = Date().addingTimeInterval(timeout)
        while readyLine == nil, Date() < deadline, process.isRunning {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            readyLine = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first { $0.contains(readyPattern) }.map(String.init)
        }
        guard readyLine != nil else {
            process.terminate()
            throw ChildProcess.Failure("\(program) did not start: \(String(decoding: buffer, as: UTF8.self))")
        }
        // Keep draining, so the child never blocks on a full pipe.
        handle.readabilityHandler = { _ = $0.availableData }
    }

    /// Asks the child to end (SIGTERM) and kills it after 3 s: chromedriver ignores SIGTERM.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// `shoebox serve` (the release build next to this benchmark) on a library.
final class ServerProcess: @unchecked Sendable {
    let running: LongRunning
    let port: Int
    let userURL: String
    let key = "web-benchmark"
    /// A library this process made for the server, removed by ``stop()``.
    private var madeFolder: URL?

    /// `shoebox serve` on a new, empty library in a temporary folder named after `purpose`
    /// (made with `shoebox init`); ``stop()`` removes it.
    convenience init(newLibraryFor purpose: String, extra: [String] = []) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-\(purpose)-\(UUID().uuidString)")
        let library = folder.appendingPathComponent("Bench.shoebox")
        let shoebox = URL(fileURLWithPath: BenchInput.executable).deletingLastPathComponent().appendingPathComponent("shoebox").path
        let made = try ChildProcess.run(shoebox, ["init", "--library", library.path])
        guard made.status == 0 else {
            try? FileManager.default.removeItem(at: folder)
            throw ChildProcess.Failure("shoebox init: \(made.standardError)")
        }
        do {
            try self.init(library: library, extra: extra)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        madeFolder = folder
    }

    init(library: URL, extra: [String] = []) throws {
        let shoebox = URL(fileURLWithPath: BenchInput.executable).deletingLastPathComponent().appendingPathComponent("shoebox").path
        running = try LongRunning(shoebox, ["serve", "--library", library.path, "--port", "0", "--json", "--key", key] + extra, readyPattern: "\"url\"")
        let ready = try JSONSerialization.jsonObject(with: Data((running.readyLine ?? "").utf8)) as? [String: Any]
        guard let port = ready?["port"] as? Int, let url = ready?["url"] as? String else {
            throw ChildProcess.Failure("shoebox serve said \(running.readyLine ?? "")")
        }
        self.port = port
        userURL = url
    }

    func get(_ path: String) async throws -> Data {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw ChildProcess.Failure("GET \(path): \((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: data, as: UTF8.self))")
        }
        return data
    }

    func getJSON(_ path: String) async throws -> [String: Any] {
        try (JSONSerialization.jsonObject(with: try await get(path)) as? [String: Any]) ?? [:]
    }

    /// The versioned 256 px grid thumbnail URL of every asset, as the web app's grid asks for them.
    func gridThumbnailPaths() async throws -> [String] {
        var paths: [String] = []
        var after: String?
        repeat {
            let query = "/api/assets?limit=500" + (after.map { "&after=\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)" } ?? "")
            let page = try await getJSON(query)
            for asset in page["assets"] as? [[String: Any]] ?? [] {
                let id = (asset["localIdentifier"] as? String ?? "").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                paths.append("/api/assets/\(id)/thumbnail?size=256&mode=fill&v=\(asset["version"] as? String ?? "")")
            }
            after = page["next"] as? String
        } while after != nil
        return paths
    }

    func stop() {
        running.stop()
        if let madeFolder { try? FileManager.default.removeItem(at: madeFolder) }
    }
}

/// nginx serving a folder of files, the reference for thumbnail throughput.
final class NginxProcess {
    let folder: URL
    let port: Int
    let running: LongRunning

    /// nginx serving `root`; with `acceptsPuts`, also taking files by WebDAV `PUT /put/NAME`
    /// into `root/put/` (the body buffered in a temporary file beside them, then renamed).
    init(root: URL, acceptsPuts: Bool = false) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try Self.freePort()
        let configuration = folder.appendingPathComponent("nginx.conf")
        // A library folder is private to its owner (0700): nginx's workers must run as that owner
        // to read the derivatives (the directive only counts when nginx starts as root).
        let user = geteuid() == 0 ? "user root root;\n" : ""
        try """
        \(user)worker_processes auto;
        pid \(folder.path)/nginx.pid;
        error_log stderr warn;
        events { worker_connections 4096; }
        http {
          access_log off;
          sendfile on;
          tcp_nopush on;
          keepalive_requests 100000;
          default_type image/jpeg;
          client_body_temp_path \(folder.path)/body;
          proxy_temp_path \(folder.path)/proxy;
          fastcgi_temp_path \(folder.path)/fastcgi;
          uwsgi_temp_path \(folder.path)/uwsgi;
          scgi_temp_path \(folder.path)/scgi;
          server {
            listen 127.0.0.1:\(port);
            root \(root.path);
            location / { add_header Cache-Control "private, max-age=31536000, immutable"; }
            \(acceptsPuts ? "location /put/ { dav_methods PUT; create_full_put_path on; client_max_body_size 0; client_body_temp_path \(root.path)/.body; }" : "")
          }
        }
        """.write(to: configuration, atomically: true, encoding: .utf8)
        // nginx says nothing when it starts well: the ready line is the banner of `-t` style checks
        // we do not get, so wait for the port instead.
        running = try LongRunning("/bin/sh", ["-c", "echo starting; exec nginx -c \(configuration.path) -g 'daemon off;'"], readyPattern: "starting")
        for _ in 0..<100 {
            if (try? Self.connect(port)) == true { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw ChildProcess.Failure("nginx did not listen on \(port)")
    }

    func stop() {
        running.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw ChildProcess.Failure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func connect(_ port: Int) throws -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// Just enough of the WebDriver protocol (chromedriver) to load a page and read a value.
struct WebDriver {
    let port: Int

    private func call(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> Any? {
        // A plain socket client: FoundationNetworking's URLSession never returned chromedriver's
        // answer to POST /session here (the benchmark hung with the browser open).
        let http = RawHTTP(port: port)
        let response =
            if let body {
                try await http.send(method, path, json: body, headers: [:])
            } else {
                try await http.send(method, path, timeout: 120)
            }
        let answer = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        if let value = answer?["value"] as? [String: Any], let error = value["error"] as? String {
            throw ChildProcess.Failure("WebDriver \(path): \(error) \(value["message"] as? String ?? "")")
        }
        return answer?["value"]
    }

    func newSession(chromium: String) async throws -> String {
        let arguments = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900"]
        let value =
            try await call(
                "POST", "/session",
                [
                    "capabilities": [
                        "alwaysMatch": [
                            "browserName": "chrome", "goog:chromeOptions": ["binary": chromium, "args": arguments],
                        ]
                    ]
                ]) as? [String: Any]
        guard let id = value?["sessionId"] as? String else { throw ChildProcess.Failure("no WebDriver session") }
        return id
    }

    func navigate(_ session: String, to url: String) async throws {
        _ = try await call("POST", "/session/\(session)/url", ["url": url])
    }

    func execute(_ session: String, _ script: String) async throws -> Any? {
        try await call("POST", "/session/\(session)/execute/sync", ["script": script, "args": [Any]()])
    }

    /// Runs `script` until it calls its last argument back; at most 50 s.
    func executeAsync(_ session: String, _ script: String) async throws -> Any? {
        _ = try await call("POST", "/session/\(session)/timeouts", ["script": 50_000])
        return try await call("POST", "/session/\(session)/execute/async", ["script": script, "args": [Any]()])
    }

    func deleteSession(_ session: String) async throws {
        _ = try await call("DELETE", "/session/\(session)", nil)
    }
}

/// wrk over a list of paths requested in turn.
enum Wrk {
    /// Requests per second wrk reached over `paths`, in turn, with `header` (`Name: value`) on
    /// each. Every answer must be 2xx, or with `expect` have exactly that status.
    static func requestsPerSecond(
        port: Int, paths: [String], header: String?, connections: Int, seconds: Int,
        expect: String? = nil
    ) throws -> Double {
        try run(port: port, paths: paths, header: header, connections: connections, seconds: seconds, expect: expect).requestsPerSecond
    }

    /// What one wrk run reached: requests per second and requests answered in all.
    struct Outcome {
        var requestsPerSecond: Double
        var requests: Int
    }

    /// One wrk run over `paths` (see ``requestsPerSecond(port:paths:header:connections:seconds:expect:)``).
    static func run(
        port: Int, paths: [String], header: String?, connections: Int, seconds: Int,
        expect: String? = nil
    ) throws -> Outcome {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-wrk-\(UUID().uuidString).lua")
        defer { try? FileManager.default.removeItem(at: script) }
        let list = paths.map { "\"\($0)\"" }.joined(separator: ",\n")
        let headers =
            header.map { text -> String in
                let parts = text.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                return "{[\"\(parts[0])\"] = \"\(parts[1])\"}"
            } ?? "{}"
        var lua = """
            local paths = {\(list)}
            local i = 0
            request = function()
              i = i % #paths + 1
              return wrk.format("GET", paths[i], \(headers))
            end

            """
        if let expect {
            lua += """
                local wrong = 0
                response = function(status, headers, body)
                  if tostring(status) ~= "\(expect)" then wrong = wrong + 1 end
                end
                done = function(summary, latency, requests)
                  io.write("wrong statuses: " .. wrong .. "\\n")
                end

                """
        }
        try lua.write(to: script, atomically: true, encoding: .utf8)
        let result = try ChildProcess.run("wrk", ["-t2", "-c\(connections)", "-d\(seconds)s", "-s", script.path, "http://127.0.0.1:\(port)"])
        guard result.status == 0,
            let line = result.standardOutput.split(separator: "\n").first(where: { $0.contains("Requests/sec:") }),
            let value = Double(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)),
            let total = result.standardOutput.split(separator: "\n").first(where: { $0.contains(" requests in ") }),
            let requests = Int(total.split(separator: " ").first ?? "")
        else {
            throw ChildProcess.Failure("wrk failed: \(result.standardOutput) \(result.standardError)")
        }
        if let expect {
            // wrk's `response` runs per thread: each prints its own count.
            let wrong = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("wrong statuses: ") && !$0.hasSuffix(": 0") }
            guard wrong.isEmpty else { throw ChildProcess.Failure("wrk saw answers other than \(expect): \(result.standardOutput)") }
        } else if result.standardOutput.contains("Non-2xx") {
            throw ChildProcess.Failure("wrk saw errors: \(result.standardOutput)")
        }
        return Outcome(requestsPerSecond: value, requests: requests)
    }
}
