import ArgumentParser
import Foundation
import ShoeboxTesting

/// `shoebox-bench upload-io`: what one large upload costs `shoebox serve` in disk writes, reads
/// and time — the single pass from the request body into the library.
struct UploadIOBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload-io",
        abstract: "Bytes written and read by shoebox serve, and the time, for one large movie upload.",
        discussion: """
            Generates once into .build/bench-input/upload-io a lossless 1080p movie of random \
            pixels (about 97 MB a second of it; --seconds). Starts the release `shoebox serve` \
            beside this benchmark on a new library with --no-worker (no thumbnails or posters \
            afterwards), uploads the movie --runs times with POST /api/assets, and reads the \
            server's /proc/PID/io around each upload: write_bytes (what it gave the disk) and \
            rchar (what it read through system calls, the request's body included). One pass \
            writes the movie once; before it, the server wrote it twice (a temporary file, then \
            the library's staging copy) and read it back once more to copy and hash it.
            """)

    @Option(help: "Length of the generated movie in seconds (about 97 MB each).") var seconds = 6
    @Option(help: "Uploads to measure.") var runs = 3
    @Flag(
        help: """
            Send the movie as the web app sends a file over 16 MB: POST /api/uploads, then PUT \
            /api/uploads/ID?offset=N in pieces of 8 MiB, one after another; each run is paired \
            with `curl -T` of the same file to nginx (WebDAV PUT) on the same disk, alternating \
            which goes first.
            """)
    var resumable = false
    @Flag(help: "Print JSON.") var json = false

    struct Run: Encodable {
        let megabytes: Double
        let writtenMB: Double
        let readMB: Double
        let seconds: Double
        /// `curl -T` of the same file to nginx in the same round (``resumable`` only).
        var nginxSeconds: Double?
        /// The same, until the file nginx wrote was flushed (`fsync`) as Shoebox flushes an original.
        var nginxFlushedSeconds: Double?
    }

    /// The web app's piece size (upload.js's PIECE).
    static let piece = 8 << 20

    func run() async throws {
        let folder = Corpus.packageRoot().appendingPathComponent(".build/bench-input/upload-io")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let movie = folder.appendingPathComponent("noise-\(seconds)s.mp4")
        if !FileManager.default.fileExists(atPath: movie.path) {
            if !json { Progress.note("generating a \(seconds) s lossless movie into \(movie.path) once (reused next time)") }
            let made = try ChildProcess.run(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=1920x1080:r=30,geq=random(1)*255:128:128", "-t", "\(seconds)",
                    "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv420p", movie.path,
                ])
            guard made.status == 0 else { throw ChildProcess.Failure("ffmpeg: \(made.standardError)") }
        }
        let body = try Data(contentsOf: movie)
        if resumable {
            try await runResumable(movie: movie, body: body)
            return
        }
        var results: [Run] = []
        for index in 0..<runs {
            let server = try ServerProcess(newLibraryFor: "upload-io", extra: ["--no-worker"])
            defer { server.stop() }
            let pid = server.running.process.processIdentifier
            let http = RawHTTP(port: server.port)
            let before = try Self.io(of: pid)
            let started = Date()
            let response = try await http.send(
                "POST", "/api/assets?filename=noise.mp4", headers: ["Authorization": "Bearer \(server.key)"],
                body: body, timeout: 600)
            guard (200..<300).contains(response.status) else { throw ChildProcess.Failure("upload: \(response.status) \(response.text)") }
            let elapsed = Date().timeIntervalSince(started)
            let after = try Self.io(of: pid)
            let run = Run(
                megabytes: Double(body.count) / 1e6, writtenMB: Double(after.written - before.written) / 1e6,
                readMB: Double(after.read - before.read) / 1e6, seconds: elapsed)
            results.append(run)
            if !json {
                print(
                    String(
                        format: "upload %d: %.0f MB in %.2f s (%.0f MB/s); the server wrote %.0f MB and read %.0f MB",
                        index + 1, run.megabytes, run.seconds, run.megabytes / run.seconds, run.writtenMB, run.readMB))
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
        }
    }

    /// The resumable rounds: Shoebox's pieces and nginx's one PUT, alternating which goes first.
    func runResumable(movie: URL, body: Data) async throws {
        let received = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-upload-io-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: received, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: received) }
        let nginx = try NginxProcess(root: received, acceptsPuts: true)
        defer { nginx.stop() }
        var results: [Run] = []
        for index in 0..<runs {
            var run: Run?
            var nginxSeconds = 0.0
            var nginxDurableSeconds = 0.0
            for side in index % 2 == 0 ? ["shoebox", "nginx"] : ["nginx", "shoebox"] {
                if side == "nginx" {
                    let started = Date()
                    let sent = try ChildProcess.run(
                        "/usr/bin/curl",
                        ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-T", movie.path, "http://127.0.0.1:\(nginx.port)/put/run-\(index).mp4"])
                    nginxSeconds = Date().timeIntervalSince(started)
                    guard sent.status == 0, sent.standardOutput.hasPrefix("20") else {
                        throw ChildProcess.Failure("curl -T to nginx: \(sent.standardOutput) \(sent.standardError)")
                    }
                    // nginx never flushes what it received; Shoebox flushes the original once
                    // before its catalog row: the same flush after nginx's answer is the durable
                    // reference.
                    let file = received.appendingPathComponent("put/run-\(index).mp4")
                    let descriptor = open(file.path, O_RDONLY)
                    if descriptor >= 0 {
                        fsync(descriptor)
                        close(descriptor)
                    }
                    nginxDurableSeconds = Date().timeIntervalSince(started)
                    try? FileManager.default.removeItem(at: file)
                } else {
                    run = try await uploadInPieces(body)
                }
            }
            guard var measured = run else { continue }
            measured.nginxSeconds = nginxSeconds
            measured.nginxFlushedSeconds = nginxDurableSeconds
            results.append(measured)
            if !json {
                print(
                    String(
                        format:
                            "round %d: Shoebox %.0f MB in %.2f s in pieces of 8 MiB (wrote %.0f MB, read %.0f MB); nginx (curl -T) %.2f s: %.2fx; nginx and a flush %.2f s: %.2fx",
                        index + 1, measured.megabytes, measured.seconds, measured.writtenMB, measured.readMB, nginxSeconds,
                        nginxSeconds / measured.seconds, nginxDurableSeconds, nginxDurableSeconds / measured.seconds))
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
        } else if !results.isEmpty {
            let ratios = results.compactMap { run in run.nginxSeconds.map { $0 / run.seconds } }.sorted()
            let flushed = results.compactMap { run in run.nginxFlushedSeconds.map { $0 / run.seconds } }.sorted()
            print(
                String(
                    format: "median ratio (nginx time / Shoebox time): %.2fx, with nginx's file flushed %.2fx, over %d rounds", ratios[ratios.count / 2],
                    flushed[flushed.count / 2], ratios.count))
        }
    }

    /// One resumable upload of `body` to a new server, as the web app sends it.
    func uploadInPieces(_ body: Data) async throws -> Run {
        let server = try ServerProcess(newLibraryFor: "upload-io", extra: ["--no-worker"])
        defer { server.stop() }
        let pid = server.running.process.processIdentifier
        let http = RawHTTP(port: server.port)
        let user = ["Authorization": "Bearer \(server.key)"]
        let before = try Self.io(of: pid)
        let started = Date()
        let begun = try await http.send("POST", "/api/uploads", json: ["filename": "noise.mp4", "size": body.count], headers: user)
        guard begun.status == 201, let id = try begun.object()["id"] as? String else {
            throw ChildProcess.Failure("POST /api/uploads: \(begun.status) \(begun.text)")
        }
        var offset = 0
        while offset < body.count {
            let end = min(offset + Self.piece, body.count)
            let response = try await http.send(
                "PUT", "/api/uploads/\(id)?offset=\(offset)", headers: user, body: body.subdata(in: offset..<end), timeout: 600)
            guard (200..<300).contains(response.status) else { throw ChildProcess.Failure("PUT at \(offset): \(response.status) \(response.text)") }
            offset = end
        }
        let elapsed = Date().timeIntervalSince(started)
        let after = try Self.io(of: pid)
        return Run(
            megabytes: Double(body.count) / 1e6, writtenMB: Double(after.written - before.written) / 1e6,
            readMB: Double(after.read - before.read) / 1e6, seconds: elapsed)
    }

    /// `write_bytes` and `rchar` of `/proc/PID/io`.
    static func io(of pid: Int32) throws -> (written: Int, read: Int) {
        let text = try String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)
        func value(_ name: String) -> Int {
            text.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { Int($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)) } ?? 0
        }
        return (value("write_bytes"), value("rchar"))
    }
}
