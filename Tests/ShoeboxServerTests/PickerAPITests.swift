import Foundation
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

@testable import ShoeboxPicker
@testable import ShoeboxServer

/// A client asks for a pick over HTTP, the user picks on the picker page's API, the client gets
/// only that.
@Suite struct PickerAPITests {
    @Test func aClientWithoutGrantsGetsWhatTheUserPicks() async throws {
        let test = try await TestServer.start(photos: 3)
        defer { test.stop() }
        let token = try await test.register("com.example.avatar")
        #expect(try await test.client(token, "GET", "/api/assets").status == 403, "no library grant")
        let created = try await test.client(token, "POST", "/api/picker/sessions", json: ["allowsEditing": true, "maximumEditedImagePixelSize": 64])
        #expect(created.status == 201)
        let session = try #require(try created.object()["id"] as? String)
        #expect(try created.object()["url"] as? String == "/pick/\(session)", "a client gets the page without the key")
        let ui = "/api/picker/sessions/\(session)/ui"
        // The client cannot drive the page, and another client cannot see the session.
        #expect(try await test.client(token, "GET", ui).status == 403)
        let other = try await test.register("com.example.other")
        #expect(try await test.client(other, "GET", "/api/picker/sessions/\(session)").status == 404)
        // The user: albums, an album's assets, a preview, a selection, a crop, Choose.
        let (cookie, csrf) = try await test.browserSession()
        let browser = ["Cookie": cookie, "X-Shoebox-CSRF": csrf]
        #expect(try await test.send("GET", "/pick/\(session)", headers: ["Cookie": cookie]).status == 200)
        let albums = try await test.send("GET", "\(ui)/albums", headers: browser).array()
        let recents = try #require(albums.first { $0["title"] as? String == "Recents" })
        #expect(recents["count"] as? Int == 3)
        #expect(try await test.send("POST", "\(ui)/album", json: ["id": recents["id"]!], headers: browser).status == 200)
        let assets = try await test.send("GET", "\(ui)/assets?offset=0&limit=10", headers: browser).object()["assets"] as? [[String: Any]]
        #expect(assets?.count == 3)
        let chosen = test.photos[1]
        let preview = try await test.send("POST", "\(ui)/preview", json: ["id": chosen], headers: browser).object()
        #expect(preview["sizeLabel"] as? String == "320 x 240")
        #expect(try await test.send("GET", "\(ui)/assets/\(TestServer.escaped(chosen))/thumbnail?size=200&mode=fit", headers: browser).status == 200)
        #expect(try await test.send("POST", "\(ui)/select", json: ["id": chosen], headers: browser).object()["selection"] as? [String] == [chosen])
        #expect(
            try await test.send("POST", "\(ui)/crop", json: ["id": chosen, "rect": ["x": 100, "y": 0, "width": 300, "height": 300]], headers: browser).status
                == 400,
            "outside the photo")
        #expect(
            try await test.send("POST", "\(ui)/crop", json: ["id": chosen, "rect": ["x": 80, "y": 40, "width": 200, "height": 200]], headers: browser).status
                == 200)
        // The client waits meanwhile.
        let timedWaits = try await test.server.timedWaits(onPickerSession: session)
        let waiting = Task { try await test.client(token, "GET", "/api/picker/sessions/\(session)?wait=30") }
        #expect(await timedWaits.wait { $0.last == 1 }, "the client's request does not wait")
        #expect(try await test.send("POST", "\(ui)/confirm", headers: browser).object()["finished"] as? String == "picked")
        let result = try await waiting.value.object()
        #expect(result["status"] as? String == "picked")
        let item = try #require((result["results"] as? [[String: Any]])?.first)
        let info = try #require(item["info"] as? [String: Any])
        #expect(info["localIdentifier"] as? String == chosen && info["mediaType"] as? String == "public.image")
        #expect((info["cropRect"] as? [String: Int]) == ["x": 80, "y": 40, "width": 200, "height": 200])
        let files = try #require(item["files"] as? [String: String])
        let edited = try await test.client(token, "GET", try #require(files["editedImage"]))
        let editedSize = try Image(data: edited.body).pixelSize
        #expect(edited.status == 200 && editedSize == PixelSize(width: 64, height: 64))
        let original = try await test.client(token, "GET", try #require(files["image"]))
        let stored = try await Data(
            contentsOf: test.library.originalURL(for: try #require(test.library.fetchAssets(withLocalIdentifiers: [chosen]).firstObject)))
        #expect(original.body == stored)
        #expect(try await test.client(other, "GET", try #require(files["image"])).status == 404)
        // Still nothing else.
        #expect(try await test.client(token, "GET", "/api/assets").status == 403)
        let log = try await test.user("GET", "/api/clients/com.example.avatar/report").array()
        #expect(log.contains { $0["action"] as? String == "picked" && $0["localIdentifier"] as? String == chosen })
    }

    @Test func theCameraPickerNeedsTheClientsCameraGrant() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let token = try await test.register("com.example.booth")
        try await SyntheticCameraLock.shared.run {
            let before = CaptureDevice.isSyntheticCameraEnabled
            CaptureDevice.isSyntheticCameraEnabled = true
            defer { CaptureDevice.isSyntheticCameraEnabled = before }
            let camera: [String: Any] = ["sourceType": "camera", "camera": ["source": "captureDevice"]]
            #expect(try await test.user("PUT", "/api/clients/com.example.booth/services/camera", json: ["status": "denied"]).status == 200)
            let refused = try await test.client(token, "POST", "/api/picker/sessions", json: camera)
            #expect(refused.status == 403 && refused.text.contains("camera") && refused.text.contains("denied"))
            // A library pick needs no grant at all.
            #expect(try await test.client(token, "POST", "/api/picker/sessions", json: [String: Any]()).status == 201)
            #expect(try await test.user("PUT", "/api/clients/com.example.booth/services/camera", json: ["status": "authorized"]).status == 200)
            let allowed = try await test.client(token, "POST", "/api/picker/sessions", json: camera)
            #expect(allowed.status == 201, "\(allowed.text)")
            if let id = try allowed.object()["id"] as? String {
                _ = try await test.client(token, "DELETE", "/api/picker/sessions/\(id)")
            }
        }
    }

    @Test func cancellingAndBadRequests() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let token = try await test.register("com.example.cancel")
        #expect(try await test.client(token, "POST", "/api/picker/sessions", json: ["mediaTypes": [String]()]).status == 400)
        try await SyntheticCameraLock.shared.run {
            let before = CaptureDevice.isSyntheticCameraEnabled
            CaptureDevice.isSyntheticCameraEnabled = false
            defer { CaptureDevice.isSyntheticCameraEnabled = before }
            let noCamera = try await test.client(token, "POST", "/api/picker/sessions", json: ["sourceType": "camera", "camera": ["source": "captureDevice"]])
            #expect(noCamera.status == 422 && noCamera.text.contains("capture device"))
        }
        #expect(try await test.client(token, "POST", "/api/picker/sessions", json: ["sourceType": "nowhere"]).status == 400)
        let session = try #require(try await test.client(token, "POST", "/api/picker/sessions", json: [String: Any]()).object()["id"] as? String)
        #expect(try await test.client(token, "GET", "/api/picker/sessions/\(session)").object()["status"] as? String == "pending")
        #expect(try await test.client(token, "DELETE", "/api/picker/sessions/\(session)").object()["status"] as? String == "cancelled")
        let (cookie, csrf) = try await test.browserSession()
        let late = try await test.send(
            "POST", "/api/picker/sessions/\(session)/ui/select", json: ["id": test.photos[0]], headers: ["Cookie": cookie, "X-Shoebox-CSRF": csrf])
        #expect(late.status == 409 && late.text.contains("finished"))
    }

    /// A poll with `?wait=S` answers `pending` after S seconds (issue 17 item 13), and a client
    /// preselects only what it may see itself (item 9).
    @Test func aPollWaitsItsSecondsAndPreselectionIsTheClients() async throws {
        let test = try await TestServer.start(photos: 2)
        defer { test.stop() }
        let token = try await test.register("com.example.harvester")
        let wanted = ["configuration": ["selectionLimit": 0, "preselectedAssetIdentifiers": [test.photos[0]]]]
        let (cookie, csrf) = try await test.browserSession()
        let browser = ["Cookie": cookie, "X-Shoebox-CSRF": csrf]
        // The user's own session takes the preselection (the request's shape is right) …
        let mine = try #require(try await test.user("POST", "/api/picker/sessions", json: wanted).object()["id"] as? String)
        let mineState = try await test.send("GET", "/api/picker/sessions/\(mine)/ui", headers: browser).object()
        #expect(mineState["selection"] as? [String] == [test.photos[0]], "\(mineState)")
        // … a client's, with an id it cannot see, selects nothing.
        let created = try await test.client(token, "POST", "/api/picker/sessions", json: wanted)
        #expect(created.status == 201, "\(created.text)")
        let session = try #require(try created.object()["id"] as? String)
        let state = try await test.send("GET", "/api/picker/sessions/\(session)/ui", headers: browser).object()
        #expect((state["selection"] as? [String])?.isEmpty == true, "a client preselected a photo it may not see: \(state)")

        let start = ContinuousClock.now
        let polled = try await test.client(token, "GET", "/api/picker/sessions/\(session)?wait=1")
        let waited = ContinuousClock.now - start
        #expect(try polled.object()["status"] as? String == "pending")
        #expect(waited >= .milliseconds(900) && waited < .seconds(10), "a wait of 1 s took \(waited)")
        #expect(try await test.send("POST", "/api/picker/sessions/\(session)/ui/cancel", headers: browser).status == 200)
    }
}
