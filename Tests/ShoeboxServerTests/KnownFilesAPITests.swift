import Crypto
import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Testing

/// `POST /api/assets/known` (issue 44 item 6): which files a person's library holds already, by
/// the rule an upload uses to find a duplicate, for a phone's backup and `shoebox sync`.
@Suite struct KnownFilesAPITests {
    static func hex(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }

    @Test("A person learns which of their files the library has (live or in Recently Deleted), never another person's, and an app learns nothing")
    func knownFilesArePerPerson() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let mine = try SyntheticPhoto(width: 160, height: 120, seed: 71).image().encoded(as: .jpeg)
        let deleted = try SyntheticPhoto(width: 160, height: 120, seed: 72).image().encoded(as: .jpeg)
        let kims = try SyntheticPhoto(width: 160, height: 120, seed: 73).image().encoded(as: .jpeg)
        let unknown = Self.hex(Data("never imported".utf8))
        let added = try await test.user("POST", "/api/assets?filename=a.jpg", body: mine)
        #expect(added.status == 201, "\(added.text)")
        let gone = try await test.user("POST", "/api/assets?filename=b.jpg", body: deleted).object()
        let goneID = try #require(gone["localIdentifier"] as? String)
        #expect(try await test.user("DELETE", "/api/assets/\(TestServer.escaped(goneID))").status == 200)

        _ = try await test.library.addPerson(name: "kim", password: "kim's password")
        let (cookie, csrf) = try await test.personSession(name: "kim", password: "kim's password")
        let kim = ["Cookie": cookie, "X-Shoebox-CSRF": csrf, "Origin": "http://127.0.0.1:\(test.port)"]
        #expect(try await test.send("POST", "/api/assets?filename=k.jpg", body: kims, headers: kim).status == 201)

        let asked = [Self.hex(mine), Self.hex(deleted).uppercased(), Self.hex(kims), unknown, Self.hex(mine)]
        let answer = try await test.user("POST", "/api/assets/known", json: ["sha256": asked])
        #expect(answer.status == 200, "\(answer.text)")
        let known = try answer.object()
        #expect(known["present"] as? [String] == [Self.hex(mine)])
        #expect(known["deleted"] as? [String] == [Self.hex(deleted)], "hex is read in either case and answered in lowercase")

        // Kim's library holds her photo only; the admin's are not hers to learn about.
        let hers = try await test.send("POST", "/api/assets/known", json: ["sha256": asked], headers: kim).object()
        #expect(hers["present"] as? [String] == [Self.hex(kims)] && (hers["deleted"] as? [String])?.isEmpty == true)

        // What the answer says, an upload of the same bytes confirms.
        let again = try await test.user("POST", "/api/assets?filename=again.jpg", body: mine).object()
        #expect(again["isDuplicate"] as? Bool == true)

        // An app is refused; bad input is a 400 that names it.
        let token = try await test.register("com.example.backup")
        let app = try await test.client(token, "POST", "/api/assets/known", json: ["sha256": asked])
        #expect(app.status == 403 && app.text.contains("userOnly"), "\(app.status) \(app.text)")
        let notHex = try await test.user("POST", "/api/assets/known", json: ["sha256": ["abc"]])
        #expect(notHex.status == 400 && notHex.text.contains("not a SHA-256"))
        let tooMany = try await test.user("POST", "/api/assets/known", json: ["sha256": Array(repeating: unknown, count: 1001)])
        #expect(tooMany.status == 400 && tooMany.text.contains("at most 1000"))
        #expect(try await test.user("POST", "/api/assets/known", json: ["hashes": [unknown]]).status == 400)
    }

    @Test("Read and upload keys may ask (an upload tells as much); the answer is the key's person's")
    func keysMayAsk() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let (cookie, csrf) = try await test.browserSession()
        let headers = ["Cookie": cookie, "X-Shoebox-CSRF": csrf, "Origin": "http://127.0.0.1:\(test.port)"]
        let photo = try SyntheticPhoto(width: 100, height: 80, seed: 74).image().encoded(as: .jpeg)
        #expect(try await test.user("POST", "/api/assets?filename=p.jpg", body: photo).status == 201)
        for scope in ["read", "upload", "write"] {
            let made = try await test.send("POST", "/api/keys", json: ["name": "\(scope) key", "scope": scope], headers: headers)
            let token = try #require(try made.object()["token"] as? String, "\(made.text)")
            let answer = try await test.client(token, "POST", "/api/assets/known", json: ["sha256": [Self.hex(photo)]])
            #expect(answer.status == 200, "\(scope): \(answer.status) \(answer.text)")
            #expect(try answer.object()["present"] as? [String] == [Self.hex(photo)], "\(scope)")
        }
    }
}
