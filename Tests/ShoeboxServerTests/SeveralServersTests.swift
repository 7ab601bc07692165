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
}
