import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary
@testable import ShoeboxServer

/// What is the library owner's (its first admin, person 1) and what is each person's: apps and
/// their questions are the owner's alone, not every admin's; background jobs are each person's.
@Suite struct OwnerAPITests {
    /// A person's key with the write scope: their tools, acting for them on every route a person
    /// may call.
    static func writeKey(for person: Person, in test: TestServer) async throws -> String {
        try await test.library.forPerson(person).makeKey(named: "tests", scope: .write).token
    }

    static func code(_ response: RawHTTP.Response) -> String {
        "\(response.status) \(((try? response.object())?["error"] as? [String: Any])?["code"] as? String ?? "")"
    }

    @Test("Another admin manages people, not the owner's apps, questions or password, and cannot disable, demote or remove the owner")
    func anotherAdminIsNotTheOwner() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let owner = try #require(try await test.library.person())
        let carol = try await test.library.addPerson(name: "carol", role: .admin, password: "carol's password")
        let key = try await Self.writeKey(for: carol, in: test)
        let client = "com.example.owned"
        let registered = try await test.send("POST", "/api/clients", json: ["identifier": client, "displayName": "Owned", "usageDescriptions": [:]])
        #expect(registered.status == 201, "\(registered.text)")

        // The owner's apps are the owner's: not in Carol's list, their report (which names the
        // owner's photos and album titles) and grants not found for her; her questions are hers.
        #expect(try await test.user("GET", "/api/clients").text.contains(client))
        let carols = try await test.client(key, "GET", "/api/clients")
        #expect(carols.status == 200 && !carols.text.contains(client), "\(carols.text)")
        for (method, path) in [("GET", "/api/clients/\(client)"), ("GET", "/api/clients/\(client)/report?limit=20")] {
            #expect(try await test.user(method, path).status == 200, "the owner: \(method) \(path)")
            let refused = try await test.client(key, method, path)
            #expect(Self.code(refused) == "404 notFound", "another admin: \(method) \(path): \(refused.text)")
        }
        let grant = try await test.client(key, "PUT", "/api/clients/\(client)/services/photoLibrary", json: ["status": "authorized"])
        #expect(Self.code(grant) == "404 notFound", "\(grant.text)")
        #expect(try await test.client(key, "GET", "/api/prompts").text == "[]")
        // Each person's browser reports its own cameras (BrowserCamerasTests): Carol's are hers.
        #expect(try await test.client(key, "GET", "/api/picker/cameras").object()["reportedAt"] == nil)
        #expect(try await test.client(key, "GET", "/api/people").status == 200, "people stay an admin's to manage")

