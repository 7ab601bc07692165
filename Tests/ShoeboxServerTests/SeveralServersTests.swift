import Foundation
import ShoeboxLibrary
@testable import ShoeboxServer
import ShoeboxTesting
import Testing

/// Two servers on one library, started with the same `--key` (behind one address, as a load
/// balancer without sticky sessions sends a browser's requests to either): the browser's cookie
/// and its page's CSRF token work on both, and what one changes the other serves. Servers with
/// different keys share neither.
@Suite struct SeveralServersTests {
    @Test func aBrowserSignedInOnOneServerWorksOnTheOther() async throws {
        let key = "shared-key-for-two-servers"
        let a = try await TestServer.start(photos: 1, configuration: .init(port: 0, userKey: key))
        defer { a.stop() }
        let other = try await PhotoLibrary.open(at: a.library.url)
        let b = ShoeboxServer(library: other, configuration: .init(port: 0, userKey: key))
        let running = Task { try await b.run() }
        defer { running.cancel() }
        for _ in 0..<500 where b.port == nil { try await Task.sleep(for: .milliseconds(10)) }
        let bHTTP = RawHTTP(port: try #require(b.port))

        let (cookie, csrf) = try await a.browserSession()
        // The page from A, the request to B: an album made through B.
        let made = try await bHTTP.send("POST", "/api/albums", headers: ["Cookie": cookie, "X-Shoebox-CSRF": csrf, "Content-Type": "application/json"],
                                        body: Data(#"{"title": "Made on B"}"#.utf8))
        #expect(made.status == 201, "\(made.status) \(made.text)")
        let listed = try await a.http.send("GET", "/api/albums", headers: ["Cookie": cookie])
        #expect(listed.status == 200 && listed.text.contains("Made on B"), "A serves what B made")

        // A server with another key takes neither the cookie nor the token.
        let stranger = ShoeboxServer(library: other, configuration: .init(port: 0, userKey: "another-key"))
        #expect(CallerMiddleware.cookieName(key: stranger.userKey) != CallerMiddleware.cookieName(key: key))
        #expect(stranger.state.csrfToken != csrf)
        #expect(b.state.csrfToken == csrf)
        #expect(!csrf.contains(key) && csrf.count == 64, "the token is derived, not the key")
    }

    /// A second server on `test`'s library, with its own catalog connection and the same key.
    private func secondServer(beside test: TestServer, key: String) async throws -> (ShoeboxServer, Task<Void, any Error>, RawHTTP) {
        let library = try await PhotoLibrary.open(at: test.library.url)
        let server = ShoeboxServer(library: library, configuration: .init(port: 0, userKey: key))
        let running = Task { try await server.run() }
        for _ in 0..<500 where server.port == nil { try await Task.sleep(for: .milliseconds(10)) }
        return (server, running, RawHTTP(port: try #require(server.port)))
    }

    @Test func aQuestionRaisedOnOneServerIsAnsweredOnTheOther() async throws {
        let key = "shared-key-for-prompts"
        let a = try await TestServer.start(photos: 2, configuration: .init(port: 0, userKey: key))
        defer { a.stop() }
        let (_, running, b) = try await secondServer(beside: a, key: key)
        defer { running.cancel() }
        let user = ["Authorization": "Bearer \(key)"]
        // The user's browser is connected to B.
        let events = try b.open("/api/events", headers: user)
        _ = await events.read(until: ": shoebox", timeout: 10)
        let token = try await a.register("com.example.booth")
        // The client asks on A.
        let asking = Task { try await a.client(token, "POST", "/api/authorization/photoLibrary") }
        var pending: [[String: Any]] = []
        for _ in 0..<100 where pending.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            pending = try await b.send("GET", "/api/prompts", headers: user).array()
        }
        let id = try #require(pending.first?["id"] as? String, "B does not list the question raised on A")
        #expect(await events.read(until: "event: prompt\n", timeout: 10).contains(id), "B's browser was not shown the question")
        // A second request for the same service, on B, waits for the same question.
        let again = Task { try await RawHTTP(port: b.port).send("POST", "/api/authorization/photoLibrary", headers: ["Authorization": "Bearer \(token)"]) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await b.send("GET", "/api/prompts", headers: user).array().count == 1, "one question for one client and service")
        let answered = try await b.send("POST", "/api/prompts/\(id)", headers: user.merging(["Content-Type": "application/json"]) { $1 },
                                        body: Data(#"{"answer": "selectPhotos", "assets": ["\#(a.photos[0])"]}"#.utf8))
        #expect(answered.status == 204, "\(answered.status) \(answered.text)")
        let response = try await asking.value
        let decided = try response.object()["status"] as? String
        #expect(response.status == 200 && decided == "limited", "A's client got \(response.text)")
        #expect((try await again.value.object()["status"] as? String) == "limited")
        #expect(await events.read(until: "event: promptSettled", timeout: 10).contains("event: promptSettled"), "B's browser still shows the answered question")
        // Answered once: a second answer is refused.
        #expect(try await a.user("POST", "/api/prompts/\(id)", json: ["answer": "deny"]).status == 404)
    }

    @Test func anAnswerStandsWhenTheServerThatAskedIsGone() async throws {
        let key = "shared-key-for-a-gone-server"
        let a = try await TestServer.start(photos: 1, configuration: .init(port: 0, userKey: key))
        defer { a.stop() }
        let (_, running, b) = try await secondServer(beside: a, key: key)
        let user = ["Authorization": "Bearer \(key)", "Content-Type": "application/json"]
        let token = try await a.register("com.example.cam")
        // The client asks on B, which then stops before the user answers.
        let asking = Task { try await b.send("POST", "/api/authorization/camera", headers: ["Authorization": "Bearer \(token)"]) }
        var pending: [[String: Any]] = []
        for _ in 0..<100 where pending.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            pending = try await a.user("GET", "/api/prompts").array()
        }
        let id = try #require(pending.first?["id"] as? String)
        let stop = ContinuousClock.now
        running.cancel()
        // The stopped server does not keep the client waiting for an answer it can no longer
        // hand over (an embedded server stopped by cancellation drops the connection; `shoebox
        // serve` stopping on SIGTERM answers 503, ask again).
        let stopped = try? await asking.value
        #expect(stopped == nil || stopped?.status == 503, "\(stopped?.status ?? 0) \(stopped?.text ?? "")")
        #expect(ContinuousClock.now - stop < .seconds(30), "the asking request outlived its server")
        // The user answers on A: the decision is recorded there, and the client, asking again on
        // A, is not asked twice.
        #expect(try await a.send("POST", "/api/prompts/\(id)", json: ["answer": "allow"], headers: user).status == 204)
        let status = try await a.client(token, "POST", "/api/authorization/camera")
        let decided = try status.object()["status"] as? String
        #expect(decided == "authorized", "\(status.text)")
        #expect(try await a.user("GET", "/api/prompts").array().isEmpty)
    }
}
