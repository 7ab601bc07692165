import Crypto
import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Testing

@Suite struct LibraryAPITests {
    @Test func thumbnailsOfAnySizeWithEntityTags() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let id = TestServer.escaped(test.photos[0])
        let fill = try await test.user("GET", "/api/assets/\(id)/thumbnail?size=100&mode=fill")
        #expect(fill.status == 200 && fill.headers["content-type"] == "image/jpeg")
        #expect(try Image(data: fill.body).pixelSize == PixelSize(width: 133, height: 100), "fill: each side at least the size")
        let fit = try await test.user("GET", "/api/assets/\(id)/thumbnail?size=100x100&mode=fit")
        #expect(try Image(data: fit.body).pixelSize == PixelSize(width: 100, height: 75))
        let crop = try await test.user("GET", "/api/assets/\(id)/thumbnail?size=50&mode=fit&crop=0.5,0.5,0.5,0.5")
        #expect(try Image(data: crop.body).pixelSize == PixelSize(width: 50, height: 38), "the 160×120 crop fitted in 50×50")
        let tag = try #require(fill.headers["etag"])
        #expect(try await test.user("GET", "/api/assets/\(id)/thumbnail?size=100&mode=fill", headers: ["If-None-Match": tag]).status == 304)
        let asset = try await test.user("GET", "/api/assets/\(id)").object()
        let version = try #require((asset["asset"] as? [String: Any])?["version"] as? String)
        #expect(try await test.user("GET", "/api/assets/\(id)/thumbnail?size=100&v=\(version)").headers["cache-control"]?.contains("immutable") == true)
        #expect(try await test.user("GET", "/api/assets/\(id)/thumbnail?size=100&v=old").headers["cache-control"]?.contains("immutable") == false)
        for bad in ["size=0", "size=99999", "size=abc", "mode=stretch", "crop=1,2"] {
            #expect(try await test.user("GET", "/api/assets/\(id)/thumbnail?\(bad)").status == 400, "\(bad)")
        }
        #expect(try await test.user("GET", "/api/assets/NOPE/thumbnail").status == 404)
    }

    @Test func originalsAndMoviesServeByteRanges() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let id = TestServer.escaped(test.photos[0])
        let original = try await Data(contentsOf: test.library.originalURL(for: try #require(test.library.fetchAssets().firstObject)))
        let whole = try await test.user("GET", "/api/assets/\(id)/original")
        #expect(whole.status == 200 && whole.body == original && whole.headers["accept-ranges"] == "bytes")
        let head = try await test.user("HEAD", "/api/assets/\(id)/original")
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == "\(original.count)")
        let part = try await test.user("GET", "/api/assets/\(id)/original", headers: ["Range": "bytes=10-109"])
        #expect(part.status == 206 && part.body == original[10...109] && part.headers["content-range"] == "bytes 10-109/\(original.count)")
        let tail = try await test.user("GET", "/api/assets/\(id)/original", headers: ["Range": "bytes=-50"])
        #expect(tail.body == original.suffix(50))
        let open = try await test.user("GET", "/api/assets/\(id)/original", headers: ["Range": "bytes=\(original.count - 5)-"])
        #expect(open.body == original.suffix(5))
        let beyond = try await test.user("GET", "/api/assets/\(id)/original", headers: ["Range": "bytes=\(original.count)-"])
        #expect(beyond.status == 416 && beyond.headers["content-range"] == "bytes */\(original.count)")

        let movie = try SyntheticMovie(duration: 2, width: 160, height: 120).write(to: test.folder.appendingPathComponent("clip.mp4"))
        let imported = try await test.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromVideoAt: movie) }
        let movieID = TestServer.escaped(imported.created[0].localIdentifier)
        let video = try await test.user("GET", "/api/assets/\(movieID)/video", headers: ["Range": "bytes=0-1023"])
        #expect(video.status == 206 && video.headers["content-type"] == "video/mp4" && video.body.count == 1_024)
        let poster = try await test.user("GET", "/api/assets/\(movieID)/thumbnail?size=64")
        let posterHeight = try Image(data: poster.body).pixelHeight
        #expect(poster.status == 200 && posterHeight == 64)
    }

    @Test("A raw upload is a photo of its own type: its original is served as that type, its thumbnails as JPEG")
    func rawPhotosKeepTheirType() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        for kind in SyntheticRaw.Kind.allCases {
            let raw = try SyntheticRaw(kind: kind).data()
            let created = try await test.user("POST", "/api/assets?filename=DSC_0042.\(kind.fileExtension)", body: raw)
            #expect(created.status == 201, "\(kind): \(created.text)")
            let asset = try #require(try created.object()["asset"] as? [String: Any])
            #expect(asset["uniformTypeIdentifier"] as? String == kind.format.uniformTypeIdentifier)
            let id = TestServer.escaped(try #require(asset["localIdentifier"] as? String))
            let original = try await test.user("GET", "/api/assets/\(id)/original")
            #expect(original.status == 200 && original.body == raw)
            #expect(original.headers["content-type"] == kind.format.mimeType, "\(kind): \(original.headers["content-type"] ?? "none")")
            #expect(original.headers["content-type"] != "application/octet-stream")
            let thumbnail = try await test.user("GET", "/api/assets/\(id)/thumbnail?size=64&mode=fit")
            #expect(thumbnail.status == 200 && thumbnail.headers["content-type"] == "image/jpeg")
            #expect(try Image(data: thumbnail.body).pixelWidth == 64)
        }
        // The sensor data cut short: refused as damaged, whatever its preview says.
        let whole = try SyntheticRaw(kind: .arw, seed: 9).data()
        let cut = try await test.user("POST", "/api/assets?filename=CUT.ARW", body: whole.prefix(whole.count * 3 / 4))
        #expect(cut.status == 422 && cut.text.contains("corrupt"), "\(cut.status) \(cut.text)")
        await #expect(try test.library.fetchAssets().count == SyntheticRaw.Kind.allCases.count)
    }

    @Test func uploadsAreStreamedCheckedAndSniffed() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let photo = try SyntheticPhoto(width: 300, height: 200, seed: 7).image().encoded(as: .png)
        let digest = SHA256.hash(data: photo).map { String(format: "%02x", $0) }.joined()
        // Named .jpg, but the content decides.
        let created = try await test.user("POST", "/api/assets?filename=..%2F..%2Fevil%2Fholiday.jpg", body: photo, headers: ["X-Content-SHA256": digest])
        #expect(created.status == 201)
        let asset = try #require(try created.object()["asset"] as? [String: Any])
        #expect(asset["uniformTypeIdentifier"] as? String == "public.png" && asset["originalFilename"] as? String == "holiday.jpg")
        #expect(asset["pixelWidth"] as? Int == 300)
        let again = try await test.user("POST", "/api/assets?filename=copy.png", body: photo)
        let duplicate = try again.object()["isDuplicate"] as? Bool
        #expect(again.status == 200 && duplicate == true)
        let damaged = try await test.user("POST", "/api/assets?filename=x.png", body: photo, headers: ["X-Content-SHA256": String(repeating: "0", count: 64)])
        #expect(damaged.status == 400 && damaged.text.contains("checksumMismatch"))
        let text = try await test.user("POST", "/api/assets?filename=notes.jpg", body: Data("this is not a photo".utf8))
        #expect(text.status == 415 && text.text.contains("unsupportedFormat"))
        #expect(try await test.user("POST", "/api/assets?filename=empty.jpg", body: Data()).status == 400)
        await #expect(try test.library.fetchAssets().count == 1, "only the one good upload is in the library")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix("shoebox-upload-") }
        #expect(leftovers.isEmpty, "no temporary upload files remain: \(leftovers)")
    }

    @Test func uploadsOverTheLimitAreRefused() async throws {
        let test = try await TestServer.start(photos: 0, configuration: .init(uploadByteLimit: 1_000))
        defer { test.stop() }
        let photo = try SyntheticPhoto(width: 300, height: 200, seed: 7).image().encoded(as: .png)
        let response = try await test.user("POST", "/api/assets?filename=big.png", body: photo)
        #expect(response.status == 413)
        await #expect(try test.library.fetchAssets().isEmpty)
    }

    @Test func keysetPagesSeeEveryAssetOnceDespiteInserts() async throws {
        let test = try await TestServer.start(photos: 7)
        defer { test.stop() }
        var seen: [String] = []
        var cursor: String?
        repeat {
            let path = "/api/assets?limit=3&sort=creationDate" + (cursor.map { "&after=\(TestServer.escaped($0))" } ?? "")
            let page = try await test.user("GET", path).object()
            seen += (page["assets"] as? [[String: Any]] ?? []).compactMap { $0["localIdentifier"] as? String }
            cursor = page["next"] as? String
            // A new photo older than everything, between pages: it must not shift the pages.
            if seen.count == 3 { try await test.addPhoto(seed: 99, daysAgo: 1_000) }
        } while cursor != nil
        #expect(seen == test.photos.prefix(7).map { $0 }, "the seven in order, each once")
        let newest = try await test.user("GET", "/api/assets?limit=2&ascending=false").object()["assets"] as? [[String: Any]]
        #expect(newest?.first?["localIdentifier"] as? String == test.photos[6])
        #expect(try await test.user("GET", "/api/assets?sort=colour").status == 400)
    }

    @Test func albumsAndBatchActions() async throws {
        let test = try await TestServer.start(photos: 3)
        defer { test.stop() }
        let album = try await test.user("POST", "/api/albums", json: ["title": "Trip", "assets": [test.photos[0]]])
        #expect(album.status == 201)
        let albumID = try #require(try album.object()["localIdentifier"] as? String)
        let escaped = TestServer.escaped(albumID)
        #expect(try await test.user("POST", "/api/albums/\(escaped)/add", json: ["assets": [test.photos[2]]]).object()["count"] as? Int == 2)
        #expect(try await test.user("PATCH", "/api/albums/\(escaped)", json: ["title": "  "]).status == 400)
        #expect(try await test.user("PATCH", "/api/albums/\(escaped)", json: ["title": "Summer"]).object()["title"] as? String == "Summer")
        let listed = try await test.user("GET", "/api/assets?album=\(escaped)").object()["assets"] as? [[String: Any]]
        #expect(listed?.count == 2)
        #expect(try await test.user("POST", "/api/assets/batch", json: ["action": "favorite", "assets": [test.photos[1], test.photos[2]]]).status == 200)
        #expect(try await test.user("POST", "/api/assets/batch", json: ["action": "delete", "assets": [test.photos[0]]]).status == 200)
        #expect(try await test.user("POST", "/api/assets/batch", json: ["action": "explode", "assets": [test.photos[0]]]).status == 400)
        let albums = try await test.user("GET", "/api/albums").object()
        let smart = try #require(albums["smartAlbums"] as? [[String: Any]])
        let count = { (subtype: String) in smart.first { $0["subtype"] as? String == subtype }?["count"] as? Int }
        #expect(count("smartAlbumFavorites") == 2 && count("smartAlbumRecentlyDeleted") == 1 && count("smartAlbumUserLibrary") == 2)
        let trashID = TestServer.escaped(test.photos[0])
        #expect(try await test.user("POST", "/api/assets/\(trashID)/restore").object()["isTrashed"] as? Bool == false)
        #expect(try await test.user("DELETE", "/api/albums/\(escaped)").status == 204)
        await #expect(try test.library.fetchAssets().count == 3, "deleting an album deletes no photo")
    }

    /// Select All's Favorite asks whether every asset of the fetch is a favorite, however few
    /// the web app has loaded.
    @Test func aFetchSummaryCountsItsFavorites() async throws {
        let test = try await TestServer.start(photos: 3)
        defer { test.stop() }
        let fetchID = try #require(try await test.user("POST", "/api/fetches", json: [String: Any]()).object()["id"] as? String)
        let summary = { try await test.user("GET", "/api/fetches/\(fetchID)/summary").object() }
        var body = try await summary()
        #expect(body["count"] as? Int == 3 && body["favorites"] as? Int == 0, "\(body)")
        #expect(try await test.user("POST", "/api/assets/batch", json: ["action": "favorite", "fetch": fetchID]).status == 200)
        body = try await summary()
        #expect(body["count"] as? Int == 3 && body["favorites"] as? Int == 3, "\(body)")
        #expect(try await test.user("GET", "/api/fetches/nope/summary").status == 404)
    }

    @Test("A burst lists as its key photo with a count; its frames list with burst=; the key photo can change; deleting a burst takes every frame")
    func bursts() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        var frames: [String] = []
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        for index in 0..<4 {
            var metadata = ImageMetadata()
            metadata.make = "SONY"
            metadata.model = "ILCE-7M4"
            metadata.bodySerialNumber = "5012345"
            var taken = ImageMetadata.DateTime(start, timeZone: TimeZone(identifier: "UTC")!)
            taken.fractionalSecond = Double(index) * 0.2
            metadata.dateTimeOriginal = taken
            let url = test.folder.appendingPathComponent("DSC0000\(index).JPG")
            try SyntheticPhoto(width: 96, height: 64, seed: UInt64(100 + index)).image().writingMetadata(metadata)
                .write(to: url, options: ImageEncodingOptions(keepsMetadata: true))
            let result = try await test.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }
            frames.append(result.created[0].localIdentifier)
        }
        let listed = try #require(try await test.user("GET", "/api/assets").object()["assets"] as? [[String: Any]])
        #expect(listed.count == 2, "the burst's key photo and the other photo")
        let key = try #require(listed.first { $0["burstIdentifier"] != nil })
        #expect(key["localIdentifier"] as? String == frames[0] && key["representsBurst"] as? Bool == true && key["burstCount"] as? Int == 4)
        let burst = try #require(key["burstIdentifier"] as? String)
        let inBurst = try #require(try await test.user("GET", "/api/assets?burst=\(TestServer.escaped(burst))").object()["assets"] as? [[String: Any]])
        #expect(inBurst.compactMap { $0["localIdentifier"] as? String } == frames)

        let third = TestServer.escaped(frames[2])
        let chosen = try await test.user("PATCH", "/api/assets/\(third)", json: ["representsBurst": true]).object()
        #expect(chosen["representsBurst"] as? Bool == true)
        #expect(try await test.user("PATCH", "/api/assets/\(third)", json: ["representsBurst": false]).status == 400)
        let loose = TestServer.escaped(test.photos[0])
        let refused = try await test.user("PATCH", "/api/assets/\(loose)", json: ["representsBurst": true])
        #expect(refused.status == 400 && String(decoding: refused.body, as: UTF8.self).contains("burst"))
        let relisted = try #require(try await test.user("GET", "/api/assets").object()["assets"] as? [[String: Any]])
        #expect(relisted.compactMap { $0["localIdentifier"] as? String }.contains(frames[2]))

        // The grid's burst goes whole; a frame alone goes alone.
        #expect(try await test.user("DELETE", "/api/assets/\(TestServer.escaped(frames[1]))").status == 200)
        #expect(try await test.library.fetchAssets(withBurstIdentifier: burst).count == 3)
        #expect(try await test.user("DELETE", "/api/assets/\(third)?wholeBurst=true").status == 200)
        #expect(try await test.library.fetchAssets(withBurstIdentifier: burst).count == 0)
        let trashed = try await test.library.fetchAssets(with: FetchOptions(predicate: .isTrashed(true), includeTrashedAssets: true))
        #expect(trashed.count == 4, "every frame in Recently Deleted, each as itself")
        #expect(try await test.user("DELETE", "/api/assets/\(loose)?wholeBurst=maybe").status == 400)
    }

    @Test func changeEventsCarryFetchDetails() async throws {
        let test = try await TestServer.start(photos: 3)
        defer { test.stop() }
        let fetch = try await test.user("POST", "/api/fetches", json: [String: Any]())
        #expect(fetch.status == 201)
        let body = try fetch.object()
        let fetchID = try #require(body["id"] as? String)
        #expect(body["count"] as? Int == 3)
        #expect((body["sections"] as? [[String: Any]])?.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 3)
        let page = try await test.user("GET", "/api/fetches/\(fetchID)/assets?offset=1&limit=5").object()
        #expect((page["assets"] as? [Any])?.count == 2 && page["offset"] as? Int == 1)
        let stream = try test.http.open("/api/events?fetch=\(fetchID)", headers: ["Authorization": "Bearer \(test.server.userKey)"])
        _ = await stream.read(until: ": shoebox", timeout: 10)
        // Another process adds a photo older than all, and favorites the newest.
        let url = test.folder.appendingPathComponent("other.jpg")
        try SyntheticPhoto(width: 100, height: 80, seed: 55).image().write(to: url)
        let other = try await PhotoLibrary.open(at: test.library.url)
        try await other.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }
        let text = await stream.read(until: "event: change", timeout: 15)
        let line = try #require(text.components(separatedBy: "\n").first { $0.hasPrefix("data: ") && $0.contains("\"fetch\":\"\(fetchID)\"") })
        let change = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any])
        #expect(change["count"] as? Int == 4)
        #expect((change["inserted"] as? [Int])?.count == 1)
        let inserted = try #require((change["inserted"] as? [Int])?.first)
        #expect(((change["assets"] as? [String: Any])?[String(inserted)] as? [String: Any])?["originalFilename"] as? String == "other.jpg")
        #expect(text.contains("event: library"))
    }

    @Test func aFetchAnswersWithItsFirstPageWhenAskedTo() async throws {
        let test = try await TestServer.start(photos: 3)
        defer { test.stop() }
        let created = try await test.user("POST", "/api/fetches", json: ["page": 2, "ascending": false])
        #expect(created.status == 201)
        let body = try created.object()
        let fetchID = try #require(body["id"] as? String)
        let page = try #require(body["page"] as? [String: Any])
        #expect(page["offset"] as? Int == 0 && page["count"] as? Int == 3)
        // The same assets, the same fields, as the fetch's own first page.
        let asked = try await test.user("GET", "/api/fetches/\(fetchID)/assets?offset=0&limit=2").object()
        let inline = try #require(page["assets"] as? [[String: Any]])
        let separate = try #require(asked["assets"] as? [[String: Any]])
        #expect(inline.count == 2)
        #expect(inline.map { $0["localIdentifier"] as? String } == separate.map { $0["localIdentifier"] as? String })
        #expect(inline.map { Set($0.keys) } == separate.map { Set($0.keys) })
        #expect(body["sections"] != nil && body["changeToken"] != nil)
        // Without `page`, no page; a page of 0 or over 1,000 is a mistake.
        #expect(try await test.user("POST", "/api/fetches", json: [String: Any]()).object()["page"] == nil)
        for wrong in [0, 1_001] {
            let refused = try await test.user("POST", "/api/fetches", json: ["page": wrong])
            #expect(refused.status == 400)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("page is how many"))
        }
    }

    /// The last `id:` line of an event stream's text.
    private func lastEventID(in text: String) -> String? {
        text.components(separatedBy: "\n").last { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
    }

    @Test func changesCommittedBeforeTheStreamOpensStillCome() async throws {
        let test = try await TestServer.start(photos: 3)
        defer { test.stop() }
        let fetch = try await test.user("POST", "/api/fetches", json: [String: Any]()).object()
        let fetchID = try #require(fetch["id"] as? String)
        #expect(PersistentChangeToken(try #require(fetch["changeToken"] as? String)) != nil)
        // A stream of the user's that watches the server's change hub.
        let watcher = try test.http.open("/api/events", headers: ["Authorization": "Bearer \(test.server.userKey)"])
        _ = await watcher.read(until: ": shoebox", timeout: 10)
        // Between the fetch and its event stream: an album and a photo, well before the stream.
        let album = try await test.user("POST", "/api/albums", json: ["title": "Made In Between"]).object()
        let albumID = try #require(album["localIdentifier"] as? String)
        let url = test.folder.appendingPathComponent("between.jpg")
        try SyntheticPhoto(width: 90, height: 60, seed: 71).image().write(to: url)
        try await test.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }
        // Both commits have gone through the hub (the watcher heard them) before the stream opens.
        #expect(await watcher.read(until: "event: library", occurrences: 2, timeout: 15).components(separatedBy: "event: library").count == 3)
        let stream = try test.http.open("/api/events?fetch=\(fetchID)", headers: ["Authorization": "Bearer \(test.server.userKey)"])
        let text = await stream.read(until: "event: change", timeout: 15)
        #expect(text.contains(albumID), "the album made before the stream opened was not reported: \(text)")
        #expect(text.contains("\"count\":4"), "the photo added before the stream opened did not reach the fetch: \(text)")
        #expect(!text.contains("event: reset"))
    }

    @Test func aStreamOpenedAgainWithLastEventIDMissesNothing() async throws {
        let test = try await TestServer.start(photos: 2)
        defer { test.stop() }
        let headers = ["Authorization": "Bearer \(test.server.userKey)"]
        var stream: RawHTTP.Stream? = try test.http.open("/api/events", headers: headers)
        _ = await stream?.read(until: ": shoebox", timeout: 10)
        let watcher = try test.http.open("/api/events", headers: headers)  // stays connected
        _ = await watcher.read(until: ": shoebox", timeout: 10)
        let first = try #require(try await test.user("POST", "/api/albums", json: ["title": "First"]).object()["localIdentifier"] as? String)
        // The `id:` line comes before the event's data.
        let seen = try #require(lastEventID(in: await stream?.read(until: first, timeout: 15) ?? ""))
        stream = nil  // the connection drops
        let second = try await test.user("POST", "/api/albums", json: ["title": "Second"]).object()["localIdentifier"] as? String
        // The hub has relayed it (the watcher heard it) while the dropped stream was away.
        #expect(await watcher.read(until: try #require(second), timeout: 15).contains(try #require(second)))
        let again = try test.http.open("/api/events", headers: headers.merging(["Last-Event-ID": seen]) { $1 })
        let text = await again.read(until: try #require(second), timeout: 15)
        #expect(text.contains(try #require(second)), "the album made while the stream was away was missed: \(text)")
        #expect(!text.contains("event: reset"))
        #expect(!text.contains(first), "a change the client had was sent again")
    }

    @Test func aStreamThatCannotCatchUpIsToldToLoadAgain() async throws {
        let test = try await TestServer.start(photos: 2)
        defer { test.stop() }
        let headers = ["Authorization": "Bearer \(test.server.userKey)"]
        // A second server started after the photos were added (as after a restart) holds none of
        // their changes: a client last told of change 0 cannot be caught up.
        let restarted = PhotoLibraryServer(library: test.library, configuration: .init(port: 0))
        let running = try await restarted.start()
        defer { TestServer.stopInBackground(restarted, running) }
        let old = try RawHTTP(port: try #require(restarted.port))
            .open("/api/events", headers: ["Authorization": "Bearer \(restarted.userKey)", "Last-Event-ID": "0"])
        #expect(await old.read(until: "event: reset", timeout: 10).contains("are no longer held"))
        let expired = try test.http.open("/api/events?fetch=no-such-fetch", headers: headers)
        let text = await expired.read(until: "event: reset", timeout: 10)
        #expect(text.hasPrefix("HTTP/1.1 200") && text.contains("no fetch no-such-fetch"))
        // After the reset the stream goes on with every change from then.
        _ = try await test.user("POST", "/api/albums", json: ["title": "After"])
        #expect(await expired.read(until: "event: library", timeout: 15).contains("event: library"))
        let bad = try test.http.open("/api/events", headers: headers.merging(["Last-Event-ID": "yesterday"]) { $1 })
        #expect(await bad.read(until: "\r\n", timeout: 10).hasPrefix("HTTP/1.1 400"))
    }

    @Test func aThumbnailStillToBeMadeIsPendingUntilItsJobIsDone() async throws {
        let test = try await TestServer.start(photos: 0, backgroundWork: .queued)  // as shoebox serve: imports queue their thumbnails
        defer { test.stop() }
        let fetchID = try #require(try await test.user("POST", "/api/fetches", json: [String: Any]()).object()["id"] as? String)
        let stream = try test.http.open("/api/events?fetch=\(fetchID)", headers: ["Authorization": "Bearer \(test.server.userKey)"])
        _ = await stream.read(until: ": shoebox", timeout: 10)
        let photo = try SyntheticPhoto(width: 640, height: 480, seed: 91).image().encoded(as: .jpeg)
        let uploaded = try await test.user("POST", "/api/assets?filename=queued.jpg", body: photo)
        #expect(uploaded.status == 201, "\(uploaded.text)")
        let id = try #require(try uploaded.object()["localIdentifier"] as? String)
        let listed = try await test.user("GET", "/api/assets").object()["assets"] as? [[String: Any]]
        #expect(listed?.first?["thumbnailPending"] as? Bool == true, "no worker has run: the thumbnail is pending")
        let inserted = await stream.read(until: "event: change", timeout: 15)
        #expect(inserted.contains("\"thumbnailPending\":true"), "the inserted asset's event does not say its thumbnail is pending: \(inserted)")

        // A worker makes the thumbnail: the listing and a change event say so.
        let worker = JobWorker(library: test.library, options: .init(concurrency: 1, pollInterval: .milliseconds(50)))
        let running = Task { await worker.run() }
        // The grid hears of it through its event stream: the test waits for that, not a poll.
        let text = await stream.read(until: "\"changed\":[0]", timeout: 60)
        worker.stop()
        await running.value
        #expect(try await test.library.assetsAwaitingDerivatives(among: [id]).isEmpty)
        let after = try await test.user("GET", "/api/assets").object()["assets"] as? [[String: Any]]
        #expect(after?.first?["localIdentifier"] as? String == id && after?.first?["thumbnailPending"] == nil)
        let changed = text.components(separatedBy: "event: change").last ?? ""
        #expect(
            changed.contains("\"changed\":[0]") && changed.contains(id) && !changed.contains("thumbnailPending"),
            "no change event told the grid the thumbnail is made: \(text)")
    }
}
