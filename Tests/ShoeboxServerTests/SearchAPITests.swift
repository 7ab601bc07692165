import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Testing

/// `search` in the listing filters (`POST /api/fetches`, `GET /api/assets`): what the web app's
/// search field sends, and what the fetch says it understood.
@Suite struct SearchAPITests {
    @Test("A search fetch finds by place and date, says what it understood, and keeps to the caller's grant")
    func searchFetches() async throws {
        try #require(Gazetteer.standard.isAvailable, "the place table is absent: scripts/places install, and SHOEBOX_PLACES=$(scripts/places path)")
        let test = try await TestServer.start(photos: 2)
        defer { test.stop() }
        var metadata = ImageMetadata()
        (metadata.latitude, metadata.longitude) = (41.8902, 12.4922)
        metadata.dateTimeOriginal = ImageMetadata.DateTime(year: 2019, month: 6, day: 10, hour: 12, minute: 0, second: 0)
        let url = test.folder.appendingPathComponent("Colosseum.jpg")
        try SyntheticPhoto(width: 80, height: 60, seed: 31).image().writingMetadata(metadata).encoded(as: .jpeg).write(to: url)
        let made = try await test.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: url) }
        let rome = made.created[0].localIdentifier

        let fetch = try await test.user("POST", "/api/fetches", json: ["search": "Italy 2019 photos"]).object()
        #expect(fetch["count"] as? Int == 1, "\(fetch)")
        #expect(fetch["search"] as? [String] == ["“italy”", "2019", "Photos"])
        let page = try await test.user("GET", "/api/fetches/\(try #require(fetch["id"] as? String))/assets").object()
        let found = try #require((page["assets"] as? [[String: Any]])?.first)
        #expect(found["localIdentifier"] as? String == rome)
        #expect(found["place"] as? String == "Rome, Italy", "the info panel's place name: \(found["place"] ?? "none")")
        #expect(try await test.user("POST", "/api/fetches", json: ["search": "italy 2020"]).object()["count"] as? Int == 0)
        // A file-name filter longer than a file name is refused before it costs a row.
        let long = try await test.user("GET", "/api/assets?filename=\(String(repeating: "%25", count: 300))")
        #expect(long.status == 400 && long.text.contains("255"), "\(long.status) \(long.text)")
        let listed = try await test.user("GET", "/api/assets?search=rome").object()
        #expect((listed["assets"] as? [Any])?.count == 1, "\(listed)")
        // No search: no `search` in the answer.
        #expect(try await test.user("POST", "/api/fetches", json: [String: Any]()).object()["search"] == nil)
        #expect(try await test.user("POST", "/api/fetches", json: ["search": String(repeating: "a ", count: 300)]).status == 400)

        // A client with limited access finds only what was shared with it.
        let token = try await test.register("com.example.searcher")
        #expect(try await test.user("PUT", "/api/clients/com.example.searcher/limited", json: ["assets": [test.photos[0]]]).status == 200)
        #expect(try await test.user("PUT", "/api/clients/com.example.searcher/services/photoLibrary", json: ["status": "limited"]).status == 200)
        #expect(try await test.client(token, "POST", "/api/fetches", json: ["search": "rome"]).object()["count"] as? Int == 0)
        #expect(try await test.user("PUT", "/api/clients/com.example.searcher/limited", json: ["assets": [test.photos[0], rome]]).status == 200)
        #expect(try await test.client(token, "POST", "/api/fetches", json: ["search": "rome"]).object()["count"] as? Int == 1)
    }
}
