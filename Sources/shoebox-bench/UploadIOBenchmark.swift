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
    @Flag(help: "Print JSON.") var json = false

    struct Run: Encodable {
        let megabytes: Double
        let writtenMB: Double
        let readMB: Double
        let seconds: Double
    }

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
