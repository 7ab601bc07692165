import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Testing

/// Clients over HTTP get only what their grants allow, decided by the user, at once.
@Suite struct ClientAccessTests {
    @Test func grantsDecideWhatAClientSees() async throws {
        let test = try await TestServer.start(photos: 3)
        defer { test.stop() }
        let token = try await test.register("com.example.viewer")
        // Registered, not yet asked: no data.
        let refused = try await test.client(token, "GET", "/api/assets")
        #expect(refused.status == 403)
        #expect(try (refused.object()["error"] as? [String: Any])?["code"] as? String == "notAuthorized")
        let first = TestServer.escaped(test.photos[0])
        #expect(try await test.client(token, "GET", "/api/assets/\(first)/thumbnail").status == 403)
        // The user allows: everything.
        #expect(try await test.user("PUT", "/api/clients/com.example.viewer/services/photoLibrary", json: ["status": "authorized"]).status == 200)
        let all = try await test.client(token, "GET", "/api/assets")
        #expect(all.status == 200)
        #expect((try all.object()["assets"] as? [Any])?.count == 3)
        #expect(try await test.client(token, "GET", "/api/assets/\(first)/thumbnail?size=64").status == 200)
        // Limited: only the selection.
        #expect(try await test.user("PUT", "/api/clients/com.example.viewer/limited", json: ["assets": [test.photos[1]]]).status == 200)
        #expect(try await test.user("PUT", "/api/clients/com.example.viewer/services/photoLibrary", json: ["status": "limited"]).status == 200)
        let limited = try await test.client(token, "GET", "/api/assets").object()["assets"] as? [[String: Any]]
        #expect(limited?.map { $0["localIdentifier"] as? String } == [test.photos[1]])
        #expect(try await test.client(token, "GET", "/api/assets/\(first)/original").status == 404, "outside the selection it does not exist")
        // Denied, from then on, on the same connection's next request.
        #expect(try await test.user("PUT", "/api/clients/com.example.viewer/services/photoLibrary", json: ["status": "denied"]).status == 200)
        #expect(try await test.client(token, "GET", "/api/assets/\(TestServer.escaped(test.photos[1]))").status == 403)
        // The report says what it saw.
        let report = try await test.user("GET", "/api/clients/com.example.viewer/report").array()
        #expect(report.contains { $0["action"] as? String == "thumbnail" && $0["localIdentifier"] as? String == test.photos[0] })
        // Clients cannot change their own grants or read others' settings.
        #expect(try await test.client(token, "PUT", "/api/clients/com.example.viewer/services/photoLibrary", json: ["status": "authorized"]).status == 403)
        #expect(try await test.client(token, "GET", "/api/clients").status == 403)
    }