        // The owner stays: not disabled, made a member or removed, and only they set their password.
        let disable = try await test.client(key, "PATCH", "/api/people/\(owner.id)", json: ["state": "disabled"])
        #expect(disable.status == 400 && disable.text.contains("the library's owner"), "\(disable.text)")
        let demote = try await test.client(key, "PATCH", "/api/people/\(owner.id)", json: ["role": "member"])
        #expect(demote.status == 400 && demote.text.contains("the library's owner"), "\(demote.text)")
        let remove = try await test.client(key, "DELETE", "/api/people/\(owner.id)")
        #expect(remove.status == 400 && remove.text.contains("the library's owner"), "\(remove.text)")
        // (Keys never reach passwords: Carol's browser session tries.)
        let (cookie, csrf) = try await test.personSession(name: "carol", password: "carol's password")
        let password = try await test.send(
            "POST", "/api/people/\(owner.id)/password", json: ["password": "taken over at last"],
            headers: ["Cookie": cookie, "X-Shoebox-CSRF": csrf, "Origin": "http://127.0.0.1:\(test.port)"])
        #expect(Self.code(password) == "403 adminOnly", "\(password.text)")
        let still = try #require(try await test.library.person(named: owner.name))
        #expect(still.state == .active && still.role == .admin)
        #expect(try await test.library.authenticate(name: owner.name, password: "taken over at last") == nil)
        // The owner's own answer says who they are; another admin's does not.
        #expect(try await test.user("GET", "/api/me").object()["isOwner"] as? Bool == true)
        #expect(try await test.client(key, "GET", "/api/me").object()["isOwner"] as? Bool == false)
    }

    static func derivatives(_ listing: [String: Any]) -> Int {
        ((listing["counts"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "derivatives" }.compactMap { $0["count"] as? Int }
            .reduce(0, +)
    }
    static func kinds(_ listing: [String: Any]) -> Set<String> {
        Set(((listing["counts"] as? [[String: Any]]) ?? []).compactMap { $0["kind"] as? String })
    }

    @Test("Each person sees, retries and cancels the jobs about their own photos; the chores are the owner's")
    func jobsAreEachPersons() async throws {
        let test = try await TestServer.start(photos: 1, backgroundWork: .queued)  // imports queue their thumbnails, as under shoebox serve
        defer { test.stop() }
        let kim = try await test.library.addPerson(name: "kim")
        let key = try await Self.writeKey(for: kim, in: test)
        let ownersPhoto = try SyntheticPhoto(width: 320, height: 240, seed: 40).image().encoded(as: .jpeg)
        #expect(try await test.user("POST", "/api/assets?filename=owners.jpg", body: ownersPhoto).status == 201)
        let ownersBefore = try await test.user("GET", "/api/jobs").object()
        let photo = try SyntheticPhoto(width: 320, height: 240, seed: 41).image().encoded(as: .jpeg)
        let upload = try await test.client(key, "POST", "/api/assets?filename=kims.jpg", body: photo)
        #expect(upload.status == 201, "\(upload.text)")
        let kims = try #require(try upload.object()["localIdentifier"] as? String)
        _ = try await test.library.forEveryone().enqueue([.init(kind: .sweep)])  // a library-wide chore

        let kimsJobs = try await test.client(key, "GET", "/api/jobs")
        #expect(kimsJobs.status == 200, "\(kimsJobs.text)")
        let kimsListing = try kimsJobs.object()
        #expect(Self.derivatives(kimsListing) == 1 && !Self.kinds(kimsListing).contains("sweep"), "Kim's own thumbnail, no chore: \(kimsJobs.text)")
        let ownersJobs = try await test.user("GET", "/api/jobs").object()
        #expect(Self.derivatives(ownersBefore) >= 1, "the owner's own thumbnail is queued: \(ownersBefore)")
        #expect(
            Self.derivatives(ownersJobs) == Self.derivatives(ownersBefore) && Self.kinds(ownersJobs).contains("sweep"),
            "the owner's thumbnails and the chores, not Kim's: \(ownersJobs)")

        // Kim cancelling everything cancels hers.
        let cancelled = try await test.client(key, "POST", "/api/jobs/cancel", json: [:])
        #expect((try cancelled.object()["cancelled"] as? Int ?? 0) >= 1, "\(cancelled.text)")
        #expect(try await test.client(key, "GET", "/api/jobs").object()["open"] as? Int == 0)
        #expect(Self.derivatives(try await test.user("GET", "/api/jobs").object()) == Self.derivatives(ownersBefore), "the owner's jobs are left")
        let open = try await test.library.forEveryone().jobs(in: [.queued], limit: 100).map(\.subject)
        #expect(!open.contains(kims) && open.contains(""))
    }

    @Test("An app is its person's: registered for Kim it asks Kim, sees Kim's photos through Kim's grant, and its picker shows Kim's library")
    func appsAreEachPersons() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let kim = try await test.library.addPerson(name: "kim", password: "kim's password")
        let kimsKey = try await Self.writeKey(for: kim, in: test)
        let photo = try SyntheticPhoto(width: 320, height: 240, seed: 52).image().encoded(as: .jpeg)
        let uploaded = try await test.client(kimsKey, "POST", "/api/assets?filename=kims.jpg", body: photo)
        let kimsPhoto = try #require(try uploaded.object()["localIdentifier"] as? String)
        let identifier = "com.example.frame"
        let usage = ["NSPhotoLibraryUsageDescription": "To show your photos"]

        // An app a person runs registers for them by name; the owner's app of the same name is
        // another registration, undecided and unchanged by Kim's decisions.
        let registered = try await test.send(
            "POST", "/api/clients", json: ["identifier": identifier, "displayName": "Frame", "usageDescriptions": usage, "person": "kim"])
        #expect(registered.status == 201, "\(registered.text)")
        let token = try #require(try registered.object()["token"] as? String)
        let ownersToken = try await test.register(identifier, usage: usage)
        let unknown = try await test.send(
            "POST", "/api/clients", json: ["identifier": "com.example.x", "displayName": "X", "usageDescriptions": usage, "person": "nobody"])
        #expect(Self.code(unknown) == "404 notFound", "\(unknown.text)")

        // It asks Kim, not the owner; Kim allows; it reads Kim's photos and nothing of the owner's.
        let asking = Task { try await test.client(token, "POST", "/api/authorization/photoLibrary") }
        let question = try await test.http.awaitPrompt(from: identifier, userKey: kimsKey)
        #expect(try await test.user("GET", "/api/prompts").array().isEmpty, "the owner is not asked Kim's app's question")
        let id = try #require(question["id"] as? String)
        #expect(Self.code(try await test.user("POST", "/api/prompts/\(id)", json: ["answer": "allow"])) == "404 notFound", "nor can answer it")
        #expect(try await test.client(kimsKey, "POST", "/api/prompts/\(id)", json: ["answer": "allow"]).status == 204)
        #expect(try await asking.value.object()["status"] as? String == "authorized")
        let listed = try await test.client(token, "GET", "/api/assets").object()["assets"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["localIdentifier"] as? String } == [kimsPhoto], "\(listed)")
        #expect(try await test.client(token, "GET", "/api/assets/\(TestServer.escaped(test.photos[0]))").status == 404)
        #expect(try await test.client(ownersToken, "GET", "/api/authorization/photoLibrary").object()["status"] as? String == "notDetermined")
        #expect(try await test.client(ownersToken, "GET", "/api/assets").status == 403, "the owner's app of that name decides nothing for Kim's")

        // Each person's Privacy lists their own registration, and Kim's report names what hers read.
        let kimsApps = try await test.client(kimsKey, "GET", "/api/clients").array()
        #expect(kimsApps.count == 1 && (kimsApps[0]["services"] as? [String: String])?["photoLibrary"] == "authorized")
        let ownersApps = try await test.user("GET", "/api/clients").array()
        #expect(ownersApps.compactMap { ($0["services"] as? [String: String])?["photoLibrary"] } == ["notDetermined"])
        #expect(try await test.client(token, "GET", "/api/assets/\(TestServer.escaped(kimsPhoto))/thumbnail?size=64").status == 200)
        let report = try await test.client(kimsKey, "GET", "/api/clients/\(identifier)/report?limit=20").array()
        #expect(
            report.contains { $0["action"] as? String == "thumbnail" && $0["localIdentifier"] as? String == kimsPhoto && $0["asset"] != nil },
            "\(report)")
        #expect(try await test.user("GET", "/api/clients/\(identifier)/report?limit=20").array().isEmpty, "the owner's app of that name did nothing")

        // Its picker shows Kim's library: Kim's browser answers it; the owner finds no such picker.
        let created = try await test.client(token, "POST", "/api/picker/sessions", json: [String: Any]())
        let session = try #require(try created.object()["id"] as? String)
        let (cookie, csrf) = try await test.personSession(name: "kim", password: "kim's password")
        let kimsBrowser = ["Cookie": cookie, "X-Shoebox-CSRF": csrf]
        let ui = "/api/picker/sessions/\(session)/ui"
        let albums = try await test.send("GET", "\(ui)/albums", headers: kimsBrowser).array()
        let recents = try #require(albums.first { $0["title"] as? String == "Recents" })
        #expect(try await test.send("POST", "\(ui)/album", json: ["id": recents["id"]!], headers: kimsBrowser).status == 200)
        let assets = try await test.send("GET", "\(ui)/assets?offset=0&limit=10", headers: kimsBrowser)
        let shown = (try assets.object()["assets"] as? [[String: Any]])?.compactMap { $0["localIdentifier"] as? String }
        #expect(shown == [kimsPhoto], "\(assets.text)")
        #expect(try await test.send("GET", "\(ui)/assets/\(TestServer.escaped(kimsPhoto))/thumbnail?size=64", headers: kimsBrowser).status == 200)
        #expect(Self.code(try await test.user("GET", "/api/picker/sessions/\(session)/ui")) == "404 notFound")
        // Kim's own picker (her browser's tools) is hers too, and its URL never carries the key.
        let own = try await test.send("POST", "/api/picker/sessions", json: [String: Any](), headers: kimsBrowser)
        let ownURL = try own.object()["url"] as? String
        #expect(own.status == 201 && ownURL?.contains("key=") == false, "\(own.text)")
    }

    @Test("An upload that would pass its person's quota is refused before its bytes are received")
    func quotaBeforeTheBytes() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let kim = try await test.library.addPerson(name: "kim", quota: 10_000)
        let key = try await Self.writeKey(for: kim, in: test)
        let announced = try await test.client(key, "POST", "/api/uploads", json: ["filename": "big.mov", "size": 50_000])
        #expect(Self.code(announced) == "413 quotaExceeded" && announced.text.contains("nothing was received"), "\(announced.text)")
        let body = Data(repeating: 7, count: 50_000)
        let sent = try await test.client(key, "POST", "/api/assets?filename=big.jpg", body: body)
        #expect(Self.code(sent) == "413 quotaExceeded", "\(sent.text)")
        #expect(try await test.library.forPerson(kim).fetchAssets().count == 0)
        #expect(try await test.library.forPerson(kim).catalog.receivingUploads(owner: "person:\(kim.rowID)").count == 0)
        // Within the quota, announcing is fine.
        #expect(try await test.client(key, "POST", "/api/uploads", json: ["filename": "small.jpg", "size": 5_000]).status == 201)
    }
}
