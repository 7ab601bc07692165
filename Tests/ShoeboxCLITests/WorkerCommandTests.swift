import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

/// `shoebox worker`, `shoebox jobs` and the worker in `shoebox serve`, as real processes.
@Suite(.serialized) struct WorkerCommandTests {
    struct Listing: Decodable {
        struct Count: Decodable {
            let kind: String
            let state: String
            let count: Int
        }
        struct Job: Decodable {
            let id: Int64
            let kind: String
            let subject: String
            let attempts: Int
            let leaseOwner: String?
        }
        let counts: [Count]
        let running: [Job]
        let failed: [Job]
    }

    static func jobs(_ library: String) throws -> Listing {
        let result = try CLIRunner.run(["jobs", "--library", library, "--json"])
        guard result.status == 0 else { throw ChildProcess.Failure("shoebox jobs failed: \(result.standardError)") }
        return try JSONDecoder().decode(Listing.self, from: Data(result.standardOutput.utf8))
    }

    /// A client of the server whose `serve --json` line is `line`.
    static func http(from line: String) throws -> RawHTTP {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return RawHTTP(port: try (object?["port"] as? Int).orThrow("serve printed no port: \(line)"))
    }

    /// `GET /api/jobs`, or with `since`, the long poll: answered when the jobs differ from that
    /// tag, or after `seconds`.
    static func jobListing(_ http: RawHTTP, key: String, waitingAtMost seconds: Int = 0, since tag: String? = nil) async throws -> [String: Any] {
        let query = tag.map { "?wait=\(seconds)&since=\($0)" } ?? ""
        let answer = try await http.send("GET", "/api/jobs" + query, headers: ["Authorization": "Bearer \(key)"], timeout: Double(seconds) + 30)
        guard answer.status == 200 else { throw ChildProcess.Failure("GET /api/jobs: \(answer.status) \(answer.text)") }
        return try answer.object()
    }

