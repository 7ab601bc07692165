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
}