    @Test func addOnlyMayUploadButNotRead() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let token = try await test.register("com.example.uploader", usage: ["NSPhotoLibraryAddUsageDescription": "To save your scans"])
        let photo = try SyntheticPhoto(width: 200, height: 150, seed: 42).image().encoded(as: .jpeg)
        #expect(try await test.client(token, "POST", "/api/assets?filename=scan.jpg", body: photo).status == 403)
        #expect(try await test.user("PUT", "/api/clients/com.example.uploader/services/photoLibraryAdd", json: ["status": "authorized"]).status == 200)
        let uploaded = try await test.client(token, "POST", "/api/assets?filename=scan.jpg", body: photo)
        #expect(uploaded.status == 201)
        let body = try uploaded.object()
        #expect(body["asset"] == nil, "an add-only client cannot read back what it made")
        let id = try #require(body["localIdentifier"] as? String)
        await #expect(try test.library.fetchAssets(withLocalIdentifiers: [id]).firstObject?.creatorClient == "com.example.uploader")
        #expect(try await test.client(token, "GET", "/api/assets").status == 403)
    }

    @Test func reregisteringTakesTheTokenAndRevokingEndsIt() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let token = try await test.register("com.example.app")
        let manifest: [String: Any] = ["identifier": "com.example.app", "displayName": "Impostor", "usageDescriptions": [:]]
        #expect(try await test.send("POST", "/api/clients", json: manifest).status == 409)
        #expect(
            try await test.client(token, "POST", "/api/clients", json: ["identifier": "com.example.app", "displayName": "App 2", "usageDescriptions": [:]])
                .status == 201)
        #expect(try await test.send("POST", "/api/clients", json: ["identifier": "has space", "displayName": "x", "usageDescriptions": [:]]).status == 400)
        #expect(try await test.client(token, "GET", "/api/clients/com.example.app").status == 200)
        #expect(try await test.user("DELETE", "/api/clients/com.example.app/tokens").status == 204)
        #expect(try await test.client(token, "GET", "/api/clients/com.example.app").status == 401)
    }

    @Test func promptsWaitForTheUsersAnswer() async throws {
        let test = try await TestServer.start(photos: 2)
        defer { test.stop() }
        let token = try await test.register("com.example.booth")
        // The client asks; the question waits in the web app.
        let asking = Task { try await test.client(token, "POST", "/api/authorization/photoLibrary") }
        let prompt = try await test.awaitPrompt(from: "com.example.booth")
        #expect(prompt["clientName"] as? String == "Com.Example.Booth" && prompt["usageDescription"] as? String == "To show your photos")
        #expect(prompt["offersLimitedAccess"] as? Bool == true)
        #expect(try await test.client(token, "GET", "/api/prompts").status == 403, "only the user answers")
        let id = try #require(prompt["id"] as? String)
        #expect(try await test.user("POST", "/api/prompts/\(id)", json: ["answer": "selectPhotos", "assets": [test.photos[0]]]).status == 204)
        let answer = try await asking.value
        let answered = try answer.object()["status"] as? String
        #expect(answer.status == 200 && answered == "limited")
        // Asked once: the answer is remembered, no second prompt.
        #expect(try await test.client(token, "POST", "/api/authorization/photoLibrary").object()["status"] as? String == "limited")
        #expect(try await test.user("GET", "/api/prompts").array().isEmpty)
        // A service without its usage description is refused, naming the key.
        let microphone = try await test.client(token, "POST", "/api/authorization/microphone")
        #expect(microphone.status == 400 && microphone.text.contains("NSMicrophoneUsageDescription"))
        #expect(try await test.client(token, "GET", "/api/authorization/microphone").object()["status"] as? String == "notDetermined")
    }

    /// Issue 18 item 2: a client with full access deletes only when the user says yes in the web
    /// app, as PhotoKit asks before an app's deletion; the user's own deletions do not ask here.
    @Test func aClientsDeletionWaitsForTheUsersYes() async throws {
        let test = try await TestServer.start(photos: 3)
        defer { test.stop() }
        let token = try await test.register("com.example.cleaner")
        #expect(try await test.user("PUT", "/api/clients/com.example.cleaner/services/photoLibrary", json: ["status": "authorized"]).status == 200)
        func question() async throws -> [String: Any] {
            try await test.awaitPrompt(from: "com.example.cleaner")
        }
        func trashed(_ id: String) async throws -> Bool {
            try await test.library.fetchAssets(with: FetchOptions(includeTrashedAssets: true)).allObjects()
                .first { $0.localIdentifier == id }?.isTrashed == true
        }

        // Declined: nothing is deleted and the client hears why.
        let first = TestServer.escaped(test.photos[0])
        let declining = Task { try await test.client(token, "DELETE", "/api/assets/\(first)") }
        var asked = try await question()
        #expect((asked["service"] as? String)?.hasPrefix("deleteAssets") == true)
        #expect(asked["assets"] as? [String] == [test.photos[0]])
        #expect((asked["usageDescription"] as? String)?.contains("1 photo will move to Recently Deleted") == true)
        #expect(try await test.client(token, "GET", "/api/prompts").status == 403, "only the user answers")
        #expect(try await test.user("POST", "/api/prompts/\(try #require(asked["id"] as? String))", json: ["answer": "deny"]).status == 204)
        let declined = try await declining.value
        #expect(declined.status == 403)
        #expect(try (declined.object()["error"] as? [String: Any])?["code"] as? String == "deletionDeclined")
        #expect(try await !trashed(test.photos[0]))

        // Allowed, for a batch of two: both go to Recently Deleted.
        let batch = Task { try await test.client(token, "POST", "/api/assets/batch", json: ["action": "delete", "assets": [test.photos[1], test.photos[2]]]) }
        asked = try await question()
        #expect(Set(asked["assets"] as? [String] ?? []) == [test.photos[1], test.photos[2]])
        #expect(try await test.user("POST", "/api/prompts/\(try #require(asked["id"] as? String))", json: ["answer": "allow"]).status == 204)
        #expect(try await batch.value.status == 200)
        #expect(try await trashed(test.photos[1]))
        #expect(try await trashed(test.photos[2]))
        #expect(try await test.user("GET", "/api/prompts").array().isEmpty, "an answer grants nothing further")

        // The user deletes without a question here (the web app asks before it sends).
        #expect(try await test.user("DELETE", "/api/assets/\(first)").status == 200)
        #expect(try await trashed(test.photos[0]))
    }

    @Test func deniedPromptsAreRemembered() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let token = try await test.register("com.example.cam")
        let asking = Task { try await test.client(token, "POST", "/api/authorization/camera") }
        let prompt = try await test.awaitPrompt(from: "com.example.cam")
        let id = try #require(prompt["id"] as? String)
        #expect(prompt["offersLimitedAccess"] as? Bool == false)
        #expect(try await test.user("POST", "/api/prompts/\(id)", json: ["answer": "deny"]).status == 204)
        #expect(try await asking.value.object()["status"] as? String == "denied")
        #expect(try await test.user("GET", "/api/clients/com.example.cam").object()["services"].flatMap { ($0 as? [String: String])?["camera"] } == "denied")
    }

    /// A client's change events carry only what its grant lets it see; a client that may not
    /// read the library gets none, and one whose grant is taken away stops hearing.
    @Test func changeEventsCarryOnlyWhatTheClientMaySee() async throws {
        let test = try await TestServer.start(photos: 3)
        defer { test.stop() }
        let token = try await test.register("com.example.limited")
        #expect(try await test.user("PUT", "/api/clients/com.example.limited/services/photoLibrary", json: ["status": "limited"]).status == 200)
        #expect(try await test.user("PUT", "/api/clients/com.example.limited/limited", json: ["assets": [test.photos[0]]]).status == 200)
        let stream = try test.http.open("/api/events", headers: ["Authorization": "Bearer \(token)"])
        #expect(await stream.read(until: ": shoebox", timeout: 10).hasPrefix("HTTP/1.1 200"))
        // The user favorites a photo the client cannot see, makes an album, then favorites the
        // shared photo.
        let hidden = TestServer.escaped(test.photos[1])
        let shared = TestServer.escaped(test.photos[0])
        #expect(try await test.user("PATCH", "/api/assets/\(hidden)", json: ["isFavorite": true]).status == 200)
        // Committed before the shared photo's change: whatever the stream said of them comes
        // before it, in what is read below.
        let album = try #require(try await test.user("POST", "/api/albums", json: ["title": "Private"]).object()["localIdentifier"] as? String)
        #expect(try await test.user("PATCH", "/api/assets/\(shared)", json: ["isFavorite": true]).status == 200)
        let text = await stream.read(until: test.photos[0], timeout: 15)
        #expect(text.contains(test.photos[0]), "the client did not hear of the shared photo: \(text)")
        #expect(!text.contains(test.photos[1]) && !text.contains(album), "the client heard of what it may not see: \(text)")
        #expect(text.components(separatedBy: "id: ").count >= 4, "the unseen changes still move the client's place in the log: \(text)")

        // Taking the grant away ends the stream; connecting again is refused, as it is for a
        // client never allowed.
        #expect(try await test.user("PUT", "/api/clients/com.example.limited/services/photoLibrary", json: ["status": "denied"]).status == 200)
        #expect(try await test.user("PATCH", "/api/assets/\(shared)", json: ["isFavorite": false]).status == 200)
        let ended = await stream.read(until: "\r\n0\r\n\r\n", timeout: 15)
        #expect(ended.hasSuffix("\r\n0\r\n\r\n"), "the stream of a client whose grant was taken away goes on")
        let refused = try test.http.open("/api/events", headers: ["Authorization": "Bearer \(token)"])
        #expect(await refused.read(until: "\r\n", timeout: 10).hasPrefix("HTTP/1.1 403"))
        let stranger = try await test.register("com.example.undecided")
        let undecided = try test.http.open("/api/events", headers: ["Authorization": "Bearer \(stranger)"])
        #expect(await undecided.read(until: "\r\n", timeout: 10).hasPrefix("HTTP/1.1 403"))
    }

    /// Pages of a fetch snapshot made while the client could read everything follow its grant
    /// as it is now (issue 17 item 7).
    @Test func snapshotPagesFollowTheGrantAsItIsNow() async throws {
        let test = try await TestServer.start(photos: 3)
        defer { test.stop() }
        let token = try await test.register("com.example.snap")
        #expect(try await test.user("PUT", "/api/clients/com.example.snap/services/photoLibrary", json: ["status": "authorized"]).status == 200)
        let fetch = try await test.client(token, "POST", "/api/fetches", json: [String: Any]()).object()
        let id = try #require(fetch["id"] as? String)
        #expect(fetch["count"] as? Int == 3)
        #expect((try await test.client(token, "GET", "/api/fetches/\(id)/assets").object()["assets"] as? [Any])?.count == 3)
        #expect(try await test.user("PUT", "/api/clients/com.example.snap/limited", json: ["assets": [test.photos[2]]]).status == 200)
        #expect(try await test.user("PUT", "/api/clients/com.example.snap/services/photoLibrary", json: ["status": "limited"]).status == 200)
        let narrowed = try await test.client(token, "GET", "/api/fetches/\(id)/assets").object()["assets"] as? [[String: Any]]
        #expect(narrowed?.compactMap { $0["localIdentifier"] as? String } == [test.photos[2]], "\(String(describing: narrowed))")
        #expect(try await test.user("PUT", "/api/clients/com.example.snap/services/photoLibrary", json: ["status": "denied"]).status == 200)
        let refused = try await test.client(token, "GET", "/api/fetches/\(id)/assets")
        #expect(refused.status == 403, "\(refused.status) \(refused.text)")
        #expect(!refused.text.contains(test.photos[0]) && !refused.text.contains(test.photos[1]))
    }

    /// Registration (issue 17 item 10): strangers are rate-limited, the user is not; a client
    /// that renames itself loses its grants (the user renaming it does not); reserved names are
    /// refused.
    @Test func registrationIsLimitedRenamesResetGrantsAndNamesAreReserved() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let reserved = try await test.send("POST", "/api/clients", json: ["identifier": "user", "displayName": "Me", "usageDescriptions": [:]])
        #expect(reserved.status == 400 && reserved.text.contains("reserved"), "\(reserved.status) \(reserved.text)")

        let token = try await test.register("com.example.renamer")
        #expect(try await test.user("PUT", "/api/clients/com.example.renamer/services/camera", json: ["status": "authorized"]).status == 200)
        let manifest = { (name: String) -> [String: Any] in
            ["identifier": "com.example.renamer", "displayName": name, "usageDescriptions": ["NSCameraUsageDescription": "To take photos"]]
        }
        let status = { () async throws -> String? in
            try await test.client(token, "GET", "/api/authorization/camera").object()["status"] as? String
        }
        // The user renames it: the grant stays.
        #expect(try await test.user("POST", "/api/clients", json: manifest("Renamed By You")).status == 201)
        #expect(try await status() == "authorized")
        // It renames itself: another app to the user, asked again.
        let renamed = try await test.client(token, "POST", "/api/clients", json: manifest("Totally Different App"))
        #expect(renamed.status == 201, "\(renamed.text)")
        let newToken = try #require(try renamed.object()["token"] as? String)
        let after = try await test.client(newToken, "GET", "/api/authorization/camera").object()["status"] as? String
        #expect(after == "notDetermined", "a client kept its grants under a new name")

        // A stranger registering many clients at once is slowed down; the user is not.
        var statuses: [Int] = []
        var retryAfter: String?
        let began = ContinuousClock.now
        for index in 0..<30 {
            let response = try await test.send(
                "POST", "/api/clients", json: ["identifier": "com.example.flood\(index)", "displayName": "Flood", "usageDescriptions": [:]])
            statuses.append(response.status)
            if response.status == 429 { retryAfter = response.headers["retry-after"] ?? response.headers["Retry-After"] }
        }
        // The bucket holds 20 and refills one every 3 s: on a loaded machine the 30 requests take
        // long enough for some to be refilled, which the bound counts.
        let elapsed = ContinuousClock.now - began
        let refilled = Int(elapsed.components.seconds / 3)
        #expect(statuses.filter { $0 == 201 }.count <= 20 + refilled + 1, "\(statuses) in \(elapsed)")
        if refilled < 9 {  // 30 requests with at most 29 tokens: some were refused
            #expect(statuses.contains(429), "\(statuses) in \(elapsed)")
            #expect(retryAfter.flatMap(Int.init).map { $0 >= 1 } == true, "no Retry-After on a 429")
        }
        #expect(
            try await test.user("POST", "/api/clients", json: ["identifier": "com.example.byuser", "displayName": "By You", "usageDescriptions": [:]]).status
                == 201)
    }

    /// A client uploading bytes that are already a photo it may not see learns no identifier
    /// (issue 17 item 8); bytes of its own photo still name it.
    @Test func aDuplicateUploadNamesNoPhotoTheClientMayNotSee() async throws {
        let test = try await TestServer.start(photos: 2)
        defer { test.stop() }
        let token = try await test.register("com.example.adder", usage: ["NSPhotoLibraryAddUsageDescription": "To save your drawings"])
        #expect(try await test.user("PUT", "/api/clients/com.example.adder/services/photoLibraryAdd", json: ["status": "authorized"]).status == 200)
        let users = try #require(try await test.library.fetchAssets(withLocalIdentifiers: [test.photos[1]]).firstObject)
        let bytes = try Data(contentsOf: try await test.library.originalURL(for: users))
        let duplicate = try await test.client(token, "POST", "/api/assets?filename=copy.jpg", body: bytes)
        let isDuplicate = try duplicate.object()["isDuplicate"] as? Bool
        #expect(duplicate.status == 200 && isDuplicate == true, "\(duplicate.status) \(duplicate.text)")
        #expect(
            !duplicate.text.contains(test.photos[1]) && !duplicate.text.contains(String(test.photos[1].prefix(36))),
            "the answer names the user's photo: \(duplicate.text)")
        #expect(try duplicate.object()["localIdentifier"] == nil)

        // Its own upload, sent again, is named: it made that asset.
        let drawing = try SyntheticPhoto(width: 200, height: 150, seed: 77).image().encoded(as: .jpeg)
        let first = try await test.client(token, "POST", "/api/assets?filename=drawing.jpg", body: drawing)
        let own = try #require(try first.object()["localIdentifier"] as? String)
        let again = try await test.client(token, "POST", "/api/assets?filename=drawing.jpg", body: drawing)
        #expect(try again.object()["localIdentifier"] as? String == own, "\(again.text)")
    }

    /// Albums belong to whoever made them (issue 17 item 5): a limited client sees and changes
    /// only its own; a client with full access changes the user's albums but deletes only its
    /// own; only the user deletes the user's.
    @Test func albumsBelongToTheirMakers() async throws {
        let test = try await TestServer.start(photos: 2)
        defer { test.stop() }
        let secret = try #require(try await test.user("POST", "/api/albums", json: ["title": "SECRET-ALBUM"]).object()["localIdentifier"] as? String)
        let token = try await test.register("com.example.albums")
        #expect(try await test.user("PUT", "/api/clients/com.example.albums/limited", json: ["assets": [test.photos[0]]]).status == 200)
        #expect(try await test.user("PUT", "/api/clients/com.example.albums/services/photoLibrary", json: ["status": "limited"]).status == 200)

        // Limited: the user's album does not exist for it, in lists, lookups, changes and uploads.
        let listed = try await test.client(token, "GET", "/api/albums")
        #expect(listed.status == 200 && !listed.text.contains("SECRET-ALBUM") && !listed.text.contains(secret), "\(listed.text)")
        let escaped = TestServer.escaped(secret)
        #expect(try await test.client(token, "PATCH", "/api/albums/\(escaped)", json: ["title": "Mine now"]).status == 404)
        #expect(try await test.client(token, "DELETE", "/api/albums/\(escaped)").status == 404)
        #expect(try await test.client(token, "POST", "/api/albums/\(escaped)/add", json: ["assets": [test.photos[0]]]).status == 404)
        #expect(try await test.client(token, "POST", "/api/albums", json: ["title": "Filed", "folder": secret]).status == 404)
        let jpeg = try SyntheticPhoto(width: 64, height: 48, seed: 901).image().encoded(as: .jpeg)
        #expect(try await test.client(token, "POST", "/api/assets?filename=x.jpg&album=\(escaped)", body: jpeg).status == 404)
        // Its own album it sees, fills, renames and deletes.
        let made = try await test.client(token, "POST", "/api/albums", json: ["title": "Client album", "assets": [test.photos[0]]])
        #expect(made.status == 201, "\(made.text)")
        let own = try #require(try made.object()["localIdentifier"] as? String)
        let ownListed = try await test.client(token, "GET", "/api/albums").text
        #expect(ownListed.contains("Client album"))
        #expect(try await test.client(token, "PATCH", "/api/albums/\(TestServer.escaped(own))", json: ["title": "Renamed"]).status == 200)
        // The user sees both; the user's album is untouched.
        let userList = try await test.user("GET", "/api/albums").text
        #expect(userList.contains("SECRET-ALBUM") && userList.contains("Renamed"))

        // Full access: the user's album may be changed, not deleted; its own may be.
        #expect(try await test.user("PUT", "/api/clients/com.example.albums/services/photoLibrary", json: ["status": "authorized"]).status == 200)
        #expect(try await test.client(token, "GET", "/api/albums").text.contains("SECRET-ALBUM"))
        #expect(try await test.client(token, "POST", "/api/albums/\(escaped)/add", json: ["assets": [test.photos[1]]]).status == 200)
        let refused = try await test.client(token, "DELETE", "/api/albums/\(escaped)")
        #expect(refused.status == 403 && refused.text.contains("notDeletable") && refused.text.contains("SECRET-ALBUM"), "\(refused.text)")
        #expect(try await test.user("GET", "/api/albums").text.contains("SECRET-ALBUM"), "still there")
        #expect(try await test.client(token, "DELETE", "/api/albums/\(TestServer.escaped(own))").status == 204)
        #expect(try await test.user("DELETE", "/api/albums/\(escaped)").status == 204, "the user deletes it")
    }

    /// Issue 18 items 6 and 7: a client registered by the user's tools (no token) or whose
    /// access was revoked registers again and starts over undecided; Remove App forgets it; a
    /// grant for an unknown client is refused.
    @Test func revokedAndToollessClientsRegisterAgainAndRemoveAppForgets() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let manifest: [String: Any] = [
            "identifier": "com.example.booth", "displayName": "Booth", "usageDescriptions": ["NSCameraUsageDescription": "Pictures."],
        ]
        #expect(try await test.user("PUT", "/api/clients/com.example.unknown/services/camera", json: ["status": "authorized"]).status == 404)
        // Registered by the user (as `shoebox privacy register` does, with no token for the app) and granted.
        let authorization = Authorization(library: test.library, prompter: NonInteractivePrompter())
        try await authorization.register(
            ClientManifest(
                identifier: "com.example.booth", displayName: "Booth",
                usageDescriptions: [.camera: "Pictures."]))
        try await authorization.setStatus(.authorized, for: .camera, client: "com.example.booth")
        // The app registers itself: it gets a token and is asked anew.
        let first = try await test.send("POST", "/api/clients", json: manifest)
        #expect(first.status == 201, "\(first.text)")
        let token = try #require(try first.object()["token"] as? String)
        #expect(try await test.client(token, "GET", "/api/authorization/camera").object()["status"] as? String == "notDetermined")
        // While it holds a token, nobody else takes its name.
        #expect(try await test.send("POST", "/api/clients", json: manifest).status == 409)
        // Revoke Access (as the Privacy page does): denied, token gone; it may register again, and
        // the denial stays with its identifier (iOS's rule) until the user changes it.
        #expect(try await test.user("PUT", "/api/clients/com.example.booth/services/camera", json: ["status": "denied"]).status == 200)
        #expect(try await test.user("DELETE", "/api/clients/com.example.booth/tokens").status == 204)
        #expect(try await test.client(token, "GET", "/api/authorization/camera").status == 401)
        let again = try await test.send("POST", "/api/clients", json: manifest)
        #expect(again.status == 201, "\(again.text)")
        let newToken = try #require(try again.object()["token"] as? String)
        #expect(try await test.client(newToken, "GET", "/api/authorization/camera").object()["status"] as? String == "denied")
        // Remove App: forgotten, token and all.
        #expect(try await test.user("DELETE", "/api/clients/com.example.booth").status == 204)
        #expect(try await test.client(newToken, "GET", "/api/authorization/camera").status == 401)
        #expect(!(try await test.user("GET", "/api/clients").text.contains("com.example.booth")))
        #expect(try await test.user("DELETE", "/api/clients/com.example.booth").status == 404)
    }
}

