import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Testing

/// `POST /api/assets/metadata`, the metadata fields of `PATCH /api/assets/ID`, `GET
/// /api/keywords`, the `keyword` filter and `GET /api/places/search` (issue 44 item 5).
@Suite struct MetadataAPITests {
    @Test("A selection's dates are previewed, then set; captions, keywords and ratings show in pages and are found; revert undoes")
    func correctingASelection() async throws {
        let test = try await TestServer.start(photos: 3)
        defer { test.stop() }
        let page = try await test.user("GET", "/api/assets?sort=creationDate&ascending=true").object()
        let listed = try #require(page["assets"] as? [[String: Any]])
        let ids = listed.compactMap { $0["localIdentifier"] as? String }
        #expect(ids.count == 3)

        // Preview a shift of two hours: nothing changes until it is applied.
        let preview = try await test.user("POST", "/api/assets/metadata", json: ["assets": ids, "date": ["shift": 7_200], "preview": true]).object()
        #expect(preview["count"] as? Int == 3, "\(preview)")
        let rows = try #require(preview["preview"] as? [[String: Any]])
        let before = listed.map { $0["creationDate"] as? String }
        #expect(rows.map { ($0["before"] as? [String: Any])?["creationDate"] as? String } == before)
        let expected = listed.map { asset -> String? in
            (asset["creationDate"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }.map {
                ISO8601DateFormatter().string(from: $0.addingTimeInterval(7_200))
            }
        }
        #expect(rows.map { ($0["after"] as? [String: Any])?["creationDate"] as? String } == expected)
        #expect(
            try await test.user("GET", "/api/assets/\(TestServer.escaped(ids[0]))").object()["asset"].flatMap {
                ($0 as? [String: Any])?["creationDate"] as? String
            } == before[0])

        let done = try await test.user("POST", "/api/assets/metadata", json: ["assets": ids, "date": ["shift": 7_200], "addKeywords": ["Family"]]).object()
        #expect(done["done"] as? Int == 3)
        let shifted = try #require(try await test.user("GET", "/api/assets?sort=creationDate&ascending=true").object()["assets"] as? [[String: Any]])
        #expect(shifted.map { $0["creationDate"] as? String } == expected)
        #expect(shifted.allSatisfy { ($0["userSet"] as? [String]) == ["creationDate"] && ($0["keywords"] as? [String]) == ["Family"] })

        // One photo, through PATCH: caption, more keywords, a rating, a place; the page shows them.
        let patched = try await test.user(
            "PATCH", "/api/assets/\(TestServer.escaped(ids[0]))",
            json: ["caption": "Grandma's birthday", "addKeywords": ["Places/Italy/Rome"], "rating": 4, "location": ["latitude": 41.89, "longitude": 12.49]])
        #expect(patched.status == 200, "\(patched.text)")
        let asset = try patched.object()
        #expect(asset["caption"] as? String == "Grandma's birthday" && asset["rating"] as? Int == 4)
        #expect(asset["keywords"] as? [String] == ["Family", "Places/Italy/Rome"] && asset["latitude"] as? Double == 41.89)
        #expect(asset["userSet"] as? [String] == ["creationDate", "location"])
        let first = try #require((try await test.user("GET", "/api/assets?keyword=places/italy").object()["assets"] as? [[String: Any]]))
        #expect(first.map { $0["localIdentifier"] as? String } == [ids[0]] && first.first?["caption"] as? String == "Grandma's birthday")
        let found = try await test.user("POST", "/api/fetches", json: ["search": "birthday"]).object()
        #expect(found["count"] as? Int == 1)
        let keywords = try #require(try await test.user("GET", "/api/keywords").object()["keywords"] as? [[String: Any]])
        #expect(keywords.map { $0["keyword"] as? String } == ["Family", "Places/Italy/Rome"] && keywords.map { $0["count"] as? Int } == [3, 1])

        // A ZIP with sidecars carries what was corrected (entries are stored, so the text is there).
        let archive = try await test.user("GET", "/api/archive?assets=\(TestServer.escaped(ids[0]))&sidecars=xmp")
        #expect(archive.status == 200 && archive.text.contains("<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">Grandma's birthday"))
        #expect(archive.text.contains(".xmp") && archive.text.contains("Places|Italy|Rome"))
        #expect(!(try await test.user("GET", "/api/archive?assets=\(TestServer.escaped(ids[0]))").text.contains("xmpmeta")))
        #expect(try await test.user("GET", "/api/archive?assets=\(TestServer.escaped(ids[0]))&sidecars=yes").status == 400)

        // Revert the date and place of the first: the file's values come back.
        let reverted = try await test.user("PATCH", "/api/assets/\(TestServer.escaped(ids[0]))", json: ["revert": ["creationDate", "location"]]).object()
        #expect(reverted["creationDate"] as? String == before[0] && reverted["latitude"] == nil && reverted["userSet"] == nil)
        #expect(reverted["caption"] as? String == "Grandma's birthday", "the words stay")
    }

