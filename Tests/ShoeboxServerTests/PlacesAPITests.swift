import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Testing

/// `/api/places`, `/api/places/clusters`, `/api/places/world` and the `place` and `region`
/// listing filters: what the web app's Places view and map ask.
@Suite struct PlacesAPITests {
    @Test("Places, map clusters and outlines; a place's and a cluster's photos; a client sees its own places only")
    func places() async throws {
        try #require(Gazetteer.standard.isAvailable, "the place table is absent: scripts/places install, and SHOEBOX_PLACES=$(scripts/places path)")
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        var made: [String] = []
        for (index, (latitude, longitude)) in [(41.8902, 12.4922), (41.9009, 12.4833), (35.0116, 135.7681)].enumerated() {
            var metadata = ImageMetadata()
            (metadata.latitude, metadata.longitude) = (latitude, longitude)
            let url = test.folder.appendingPathComponent("placed-\(index).jpg")
            try SyntheticPhoto(width: 80, height: 60, seed: UInt64(40 + index)).image().writingMetadata(metadata).encoded(as: .jpeg).write(to: url)
            made.append(try await test.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: url) }.created[0].localIdentifier)
        }

        let places = try await test.user("GET", "/api/places").object()
        let countries = try #require(places["countries"] as? [[String: Any]], "\(places)")
        #expect(countries.map { $0["code"] as? String } == ["IT", "JP"])
        #expect(countries.map { $0["name"] as? String } == ["Italy", "Japan"])
        #expect(countries.map { $0["count"] as? Int } == [2, 1])
        let rome = try #require((countries[0]["cities"] as? [[String: Any]])?.first)
        #expect(rome["name"] as? String == "Rome" && rome["count"] as? Int == 2)
        #expect((rome["cover"] as? [String: Any])?["localIdentifier"] as? String == made[1], "the cover is an Asset, the latest added")
        #expect(places["placesInstalled"] as? Bool == true)

        let inRome = try await test.user("POST", "/api/fetches", json: ["place": "IT/Rome"]).object()
        #expect(inRome["count"] as? Int == 2, "\(inRome)")
        #expect(try await test.user("GET", "/api/assets?place=JP").object()["assets"].map { ($0 as? [Any])?.count } == 1)
        #expect(try await test.user("GET", "/api/assets?place=Italy").status == 400)

        let world = try await test.user("GET", "/api/places/clusters?cell=20").object()
        let clusters = try #require(world["clusters"] as? [[String: Any]])
        #expect(clusters.map { $0["count"] as? Int } == [2, 1])
        let region = try #require(clusters[0]["region"] as? String)
        let inCluster = try await test.user("POST", "/api/fetches", json: ["region": region]).object()
        #expect(inCluster["count"] as? Int == 2, "the cluster's region fetches its photos: \(region)")
        #expect(try await test.user("GET", "/api/places/clusters").status == 400)
        #expect(try await test.user("GET", "/api/places/clusters?cell=0").status == 400)
        #expect(try await test.user("GET", "/api/assets?region=10,0,5,20").status == 400, "south above north")

        let outlines = try await test.user("GET", "/api/places/world")
        #expect(outlines.status == 200)
        let shapes = try #require(try outlines.object()["countries"] as? [[String: Any]])
        #expect(shapes.count > 150 && shapes.contains { $0["code"] as? String == "IT" && ($0["d"] as? String)?.hasPrefix("M") == true })

        // A client with limited access to the Kyoto photo sees Japan only, and only its cluster.
        let token = try await test.register("com.example.places")
        #expect(try await test.user("PUT", "/api/clients/com.example.places/limited", json: ["assets": [made[2]]]).status == 200)
        #expect(try await test.user("PUT", "/api/clients/com.example.places/services/photoLibrary", json: ["status": "limited"]).status == 200)
        let seen = try await test.client(token, "GET", "/api/places").object()
        #expect((seen["countries"] as? [[String: Any]])?.map { $0["code"] as? String } == ["JP"], "\(seen)")
        let theirs = try await test.client(token, "GET", "/api/places/clusters?cell=20").object()
        #expect((theirs["clusters"] as? [[String: Any]])?.map { $0["count"] as? Int } == [1])
        #expect(try await test.client(token, "POST", "/api/fetches", json: ["place": "IT"]).object()["count"] as? Int == 0)
    }
}
