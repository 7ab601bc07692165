import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Testing

/// `GET /api/memories`, `POST /api/memories/ID/hide` and `…/unhide`, and the `memory` listing filter.
@Suite struct MemoriesAPITests {
    @Test("A year in review lists with its cover, fetches its photos, and hides for the user only")
    func memories() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        var urls: [URL] = []
        for index in 0..<10 {
            var metadata = ImageMetadata()
            metadata.dateTimeOriginal = ImageMetadata.DateTime(year: 2020, month: 1 + index, day: 10, hour: 12, minute: 0, second: 0)
            let url = test.folder.appendingPathComponent("year-\(index).jpg")
            try SyntheticPhoto(width: 48, height: 32, seed: UInt64(70 + index)).image().writingMetadata(metadata).encoded(as: .jpeg).write(to: url)
            urls.append(url)
        }
        try await test.library.performChanges { for url in urls { _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: url) } }

        let listed = try await test.user("GET", "/api/memories").object()
        let memories = try #require(listed["memories"] as? [[String: Any]], "\(listed)")
        let year = try #require(memories.first { $0["id"] as? String == "year-2020" }, "\(memories)")
        #expect(year["kind"] as? String == "year" && year["title"] as? String == "2020" && year["count"] as? Int == 10)
        #expect((year["cover"] as? [String: Any])?["localIdentifier"] is String)
        let fetch = try await test.user("POST", "/api/fetches", json: ["memory": "year-2020"]).object()
        #expect(fetch["count"] as? Int == 10)
        #expect(try await test.user("GET", "/api/assets?memory=nonsense").status == 400)

        let token = try await test.register("com.example.memories")
        #expect(try await test.client(token, "POST", "/api/memories/year-2020/hide").status == 403, "only the user hides memories")
        #expect(try await test.user("POST", "/api/memories/not-a-memory/hide").status == 404)
        #expect(try await test.user("POST", "/api/memories/year-2020/hide").status == 204)
        let after = try await test.user("GET", "/api/memories").object()
        #expect((after["memories"] as? [[String: Any]])?.contains { $0["id"] as? String == "year-2020" } == false)
        // Undo: unhiding shows it again, for the user only.
        #expect(try await test.client(token, "POST", "/api/memories/year-2020/unhide").status == 403, "only the user unhides memories")
        #expect(try await test.user("POST", "/api/memories/not-a-memory/unhide").status == 404)
        #expect(try await test.user("POST", "/api/memories/year-2020/unhide").status == 204)
        let undone = try await test.user("GET", "/api/memories").object()
        #expect((undone["memories"] as? [[String: Any]])?.contains { $0["id"] as? String == "year-2020" } == true)
    }
}
