import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Synchronization
import Testing

/// Issue 39 items B and G(b): `shoebox serve` on a PostgreSQL catalog that restarts (2.5 s
/// away) while clients upload. Every request is answered — a photo kept, or `503
/// catalogUnavailable` with `Retry-After` and no SQL, the details in the server's log — and
/// SIGTERM afterwards stops the server at once, leaving nothing in staging. Before, uploads in
/// flight were never answered and the server ignored SIGTERM. On a cluster of its own.
@Suite struct ServeOutageTests {
    struct Answer: Sendable {
        let status: Int
        let took: Duration
        let text: String
        let retryAfter: String?
    }

    final class Uploads: Sendable {
        let stopped = Atomic<Bool>(false)
        let answers = Mutex<[Answer]>([])
    }

    @Test func aCatalogRestartAnswersEveryRequestAndSIGTERMStops() async throws {
        let cluster = try ThrowawayServer(.postgres, name: "serve-outage")
        defer { cluster.remove() }
        let folder = cluster.folder
        let catalog = cluster.url
        let catalogPort = try #require(URLComponents(string: catalog)?.port)
        let library = folder.appendingPathComponent("L.shoebox")
        let made = try CLIRunner.run(["init", "--library", library.path, "--catalog", catalog])
        try #require(made.status == 0, "\(made.standardError)")
        let key = UUID().uuidString
        let server = try BackgroundCommand(["serve", "--library", library.path, "--port", "0", "--json", "--key", key])
        defer { server.interrupt() }
        let ready = try await server.line(containing: #""port""#)
        let port = try #require((try JSONSerialization.jsonObject(with: Data(ready.utf8)) as? [String: Any])?["port"] as? Int)
        let http = RawHTTP(port: port)
        let photos = try (1...12).map { seed in try SyntheticPhoto(width: 640, height: 480, seed: UInt64(seed)).image().encoded(as: .jpeg) }

        // Six clients upload back to back (each photo made new by a few random bytes after it).
        let uploads = Uploads()
        let clients = (0..<6).map { client in
            Task {
                var round = 0
                while !uploads.stopped.load(ordering: .relaxed) {
                    round += 1
                    var body = photos[(client + round) % photos.count]
                    body.append(Data(UUID().uuidString.utf8))
                    let began = ContinuousClock.now
                    let answer: Answer
                    do {
                        let response = try await http.send(
                            "POST", "/api/assets?filename=c\(client)-\(round).jpg",
                            headers: ["Authorization": "Bearer \(key)", "Content-Type": "image/jpeg"], body: body, timeout: 120)
                        answer = Answer(
                            status: response.status, took: ContinuousClock.now - began, text: response.text, retryAfter: response.headers["retry-after"])
                    } catch {
                        answer = Answer(status: 0, took: ContinuousClock.now - began, text: "\(error)", retryAfter: nil)
                    }
                    uploads.answers.withLock { $0.append(answer) }
                }
            }
        }
        try await Task.sleep(for: .seconds(3))
        try cluster.halt()
        try await Task.sleep(for: .milliseconds(2_500))
        try cluster.start()
        try await Task.sleep(for: .seconds(3))
        uploads.stopped.store(true, ordering: .relaxed)
        for client in clients { await client.value }

        let answers = uploads.answers.withLock { $0 }
        #expect(answers.filter { $0.status == 201 }.count > 6, "\(answers.map(\.status))")
        for answer in answers where answer.status != 201 {
            #expect(answer.status == 503, "an upload was answered \(answer.status) after \(answer.took): \(answer.text.prefix(300))")
            #expect(answer.text.contains("catalogUnavailable") && answer.retryAfter != nil, "\(answer.text.prefix(300))")
        }
        let longest = answers.map(\.took).max() ?? .zero
        #expect(longest < .seconds(45), "an upload was answered after \(longest)")

        // While the catalog is away, a request is a 503 that says so, without SQL; the log has the details.
        try cluster.halt()
        let away = try await http.send("GET", "/api/assets?limit=5", headers: ["Authorization": "Bearer \(key)"], timeout: 60)
        #expect(away.status == 503, "\(away.status) \(away.text)")
        #expect(away.headers["retry-after"] == "5")
        #expect(away.text.contains(#""code":"catalogUnavailable""#), "\(away.text)")
        for detail in ["SELECT", "PSQLError", "SQLSTATE", "127.0.0.1"] {
            #expect(!away.text.contains(detail), "\(away.text)")
        }
        #expect(
            server.standardError.contains("catalog unavailable: the catalog (PostgreSQL at 127.0.0.1:\(catalogPort))"), "\(server.standardError.suffix(2000))")
        try cluster.start()

        // SIGTERM stops it promptly, and it leaves nothing in staging.
        let signalled = ContinuousClock.now
        server.signal(SIGTERM)
        let status = try await server.waitForExit(timeout: 60)
        let stopping = ContinuousClock.now - signalled
        #expect(status == 0, "\(server.standardError.suffix(2000))")
        #expect(stopping < .seconds(20), "stopping took \(stopping)")
        let staging = library.appendingPathComponent("staging")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
        #expect(left.isEmpty, "left in staging: \(left)")
    }
}
