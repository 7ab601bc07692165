import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Testing

/// Shared links from outside: a link shows its photos by number and nothing else of the library
/// (no identifiers, names, other photos or API), without place and camera unless asked, asks
/// for its password, logs its views, and stops at once when turned off or expired.
@Suite struct SharedLinkAPITests {
    /// What exiftool reads of a few tags in `data` (empty ones left out).
    static func tags(_ data: Data, in folder: URL) throws -> [String: String] {
        let url = folder.appendingPathComponent("read-\(UUID().uuidString).jpg")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try ChildProcess.run("exiftool", ["-s", "-n", "-GPSLatitude", "-Make", "-Model", "-DateTimeOriginal", url.path])
        var tags: [String: String] = [:]
        for line in result.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, !parts[1].isEmpty { tags[parts[0]] = parts[1] }
        }
        return tags
    }

    @Test("A member's link shows the member's photos (their thumbnail, picture and download), not only the first admin's")
    func aMembersLink() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let member = try await test.library.addPerson(name: "bob")
        let bobs = test.library.forPerson(member)
        let url = test.folder.appendingPathComponent("bob.jpg")
        try SyntheticPhoto(width: 320, height: 240, seed: 91).image().write(to: url)
        let id = try await bobs.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }.created[0].localIdentifier
        let photo = try #require(try await bobs.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        let (_, token) = try await bobs.createSharedLink(assets: [photo], options: .init(allowsDownload: true))
        for part in ["thumbnail", "image", "download"] {
            let response = try await test.send("GET", "/s/\(token)/0/\(part)")
            #expect(response.status == 200 && response.headers["content-type"] == "image/jpeg", "\(part): \(response.status) \(response.text.prefix(200))")
        }
    }

    @Test("An album's link shows its photos and nothing else, without metadata, counts its views, and stops when turned off")
    func albumLink() async throws {
        let test = try await TestServer.start(photos: 2)
        defer { test.stop() }
        var metadata = ImageMetadata()
        (metadata.make, metadata.model) = ("Canon", "Canon EOS R5")
        (metadata.latitude, metadata.longitude) = (41.8902, 12.4922)
        metadata.dateTimeOriginal = ImageMetadata.DateTime(year: 2019, month: 6, day: 10, hour: 12, minute: 0, second: 0)
        let placedData = try SyntheticPhoto(width: 320, height: 240, seed: 90).image().encoded(as: .jpeg)
        let placed = try await test.library.performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(from: placedData, metadata: metadata, filename: "SECRET-NAME-COLOSSEUM.jpg")
        }.created[0].localIdentifier
        let album = try await test.user("POST", "/api/albums", json: ["title": "Rome trip", "assets": [placed, test.photos[0]]]).object()
        let albumID = try #require(album["localIdentifier"] as? String)

        let made = try await test.user("POST", "/api/shares", json: ["album": albumID]).object()
        let url = try #require(made["url"] as? String)
        let share = try #require(made["share"] as? [String: Any])
        let shareID = try #require(share["id"] as? String)
        #expect(url.hasPrefix("/s/") && url.count >= 40, "a 256-bit token: \(url)")
        #expect(share["allowsDownload"] as? Bool == false && share["includesMetadata"] as? Bool == false)

        // Anyone, no credentials.
        let data = try await test.send("GET", "\(url)/data")
        #expect(data.status == 200)
        let gallery = try data.object()
        #expect(gallery["title"] as? String == "Rome trip" && gallery["count"] as? Int == 2)
        for secret in [placed, test.photos[0], test.photos[1], "SECRET-NAME", albumID, "creationDate", "41.89"] {
            #expect(!data.text.contains(secret), "the gallery's data holds \(secret)")
        }
        let page = try await test.send("GET", url)
        #expect(page.status == 200 && page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(!page.text.contains(placed) && !page.text.contains("SECRET-NAME"), "the page is the same for every link")
        let thumbnail = try await test.send("GET", "\(url)/0/thumbnail")
        #expect(thumbnail.status == 200 && thumbnail.headers["content-type"] == "image/jpeg")
        // Item 0 is the album's first: whichever it is, neither it nor the other has metadata.
        for index in 0..<2 {
            let image = try await test.send("GET", "\(url)/\(index)/image")
            #expect(image.status == 200)
            #expect(try Self.tags(image.body, in: test.folder).isEmpty, "item \(index) keeps metadata")
        }
        for wrong in ["2", "-1", "01", "x", "99999999999999999999"] {
            #expect(try await test.send("GET", "\(url)/\(wrong)/image").status == 404, "item \(wrong)")
        }
        #expect(try await test.send("GET", "\(url)/0/download").status == 403, "downloads are off by default")
        // The link opens nothing else.
        #expect(try await test.send("GET", "/api/albums").status == 401)
        #expect(try await test.send("GET", "/api/albums", headers: ["Authorization": "Bearer \(url.dropFirst(3))"]).status == 401)
        #expect(try await test.send("GET", "/api/assets/\(TestServer.escaped(placed))/thumbnail").status == 401)
        #expect(try await test.send("GET", "/s/\(String(repeating: "A", count: 43))/data").status == 404)
        #expect(try await test.send("GET", "\(url)x/data").status == 404)
        // The album as it is now: a photo taken out leaves the link.
        #expect(try await test.user("POST", "/api/albums/\(TestServer.escaped(albumID))/remove", json: ["assets": [test.photos[0]]]).status == 200)
        #expect(try await test.send("GET", "\(url)/data").object()["count"] as? Int == 1)

        // The user sees the link and its views; clients see none of it.
        let listed = try await test.user("GET", "/api/shares").object()
        let row = try #require((listed["shares"] as? [[String: Any]])?.first)
        // One visitor's page, list and photos are one visit.
        #expect(row["id"] as? String == shareID && row["viewCount"] as? Int == 1 && row["isOpen"] as? Bool == true, "\(row)")
        let views = try await test.user("GET", "/api/shares/\(shareID)/views").object()
        let what = (views["views"] as? [[String: Any]])?.compactMap { $0["what"] as? String } ?? []
        #expect(Set(what) == ["visit", "download 0"] && what.count == 2, "one visit and a refused download: \(what)")
        let token = try await test.register("com.example.sharer")
        #expect(try await test.client(token, "GET", "/api/shares").status == 403)
        #expect(try await test.client(token, "POST", "/api/shares", json: ["album": albumID]).status == 403)

        // Turned off: gone at once, for the data, the photos and the page.
        #expect(try await test.user("DELETE", "/api/shares/\(shareID)").status == 204)
        #expect(try await test.send("GET", "\(url)/data").status == 404)
        #expect(try await test.send("GET", "\(url)/0/thumbnail").status == 404)
        #expect(try await test.send("GET", url).status == 404)
        #expect(try await test.user("DELETE", "/api/shares/nope").status == 404)
    }

    @Test("Guessing a link's password is throttled and logged; entity tags say nothing of the photo")
    func guessingAndEntityTags() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let made = try await test.user("POST", "/api/shares", json: ["assets": [test.photos[0]], "password": "right one"]).object()
        let url = try #require(made["url"] as? String)
        for guess in 1...5 {
            #expect(try await test.send("POST", "\(url)/unlock", json: ["password": "guess \(guess)"]).status == 401)
        }
        // The sixth try waits, even with the right password: a guesser cannot tell.
        let refused = try await test.send("POST", "\(url)/unlock", json: ["password": "right one"])
        #expect(refused.status == 429 && refused.text.contains("tooManyAttempts") && refused.headers["retry-after"] != nil, "\(refused.status)")
        let shareID = try #require((made["share"] as? [String: Any])?["id"] as? String)
        let views = try await test.user("GET", "/api/shares/\(shareID)/views").object()
        #expect((views["views"] as? [[String: Any]])?.filter { $0["what"] as? String == "wrong password" }.count == 5)

        // Entity tags: not the photo's hash, and two links' copies of one photo differ.
        let asset = try #require(try await test.library.fetchAssets(withLocalIdentifiers: [test.photos[0]]).firstObject)
        let open = try await test.user("POST", "/api/shares", json: ["assets": [test.photos[0]]]).object()
        let other = try await test.user("POST", "/api/shares", json: ["assets": [test.photos[0]]]).object()
        let first = try await test.send("GET", "\(try #require(open["url"] as? String))/0/thumbnail")
        let second = try await test.send("GET", "\(try #require(other["url"] as? String))/0/thumbnail")
        let tag = try #require(first.headers["etag"])
        #expect(!tag.contains(asset.contentHash.prefix(16)) && tag != second.headers["etag"], "\(tag)")
        #expect(try await test.send("GET", "\(try #require(open["url"] as? String))/0/thumbnail", headers: ["If-None-Match": tag]).status == 304)
    }

    @Test("Link visitors' renders have their own slots: past them a link is busy, and the user's own work goes on")
    func linkRendersHaveTheirOwnBudget() async throws {
        var configuration = PhotoLibraryServer.Configuration(port: 0)
        (configuration.sharedLinkRenders, configuration.sharedLinkQueue) = (1, 0)
        let test = try await TestServer.start(photos: 0, configuration: configuration)
        defer { test.stop() }
        var ids: [String] = []
        for seed in 0..<6 {
            let data = try SyntheticPhoto(width: 1600, height: 1200, seed: UInt64(200 + seed)).image().encoded(as: .jpeg)
            ids.append(try await test.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(from: data) }.created[0].localIdentifier)
        }
        let made = try await test.user("POST", "/api/shares", json: ["assets": Array(ids.dropLast())]).object()
        let url = try #require(made["url"] as? String)
        let userPhoto = TestServer.escaped(ids[5])
        // Five full-size images at once, none made yet: one slot, no queue.
        let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for index in 0..<5 {
                group.addTask {
                    let answer = try await test.send("GET", "\(url)/\(index)/image")
                    return (answer.status, answer.headers["retry-after"])
                }
            }
            // The user's own thumbnail, meanwhile, is not in the links' slots.
            group.addTask { (try await test.user("GET", "/api/assets/\(userPhoto)/thumbnail").status, "user") }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let links = statuses.filter { $0.1 != "user" }
        #expect(statuses.contains { $0 == (200, "user") }, "the user's thumbnail: \(statuses)")
        #expect(links.contains { $0.0 == 200 } && links.contains { $0.0 == 503 && $0.1 == "2" }, "\(links)")
        #expect(links.allSatisfy { $0.0 == 200 || $0.0 == 503 })
    }

    /// Everything exiftool and ffprobe read of a movie, as text.
    static func movieTags(_ data: Data, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent("read-\(UUID().uuidString).mp4")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let exiftool = try ChildProcess.run("exiftool", ["-a", "-G1", "-s", "-n", url.path])
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "compact", url.path])
        return exiftool.standardOutput + probe.standardOutput
    }

    @Test("A movie with a 3GPP place, trimmed, loses its place in downloads and its place, date and camera in a link without metadata")
    func movieWithoutPlaceOrDate() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        // As Android phones write it: ISO 6709 in a `loci` box (ffmpeg writes `location` so in MP4).
        var movie = SyntheticMovie(duration: 3, width: 160, height: 120)
        movie.metadata = ["location": "+41.8902+012.4922/", "creation_time": "2021-06-05T10:11:12Z", "title": "Colosseum"]
        let clip = try movie.write(to: test.folder.appendingPathComponent("android.mp4"))
        #expect(try Self.movieTags(try Data(contentsOf: clip), in: test.folder).contains("41.89"))
        let id = try await test.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: clip) }.created[0].localIdentifier
        let escaped = TestServer.escaped(id)
        // Downloads without location, of the original and of a trim ffmpeg made (which copies the place on).
        let original = try await test.user("GET", "/api/assets/\(escaped)/original?download=1&location=strip")
        #expect(original.status == 200)
        let originalTags = try Self.movieTags(original.body, in: test.folder)
        #expect(!originalTags.contains("41.89") && originalTags.contains("Colosseum"), "\(originalTags)")
        #expect(try await test.user("PUT", "/api/assets/\(escaped)/adjustments", json: ["trim": ["start": 0.5, "end": 2.5]]).status == 200)
        let trimmed = try await test.user("GET", "/api/assets/\(escaped)/render?download=1&location=strip")
        #expect(trimmed.status == 200)
        #expect(!(try Self.movieTags(trimmed.body, in: test.folder)).contains("41.89"))
        // A link without metadata: neither the movie it plays nor its download has a place or a date.
        let made = try await test.user("POST", "/api/shares", json: ["assets": [id], "allowsDownload": true]).object()
        let url = try #require(made["url"] as? String)
        for part in ["video", "download"] {
            let got = try await test.send("GET", "\(url)/0/\(part)")
            #expect(got.status == 200, "\(part): \(got.status)")
            let tags = try Self.movieTags(got.body, in: test.folder)
            #expect(!tags.contains("41.89") && !tags.contains("2021"), "the link's \(part) keeps a place or a date: \(tags)")
        }
    }

    @Test("A password keeps a link shut until typed; downloads come without metadata; an expired link is gone")
    func passwordAndExpiry() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        var metadata = ImageMetadata()
        (metadata.make, metadata.latitude, metadata.longitude) = ("NIKON", 35.0116, 135.7681)
        let bytes = try SyntheticPhoto(width: 320, height: 240, seed: 91).image().encoded(as: .jpeg)
        let placed = try await test.library.performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(from: bytes, metadata: metadata, filename: "kyoto.jpg")
        }.created[0].localIdentifier
        let made = try await test.user(
            "POST", "/api/shares",
            json: [
                "assets": [placed], "password": "open sesame", "allowsDownload": true,
                "title": "Kyoto", "expiresInDays": 7,
            ]
        ).object()
        let url = try #require(made["url"] as? String)
        #expect(try await test.send("GET", url).status == 200, "the page loads, and asks")
        let shut = try await test.send("GET", "\(url)/data")
        #expect(shut.status == 401 && shut.text.contains("passwordRequired"))
        #expect(try await test.send("GET", "\(url)/0/image").status == 401)
        #expect(try await test.send("POST", "\(url)/unlock", json: ["password": "open says me"]).status == 401)
        let unlocked = try await test.send("POST", "\(url)/unlock", json: ["password": "open sesame"])
        #expect(unlocked.status == 204)
        let cookie = try #require(unlocked.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        #expect(unlocked.headers["set-cookie"]?.contains("Path=\(url)") == true && unlocked.headers["set-cookie"]?.contains("HttpOnly") == true)
        let open = try await test.send("GET", "\(url)/data", headers: ["Cookie": cookie])
        #expect(open.status == 200)
        #expect(try open.object()["title"] as? String == "Kyoto")
        let download = try await test.send("GET", "\(url)/0/download", headers: ["Cookie": cookie])
        #expect(download.status == 200 && download.headers["content-disposition"]?.contains("attachment") == true)
        #expect(try Self.tags(download.body, in: test.folder).isEmpty, "the download keeps metadata")
        #expect(try await test.send("GET", "\(url)/data", headers: ["Cookie": cookie.replacingOccurrences(of: "=", with: "=0")]).status == 401)
        // With metadata asked for, the download is the original.
        let whole = try await test.user("POST", "/api/shares", json: ["assets": [placed], "allowsDownload": true, "includesMetadata": true]).object()
        let original = try await test.send("GET", "\(try #require(whole["url"] as? String))/0/download")
        #expect(try Self.tags(original.body, in: test.folder)["Make"] == "NIKON")

        // Expired (made in the past, with a past expiry): 410.
        let asset = try #require(try await test.library.fetchAssets(withLocalIdentifiers: [placed]).firstObject)
        let (_, token) = try await test.library.createSharedLink(
            assets: [asset], options: .init(expiresDate: Date().addingTimeInterval(-60)),
            now: Date().addingTimeInterval(-120))
        #expect(try await test.send("GET", "/s/\(token)/data").status == 410)
        #expect(try await test.send("GET", "/s/\(token)").status == 410)
        #expect(try await test.user("POST", "/api/shares", json: ["assets": [placed], "expiresInDays": 0]).status == 400)
        #expect(try await test.user("POST", "/api/shares", json: [String: Any]()).status == 400)
        // Past the limit of chosen photos: the number as people write it, and what to do instead.
        let tooMany = try await test.user("POST", "/api/shares", json: ["assets": Array(repeating: placed, count: 10_001)])
        #expect(tooMany.status == 400)
        #expect(tooMany.text.contains("at most 10,000 chosen photos, not 10001: share an album of them instead"), "\(tooMany.text)")
    }
}
