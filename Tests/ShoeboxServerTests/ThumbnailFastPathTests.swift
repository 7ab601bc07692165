import Foundation
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxServer

/// The user's cached thumbnails answered from the channel pipeline: the same bytes and headers as
/// the routes, only for the user and this server's hosts, and in order on a pipelined connection.
@Suite struct ThumbnailFastPathTests {
    /// A versioned thumbnail URL of the first photo, already sent once (so it is cached).
    func cachedThumbnail(_ test: TestServer) async throws -> (path: String, first: RawHTTP.Response) {
        let id = TestServer.escaped(test.photos[0])
        let asset = try await test.user("GET", "/api/assets/\(id)").object()
        let version = try #require((asset["asset"] as? [String: Any])?["version"] as? String)
        let path = "/api/assets/\(id)/thumbnail?size=64&mode=fill&v=\(version)"
        let first = try await test.user("GET", path)
        #expect(first.status == 200 && first.headers["cache-control"]?.contains("immutable") == true)
        return (path, first)
    }

    var answered: (TestServer) -> Int { { $0.server.state.fastPathAnswers.load(ordering: .relaxed) } }

    @Test func theUserGetsTheSameBytesAndHeadersFromThePipeline() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let (path, first) = try await cachedThumbnail(test)
        let before = answered(test)
        let key = ["Authorization": "Bearer \(test.server.userKey)"]
        let tag = try #require(first.headers["etag"])
        let responses = try await test.http.pipeline([("GET", path, key), ("GET", path, key.merging(["If-None-Match": tag]) { $1 })])
        #expect(answered(test) == before + 2, "both answered by the fast path")
        let fast = responses[0]
        #expect(fast.status == 200 && fast.body == first.body)
        for name in [
            "content-type", "etag", "cache-control", "content-security-policy", "x-content-type-options", "referrer-policy",
            "x-frame-options", "cross-origin-opener-policy", "server",
        ] {
            #expect(fast.headers[name] == first.headers[name], "\(name)")
        }
        #expect(fast.headers["content-length"] == String(first.body.count))
        #expect(fast.headers["date"]?.hasSuffix(" GMT") == true)
        #expect(responses[1].status == 304 && responses[1].body.isEmpty && responses[1].headers["etag"] == tag)
        // The browser's way in: the key's cookie.
        let (cookie, _) = try await test.browserSession()
        let browser = try await test.http.pipeline([("GET", path, ["Cookie": "other=1; \(cookie)"])])
        #expect(browser[0].status == 200 && browser[0].body == first.body)
        #expect(answered(test) == before + 3)
    }

    @Test func clientsStrangersAndForeignHostsTakeTheChain() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let (path, _) = try await cachedThumbnail(test)
        let token = try await test.register("com.example.viewer")
        let before = answered(test)
        let responses = try await test.http.pipeline([
            ("GET", path, ["Authorization": "Bearer \(token)"]),  // a client with no grant yet
            ("GET", path, [:]),
            ("GET", path, ["Authorization": "Bearer wrong"]),
            ("GET", path, ["Cookie": "\(CallerMiddleware.cookieName(key: test.server.userKey))=wrong"]),
        ])
        #expect(responses.map(\.status) == [403, 401, 401, 401])
        let rebound = try await test.http.pipeline([("GET", path, ["Authorization": "Bearer \(test.server.userKey)"])], host: "attacker.example:\(test.port)")
        #expect(rebound[0].status == 421)
        #expect(answered(test) == before, "none of these came from the cache")
        // Allowed, the client's request is still checked by the chain each time (and logged).
        #expect(try await test.user("PUT", "/api/clients/com.example.viewer/services/photoLibrary", json: ["status": "authorized"]).status == 200)
        #expect(try await test.http.pipeline([("GET", path, ["Authorization": "Bearer \(token)"])])[0].status == 200)
        #expect(answered(test) == before)
        // The user, but on a connection to close after it: the chain answers (and closes).
        let closing = try await test.http.send("GET", path, headers: ["Authorization": "Bearer \(test.server.userKey)"])
        #expect(closing.status == 200)
        #expect(answered(test) == before)
    }

    @Test func fieldNamesInAnyCaseAreTheSameFields() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let (path, first) = try await cachedThumbnail(test)
        let before = answered(test)
        let tag = try #require(first.headers["etag"])
        let responses = try await test.http.pipeline([
            ("GET", path, ["AUTHORIZATION": "Bearer \(test.server.userKey)"]),
            ("GET", path, ["authorization": "Bearer \(test.server.userKey)", "if-NONE-match": tag]),
            ("GET", path, ["Authorisation": "Bearer \(test.server.userKey)"]),  // not the field: nobody
        ])
        #expect(responses.map(\.status) == [200, 304, 401])
        #expect(responses[0].body == first.body)
        #expect(answered(test) == before + 2)
        #expect(ThumbnailFastPath.name("If-None-Match", is: "if-none-match") && !ThumbnailFastPath.name("If-None-Matcх", is: "if-none-match"))
    }

    @Test func pipelinedResponsesKeepTheirOrder() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let (path, first) = try await cachedThumbnail(test)
        let key = ["Authorization": "Bearer \(test.server.userKey)"]
        // The albums go to Hummingbird; the thumbnail behind them must not overtake them.
        let responses = try await test.http.pipeline([("GET", "/api/albums", key), ("GET", path, key), ("GET", "/api/health", key), ("GET", path, key)])
        #expect(responses.map(\.status) == [200, 200, 200, 200])
        #expect(try responses[0].object()["smartAlbums"] != nil)
        #expect(responses[1].body == first.body)
        #expect(try responses[2].object()["ok"] as? Bool == true)
        #expect(responses[3].body == first.body)
    }
}
