import Foundation
import ShoeboxTesting
import Testing

/// Requests that used to end in a 500 or be answered when they should not (issue 17 item 15):
/// oversized JSON is 413, a second Host header is refused, and an internal error names no
/// internals.
@Suite struct RequestHygieneTests {
    @Test func oversizedJSONIs413() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let title = String(repeating: "a", count: 1_100_000)
        let response = try await test.user("POST", "/api/albums", body: Data(#"{"title": "\#(title)"}"#.utf8), headers: ["Content-Type": "application/json"])
        #expect(response.status == 413, "\(response.status) \(response.text.prefix(200))")
        #expect(try response.object()["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } == "tooLarge")
        #expect(!response.text.contains("NIO"), "the answer names an internal type: \(response.text)")
    }

    @Test func aSecondHostHeaderIsRefused() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        // RawHTTP writes the right Host first; this adds another.
        let response = try await test.user("GET", "/api/health", headers: ["host": "evil.example"])
        #expect(response.status == 400 && response.text.contains("more than one Host"), "\(response.status) \(response.text)")
        #expect(try await test.user("GET", "/api/health").status == 200)
    }
}