    @Test("Bad corrections are 400s that name the value, and change nothing")
    func badCorrections() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let id = try #require((try await test.user("GET", "/api/assets").object()["assets"] as? [[String: Any]])?.first?["localIdentifier"] as? String)
        let cases: [([String: Any], String)] = [
            (["date": ["set": "2019-02-30T10:00"]], "2019-02-30T10:00"),
            (["date": ["set": "yesterday"]], "yesterday"),
            (["date": ["set": "2019-06-01T10:00", "shift": 60]], "not both"),
            (["date": ["timeZone": "Mars/Olympus"]], "Olympus"),
            (["date": ["shift": 60, "timeZone": "UTC"]], "shift"),
            (["date": [String: Any]()], "set, shift or timeZone"),
            (["rating": 9], "9"),
            (["location": ["latitude": 91, "longitude": 0]], "91"),
            (["keywords": ["a"], "addKeywords": ["b"]], "one of"),
            (["revert": ["title"]], "title"),
            (["date": ["shift": 60], "revert": ["creationDate"]], "not both"),
            (["date": ["shift": -1e12]], "500 years"),
            ([String: Any](), "changes nothing"),
        ]
        for (body, named) in cases {
            var json = body
            json["assets"] = [id]
            let answer = try await test.user("POST", "/api/assets/metadata", json: json)
            #expect(answer.status == 400 && answer.text.contains(named), "\(body): \(answer.status) \(answer.text)")
        }
        #expect(try await test.user("POST", "/api/assets/metadata", json: ["assets": ["NOPE"], "rating": 1]).status == 404)
        #expect(try await test.user("POST", "/api/assets/metadata", json: ["assets": [id], "fetch": "x", "rating": 1]).status == 400)
        #expect(try await test.user("POST", "/api/assets/metadata", json: ["assets": [id], "rating": 1, "preview": true]).status == 400)
        #expect(try await test.user("GET", "/api/assets?keyword=").status == 400)
        #expect(try await test.user("GET", "/api/places/search").status == 400)
        #expect(try await test.user("GET", "/api/places/search?q=rome&limit=0").status == 400)
        let asset = try #require(try await test.user("GET", "/api/assets/\(TestServer.escaped(id))").object()["asset"] as? [String: Any])
        #expect(asset["rating"] == nil && asset["keywords"] == nil && asset["userSet"] == nil)
    }

    @Test("Places are found by the start of their name in the offline table")
    func placeSearch() async throws {
        try #require(Gazetteer.standard.isAvailable, "the place table is absent: scripts/places install, and SHOEBOX_PLACES=$(scripts/places path)")
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let answer = try await test.user("GET", "/api/places/search?q=kyot&limit=3").object()
        let places = try #require(answer["places"] as? [[String: Any]])
        #expect(places.first?["name"] as? String == "Kyoto" && places.first?["country"] as? String == "Japan", "\(places)")
        #expect(places.first?["timeZone"] as? String == "Asia/Tokyo" && answer["placesInstalled"] as? Bool == true)
        let paris = try #require(try await test.user("GET", "/api/places/search?q=paris,%20france").object()["places"] as? [[String: Any]])
        #expect(!paris.isEmpty && paris.allSatisfy { $0["countryCode"] as? String == "FR" })
    }
}
