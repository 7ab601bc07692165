import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct CaptureCommandTests {
    @Test func devicesAndAPhotoFromTheSyntheticCamera() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-capture-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let listed = try CLIRunner.run(["devices", "--synthetic", "--json"])
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
        #expect(devices.map { $0["uniqueID"] as? String } == ["synthetic-back", "synthetic-front", "synthetic-microphone"])
        // No camera is attached to this machine: without the synthetic one there is none.
        let none = try CLIRunner.run(["devices", "--json"])
        #expect(none.status == 0 && none.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]" || none.standardOutput.contains("[]"))
        #expect((devices.first?["formats"] as? [[String: Any]])?.count == 4)

        let photo = folder.appendingPathComponent("shot.jpg").path
        let library = folder.appendingPathComponent("L.shoebox").path
        #expect(try CLIRunner.run(["init", "--library", library]).status == 0)
        let taken = try CLIRunner.run([
            "capture", "photo", "--synthetic", "-o", photo, "--preset", "vga640x480", "--flash", "on",
            "--save", "--library", library, "--json",
        ])
        #expect(taken.status == 0, "\(taken.standardError)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(taken.standardOutput.utf8)) as? [String: Any])
        #expect(record["width"] as? Int == 640 && record["height"] as? Int == 480 && record["flashFired"] as? Bool == true)
        let image = try Image(contentsOfFile: photo)
        #expect(image.metadata.make == "Shoebox" && image.metadata.flashFired == true)
        let listedAssets = try CLIRunner.run(["ls", "--json", "--library", library])
        #expect(listedAssets.standardOutput.contains(record["localIdentifier"] as? String ?? "missing"))

        // Without a camera: a clear error, exit 1.
        let notACamera = try CLIRunner.run(["devices", "--record-v4l2", "/dev/null"])
        #expect(notACamera.status == 1 && notACamera.standardError.contains("does not answer as a V4L2 camera"))
        let missing = try CLIRunner.run(["capture", "photo", "-o", photo, "--device", "no-such-camera"])
        #expect(missing.status == 1 && missing.standardError.contains("no camera no-such-camera"))
        let front = try CLIRunner.run(["capture", "photo", "--synthetic", "--device", "synthetic-front", "--flash", "on", "-o", photo])
        #expect(front.status == 1 && front.standardError.contains("has no flash"))
    }

    @Test func aMovieFromTheSyntheticCamera() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-capture-movie-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = folder.appendingPathComponent("clip.mp4").path
        #expect(try CLIRunner.run(["init", "--library", folder.appendingPathComponent("L.shoebox").path]).status == 0)
        let result = try CLIRunner.run([
            "capture", "movie", "--synthetic", "-o", movie, "--duration", "1", "--preset", "vga640x480",
            "--microphone", "--save", "--library", folder.appendingPathComponent("L.shoebox").path, "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(abs((record["duration"] as? Double ?? 0) - 1) <= 0.2)
        #expect(record["width"] as? Int == 640 && record["audioCodec"] as? String == "aac" && record["localIdentifier"] is String)
        #expect(try CLIRunner.run(["capture", "movie", "--synthetic", "-o", movie, "--duration", "0"]).status != 0)
    }

    /// Captures with --save go into the library as pending captures: killing the process at any
    /// moment leaves no asset, or a whole one, and the next process to open the library clears
    /// what is left (each capture here opens it, so it clears the kill before it).
    @Test func killedCapturesLeaveNoHalfAssets() async throws {
        let executable = try #require(CLIRunner.executable, "the shoebox executable is built by `swift build`")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-capture-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("L.shoebox").path
        #expect(try CLIRunner.run(["init", "--library", library]).status == 0)
        // Killed while recording (the movie is in the pending folder) and around the commit: at
        // the Nth change of a kind the capture makes in the library folder.
        let moments: [(what: String, count: Int, FolderWatch.Event.Kind, where: @Sendable (String) -> Bool)] = [
            ("the recording started", 1, .created, { $0.hasPrefix("staging/capture-") && $0.contains(".partial-") }),
            ("the recording written to", 2, .modified, { $0.hasPrefix("staging/capture-") && $0.contains(".partial-") }),
            ("the recording pending", 1, .created, { $0.hasPrefix("staging/capture-") && $0.hasSuffix(".mp4") && !$0.contains(".partial-") }),
            ("the original being filed", 1, .created, { $0.hasPrefix("originals/") && $0.split(separator: "/").count == 3 }),
            ("the original filed", 1, .closedAfterWriting, { $0.hasPrefix("originals/") }),
            ("the pending capture cleared", 1, .removed, { $0.hasPrefix("staging/capture-") }),
        ]
        var killedWhilePending = 0
        for (round, moment) in moments.enumerated() {
            let watch = try FolderWatch(URL(fileURLWithPath: library))
            let child = try ChildProcess.spawnWithLifeline(
                executable.path,
                [
                    "capture", "movie", "--synthetic", "-o", folder.appendingPathComponent("clip\(round).mp4").path,
                    "--duration", "2", "--preset", "vga640x480", "--save", "--library", library,
                ])
            let (kind, matches) = (moment.2, moment.where)
            let seen = try await watch.events(
                count: moment.count, where: { $0.kind == kind && matches($0.path) }, timeout: .seconds(60), lifeline: child.lifeline)
            kill(child.pid, SIGKILL)
            close(child.lifeline)
            var status: Int32 = 0
            waitpid(child.pid, &status, 0)
            #expect(seen.count == moment.count && status & 0x7f == SIGKILL, "not killed at \(moment.what): \(seen), status \(status)")
            let staged = try FileManager.default.contentsOfDirectory(atPath: library + "/staging")
            if staged.contains(where: { $0.hasPrefix("capture-") }) { killedWhilePending += 1 }
        }
        #expect(killedWhilePending >= 3, "the captures killed while recording left a pending capture: \(killedWhilePending)")
        let before = try CLIRunner.run(["doctor", "--json", "--library", library])
        #expect(before.status == 0, "doctor is ok without --repair: \(before.standardOutput)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: library + "/staging").isEmpty)
        // Whatever became an asset is a whole movie.
        let listed = try CLIRunner.run(["ls", "--json", "--library", library])
        let assets = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
        for asset in assets {
            #expect(abs((asset["duration"] as? Double ?? 0) - 2) <= 0.25, "\(asset)")
        }
        // And a capture that is not interrupted lands whole.
        let whole = try CLIRunner.run([
            "capture", "movie", "--synthetic", "-o", folder.appendingPathComponent("whole.mp4").path,
            "--duration", "1", "--preset", "vga640x480", "--save", "--library", library, "--json",
        ])
        #expect(whole.status == 0, "\(whole.standardError)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(whole.standardOutput.utf8)) as? [String: Any])
        #expect(try CLIRunner.run(["ls", "--json", "--library", library]).standardOutput.contains(record["localIdentifier"] as? String ?? "missing"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: library + "/staging").isEmpty)
    }

    @Test("capture commands have --help", arguments: ["devices", "capture photo", "capture movie"])
    func help(_ command: String) throws {
        let result = try CLIRunner.run(command.split(separator: " ").map(String.init) + ["--help"])
        #expect(result.status == 0 && result.standardOutput.contains("--synthetic"))
    }
}
