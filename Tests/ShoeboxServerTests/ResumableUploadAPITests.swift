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

    /// Issue 39 item G(a): one uploader cannot hold the library's storage with abandoned uploads:
    /// at most 16 receiving, declaring at most 32 GiB together; past either, `409 tooManyUploads`
    /// naming the limit. Another uploader has limits of its own, and a cancelled upload frees its share.
    @Test func oneUploaderHoldsABoundedNumberAndSize() async throws {
        let test = try await TestServer.start(photos: 0, configuration: .init(port: 0, uploadByteLimit: 8 << 30))
        defer { test.stop() }
        var ids: [String] = []
        // Three of 8 GiB and one of 7 GiB declare 31 GiB: 2 GiB more would pass 32 GiB.
        for size in [8 << 30, 8 << 30, 8 << 30, 7 << 30] {
            let begun = try await test.user("POST", "/api/uploads", json: ["filename": "m.mov", "size": size])
            #expect(begun.status == 201, "\(begun.text)")
            ids.append(try #require(try begun.object()["id"] as? String))
        }
        let tooMuch = try await test.user("POST", "/api/uploads", json: ["filename": "m.mov", "size": 2 << 30])
        #expect(tooMuch.status == 409, "\(tooMuch.status) \(tooMuch.text)")
        #expect(tooMuch.text.contains("tooManyUploads") && tooMuch.text.contains("32 GiB"), "\(tooMuch.text)")
        let last = try await test.user("POST", "/api/uploads", json: ["filename": "m.mov", "size": 1 << 30])
        #expect(last.status == 201, "up to the limit: \(last.text)")
        ids.append(try #require(try last.object()["id"] as? String))
        // Another uploader is not held back by the user's uploads.
        let token = try await test.register("com.example.mover")
        #expect(try await test.user("PUT", "/api/clients/com.example.mover/services/photoLibraryAdd", json: ["status": "authorized"]).status == 200)
        let other = try await test.client(token, "POST", "/api/uploads", json: ["filename": "m.mov", "size": 8 << 30])
        #expect(other.status == 201, "\(other.status) \(other.text)")
        // A cancelled upload frees what it declared.
        #expect(try await test.user("DELETE", "/api/uploads/\(ids[0])").status == 204)
        #expect(try await test.user("POST", "/api/uploads", json: ["filename": "m.mov", "size": 8 << 30]).status == 201)

        // The count: 16 receiving at most (small ones; 5 of the user's are receiving already,
        // four of which are cancelled to leave room under the size).
        for id in ids.dropFirst() { #expect(try await test.user("DELETE", "/api/uploads/\(id)").status == 204) }
        for index in 1..<16 {
            let begun = try await test.user("POST", "/api/uploads", json: ["filename": "p.jpg", "size": 10])
            #expect(begun.status == 201, "upload \(index + 1): \(begun.text)")
        }
        let seventeenth = try await test.user("POST", "/api/uploads", json: ["filename": "p.jpg", "size": 10])
        #expect(seventeenth.status == 409, "\(seventeenth.status) \(seventeenth.text)")
        #expect(seventeenth.text.contains("tooManyUploads") && seventeenth.text.contains("(16)"), "\(seventeenth.text)")
    }
}