extension ClientAccessTests {
    /// Issue 39 item 5: a refused app cannot make the user decide again by registering afresh
    /// after Revoke Access, or under another name after Don't Allow; a declined deletion is in
    /// its report.
    @Test func aDenialSticksToTheAppsIdentifier() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let usage = ["NSPhotoLibraryUsageDescription": "To show your photos", "NSCameraUsageDescription": "To take photos"]
        // Don't Allow, then the app re-registers (with its token) under another name.
        let first = try await test.register("com.example.pest")
        let asking = Task { try await test.client(first, "POST", "/api/authorization/photoLibrary") }
        let prompt = try await test.awaitPrompt(from: "com.example.pest")
        #expect(try await test.user("POST", "/api/prompts/\(try #require(prompt["id"] as? String))", json: ["answer": "deny"]).status == 204)
        #expect(try await asking.value.object()["status"] as? String == "denied")
        let renamed = try await test.client(
            first, "POST", "/api/clients", json: ["identifier": "com.example.pest", "displayName": "Totally Different", "usageDescriptions": usage])
        #expect(renamed.status == 201)
        let token = try #require(try renamed.object()["token"] as? String)
        // Asking again answers at once, without a question.
        #expect(try await test.client(token, "POST", "/api/authorization/photoLibrary").object()["status"] as? String == "denied")
        #expect(try await test.user("GET", "/api/prompts").array().isEmpty, "the user is not asked again")

