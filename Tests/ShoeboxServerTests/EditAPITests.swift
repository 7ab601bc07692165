import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import ShoeboxServer
import ShoeboxTesting
import Testing

/// `GET`, `PUT` and `DELETE /api/assets/ID/adjustments`, and the original thumbnail an editor draws from.
@Suite struct EditAPITests {
    @Test("An edit is rendered, continued from its data, refused when out of range, and reverted")
    func editAndRevert() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let id = TestServer.escaped(test.photos[0])
        let path = "/api/assets/\(id)/adjustments"

        let before = try await test.user("GET", path).object()
        #expect(before["adjustments"] is NSNull && before["originalWidth"] as? Int == 320 && before["originalHeight"] as? Int == 240)
        #expect((before["filters"] as? [[String: Any]])?.map { $0["name"] as? String } == Adjustments.Filter.allCases.map(\.rawValue))

        let edit: [String: Any] = [
            "rotation": 90, "straighten": 4, "crop": ["x": 0, "y": 0, "width": 1, "height": 0.5],
            "light": ["exposure": 0.4, "warmth": 0.5], "filter": "vivid",
        ]
        let saved = try await test.user("PUT", path, json: edit)
        #expect(saved.status == 200, "\(saved.text)")
        let asset = try saved.object()
        let straightened = ImageEdit.straightenedSize(of: PixelSize(width: 240, height: 320), degrees: 4)
        #expect(asset["hasAdjustments"] as? Bool == true && asset["pixelWidth"] as? Int == straightened.width)

        let after = try await test.user("GET", path).object()
        #expect(after["formatVersion"] as? String == "2")
        let stored = try #require(after["adjustments"] as? [String: Any])
        #expect(stored["rotation"] as? Int == 90 && stored["filter"] as? String == "vivid" && (stored["light"] as? [String: Any])?["warmth"] as? Double == 0.5)
        // The original is still 320×240 and an editor can draw it; the current version is the render.
        #expect(after["originalWidth"] as? Int == 320)
        let original = try await test.user("GET", "/api/assets/\(id)/thumbnail?size=400&mode=fit&version=original")
        let current = try await test.user("GET", "/api/assets/\(id)/thumbnail?size=400&mode=fit")
        #expect(try Image(data: original.body).pixelSize == PixelSize(width: 320, height: 240))
        #expect(try Image(data: current.body).pixelWidth == straightened.width)
        #expect(try await test.user("GET", "/api/assets/\(id)/thumbnail?version=edited").status == 400)

        // Values out of range and a trim on a photo are named, and change nothing.
        let wrong = try await test.user("PUT", path, json: ["straighten": 50])
        #expect(wrong.status == 400 && wrong.text.contains("straighten"), "\(wrong.text)")
        let trimmed = try await test.user("PUT", path, json: ["trim": ["start": 0, "end": 1]])
        #expect(trimmed.status == 400 && trimmed.text.contains("trim"), "\(trimmed.text)")
        let unknownFilter = try await test.user("PUT", path, json: ["filter": "lomo"])
        #expect(unknownFilter.status == 400)
        #expect((try await test.user("GET", path).object()["adjustments"] as? [String: Any])?["filter"] as? String == "vivid")

        // Only the user edits here.
        let token = try await test.register("com.example.editor")
        #expect(try await test.client(token, "PUT", path, json: ["rotation": 180]).status == 403)
        #expect(try await test.client(token, "DELETE", path).status == 403)

        let reverted = try await test.user("DELETE", path)
        #expect(reverted.status == 200)
        let plain = try reverted.object()
        #expect(plain["hasAdjustments"] as? Bool == false && plain["pixelWidth"] as? Int == 320)
        #expect(try await test.user("GET", path).object()["adjustments"] is NSNull)

        // As a copy: a new asset, the first unchanged.
        let copy = try await test.user("PUT", path + "?asCopy=true", json: ["filter": "mono"])
        #expect(copy.status == 201)
        #expect(try copy.object()["localIdentifier"] as? String != test.photos[0])
    }

    @Test("An edited movie's original still plays for the trimmer")
    func movieOriginalPlays() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let clip = try SyntheticMovie(duration: 4).write(to: test.folder.appendingPathComponent("clip.mp4"))
        let created = try await test.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: clip) }
        let id = TestServer.escaped(created.created[0].localIdentifier)
        let trimmed = try await test.user("PUT", "/api/assets/\(id)/adjustments", json: ["trim": ["start": 1, "end": 3]])
        #expect(trimmed.status == 200, "\(trimmed.text)")
        let current = try await test.user("GET", "/api/assets/\(id)/video")
        let original = try await test.user("GET", "/api/assets/\(id)/video?version=original")
        #expect(current.status == 200 && original.status == 200)
        let folder = test.folder
        func seconds(_ data: Data, _ name: String) async throws -> Double {
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            return try await Movie(contentsOf: url).info.duration
        }
        #expect(abs(try await seconds(current.body, "current.mp4") - 2) < 0.2)
        #expect(abs(try await seconds(original.body, "original.mp4") - 4) < 0.2)
        #expect(try await test.user("GET", "/api/assets/\(id)/video?version=edited").status == 400)
    }
}
