import Crypto
import Foundation
import HTTPTypes
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary
@testable import ShoeboxPicker
@testable import ShoeboxServer

/// Two servers on one library, started with the same `--key` (behind one address, as a load
/// balancer without sticky sessions sends a browser's requests to either): the browser's cookie
/// and its page's CSRF token work on both, and what one changes the other serves. Servers with
/// different keys share neither.
@Suite struct SeveralServersTests {
    @Test func aBrowserSignedInOnOneServerWorksOnTheOther() async throws {
        let key = "shared-key-for-two-servers"
        let a = try await TestServer.start(photos: 1, configuration: .init(port: 0, userKey: key))
        defer { a.stop() }
        let other = try await PhotoLibrary.open(at: a.library.url)
        let b = PhotoLibraryServer(library: other, configuration: .init(port: 0, userKey: key))
        let running = try await b.start()
        defer { TestServer.stopInBackground(b, running) }
        let bHTTP = RawHTTP(port: try #require(b.port))

        let (cookie, csrf) = try await a.browserSession()
        // The page from A, the request to B: an album made through B.
        let made = try await bHTTP.send(
            "POST", "/api/albums", headers: ["Cookie": cookie, "X-Shoebox-CSRF": csrf, "Content-Type": "application/json"],
            body: Data(#"{"title": "Made on B"}"#.utf8))
        #expect(made.status == 201, "\(made.status) \(made.text)")
        let listed = try await a.http.send("GET", "/api/albums", headers: ["Cookie": cookie])
        #expect(listed.status == 200 && listed.text.contains("Made on B"), "A serves what B made")

        // A server with another key takes neither the cookie nor the token.
        let stranger = PhotoLibraryServer(library: other, configuration: .init(port: 0, userKey: "another-key"))
        #expect(CallerMiddleware.cookieName(key: stranger.userKey) != CallerMiddleware.cookieName(key: key))
        #expect(stranger.state.csrfToken != csrf)
        #expect(b.state.csrfToken == csrf)
        #expect(!csrf.contains(key) && csrf.count == 64, "the token is derived, not the key")
    }

    /// A second server on `test`'s library, with its own catalog connection and the same key.
    private func secondServer(beside test: TestServer, key: String) async throws -> (PhotoLibraryServer, Task<Void, any Error>, RawHTTP) {
        let library = try await PhotoLibrary.open(at: test.library.url)
        let server = PhotoLibraryServer(library: library, configuration: .init(port: 0, userKey: key))
        let running = try await server.start()
        return (server, running, RawHTTP(port: try #require(server.port)))
    }

    @Test func aQuestionRaisedOnOneServerIsAnsweredOnTheOther() async throws {
        let key = "shared-key-for-prompts"
        let a = try await TestServer.start(photos: 2, configuration: .init(port: 0, userKey: key))
        defer { a.stop() }
        let (serverB, running, b) = try await secondServer(beside: a, key: key)
        defer { TestServer.stopInBackground(serverB, running) }
        let user = ["Authorization": "Bearer \(key)"]
        // The user's browser is connected to B.
        let events = try b.open("/api/events", headers: user)
        _ = await events.read(until: ": shoebox", timeout: 10)
        let token = try await a.register("com.example.booth")
        // The client asks on A.
        let asking = Task { try await a.client(token, "POST", "/api/authorization/photoLibrary") }
        // B's browser is shown the question raised on A, and B lists it.
        _ = await events.read(until: "event: prompt\n", timeout: 30)
        let pending = try await b.send("GET", "/api/prompts", headers: user).array()
        let id = try #require(pending.first?["id"] as? String, "B does not list the question raised on A")
        #expect(await events.read(until: id, timeout: 10).contains(id), "B's browser was not shown the question")
        // A second request for the same service, on B, waits for the same question.
        let waitingOnB = EventRecorder(serverB.state.prompter.waitingUpdates)
        let again = Task { try await RawHTTP(port: b.port).send("POST", "/api/authorization/photoLibrary", headers: ["Authorization": "Bearer \(token)"]) }
        #expect(await waitingOnB.wait { $0.last == 1 }, "the request on B does not wait for the question")
        #expect(try await b.send("GET", "/api/prompts", headers: user).array().count == 1, "one question for one client and service")
        let answered = try await b.send(
            "POST", "/api/prompts/\(id)", headers: user.merging(["Content-Type": "application/json"]) { $1 },
            body: Data(#"{"answer": "selectPhotos", "assets": ["\#(a.photos[0])"]}"#.utf8))
        #expect(answered.status == 204, "\(answered.status) \(answered.text)")
        let response = try await asking.value
        let decided = try response.object()["status"] as? String
        #expect(response.status == 200 && decided == "limited", "A's client got \(response.text)")
        #expect((try await again.value.object()["status"] as? String) == "limited")
        #expect(await events.read(until: "event: promptSettled", timeout: 10).contains("event: promptSettled"), "B's browser still shows the answered question")
        // Answered once: a second answer is refused.
        #expect(try await a.user("POST", "/api/prompts/\(id)", json: ["answer": "deny"]).status == 404)
    }

    @Test func anAnswerStandsWhenTheServerThatAskedIsGone() async throws {
        let key = "shared-key-for-a-gone-server"
        let a = try await TestServer.start(photos: 1, configuration: .init(port: 0, userKey: key))
        defer { a.stop() }
        let (serverB, running, b) = try await secondServer(beside: a, key: key)
        let user = ["Authorization": "Bearer \(key)", "Content-Type": "application/json"]
        let token = try await a.register("com.example.cam")
        // The client asks on B, which then stops before the user answers.
        let asking = Task { try await b.send("POST", "/api/authorization/camera", headers: ["Authorization": "Bearer \(token)"]) }
        let id = try #require(try await a.awaitPrompt(from: "com.example.cam")["id"] as? String)
        let stop = ContinuousClock.now
        await serverB.stop()
        // The stopped server does not keep the client waiting for an answer it can no longer
        // hand over: it answers 503 (ask again), as `shoebox serve` does on SIGTERM.
        let stopped = try? await asking.value
        #expect(stopped?.status == 503, "\(stopped?.status ?? 0) \(stopped?.text ?? "")")
        try await running.value
        #expect(ContinuousClock.now - stop < .seconds(30), "the asking request outlived its server")
        // The user answers on A: the decision is recorded there, and the client, asking again on
        // A, is not asked twice.
        #expect(try await a.send("POST", "/api/prompts/\(id)", json: ["answer": "allow"], headers: user).status == 204)
        let status = try await a.client(token, "POST", "/api/authorization/camera")
        let decided = try status.object()["status"] as? String
        #expect(decided == "authorized", "\(status.text)")
        #expect(try await a.user("GET", "/api/prompts").array().isEmpty)
    }

    /// A picker session made on A is shown, changed and resolved through B (issue 16): the
    /// selection and crop made through B reach A's page and its waiting client, and the files
    /// download from A, delivered there again.
    @Test func aPickerSessionMadeOnOneServerIsPickedThroughTheOther() async throws {
        let key = "shared-key-for-pickers"
        let a = try await TestServer.start(photos: 3, configuration: .init(port: 0, userKey: key))
        defer { a.stop() }
        let (serverB, running, b) = try await secondServer(beside: a, key: key)
        defer { TestServer.stopInBackground(serverB, running) }
        let user = ["Authorization": "Bearer \(key)"]
        let token = try await a.register("com.example.avatar")
        let created = try await a.client(token, "POST", "/api/picker/sessions", json: ["allowsEditing": true, "maximumEditedImagePixelSize": 64])
        #expect(created.status == 201, "\(created.text)")
        let session = try #require(try created.object()["id"] as? String)
        let ui = "/api/picker/sessions/\(session)/ui"
        // B serves the page and the client's poll, though A made the session.
        #expect(try await b.send("GET", "/pick/\(session)", headers: user).status == 200)
        #expect(
            try await b.send("GET", "/api/picker/sessions/\(session)", headers: ["Authorization": "Bearer \(token)"]).object()["status"] as? String == "pending"
        )
        // A's page listens while the user works through B.
        let events = try a.http.open("\(ui)/events", headers: user)
        _ = await events.read(until: "event: state", timeout: 10)
        let chosen = a.photos[1]
        let json = user.merging(["Content-Type": "application/json"]) { $1 }
        let selected = try await b.send("POST", "\(ui)/select", headers: json, body: Data(#"{"id": "\#(chosen)"}"#.utf8))
        let selection = try selected.object()["selection"] as? [String]
        #expect(selected.status == 200 && selection == [chosen], "\(selected.text)")
        let crop = try await b.send(
            "POST", "\(ui)/crop", headers: json, body: Data(#"{"id": "\#(chosen)", "rect": {"x": 80, "y": 40, "width": 200, "height": 200}}"#.utf8))
        #expect(crop.status == 200, "\(crop.text)")
        #expect(await events.read(until: chosen, timeout: 10).contains(chosen), "A's page never heard of the selection made through B")
        let onA = try await a.user("GET", ui).object()
        #expect(onA["selection"] as? [String] == [chosen])
        #expect(((onA["edits"] as? [String: Any])?[chosen] as? [String: Any])?["cropRect"] != nil, "A does not know the crop made through B")
        // The client waits on A; the user chooses on B.
        let timedWaits = try await a.server.timedWaits(onPickerSession: session)
        let waiting = Task { try await a.client(token, "GET", "/api/picker/sessions/\(session)?wait=30") }
        #expect(await timedWaits.wait { $0.last == 1 }, "A's client does not wait")
        let confirmed = try await b.send("POST", "\(ui)/confirm", headers: user)
        let finished = try confirmed.object()["finished"] as? String
        #expect(finished == "picked", "\(confirmed.text)")
        let result = try await waiting.value.object()
        #expect(result["status"] as? String == "picked", "A's client got \(result)")
        let item = try #require((result["results"] as? [[String: Any]])?.first)
        let info = try #require(item["info"] as? [String: Any])
        #expect(info["localIdentifier"] as? String == chosen)
        #expect((info["cropRect"] as? [String: Int]) == ["x": 80, "y": 40, "width": 200, "height": 200])
        let files = try #require(item["files"] as? [String: String])
        let edited = try await a.client(token, "GET", try #require(files["editedImage"]))
        let editedSize = try Image(data: edited.body).pixelSize
        #expect(edited.status == 200 && editedSize == PixelSize(width: 64, height: 64))
        let original = try await b.send("GET", try #require(files["image"]), headers: ["Authorization": "Bearer \(token)"])
        let stored = try await Data(contentsOf: a.library.originalURL(for: try #require(a.library.fetchAssets(withLocalIdentifiers: [chosen]).firstObject)))
        #expect(original.status == 200 && original.body == stored, "B hands over the same original")
        // Finished: changes through either server are refused.
        let late = try await a.http.send("POST", "\(ui)/select", headers: json, body: Data(#"{"id": "\#(a.photos[0])"}"#.utf8))
        #expect(late.status == 409 && late.text.contains("finished"), "\(late.status) \(late.text)")
    }

    /// Two servers changing one pick at once: the second to save is refused (409) and its copy
    /// takes on the first one's change, so the user sees what was stored.
    @Test func theSecondOfTwoSimultaneousPickerChangesIsRefusedAndTakesOnTheFirst() async throws {
        let key = "shared-key-for-picker-conflicts"
        let a = try await TestServer.start(photos: 2, configuration: .init(port: 0, userKey: key))
        defer { a.stop() }
        let (b, running, _) = try await secondServer(beside: a, key: key)
        defer { TestServer.stopInBackground(b, running) }
        // B reads other servers' picker changes only after a minute (SQLite's timed read), so it
        // has not seen A's change when it saves its own: it learns of it by being refused.
        b.state.pickers.watchInterval = .seconds(60)
        let token = try await a.register("com.example.conflict")
        let created = try await a.client(token, "POST", "/api/picker/sessions", json: [String: Any]())
        let id = try #require(try created.object()["id"] as? String)
        let onA = try #require(try await a.server.state.pickers.entry(id)).session
        let onB = try #require(try await b.state.pickers.entry(id)).session
        try await onA.select(a.photos[0])
        try await a.server.state.pickers.save(onA)
        try await onB.select(a.photos[1])  // B has not seen A's change yet
        do {
            try await b.state.pickers.save(onB)
            Issue.record("the second save was not refused")
        } catch {
            #expect(error.status == .conflict && error.code == "pickerChanged", "\(error)")
        }
        #expect(onB.selection == [a.photos[0]], "B's copy did not take on A's change: \(onB.selection)")
    }

    /// A resumable upload begun on A goes on through B from the byte A stored (issue 16: upload
    /// progress lives in the catalog), and the piece store outlives neither the upload nor a
    /// repeat of its last request.
    @Test func aResumableUploadBegunOnOneServerIsFinishedOnTheOther() async throws {
        let key = "shared-key-for-uploads"
        let a = try await TestServer.start(photos: 0, configuration: .init(port: 0, userKey: key))
        defer { a.stop() }
        let (serverB, running, b) = try await secondServer(beside: a, key: key)
        defer { TestServer.stopInBackground(serverB, running) }
        let user = ["Authorization": "Bearer \(key)"]
        let photo = try SyntheticPhoto(width: 1600, height: 1200, seed: 77).image().encoded(as: .jpeg)
        let sha256 = SHA256.hash(data: photo).map { String(format: "%02x", $0) }.joined()
        let begun = try await a.send("POST", "/api/uploads", json: ["filename": "big.jpg", "size": photo.count], headers: user)
        #expect(begun.status == 201, "\(begun.text)")
        let id = try #require(try begun.object()["id"] as? String)
        let split = photo.count / 3
        let first = try await a.http.send("PUT", "/api/uploads/\(id)?offset=0", headers: user, body: photo.prefix(split))
        let firstOffset = try first.object()["offset"] as? Int
        #expect(first.status == 200 && firstOffset == split, "\(first.text)")
        // B knows how far it got, refuses the same bytes again, and takes the rest.
        let state = try await b.send("GET", "/api/uploads/\(id)", headers: user).object()
        #expect(state["offset"] as? Int == split && state["state"] as? String == "receiving", "\(state)")
        let again = try await b.send("PUT", "/api/uploads/\(id)?offset=0", headers: user, body: photo.prefix(split))
        #expect(again.status == 409 && again.headers["upload-offset"] == String(split), "\(again.status) \(again.text)")
        let rest = try await b.send("PUT", "/api/uploads/\(id)?offset=\(split)", headers: user, body: photo.suffix(from: split))
        #expect(rest.status == 201, "\(rest.text)")
        let imported = try rest.object()
        #expect(imported["sha256"] as? String == sha256 && imported["size"] as? Int == photo.count)
        let asset = try #require(imported["localIdentifier"] as? String)
        let stored = try await Data(contentsOf: a.library.originalURL(for: try #require(a.library.fetchAssets(withLocalIdentifiers: [asset]).firstObject)))
        #expect(stored == photo, "the asset holds the file, byte for byte")
        // A asks, and the last request repeated gets the same asset.
        let done = try await a.send("GET", "/api/uploads/\(id)", headers: user).object()
        #expect(done["state"] as? String == "complete" && done["localIdentifier"] as? String == asset, "\(done)")
        let repeated = try await a.send("PUT", "/api/uploads/\(id)?offset=\(photo.count)", headers: user)
        let repeatedAsset = try repeated.object()["localIdentifier"] as? String
        #expect(repeated.status == 200 && repeatedAsset == asset, "\(repeated.text)")
        // (With blobs in a bucket the pieces were never in the folder: UploadPiecesTests checks the bucket.)
        #expect(!FileManager.default.fileExists(atPath: a.library.url.appendingPathComponent("uploads/\(id)").path), "the pieces are gone")
    }
}
