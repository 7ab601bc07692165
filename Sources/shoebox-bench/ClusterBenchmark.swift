import ArgumentParser
import Foundation
import ShoeboxLibrary
import ShoeboxTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `shoebox-bench cluster`: uploads through several servers, thumbnails by several workers, on
/// one PostgreSQL catalog and one bucket.
struct ClusterBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Uploads over HTTP to servers, thumbnails by workers: 1 server + 1 worker, then 2 + 2, on PostgreSQL and S3.",
        discussion: """
            Starts PostgreSQL (scripts/postgres in .build/bench-input/cluster/pg) and SeaweedFS \
            (scripts/s3 in .build/bench-input/cluster/s3), both halted at the end. For each \
            layout in --layouts (SERVERS+WORKERS): a fresh database and bucket prefix, a library \
            folder per server made with `shoebox init`, the servers (`shoebox serve --no-worker`, \
            release build beside this benchmark) and workers (`shoebox worker`, default \
            concurrency); then --uploaders clients POST --photos 12 MP JPEGs (--distinct \
            generated ones, and copies of them with bytes appended after the image, distinct \
            files to the library at the same decoding cost) to \
            /api/assets, spread over the servers in turn. Measured: uploads per second, and the \
            time from the first upload until no derivatives job is queued or running (every \
            grid thumbnail and preview made, in the bucket). The floor: vipsthumbnail making the \
            same two sizes (1024 px fit, 256 px fill) of the same files, two at a time (the \
            cores). Target: with 2 + 2, thumbnails done within 1.1× the floor. Then the queue's \
            own figures on the same PostgreSQL: claim latency p50/p99 at --queued jobs and \
            no-op jobs per second (as shoebox-bench jobs). Targets: p99 under 20 ms at 10,000; \
            at least 2,000 no-op jobs/s.
            """)

    @Option(help: "Photos uploaded per layout.") var photos = 500
    @Option(help: "Of those, generated photos; the rest are copies of them made distinct.") var distinct = 64
    @Option(help: "Layouts to run, SERVERS+WORKERS, comma-separated.") var layouts = "1+1,2+2"
    @Option(help: "Uploads in flight at once.") var uploaders = 8
    @Option(help: "Jobs each worker runs at once (default: shoebox worker's, the cores).") var workerConcurrency: Int?
    @Option(help: "Jobs queued for the claim-latency measurement.") var queued = 10_000
    @Flag(help: "Skip the vipsthumbnail floor.") var skipFloor = false
    @Flag(help: "Skip the queue's claim latency and no-op rate.") var skipQueue = false
    @Flag(help: "Print JSON.") var json = false

    struct Layout: Encodable {
        var servers = 0
        var workers = 0
        var uploadSeconds = 0.0
        var uploadsPerSecond = 0.0
        var thumbnailsDoneSeconds = 0.0
        var ratioToFloor: Double?
    }

    struct Report: Encodable {
        var photos = 0
        var megabytesPerPhoto = 0.0
        var layouts: [Layout] = []
        var floorSeconds: Double?
        var claimP50Milliseconds: Double?
        var claimP99Milliseconds: Double?
        var noopJobsPerSecond: Double?
    }

    var folder: URL { Corpus.packageRoot().appendingPathComponent(".build/bench-input/cluster") }
    var shoebox: String { URL(fileURLWithPath: BenchInput.executable).deletingLastPathComponent().appendingPathComponent("shoebox").path }

    func run() async throws {
        let plans = try layouts.split(separator: ",").map { text -> (Int, Int) in
            let parts = text.split(separator: "+").compactMap { Int($0) }
            guard parts.count == 2, parts[0] >= 1, parts[1] >= 1 else { throw ValidationError("a layout is SERVERS+WORKERS, as 2+2: not \(text)") }
            return (parts[0], parts[1])
        }
        guard photos >= 1, uploaders >= 1 else { throw ValidationError("--photos and --uploaders must be at least 1") }
        let files = try inputs()
        var report = Report(photos: files.count)
        let bytes = files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1.path)[.size] as? Int) ?? 0) }
        report.megabytesPerPhoto = Double(bytes) / Double(files.count) / 1e6

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cluster = folder.appendingPathComponent("pg").path
        let started = try ChildProcess.run(CatalogFixture.postgresScript, ["start", cluster])
        guard started.status == 0 else { throw ChildProcess.Failure("cannot start PostgreSQL: \(started.standardError)") }
        defer { _ = try? ChildProcess.run(CatalogFixture.postgresScript, ["halt", cluster], captureOutput: false) }
        let admin = started.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let store = try SeaweedFS(endpoint: nil, folder: folder.appendingPathComponent("s3"))
        defer { store.stop() }
        setenv("AWS_ACCESS_KEY_ID", ProcessInfo.processInfo.environment["AWS_ACCESS_KEY_ID"] ?? S3TestServer.accessKey, 1)
        setenv("AWS_SECRET_ACCESS_KEY", ProcessInfo.processInfo.environment["AWS_SECRET_ACCESS_KEY"] ?? S3TestServer.secretKey, 1)

        if !skipFloor { report.floorSeconds = try floor(files) }
        for (servers, workers) in plans {
            var layout = try await measure(files: files, servers: servers, workers: workers, admin: admin, store: store)
            layout.ratioToFloor = report.floorSeconds.map { layout.thumbnailsDoneSeconds / $0 }
            report.layouts.append(layout)
            if !json {
                print(
                    String(
                        format: "%d server%@ + %d worker%@: %d uploads in %.1f s (%.1f/s); every thumbnail %.1f s after the first upload%@",
                        servers, servers == 1 ? "" : "s", workers, workers == 1 ? "" : "s", files.count, layout.uploadSeconds,
                        layout.uploadsPerSecond, layout.thumbnailsDoneSeconds,
                        layout.ratioToFloor.map { String(format: " (%.2f× the floor)", $0) } ?? ""))
            }
        }
        if !skipQueue {
            note("the queue on the same PostgreSQL: \(queued) jobs queued")
            let library = try await PhotoLibrary.create(
                at: folder.appendingPathComponent("queue-\(UUID().uuidString.prefix(8)).shoebox"),
                configuration: .init(catalog: .postgres(try freshDatabase(admin: admin))))
            let jobs = try JobsBenchmark.parse(["--queued", "\(queued)"])
            let engine = try await jobs.measure(library)
            report.claimP50Milliseconds = engine.claimP50Milliseconds
            report.claimP99Milliseconds = engine.claimP99Milliseconds
            report.noopJobsPerSecond = engine.noopJobsPerSecond
            await library.close()
            if !json {
                print(
                    String(
                        format: "queue: claim p50 %.2f ms, p99 %.2f ms at %d queued; %.0f no-op jobs/s",
                        engine.claimP50Milliseconds, engine.claimP99Milliseconds, queued, engine.noopJobsPerSecond))
            }
        }
        if !json, let floor = report.floorSeconds {
            print(String(format: "floor: vipsthumbnail, 1024 px and 256 px of each, two at a time: %.1f s", floor))
        }
        if json { try BenchOutput.print(report) }
    }

    func note(_ text: String) { if !json { Progress.note(text) } }

    /// --photos distinct JPEG files: --distinct generated 12 MP photos (a few seconds each to
    /// make), and copies of them with a few bytes after the end of the image, which make them
    /// other files to the library (another SHA-256) that cost the same to decode.
    func inputs() throws -> [URL] {
        let generated = try BenchInput.generatedJPEGs(count: min(distinct, photos), megapixels: 12, quiet: json).map { URL(fileURLWithPath: $0) }
        guard photos > generated.count else { return generated }
        let copies = folder.appendingPathComponent("copies")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        var files = generated
        for index in generated.count..<photos {
            let url = copies.appendingPathComponent(String(format: "copy-%04d.jpg", index))
            if !FileManager.default.fileExists(atPath: url.path) {
                var data = try Data(contentsOf: generated[index % generated.count])
                data.append(Data("shoebox-bench copy \(index)".utf8))
                try data.write(to: url, options: .atomic)
            }
            files.append(url)
        }
        return files
    }

    func freshDatabase(admin: String) throws -> PostgresURL {
        let database = "cluster\(UUID().uuidString.prefix(8).lowercased())"
        let made = try ChildProcess.run("psql", [admin, "-q", "-c", "CREATE DATABASE \(database)"])
        guard made.status == 0 else { throw ChildProcess.Failure("cannot create a database: \(made.standardError)") }
        return try PostgresURL(admin.replacingOccurrences(of: "/postgres", with: "/\(database)"))
    }

    // MARK: A layout

    func measure(files: [URL], servers: Int, workers: Int, admin: String, store: SeaweedFS) async throws -> Layout {
        note("\(servers) server(s) + \(workers) worker(s): a fresh database and bucket prefix")
        let root = folder.appendingPathComponent("layout-\(servers)+\(workers)")
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let catalog = try freshDatabase(admin: admin)
        let blobs = "s3://shoebox-bench/cluster-\(UUID().uuidString.prefix(8).lowercased())?endpoint=\(store.endpoint)&region=us-east-1"
        try await S3Client(url: try S3URL(blobs), credentials: try AWSCredentials.find()).createBucket()
        var libraries: [URL] = []
        for index in 0..<servers {
            let library = root.appendingPathComponent("node-\(index)/Photos.shoebox")
            let made = try ChildProcess.run(shoebox, ["init", "--library", library.path, "--catalog", catalog.description, "--blobs", blobs])
            guard made.status == 0 else { throw ChildProcess.Failure("shoebox init failed: \(made.standardError)") }
            libraries.append(library)
        }
        var running: [ServerProcess] = []
        var working: [LongRunning] = []
        defer {
            for worker in working { worker.stop() }
            for server in running { server.stop() }
        }
        for library in libraries { running.append(try ServerProcess(library: library, extra: ["--no-worker"])) }
        for index in 0..<workers {
            let concurrency = workerConcurrency.map { ["--concurrency", "\($0)"] } ?? []
            working.append(
                try LongRunning(
                    shoebox, ["worker", "--library", libraries[index % libraries.count].path, "--json"] + concurrency,
                    readyPattern: "\"started\""))
        }
        let observer = try await PhotoLibrary.open(at: libraries[0])
        defer { Task { await observer.close() } }

        note("uploading \(files.count) photos, \(uploaders) at a time, to \(servers) server(s)")
        let start = ContinuousClock.now
        let targets = running.map { (port: $0.port, key: $0.key) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func add() {
                guard next < files.count else { return }
                let file = files[next]
                let target = targets[next % targets.count]
                next += 1
                group.addTask { try await Self.upload(file, port: target.port, key: target.key) }
            }
            for _ in 0..<uploaders { add() }
            while try await group.next() != nil { add() }
        }
        let uploaded = ContinuousClock.now - start
        note("waiting for every thumbnail")
        while true {
            let counts = try await observer.jobCounts().filter { $0.kind == .derivatives }
            if let failed = counts.first(where: { $0.state == .failed }), failed.count > 0 {
                throw ChildProcess.Failure("\(failed.count) thumbnail jobs failed: see shoebox jobs list --library \(libraries[0].path)")
            }
            if counts.allSatisfy({ $0.count == 0 || ($0.state != .queued && $0.state != .running) }) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let done = ContinuousClock.now - start
        let count = try await observer.fetchAssets().count
        guard count == files.count else { throw ChildProcess.Failure("\(count) assets after \(files.count) uploads") }
        return Layout(
            servers: servers, workers: workers, uploadSeconds: uploaded.seconds,
            uploadsPerSecond: Double(files.count) / uploaded.seconds, thumbnailsDoneSeconds: done.seconds)
    }

    static func upload(_ file: URL, port: Int, key: String) async throws {
        let name = file.lastPathComponent.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_."))) ?? "photo.jpg"
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/assets?filename=\(name)")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        request.timeoutInterval = 300
        let (data, response) = try await URLSession.shared.upload(for: request, from: try Data(contentsOf: file))
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 201 || status == 200 else {
            throw ChildProcess.Failure("upload of \(file.lastPathComponent) to port \(port): \(status) \(String(decoding: data, as: UTF8.self))")
        }
    }

    // MARK: The floor

    /// Seconds vipsthumbnail takes to make the 1024 px preview and the 256 px fill thumbnail of
    /// every file, two files at a time.
    func floor(_ files: [URL]) throws -> Double {
        guard which("vipsthumbnail") != nil else { throw ChildProcess.Failure("vipsthumbnail is missing (apt-get install libvips-tools)") }
        let output = folder.appendingPathComponent("floor")
        try? FileManager.default.removeItem(at: output)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let list = folder.appendingPathComponent("floor-files.txt")
        try files.map(\.path).joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        note("the floor: vipsthumbnail over \(files.count) files, two at a time")
        let script = """
            xargs -P 2 -I{} sh -c 'vipsthumbnail "$1" -s 1024 -o "\(output.path)/%s-preview.jpg[Q=82]" && \
            vipsthumbnail "$1" -s 100000x256 -o "\(output.path)/%s-thumb.jpg[Q=82]"' _ {} < "\(list.path)"
            """
        let start = ContinuousClock.now
        let result = try ChildProcess.run("/bin/sh", ["-c", script])
        guard result.status == 0 else { throw ChildProcess.Failure("vipsthumbnail failed: \(result.standardError)") }
        return (ContinuousClock.now - start).seconds
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