        // Revoke Access (every service denied, tokens gone), then the app registers afresh.
        let other = try await test.register("com.example.revoked")
        #expect(try await test.user("PUT", "/api/clients/com.example.revoked/services/photoLibrary", json: ["status": "authorized"]).status == 200)
        #expect(try await test.client(other, "GET", "/api/authorization/photoLibrary").object()["status"] as? String == "authorized")
        for service in ["photoLibrary", "camera"] {
            #expect(try await test.user("PUT", "/api/clients/com.example.revoked/services/\(service)", json: ["status": "denied"]).status == 200)
        }
        #expect(try await test.user("DELETE", "/api/clients/com.example.revoked/tokens").status == 204)
        let again = try await test.register("com.example.revoked")
        #expect(try await test.client(again, "POST", "/api/authorization/photoLibrary").object()["status"] as? String == "denied")
        #expect(try await test.client(again, "POST", "/api/authorization/camera").object()["status"] as? String == "denied")
        #expect(try await test.user("GET", "/api/prompts").array().isEmpty)
        // The user can still change it.
        #expect(try await test.user("PUT", "/api/clients/com.example.revoked/services/photoLibrary", json: ["status": "authorized"]).status == 200)
        #expect(try await test.client(again, "GET", "/api/authorization/photoLibrary").object()["status"] as? String == "authorized")

        // A declined deletion appears in the app's report.
        let deleting = Task { try await test.client(again, "DELETE", "/api/assets/\(TestServer.escaped(test.photos[0]))") }
        let question = try await test.awaitPrompt(from: "com.example.revoked")
        #expect(try await test.user("POST", "/api/prompts/\(try #require(question["id"] as? String))", json: ["answer": "deny"]).status == 204)
        #expect(try await deleting.value.status == 403)
        let report = try await test.user("GET", "/api/clients/com.example.revoked/report").array()
        #expect(report.contains { $0["action"] as? String == "deleteDeclined" && $0["localIdentifier"] as? String == test.photos[0] }, "\(report)")
    }
}
