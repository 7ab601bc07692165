import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxServer

/// `PhotoLibraryServer.stop()` stops as SIGTERM stops `shoebox serve`: requests in progress get
/// their answers, event streams end, the serving task returns, and no new connection is taken.
@Suite struct GracefulStopTests {
    @Test func stoppingAnswersWhatIsInProgressThenEnds() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let token = try await test.register("com.example.avatar")
        let created = try await test.client(token, "POST", "/api/picker/sessions", json: [:])
        let session = try #require(try created.object()["id"] as? String)
        let events = try test.http.open("/api/events", headers: ["Authorization": "Bearer \(test.server.userKey)"])
        #expect(await events.read(until: ": shoebox", timeout: 10).contains(": shoebox"))
        // A client waits for the pick (for up to 60 s) while the server is told to stop.
        let timedWaits = try await test.server.timedWaits(onPickerSession: session)
        let waiting = Task { try await test.client(token, "GET", "/api/picker/sessions/\(session)?wait=60") }
        #expect(await timedWaits.wait { $0.last == 1 }, "the client's request does not wait")
        let stopping = ContinuousClock.now
        await test.server.stop()
        let answer = try await waiting.value
        let status = try answer.object()["status"] as? String
        #expect(answer.status == 200 && status == "pending", "\(answer.status) \(answer.text)")
        // The last chunk ends the event stream.
        #expect(await events.read(until: "\r\n0\r\n\r\n", timeout: 10).hasSuffix("\r\n0\r\n\r\n"), "the event stream was not ended")
        try await test.waitUntilStopped()
        #expect(ContinuousClock.now - stopping < .seconds(30), "the stop waited for the client's 60 s")
        await #expect(throws: (any Error).self, "a stopped server still took a connection") {
            try await test.http.send("GET", "/api/health")
        }
    }
}
