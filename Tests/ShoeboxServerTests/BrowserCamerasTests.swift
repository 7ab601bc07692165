import Foundation
import ShoeboxLibrary
import ShoeboxPicker
import ShoeboxServer
import ShoeboxTesting
import Testing

/// The web presenter offers the cameras the user's browser reports (issue 22: availability means
/// usable now), and before any browser reported, a rear and a front camera provisionally, for the
/// picker page to ask the browser (issue 39.11: `shoebox pick --source camera` on a fresh library).
@Suite struct BrowserCamerasTests {
    /// A camera session on the browser's cameras (`source: presenter`: the synthetic capture
    /// devices other suites turn on are not asked).
    func cameraSession(_ test: TestServer, device: String = "rear") async throws -> RawHTTP.Response {
        try await test.user("POST", "/api/picker/sessions", json: ["sourceType": "camera", "camera": ["device": device, "source": "presenter"]])
    }

    @Test("Before a report both cameras are offered for the page to ask; a report offers what it names, and only that")
    func availabilityFollowsTheReport() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let before = try await cameraSession(test)
        #expect(before.status == 201, "\(before.text)")
        let page = try await test.user("GET", "/api/picker/sessions/\(try before.object()["id"] as? String ?? "")/ui").object()
        #expect(page["cameraSource"] as? String == "presenter")
        #expect((page["cameras"] as? [[String: Any]])?.compactMap { $0["device"] as? String } == ["rear", "front"])
        let unknown = try await test.user("GET", "/api/picker/cameras").object()
        #expect(unknown["available"] as? [String: Bool] == ["rear": false, "front": false])
        #expect(unknown["reportedAt"] == nil, "nothing reported yet")

        // A desktop's one webcam, placed nowhere: it is the picker's (rear) camera, and the only one.
        let reported = try await test.user("POST", "/api/picker/cameras", json: ["cameras": [["id": "a1", "label": "Integrated Webcam"]]])
        #expect(reported.status == 200, "\(reported.text)")
        #expect(try reported.object()["available"] as? [String: Bool] == ["rear": false])
        #expect(try await cameraSession(test).status == 201)
        let front = try await cameraSession(test, device: "front")
        #expect(front.status != 201 && front.text.contains("cameraUnavailable"), "\(front.text)")

        // A phone: each camera placed by its facing mode, the rear one with a torch.
        _ = try await test.user(
            "POST", "/api/picker/cameras",
            json: [
                "cameras": [
                    ["id": "f", "label": "camera2 1, facing front", "facingMode": "user"],
                    ["id": "b", "label": "camera2 0, facing back", "facingMode": "environment", "torch": true, "zoom": ["min": 1, "max": 8]],
                ]
            ])
        let known = try await test.user("GET", "/api/picker/cameras").object()
        #expect(known["available"] as? [String: Bool] == ["front": false, "rear": true])
        #expect(try await cameraSession(test, device: "front").status == 201)

        // No camera at all (the browser has none): nothing is offered again.
        _ = try await test.user("POST", "/api/picker/cameras", json: ["cameras": [] as [Any]])
        #expect(try await cameraSession(test).status != 201)
    }

    @Test("Only the user's browser reports, and a report is checked")
    func reportsAreTheUsersAndChecked() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let token = try await test.register("org.example.reporter")
        #expect(try await test.client(token, "POST", "/api/picker/cameras", json: ["cameras": [["id": "x"]]]).status == 403)
        #expect(try await test.send("POST", "/api/picker/cameras", json: ["cameras": [["id": "x"]]]).status == 401)
        let many = (0..<17).map { ["id": "\($0)"] }
        #expect(try await test.user("POST", "/api/picker/cameras", json: ["cameras": many]).status == 400)
        let inverted = try await test.user("POST", "/api/picker/cameras", json: ["cameras": [["id": "z", "zoom": ["min": 4, "max": 1]]]])
        #expect(inverted.status == 400 && inverted.text.contains("zoom"), "\(inverted.text)")
    }

    @Test("A report outlives the server: another server of the library knows it")
    func theReportIsKeptInTheCatalog() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        _ = try await test.user("POST", "/api/picker/cameras", json: ["cameras": [["id": "w", "label": "USB Camera"]]])
        let second = PhotoLibraryServer(library: test.library)
        var request = PickerRequest()
        request.sourceType = .camera
        request.camera.source = .presenter
        let session = try await second.makePickerSession(request)
        #expect(session.cameraSource == .presenter)
        await session.cancel()
    }

    @Test("Each person's browser reports their own cameras, offered to their pickers only; removing the person removes theirs")
    func eachPersonsCamerasAreTheirOwn() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let dana = try await test.library.addPerson(name: "dana", role: .member, password: "dana's password")
        let key = try await test.library.forPerson(dana).makeKey(named: "tests", scope: .write).token
        func session(_ device: String, as key: String?) async throws -> RawHTTP.Response {
            let body: [String: Any] = ["sourceType": "camera", "camera": ["device": device, "source": "presenter"]]
            if let key { return try await test.client(key, "POST", "/api/picker/sessions", json: body) }
            return try await test.user("POST", "/api/picker/sessions", json: body)
        }

        // Dana's phone has a front camera only; the owner's browser has not reported.
        let reported = try await test.client(key, "POST", "/api/picker/cameras", json: ["cameras": [["id": "f", "label": "front", "facingMode": "user"]]])
        #expect(reported.status == 200, "\(reported.text)")
        #expect(try await test.client(key, "GET", "/api/picker/cameras").object()["available"] as? [String: Bool] == ["front": false])
        let owners = try await test.user("GET", "/api/picker/cameras").object()
        #expect(owners["reportedAt"] == nil && owners["cameras"] as? [Any] != nil, "the owner sees Dana's cameras: \(owners)")
        #expect((owners["cameras"] as? [Any])?.isEmpty == true)
        // Dana's pickers are offered her cameras; the owner's are still offered both provisionally.
        let rear = try await session("rear", as: key)
        #expect(rear.status != 201 && rear.text.contains("cameraUnavailable"), "\(rear.text)")
        #expect(try await session("front", as: key).status == 201)
        #expect(try await session("rear", as: nil).status == 201)
        // The owner's desktop webcam (their rear camera) changes nothing for Dana.
        _ = try await test.user("POST", "/api/picker/cameras", json: ["cameras": [["id": "w", "label": "Integrated Webcam"]]])
        #expect(try await test.user("GET", "/api/picker/cameras").object()["available"] as? [String: Bool] == ["rear": false])
        #expect(try await test.client(key, "GET", "/api/picker/cameras").object()["available"] as? [String: Bool] == ["front": false])
        // Another server of the library knows Dana's report from the catalog.
        let second = PhotoLibraryServer(library: test.library)
        var request = PickerRequest()
        request.sourceType = .camera
        request.camera.source = .presenter
        request.camera.device = .rear
        await #expect(throws: PickerError.self) { _ = try await second.makePickerSession(request, for: dana) }
        request.camera.device = .front
        let front = try await second.makePickerSession(request, for: dana)
        await front.cancel()

        // Removed, Dana's report goes with her.
        try await test.library.removePerson(dana, deletingTheirLibrary: true)
        #expect(try await test.library.serverSetting("browserCameras.\(dana.rowID)") == nil)
        #expect(try await test.library.serverSetting("browserCameras") != nil, "the owner's report stays")
    }
}
