import Foundation
import ShoeboxTesting
import Synchronization
import Testing

/// `shoebox serve` as it really runs (SwiftNIO's event loops as Swift Concurrency's executor, so
/// every handler runs on a loop that also answers other requests), loaded with the handlers that
/// wait on something: device discovery behind a `pactl` that takes 1.5 s, large upload bodies
/// written to disk, renders of a 24-megapixel photo and its detail. `/api/health` is asked every
/// 50 ms all the while, on new connections (so on every loop in turn); it must never wait behind
/// a handler.
@Suite struct ServeWatchdogTests {
    @Test func healthNeverWaitsBehindAHandler() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-watchdog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = folder.appendingPathComponent("Watchdog.shoebox").path
        #expect(try CLIRunner.run(["init", "--library", library]).status == 0)
        // A PulseAudio that takes 1.5 s to list its one microphone.
        let pactl = folder.appendingPathComponent("pactl")
        try "#!/bin/sh\nsleep 1.5\nprintf '1\\tmic.analog-stereo\\tmodule-alsa-card.c\\ts16le 2ch 44100Hz\\tRUNNING\\n'\n"
            .write(to: pactl, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: pactl.path)
        let photo = try Data(contentsOf: try LargePhotos.png(width: 6000, height: 4000, interlaced: false, in: folder))

        let key = UUID().uuidString
        let server = try BackgroundCommand(
            ["serve", "--library", library, "--port", "0", "--json", "--key", key, "--no-worker"], environment: ["SHOEBOX_PACTL": pactl.path])
        defer { server.interrupt() }
        let ready = try await server.line(containing: #""port""#)
        let port = try #require((try JSONSerialization.jsonObject(with: Data(ready.utf8)) as? [String: Any])?["port"] as? Int)
        let http = RawHTTP(port: port)
        let auth = ["Authorization": "Bearer \(key)"]
        let added = try await http.send("POST", "/api/assets?filename=large.png", headers: auth, body: photo, timeout: 120)
        #expect(added.status == 201, "\(added.text.prefix(300))")
        let identifier = try #require(try added.object()["localIdentifier"] as? String)
        let id = try #require(identifier.addingPercentEncoding(withAllowedCharacters: .alphanumerics))

        let done = Atomic<Bool>(false)
        let latencies = Mutex<[Double]>([])
        let probe = Task {
            while !done.load(ordering: .relaxed) {
                let start = ContinuousClock.now
                let health = try await http.send("GET", "/api/health", timeout: 30)
                let took = (ContinuousClock.now - start) / .seconds(1)
                #expect(health.status == 200)
                latencies.withLock { $0.append(took) }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        // The load: each kind at once, twice over.
        let zeros = Data(count: 256 << 20)
        let devicesTook = try await withThrowingTaskGroup(of: Double?.self) { group in
            group.addTask {
                let start = ContinuousClock.now
                let devices = try await http.send("GET", "/api/devices", headers: auth, timeout: 30)
                #expect(devices.status == 200 && devices.text.contains("mic.analog-stereo"), "\(devices.text.prefix(300))")
                return (ContinuousClock.now - start) / .seconds(1)
            }
            for index in 0..<2 {
                group.addTask {
                    // Not a photo: refused as such, after the whole body was written to disk.
                    let upload = try await http.send("POST", "/api/assets?filename=junk-\(index).jpg", headers: auth, body: zeros, timeout: 120)
                    #expect([415, 422].contains(upload.status), "\(upload.status) \(upload.text.prefix(300))")
                    return nil
                }
                group.addTask {
                    for size in [1024, 1536, 2048] {
                        let thumbnail = try await http.send("GET", "/api/assets/\(id)/thumbnail?size=\(size + index)", headers: auth, timeout: 120)
                        #expect(thumbnail.status == 200)
                    }
                    let detail = try await http.send("GET", "/api/assets/\(id)", headers: auth, timeout: 60)
                    #expect(detail.status == 200)
                    return nil
                }
            }
            var devicesTook: Double?
            for try await took in group { if let took { devicesTook = took } }
            return devicesTook
        }
        done.store(true, ordering: .relaxed)
        try await probe.value

        let seen = latencies.withLock { $0 }
        let slowest = seen.max() ?? .infinity
        #expect((devicesTook ?? 0) >= 1.4, "the device discovery really waited on pactl (\(devicesTook ?? 0) s)")
        #expect(seen.count >= 10, "health was asked \(seen.count) times during the load")
        #expect(slowest < 1.0, "/api/health waited \(slowest) s behind a handler; all: \(seen.map { String(format: "%.3f", $0) })")
    }
}