    /// Processes of this machine named `name` whose arguments mention `text`.
    static func processes(named name: String, mentioning text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard let program = arguments.first, (program as NSString).lastPathComponent == name,
                arguments.contains(where: { $0.contains(text) })
            else { return nil }
            return pid
        }
    }

    /// Files under `folder`, relative paths.
    static func files(under folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { !$0.hasSuffix("/") }
    }

    /// SIGKILL a worker in the middle of a transcode: the job's lease runs out, another worker
    /// does it, the movie has exactly one playback rendition, no temporary file is left and the
    /// killed worker's ffmpeg does not run on.
    @Test func aWorkerKilledMidTranscodeIsReplacedAndNothingIsLeftBehind() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-worker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("L.shoebox").path
        let movie = try SyntheticMovie(duration: 60, width: 640, height: 360).write(to: folder.appendingPathComponent("long.webm"))
        #expect(try CLIRunner.run(["init", "--library", library]).status == 0)
        let imported = try CLIRunner.run(["import", "--library", library, "--queue", "--json", movie.path])
        #expect(imported.status == 0, "\(imported.standardError)")
        let derivatives = URL(fileURLWithPath: library).appendingPathComponent("derivatives")

        let first = try BackgroundCommand(["worker", "--library", library, "--kinds", "rendition", "--lease", "3", "--json"])
        // Mid-transcode: its ffmpeg is writing the temporary rendition (`..playback.<writer>.….partial-…`)
        // when the worker is killed, on the watch's own thread, as soon as the file shows.
        let pid = first.processIdentifier
        let watch = try FolderWatch(derivatives)
        let transcoding = Task {
            let found = try await watch.wait(timeout: .seconds(150)) {
                Self.files(under: derivatives).contains { ($0 as NSString).lastPathComponent.contains(".playback.p") }
            }
            if found { kill(pid, SIGKILL) }
            return found
        }
        let started = try await first.line(containing: #""event": "started""#)
        let killed = try await transcoding.value
        #expect(killed, "the first worker never ran ffmpeg: files \(Self.files(under: derivatives)); worker: \(first.standardOutput) \(first.standardError)")
        _ = try await first.waitForExit()
        #expect(first.terminatingSignal == SIGKILL)
        let held = try Self.jobs(library).running
        #expect(held.count == 1 && held[0].kind == "rendition")
        #expect(started.contains(held[0].leaseOwner ?? "?"), "the killed worker held it")

        // Every job still open, the killed worker's among them, is the second worker's to do.
        let open = try Self.jobs(library).counts.filter { $0.state != "failed" }.map(\.count).reduce(0, +)
        let second = try BackgroundCommand(["worker", "--library", library, "--lease", "3", "--json"])
        // Once the second worker transcodes, the killed worker's ffmpeg (orphaned, still
        // transcoding into a file nobody will use) has been stopped: only one ffmpeg runs.
        let secondWriter = ".playback.p\(second.processIdentifier)-"
        let secondTranscodes = try await watch.wait(timeout: .seconds(120)) {
            Self.files(under: derivatives).contains {
                let name = ($0 as NSString).lastPathComponent
                return name.contains(secondWriter) || name.hasPrefix("playback=")
            }
        }
        #expect(secondTranscodes, "the second worker never transcoded: \(second.standardOutput) \(second.standardError)")
        let running = Self.processes(named: "ffmpeg", mentioning: library)
        #expect(running.count <= 1, "the killed worker's ffmpeg still runs beside the second worker's: \(running)")
        // The second worker reports each job it finishes as it goes (--json's progress events):
        // once it has finished every job that was open, the rendition is done.
        let done = try await second.line(
            where: { line in
                guard line.contains(#""event": "progress""#), let data = line.data(using: .utf8),
                    let event = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                else { return false }
                return (event["finished"] as? Int ?? 0) >= open
            }, described: "a progress event with \(open) jobs finished", timeout: 120)
        #expect(try Self.jobs(library).counts.filter { $0.kind == "rendition" }.isEmpty, "the second worker did the rendition: \(done)")
        let orphans = Self.processes(named: "ffmpeg", mentioning: library)
        #expect(orphans.isEmpty, "an ffmpeg runs on after the job is done: \(orphans)")
        second.signal(SIGTERM)
        #expect(try await second.waitForExit() == 0)
        let stopped = try #require(second.standardOutput.split(separator: "\n").last { $0.contains(#""stopped""#) })
        #expect(stopped.contains(#""handedBack": 0"#))

        let files = Self.files(under: derivatives)
        let renditions = files.filter { $0.contains("/playback=") }
        #expect(renditions.count == 1, "\(files)")
        #expect(!files.contains { ($0 as NSString).lastPathComponent.hasPrefix(".") }, "no temporary file is left: \(files)")
        let probe = try ChildProcess.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,nb_frames",
                "-of", "csv=p=0", derivatives.appendingPathComponent(renditions[0]).path,
            ])
        #expect(probe.standardOutput.hasPrefix("h264,"), "the rendition is whole H.264: \(probe.standardOutput) \(probe.standardError)")
    }

    @Test func serveRunsTheJobsUnlessToldNotTo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-serve-jobs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("L.shoebox").path
        let photo = folder.appendingPathComponent("p.jpg")
        try SyntheticPhoto(width: 800, height: 600, seed: 5).image().write(to: photo)
        #expect(try CLIRunner.run(["init", "--library", library]).status == 0)
        #expect(try CLIRunner.run(["import", "--library", library, "--queue", photo.path]).status == 0)
        #expect(try Self.jobs(library).counts.contains { $0.kind == "derivatives" && $0.state == "queued" && $0.count == 1 })

        let key = "serve-runs-the-jobs"
        let idle = try BackgroundCommand(["serve", "--library", library, "--port", "0", "--json", "--no-worker", "--key", key])
        let idleHTTP = try Self.http(from: try await idle.line(containing: "\"port\""))
        let before = try await Self.jobListing(idleHTTP, key: key)
        // Two seconds in which the jobs do not change: the server's own wait, which a worker
        // claiming the job would end at once.
        let after = try await Self.jobListing(idleHTTP, key: key, waitingAtMost: 2, since: before["tag"] as? String ?? "")
        #expect(after["tag"] as? String == before["tag"] as? String && after["open"] as? Int == 1, "--no-worker runs nothing: \(after)")
        idle.interrupt()
        #expect(try await idle.waitForExit() == 0)

        let serving = try BackgroundCommand(["serve", "--library", library, "--port", "0", "--json", "--key", key])
        let http = try Self.http(from: try await serving.line(containing: "\"port\""))
        var listing = try await Self.jobListing(http, key: key)
        let deadline = ContinuousClock.now + .seconds(60)
        while (listing["counts"] as? [[String: Any]] ?? []).contains(where: { $0["kind"] as? String == "derivatives" }), ContinuousClock.now < deadline {
            listing = try await Self.jobListing(http, key: key, waitingAtMost: 30, since: listing["tag"] as? String ?? "")
        }
        let counts = try Self.jobs(library).counts
        #expect(!counts.contains { $0.kind == "derivatives" }, "serve's worker made the thumbnail: \(counts); \(serving.standardError)")
        #expect(counts.contains { $0.kind == "purgeExpired" && $0.state == "queued" }, "the purge ran and is due again: \(counts)")
        serving.interrupt()
        #expect(try await serving.waitForExit() == 0)
        #expect(Self.files(under: URL(fileURLWithPath: library).appendingPathComponent("derivatives")).contains { $0.contains("/fill-256x256=") })
    }

    @Test func jobsCommandsAndTheirErrors() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-jobs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("L.shoebox").path
        let photo = folder.appendingPathComponent("p.jpg")
        try SyntheticPhoto(width: 300, height: 200, seed: 6).image().write(to: photo)
        #expect(try CLIRunner.run(["init", "--library", library]).status == 0)
        #expect(try CLIRunner.run(["import", "--library", library, photo.path]).status == 0)

        let missing = try CLIRunner.run(["jobs", "enqueue-missing", "--library", library, "--json"])
        #expect(missing.standardOutput.contains(#""queued": 2"#), "the import made the derivatives; only the purge and the sweep: \(missing.standardOutput)")
        let cancelled = try CLIRunner.run(["jobs", "cancel", "--all", "--library", library, "--json"])
        #expect(cancelled.standardOutput.contains(#""cancelled": 2"#))
        #expect(try Self.jobs(library).counts.isEmpty)
        #expect(try CLIRunner.run(["jobs", "--library", library]).standardOutput.contains("no jobs"))

        let reread = try CLIRunner.run(["jobs", "reread-metadata", "--all", "--library", library, "--json"])
        #expect(reread.status == 0 && reread.standardOutput.contains(#""queued": 1"#), "\(reread.standardOutput) \(reread.standardError)")
        #expect(try Self.jobs(library).counts.map(\.kind) == ["metadata"])
        let unknown = try CLIRunner.run(["jobs", "reread-metadata", "no-such-asset", "--library", library])
        #expect(unknown.status == 1 && unknown.standardError.contains("no-such-asset"), "\(unknown.standardError)")
        let nothingNamed = try CLIRunner.run(["jobs", "reread-metadata", "--library", library])
        #expect(nothingNamed.status == 64 && nothingNamed.standardError.contains("name the assets to read again, or --all"))
        #expect(try CLIRunner.run(["jobs", "cancel", "--all", "--library", library]).status == 0)

        let noTarget = try CLIRunner.run(["jobs", "retry", "--library", library])
        #expect(noTarget.status == 64 && noTarget.standardError.contains("name the jobs to retry, or --all"))
        let badKind = try CLIRunner.run(["worker", "--library", library, "--kinds", "thumbnails"])
        #expect(badKind.status == 64 && badKind.standardError.contains("unknown job kind thumbnails"), "\(badKind.standardError)")
        #expect(badKind.standardError.contains("derivatives"), "the error lists the kinds")
        // A mistyped library is an error, not a new empty library a worker would wait on forever.
        let typo = folder.appendingPathComponent("Typo.shoebox").path
        let missingLibrary = try CLIRunner.run(["worker", "--library", typo])
        #expect(missingLibrary.status == 1 && missingLibrary.standardError.contains("no library at \(typo)"), "\(missingLibrary.standardError)")
        #expect(!FileManager.default.fileExists(atPath: typo))
        #expect(try CLIRunner.run(["jobs", "--library", typo]).status == 1)
    }
}
