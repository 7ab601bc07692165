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
        // Killed while recording (the movie is in the pending folder) and around the commit.
        let delays: [UInt64] = [300, 900, 1_500, 2_100, 2_400, 2_700]
        var killedWhilePending = 0
        for (round, delay) in delays.enumerated() {
            let pid = try ChildProcess.spawnSilently(
                executable.path,
                [
                    "capture", "movie", "--synthetic", "-o", folder.appendingPathComponent("clip\(round).mp4").path,
                    "--duration", "2", "--preset", "vga640x480", "--save", "--library", library,
                ])
            try await Task.sleep(for: .milliseconds(delay))
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            let staged = try FileManager.default.contentsOfDirectory(atPath: library + "/staging")
            if staged.contains(where: { $0.hasPrefix("capture-") }) { killedWhilePending += 1 }
        }
        #expect(killedWhilePending > 0, "at least one capture was killed while pending")
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
