import Foundation
import ShoeboxServer
import ShoeboxTesting
import Testing

/// `/api/uploads` refuses what is wrong with a clear error and keeps uploads to their owners.
@Suite struct ResumableUploadAPITests {
    @Test func badRequestsAndOwners() async throws {
        let test = try await TestServer.start(photos: 0, configuration: .init(port: 0, uploadByteLimit: 1_000))
        defer { test.stop() }
        let tooBig = try await test.user("POST", "/api/uploads", json: ["filename": "a.jpg", "size": 1_001])
        #expect(tooBig.status == 413 && tooBig.text.contains("1000"), "\(tooBig.text)")
        #expect(try await test.user("POST", "/api/uploads", json: ["filename": "a.jpg", "size": 0]).status == 400)
        #expect(try await test.user("POST", "/api/uploads", json: ["filename": "a.jpg"]).status == 400, "no size")
        let noAlbum = try await test.user("POST", "/api/uploads", json: ["filename": "a.jpg", "size": 10, "album": "nope"])
        #expect(noAlbum.status == 404 && noAlbum.text.contains("nope"))

        let begun = try await test.user("POST", "/api/uploads", json: ["filename": "../../a.jpg", "size": 10])
        #expect(begun.status == 201, "\(begun.text)")
        let upload = try begun.object()
        let id = try #require(upload["id"] as? String)
        #expect(upload["filename"] as? String == "a.jpg", "a plain name: \(upload)")
        let noOffset = try await test.user("PUT", "/api/uploads/\(id)", body: Data(count: 4))
        #expect(noOffset.status == 400 && noOffset.text.contains("offset"))
        let pastTheEnd = try await test.user("PUT", "/api/uploads/\(id)?offset=0", body: Data(count: 11))
        #expect(pastTheEnd.status == 413, "\(pastTheEnd.status) \(pastTheEnd.text)")
        let wrongPlace = try await test.user("PUT", "/api/uploads/\(id)?offset=4", body: Data(count: 4))
        #expect(wrongPlace.status == 409 && wrongPlace.headers["upload-offset"] == "0")
        // Ten bytes that are no photo: the import fails with the reason, and the upload stays.
        let notAPhoto = try await test.user("PUT", "/api/uploads/\(id)?offset=0", body: Data(repeating: 7, count: 10))
        #expect(notAPhoto.status == 415, "\(notAPhoto.status) \(notAPhoto.text)")
        #expect(try await test.user("GET", "/api/uploads/\(id)").object()["offset"] as? Int == 10)

        // Another client sees nothing of it.
        let token = try await test.register("com.example.other")
        #expect(try await test.client(token, "GET", "/api/uploads/\(id)").status == 404)
        #expect(try await test.client(token, "DELETE", "/api/uploads/\(id)").status == 404)
        #expect(try await test.user("DELETE", "/api/uploads/\(id)").status == 204)
        #expect(try await test.user("GET", "/api/uploads/\(id)").status == 404)
        #expect(try await test.user("GET", "/api/uploads/no-such-upload").status == 404)
    }
}
