import ArgumentParser
import Foundation
import ShoeboxLibrary
import ShoeboxTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `shoebox-bench load`: a warm thumbnail and `/api/health` while a client floods the server
/// with cold renders of 24 MP photos.
struct LoadBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "A warm thumbnail's p99 and /api/health's latency while a client asks for many cold renders of 24 MP photos.",
        discussion: """
            Imports --photos generated 24 MP JPEGs (made once into .build/bench-input) into a fresh \
            library and serves it. The user's warm 256 px grid thumbnail is measured with wrk \
            (--connections, --seconds, latency distribution) with the server idle. Then a registered, \
            authorized client keeps --sizes requests in flight, each for a size of a photo never \
            rendered before (cold renders; turned away busy, it waits a second): /api/health is \
            asked every 50 ms for --seconds, on a new connection each time, and then the warm \
            thumbnail is measured with wrk again. \
            Targets: warm p99 < 20 ms and /api/health < 20 ms however many renders are queued. \
            Needs wrk (scripts/install-deps --bench).
            """)

    @Option(help: "24 MP photos to render.") var photos = 2
    @Option(help: "Cold render requests the client keeps in flight.") var sizes = 100
    @Option(help: "Seconds of wrk per measurement.") var seconds = 10
    @Option(help: "Connections wrk keeps open.") var connections = 16
    @Flag(help: "Print JSON.") var json = false

    struct Report: Encodable {
        var idleWarmP50Milliseconds = 0.0
        var idleWarmP99Milliseconds = 0.0
        var loadedWarmP50Milliseconds = 0.0
        var loadedWarmP99Milliseconds = 0.0
        var loadedWarmRequestsPerSecond = 0.0
        var healthP50Milliseconds = 0.0
        var healthP99Milliseconds = 0.0
        var healthMaxMilliseconds = 0.0
        var healthRequests = 0
        var coldRendersAnswered = 0
        var coldRendersBusy = 0
    }

    func run() async throws {
        guard which("wrk") != nil else { throw ChildProcess.Failure("wrk is missing: run scripts/install-deps --bench") }
        var report = Report()
        let files = try BenchInput.generatedJPEGs(count: photos, megapixels: 24, quiet: json).map { URL(fileURLWithPath: $0) }
        let folder = Corpus.packageRoot().appendingPathComponent(".build/bench-input/load")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let libraryURL = folder.appendingPathComponent("Load.shoebox")
        let library = try await PhotoLibrary.open(at: libraryURL, backgroundWork: .onDemand)
        try await BenchInput.importFiles(files, into: library)
        await library.close()

        let server = try ServerProcess(library: libraryURL, extra: ["--no-worker"])
        defer { server.stop() }
        let page = try await server.getJSON("/api/assets?limit=100")
        let assets = (page["assets"] as? [[String: Any]]) ?? []
        guard let first = assets.first, let id = first["localIdentifier"] as? String, let version = first["version"] as? String else {
            throw ChildProcess.Failure("the server listed no assets: \(page)")
        }
        let warm = "/api/assets/\(Self.escape(id))/thumbnail?size=256&mode=fill&v=\(version)"
        _ = try await server.get(warm)
        _ = try await server.get(warm)

        note("the warm thumbnail, server idle")
        (report.idleWarmP50Milliseconds, report.idleWarmP99Milliseconds, _) = try wrk(port: server.port, path: warm, key: server.key)

        // A client with access to the library.
        let token = try await register(server)
        // As many connections as requests in flight: the server, not the client, queues them.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = sizes
        configuration.timeoutIntervalForRequest = 600
        let session = URLSession(configuration: configuration)
        let flood = Task { () -> (answered: Int, busy: Int) in
            await withTaskGroup(of: Int.self) { group in
                var answered = 0
                var busy = 0
                var next = 0
                func add() {
                    let asset = assets[next % assets.count]
                    let path = "/api/assets/\(Self.escape(asset["localIdentifier"] as? String ?? ""))/thumbnail?size=\(300 + next)&mode=fit"
                    next += 1
                    group.addTask {
                        let status = await Self.status(port: server.port, path: path, token: token, session: session)
                        // Turned away (503 busy): a client waits a moment before asking again.
                        if status == 503 { try? await Task.sleep(for: .seconds(1)) }
                        return status
                    }
                }
                for _ in 0..<sizes { add() }
                for await status in group {
                    if status == 200 { answered += 1 } else if status == 503 { busy += 1 }
                    if Task.isCancelled { continue }
                    add()
                }
                return (answered, busy)
            }
        }
        try await Task.sleep(for: .seconds(2))  // renders queued and running
        // /api/health with the renders queued (on its own, then the warm thumbnail under wrk:
        // wrk alone fills the event loops).
        note("/api/health every 50 ms for \(seconds) s while a client keeps \(sizes) cold renders in flight")
        var times: [Double] = []
        let healthEnd = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < healthEnd {
            let start = ContinuousClock.now
            // Its own connection each time (not URLSession's, whose connections the flood holds).
            _ = try? await RawHTTP(port: server.port).send("GET", "/api/health")
            times.append(Double((ContinuousClock.now - start) / .microseconds(1)) / 1_000)
            try? await Task.sleep(for: .milliseconds(50))
        }
        note("the warm thumbnail while a client keeps \(sizes) cold renders in flight")
        (report.loadedWarmP50Milliseconds, report.loadedWarmP99Milliseconds, report.loadedWarmRequestsPerSecond) = try wrk(
            port: server.port, path: warm, key: server.key)
        flood.cancel()
        times.sort()
        let outcome = await flood.value
        report.coldRendersAnswered = outcome.answered
        report.coldRendersBusy = outcome.busy
        report.healthRequests = times.count
        if !times.isEmpty {
            report.healthP50Milliseconds = times[times.count / 2]
            report.healthP99Milliseconds = times[min(times.count - 1, times.count * 99 / 100)]
            report.healthMaxMilliseconds = times.last ?? 0
        }
        if json {
            try BenchOutput.print(report)
        } else {
            print(
                String(
                    format: "warm thumbnail: idle p50 %.2f ms, p99 %.2f ms; with %d cold renders in flight p50 %.2f ms, p99 %.2f ms (%.0f req/s)",
                    report.idleWarmP50Milliseconds, report.idleWarmP99Milliseconds, sizes, report.loadedWarmP50Milliseconds,
                    report.loadedWarmP99Milliseconds, report.loadedWarmRequestsPerSecond))
            print(
                String(
                    format: "/api/health under load: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d requests); cold renders answered %d, refused busy %d",
                    report.healthP50Milliseconds, report.healthP99Milliseconds, report.healthMaxMilliseconds, report.healthRequests,
                    report.coldRendersAnswered, report.coldRendersBusy))
        }
    }

    func note(_ text: String) { if !json { Progress.note(text) } }

    static func escape(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? id
    }

    static func status(port: Int, path: String, token: String?, session: URLSession) async -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.timeoutInterval = 300
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        guard let (_, response) = try? await session.data(for: request) else { return 0 }
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// Registers a client and gives it access to the whole library; returns its token.
    func register(_ server: ServerProcess) async throws -> String {
        func send(_ method: String, _ path: String, _ body: [String: Any], bearer: String) async throws -> [String: Any] {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!)
            request.httpMethod = method
            request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            let (data, response) = try await URLSession.shared.data(for: request)
            guard let status = (response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status) else {
                throw ChildProcess.Failure("\(method) \(path): \(String(decoding: data, as: UTF8.self))")
            }
            return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        }
        let registered = try await send(
            "POST", "/api/clients",
            [
                "identifier": "com.example.flood", "displayName": "Flood",
                "usageDescriptions": ["NSPhotoLibraryUsageDescription": "To render many sizes"],
            ],
            bearer: server.key)
        guard let token = registered["token"] as? String else { throw ChildProcess.Failure("no token: \(registered)") }
        _ = try await send("PUT", "/api/clients/com.example.flood/services/photoLibrary", ["status": "authorized"], bearer: server.key)
        return token
    }

    /// wrk with its latency distribution: p50 and p99 in milliseconds, and requests per second.
    func wrk(port: Int, path: String, key: String) throws -> (Double, Double, Double) {
        let result = try ChildProcess.run(
            "wrk",
            [
                "-t2", "-c\(connections)", "-d\(seconds)s", "--latency", "-H", "Authorization: Bearer \(key)",
                "http://127.0.0.1:\(port)\(path)",
            ])
        let lines = result.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func percentile(_ name: String) -> Double? {
            guard let line = lines.first(where: { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "\t") }) else { return nil }
            return Self.milliseconds(String(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last ?? ""))
        }
        guard result.status == 0, let p50 = percentile("50%"), let p99 = percentile("99%"),
            let rate = lines.first(where: { $0.hasPrefix("Requests/sec:") }).flatMap({
                Double($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
            })
        else { throw ChildProcess.Failure("wrk failed: \(result.standardOutput) \(result.standardError)") }
        if result.standardOutput.contains("Non-2xx") { throw ChildProcess.Failure("wrk saw errors: \(result.standardOutput)") }
        return (p50, p99, rate)
    }

    static func milliseconds(_ text: String) -> Double? {
        for (unit, factor) in [("us", 0.001), ("ms", 1.0), ("s", 1_000.0), ("m", 60_000.0)] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).map { $0 * factor }
        }
        return nil
    }
}
