import ArgumentParser
import Foundation
import ShoeboxLibrary
import ShoeboxTesting

/// `shoebox-bench blobs`: the library's bytes in files beside the same in S3 (SeaweedFS).
struct BlobsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blobs",
        abstract: "Blobs in files beside blobs in S3 (SeaweedFS): imports, thumbnails over HTTP, a 2 GiB multipart upload.",
        discussion: """
            (a) Imports --photos generated 12 MP JPEGs (made once into .build/bench-input) into a \
            library of files and into a library in a bucket, in the same run, one change per \
            photo, as many at a time as the library recommends (as shoebox import does: one per \
            core for files, two per core for S3); --runs alternating runs, the \
            best of each counts. Target: S3 at least 0.7× the files' rate. \
            (b) Serves the bucket library twice, with --blob-delivery redirect and proxy, and \
            measures with wrk the 256 px grid thumbnails of every photo: the redirect server's \
            302s, the proxy server's bytes, and SeaweedFS answering the same presigned URLs the \
            redirects name (the direct reference). Target: proxied at least 0.7× direct. \
            (c) Makes a 2 GiB H.264 movie (ffmpeg, once) and imports it into the bucket library \
            with `shoebox import` (multipart, 16 MiB parts), under GNU time: its peak RSS. Target: \
            under 200 MB. \
            SeaweedFS runs from scripts/s3 in .build/bench-input/blobs/s3 (kept between runs) \
            unless --endpoint names one (credentials then from AWS_*). Needs wrk \
            (scripts/install-deps --bench).
            """)

    @Option(help: "Photos to import and serve.") var photos = 200
    @Option(help: "Alternating import runs per store (the best counts).") var runs = 1
    @Option(help: "Seconds of load per wrk run.") var seconds = 10
    @Option(help: "Connections wrk keeps open.") var connections = 32
    @Option(help: "Size of the movie for (c), in MiB.") var movieMiB = 2_048
    @Option(help: "An S3 endpoint to use instead of starting SeaweedFS.") var endpoint: String?
    @Flag(help: "Skip (a) (the thumbnails then need a bucket library from an earlier run).") var skipImport = false
    @Flag(help: "Skip (b).") var skipThumbnails = false
    @Flag(help: "Skip (c).") var skipMovie = false
    @Flag(help: "Print JSON.") var json = false

    struct Import: Encodable {
        var seconds = 0.0
        var photosPerSecond = 0.0
        var megabytesPerSecond = 0.0
    }

    struct Report: Encodable {
        var photos = 0
        var megabytesPerPhoto = 0.0
        var importFiles: Import?
        var importS3: Import?
        var importRatio: Double?
        var redirectRequestsPerSecond: Double?
        var proxyRequestsPerSecond: Double?
        var directRequestsPerSecond: Double?
        var proxyRatio: Double?
        var movieMegabytes: Double?
        var movieSeconds: Double?
        var moviePeakMemoryMB: Double?
    }

    var folder: URL { Corpus.packageRoot().appendingPathComponent(".build/bench-input/blobs") }

    func run() async throws {
        // Checked first, not after minutes of imports.
        if !skipThumbnails, which("wrk") == nil { throw ChildProcess.Failure("wrk is missing: run scripts/install-deps --bench") }
        var report = Report()
        let store = try SeaweedFS(endpoint: endpoint, folder: folder.appendingPathComponent("s3"))
        defer { store.stop() }
        setenv("AWS_ACCESS_KEY_ID", ProcessInfo.processInfo.environment["AWS_ACCESS_KEY_ID"] ?? S3TestServer.accessKey, 1)
        setenv("AWS_SECRET_ACCESS_KEY", ProcessInfo.processInfo.environment["AWS_SECRET_ACCESS_KEY"] ?? S3TestServer.secretKey, 1)
        let bucketLibrary = folder.appendingPathComponent("bucket/Blobs.shoebox")
        if !skipImport { try await measureImports(store: store, into: &report) }
        if !skipThumbnails { try await measureThumbnails(library: bucketLibrary, store: store, into: &report) }
        if !skipMovie { try await measureMovie(store: store, into: &report) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        }
    }

    // MARK: (a) imports

    func measureImports(store: SeaweedFS, into report: inout Report) async throws {
        let files = try BenchInput.generatedJPEGs(count: photos, megapixels: 12, quiet: json).map { URL(fileURLWithPath: $0) }
        let bytes = files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1.path)[.size] as? Int) ?? 0) }
        report.photos = files.count
        report.megabytesPerPhoto = Double(bytes) / Double(files.count) / 1e6
        var filesTimes: [Double] = []
        var s3Times: [Double] = []
        for run in 0..<runs {
            for s3 in run % 2 == 0 ? [false, true] : [true, false] {
                let root = folder.appendingPathComponent(s3 ? "bucket" : "files")
                try? FileManager.default.removeItem(at: root)
                try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
                var configuration = PhotoLibrary.Configuration()
                if s3 {
                    let blobs = try S3URL("s3://shoebox-bench/run-\(UUID().uuidString.prefix(8).lowercased())?endpoint=\(store.endpoint)&region=us-east-1")
                    try await S3Client(url: blobs, credentials: try AWSCredentials.find()).createBucket()
                    configuration.blobs = .s3(blobs)
                }
                configuration.backgroundWork = .onDemand
                let library = try await PhotoLibrary.create(at: root.appendingPathComponent("Blobs.shoebox"), configuration: configuration)
                note("importing \(files.count) photos into \(s3 ? "S3" : "files") (run \(run + 1))")
                let started = ContinuousClock.now
                try await BenchInput.importFiles(files, into: library)
                let elapsed = ContinuousClock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                await library.close()
                if s3 { s3Times.append(seconds) } else { filesTimes.append(seconds) }
            }
        }
        func summary(_ seconds: Double) -> Import {
            Import(seconds: seconds, photosPerSecond: Double(files.count) / seconds, megabytesPerSecond: Double(bytes) / 1e6 / seconds)
        }
        report.importFiles = summary(filesTimes.min() ?? 0)
        report.importS3 = summary(s3Times.min() ?? 0)
        report.importRatio = (filesTimes.min() ?? 0) / max(s3Times.min() ?? 1, 1e-9)
        if !json {
            print(
                String(
                    format: "(a) import of %d × %.1f MB JPEGs: files %.1f s (%.1f photos/s), S3 %.1f s (%.1f photos/s): S3 at %.2f× files",
                    files.count, report.megabytesPerPhoto, report.importFiles!.seconds, report.importFiles!.photosPerSecond,
                    report.importS3!.seconds, report.importS3!.photosPerSecond, report.importRatio ?? 0))
        }
    }

    // MARK: (b) thumbnails

    func measureThumbnails(library: URL, store: SeaweedFS, into report: inout Report) async throws {
        guard FileManager.default.fileExists(atPath: library.appendingPathComponent("library.json").path) else {
            throw ChildProcess.Failure("no bucket library at \(library.path): run without --skip-import first")
        }
        let redirect = try ServerProcess(library: library, extra: ["--blob-delivery", "redirect"])
        defer { redirect.stop() }
        let proxy = try ServerProcess(library: library, extra: ["--blob-delivery", "proxy"])
        defer { proxy.stop() }
        let paths = try await redirect.gridThumbnailPaths()
        // Warm both servers: every thumbnail made once (the redirect server uploads it), and the
        // presigned URLs the redirects name, for SeaweedFS direct.
        note("warming \(paths.count) thumbnails on both servers")
        var direct: [String] = []
        let authorization = ["Authorization": "Bearer \(redirect.key)"]
        for path in paths {
            let answer = try await RawHTTP(port: redirect.port).send("GET", path, headers: authorization)
            guard answer.status == 302, let location = answer.headers["location"], let url = URL(string: location) else {
                throw ChildProcess.Failure("the redirect server answered \(answer.status) for \(path)")
            }
            direct.append(url.path + "?" + (url.query ?? ""))
            _ = try await proxy.get(path)
        }
        guard let storePort = URL(string: store.endpoint)?.port else { throw ChildProcess.Failure("no port in \(store.endpoint)") }
        let header = "Authorization: Bearer \(redirect.key)"
        report.redirectRequestsPerSecond = try wrk(port: redirect.port, paths: paths, header: header, expect: "302")
        report.proxyRequestsPerSecond = try wrk(port: proxy.port, paths: paths, header: header, expect: "200")
        report.directRequestsPerSecond = try wrk(port: storePort, paths: direct, header: nil, expect: "200")
        report.proxyRatio = (report.proxyRequestsPerSecond ?? 0) / max(report.directRequestsPerSecond ?? 1, 1)
        if !json {
            print(
                String(
                    format:
                        "(b) 256 px thumbnails, %d connections, %d s: redirect %.0f req/s (302s), proxy %.0f req/s, SeaweedFS direct %.0f req/s: proxy at %.2f× direct",
                    connections, seconds, report.redirectRequestsPerSecond ?? 0, report.proxyRequestsPerSecond ?? 0,
                    report.directRequestsPerSecond ?? 0, report.proxyRatio ?? 0))
        }
    }

    func wrk(port: Int, paths: [String], header: String?, expect: String) throws -> Double {
        try Wrk.requestsPerSecond(port: port, paths: paths, header: header, connections: connections, seconds: seconds, expect: expect)
    }

    // MARK: (c) a 2 GiB movie

    func measureMovie(store: SeaweedFS, into report: inout Report) async throws {
        guard ChildProcess.canMeasurePeakMemory else { throw ChildProcess.Failure("GNU time is missing: run scripts/install-deps") }
        let movie = folder.appendingPathComponent("movie-\(movieMiB)MiB.mp4")
        if !FileManager.default.fileExists(atPath: movie.path) {
            // Lossless H.264 of a noisy test pattern: about 115 MB a second at 1080p.
            let seconds = max(1, Int((Double(movieMiB) * 1_048_576 / 112e6).rounded(.up)))
            note("making a \(seconds) s lossless 1080p movie of at least \(movieMiB) MiB (once) into \(movie.path)")
            let made = try ChildProcess.run(
                "ffmpeg",
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=\(seconds)",
                    "-vf", "noise=alls=60:allf=t", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0",
                    "-an", "-movflags", "+faststart", movie.path,
                ], captureOutput: false)
            guard made.status == 0 else { throw ChildProcess.Failure("ffmpeg could not make the movie") }
        }
        let size = (try FileManager.default.attributesOfItem(atPath: movie.path)[.size] as? Int) ?? 0
        guard size >= movieMiB << 20 else { throw ChildProcess.Failure("the movie is \(size) bytes, less than \(movieMiB) MiB") }
        let root = folder.appendingPathComponent("movie")
        try? FileManager.default.removeItem(at: root)
        let library = root.appendingPathComponent("Movie.shoebox")
        let blobs = "s3://shoebox-bench/movie-\(UUID().uuidString.prefix(8).lowercased())?endpoint=\(store.endpoint)&region=us-east-1"
        let shoebox = URL(fileURLWithPath: BenchInput.executable).deletingLastPathComponent().appendingPathComponent("shoebox").path
        let created = try ChildProcess.run(shoebox, ["init", "--library", library.path, "--blobs", blobs, "--create-bucket"])
        guard created.status == 0 else { throw ChildProcess.Failure("shoebox init failed: \(created.standardError)") }
        note("importing the \(size >> 20) MiB movie into the bucket")
        let imported = try ChildProcess.run(shoebox, ["import", "--library", library.path, movie.path], measuringPeakMemory: true)
        guard imported.status == 0 else { throw ChildProcess.Failure("shoebox import failed: \(imported.standardError)") }
        report.movieMegabytes = Double(size) / 1e6
        report.movieSeconds = imported.seconds
        report.moviePeakMemoryMB = Double(imported.peakMemoryBytes ?? 0) / 1_048_576
        try? FileManager.default.removeItem(at: root)
        if !json {
            print(
                String(
                    format: "(c) a %.0f MB movie imported into S3 (multipart) in %.1f s (%.0f MB/s): peak RSS %.0f MB",
                    report.movieMegabytes ?? 0, imported.seconds, (report.movieMegabytes ?? 0) / imported.seconds, report.moviePeakMemoryMB ?? 0))
        }
    }

    func note(_ text: String) {
        if !json { Progress.note(text) }
    }
}

/// SeaweedFS from scripts/s3 in a folder of its own under `.build/bench-input` (halted at the end,
/// its data and ports kept for the next run), or an endpoint given.
final class SeaweedFS {
    let endpoint: String
    private let folder: URL?

    init(endpoint given: String?, folder: URL) throws {
        if let given {
            endpoint = given
            self.folder = nil
            return
        }
        let started = try ChildProcess.run(Corpus.packageRoot().appendingPathComponent("scripts/s3").path, ["start", folder.path])
        guard started.status == 0 else { throw ChildProcess.Failure("cannot start SeaweedFS: \(started.standardError)") }
        endpoint = started.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        self.folder = folder
    }

    func stop() {
        guard let folder else { return }
        _ = try? ChildProcess.run(Corpus.packageRoot().appendingPathComponent("scripts/s3").path, ["halt", folder.path])
    }
}
