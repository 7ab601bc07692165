import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Testing

/// `GET /api/archive` and `?location=strip`: what the web app's Download gives, checked with
/// Python's `zipfile` and exiftool rather than our own readers.
@Suite struct ArchiveAPITests {
    /// The names and bytes in `zip`, after zipfile checked every CRC.
    static func entries(_ zip: Data, in folder: URL) throws -> [String: Data] {
        let file = folder.appendingPathComponent("download-\(UUID().uuidString).zip")
        try zip.write(to: file)
        let script = """
            import base64, json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                bad = z.testzip()
                if bad is not None:
                    sys.exit("bad CRC in " + bad)
                print(json.dumps({n: base64.b64encode(z.read(n)).decode() for n in z.namelist()}))
            """
        let result = try ChildProcess.run("python3", ["-c", script, file.path])
        try #require(result.status == 0, "zipfile refused the archive: \(result.standardError)")
        let read = try JSONDecoder().decode([String: String].self, from: Data(result.standardOutput.utf8))
        return read.compactMapValues { Data(base64Encoded: $0) }
    }

    /// A photo taken at the Colosseum, imported.
    static func placedPhoto(_ test: TestServer) async throws -> (id: String, bytes: Data) {
        var metadata = ImageMetadata()
        (metadata.make, metadata.model, metadata.latitude, metadata.longitude) = ("Shoebox", "Archive", 41.8902, 12.4922)
        let url = test.folder.appendingPathComponent("Rome.jpg")
        try SyntheticPhoto(width: 120, height: 90, seed: 21).image().writingMetadata(metadata).encoded(as: .jpeg).write(to: url)
        let made = try await test.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: url) }
        return (made.created[0].localIdentifier, try Data(contentsOf: url))
    }

    @Test("A ZIP of the named assets or of a fetch, named as asked, with or without the place")
    func archives() async throws {
        let test = try await TestServer.start(photos: 3)
        defer { test.stop() }
        let (rome, romeBytes) = try await Self.placedPhoto(test)
        let named = ([rome] + test.photos.prefix(1)).map(TestServer.escaped).joined(separator: ",")
        let zip = try await test.user("GET", "/api/archive?assets=\(named)&name=Trip%20to%20Rome")
        #expect(zip.status == 200 && zip.headers["content-type"] == "application/zip")
        #expect(zip.headers["content-disposition"]?.contains("filename=\"Trip to Rome.zip\"") == true, "\(zip.headers["content-disposition"] ?? "")")
        let kept = try Self.entries(zip.body, in: test.folder)
        #expect(kept.count == 2 && kept["Rome.jpg"] == romeBytes, "\(kept.keys.sorted())")

        let stripped = try Self.entries(try await test.user("GET", "/api/archive?assets=\(TestServer.escaped(rome))&location=strip").body, in: test.folder)
        let clean = try #require(stripped["Rome.jpg"])
        #expect(clean.count == romeBytes.count && clean != romeBytes)
        let file = test.folder.appendingPathComponent("clean.jpg")
        try clean.write(to: file)
        let exif = try ChildProcess.run("exiftool", ["-s", "-n", "-GPSLatitude", "-GPSLongitude", "-Model", file.path]).standardOutput
        #expect(!exif.contains("GPS") && exif.contains("Archive"), "\(exif)")

        // One photo, downloaded on its own without its place: the same bytes as in the ZIP.
        let single = try await test.user("GET", "/api/assets/\(TestServer.escaped(rome))/original?download=1&location=strip")
        #expect(single.status == 200 && single.body == clean && single.headers["content-length"] == "\(romeBytes.count)")
        #expect(single.headers["content-disposition"]?.contains("Rome.jpg") == true)

        // Select All: every asset of a fetch but those left out.
        let fetch = try await test.user("POST", "/api/fetches", json: [String: Any]()).object()
        let fetchID = try #require(fetch["id"] as? String)
        let all = try Self.entries(try await test.user("GET", "/api/archive?fetch=\(fetchID)&except=\(TestServer.escaped(rome))").body, in: test.folder)
        #expect(all.count == 3 && all["Rome.jpg"] == nil, "\(all.keys.sorted())")
    }

    @Test("A download and a ZIP entry are named by what the bytes are, not by a misleading extension")
    func namesFollowTheBytes() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let url = test.folder.appendingPathComponent("IMG_7.MOV")
        try SyntheticPhoto(width: 40, height: 30, seed: 5).image().encoded(as: .png).write(to: url)
        let made = try await test.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: url) }
        let id = TestServer.escaped(made.created[0].localIdentifier)
        for query in ["download=1", "download=1&location=strip"] {
            let download = try await test.user("GET", "/api/assets/\(id)/original?\(query)")
            #expect(download.status == 200 && download.headers["content-type"] == "image/png")
            #expect(download.headers["content-disposition"] == "attachment; filename=\"IMG_7.PNG\"", "\(query)")
        }
        let zip = try Self.entries(try await test.user("GET", "/api/archive?assets=\(id)&files=originals").body, in: test.folder)
        #expect(zip.keys.sorted() == ["IMG_7.PNG"])
    }

    @Test("Wrong requests are refused with what is wrong, before a byte of ZIP")
    func refusals() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let id = TestServer.escaped(test.photos[0])
        for (query, status) in [
            ("", 400), ("assets=\(id)&files=all", 400), ("assets=\(id)&location=fuzzy", 400), ("assets=NOPE", 404),
            ("assets=\(id),NOPE", 404), ("fetch=NOPE", 404), ("fetch=X&assets=\(id)", 400),
        ] {
            let response = try await test.user("GET", "/api/archive?\(query)")
            #expect(response.status == status, "\(query): \(response.status)")
            #expect(response.headers["content-type"]?.contains("json") == true, "\(query)")
        }
        #expect(try await test.user("GET", "/api/assets/\(id)/original?location=maybe").status == 400)
        // An asset named twice is one entry, not a 404; a missing one is named.
        let twice = try await test.user("GET", "/api/archive?assets=\(id),\(id),\(id)")
        #expect(twice.status == 200 && twice.headers["content-type"] == "application/zip", "\(twice.status) \(twice.text.prefix(200))")
        let missing = try await test.user("GET", "/api/archive?assets=\(id),NOPE")
        #expect(missing.status == 404 && missing.text.contains("NOPE"), "\(missing.text)")
    }
}
