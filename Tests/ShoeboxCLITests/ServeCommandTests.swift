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
}
