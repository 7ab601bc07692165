import Foundation
import ShoeboxTesting
import Testing

/// `shoebox serve` as a user runs it: it stops at once on SIGINT or SIGTERM, even with the web
/// app's event stream open (a browser tab), instead of waiting for the stream to end.
@Suite struct ServeCommandTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func stopsPromptlyWithAnEventStreamOpen(_ signal: Int32) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = folder.appendingPathComponent("Serve.shoebox").path
        #expect(try CLIRunner.run(["init", "--library", library]).status == 0)
        let key = UUID().uuidString
        let server = try BackgroundCommand(["serve", "--library", library, "--port", "0", "--json", "--key", key])
        defer { server.interrupt() }
        let ready = try await server.line(containing: #""port""#)
        let port = try #require((try JSONSerialization.jsonObject(with: Data(ready.utf8)) as? [String: Any])?["port"] as? Int)
        let events = try RawHTTP(port: port).open("/api/events", headers: ["Authorization": "Bearer \(key)"])
        #expect(await events.read(until: ": shoebox", timeout: 10).contains("text/event-stream"))
        let sent = Date()
        server.signal(signal)
        let status = try await server.waitForExit(timeout: 20)
        let took = Date().timeIntervalSince(sent)
        #expect(status == 0, "\(server.standardError)")
        #expect(took < 5, "stopping took \(took) s")
        // The stream was ended by the server, not left hanging.
        #expect(await events.read(until: "never sent", timeout: 2).hasSuffix("0\r\n\r\n"))
    }

    /// The key in the URL `serve --json` prints.
    static func key(of server: BackgroundCommand) async throws -> String {
        let ready = try await server.line(containing: #""port""#)
        let url = try #require((try JSONSerialization.jsonObject(with: Data(ready.utf8)) as? [String: Any])?["url"] as? String)
        return try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "key" }?.value)
    }

    /// Servers of a PostgreSQL catalog share the key it keeps (no --key needed behind a load
    /// balancer); --rotate-key replaces it; an embedded library's server makes one per run.
    @Test func serversOfAPostgreSQLCatalogShareItsKey() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-serve-key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let catalog = try PostgresTestServer.freshDatabase()
        var libraries: [String] = []
        for node in ["a", "b"] {
            let library = folder.appendingPathComponent("\(node)/Photos.shoebox").path
            let made = try CLIRunner.run(["init", "--library", library, "--catalog", catalog])
            #expect(made.status == 0, "\(made.standardError)")
            libraries.append(library)
        }
        let a = try BackgroundCommand(["serve", "--library", libraries[0], "--port", "0", "--json", "--no-worker"])
        let b = try BackgroundCommand(["serve", "--library", libraries[1], "--port", "0", "--json", "--no-worker"])
        let keyA = try await Self.key(of: a)
        let keyB = try await Self.key(of: b)
        a.interrupt()
        b.interrupt()
        _ = try await a.waitForExit(timeout: 20)
        _ = try await b.waitForExit(timeout: 20)
        #expect(keyA == keyB && keyA.count == 64, "two servers of one catalog made different keys: \(keyA) \(keyB)")
        let rotated = try BackgroundCommand(["serve", "--library", libraries[1], "--port", "0", "--json", "--no-worker", "--rotate-key"])
        let newKey = try await Self.key(of: rotated)
        rotated.interrupt()
        _ = try await rotated.waitForExit(timeout: 20)
        #expect(newKey != keyA && newKey.count == 64)
        let again = try BackgroundCommand(["serve", "--library", libraries[0], "--port", "0", "--json", "--no-worker"])
        #expect(try await Self.key(of: again) == newKey, "the rotated key is not the one the next server uses")
        again.interrupt()
        _ = try await again.waitForExit(timeout: 20)

        // An embedded library: a key per run, and nothing to rotate.
        let embedded = folder.appendingPathComponent("Embedded.shoebox").path
        #expect(try CLIRunner.run(["init", "--library", embedded]).status == 0)
        let refused = try CLIRunner.run(["serve", "--library", embedded, "--port", "0", "--rotate-key"])
        #expect(
            refused.status == 64 && refused.standardError.contains("--rotate-key is for a library whose catalog is PostgreSQL"),
            "\(refused.status) \(refused.standardError)")
    }
}
