import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary
@testable import ShoeboxServer

/// Shared albums over HTTP (issue 42, part 1): every route × every sharing state (the owner, a
/// contributor, a viewer, a former member, a stranger, an app with full access), with no id,
/// title or byte of the album reaching those outside it, and the change events for exactly the
/// people concerned.
@Suite struct SharedAlbumAPITests {
    enum Who: String, CaseIterable {
        case owner, contributor, viewer, former, stranger, app
    }

    struct House {
        let test: TestServer
        let keys: [Who: String]
        let album: String
        let ownerPhoto: String
        let bobPhoto: String
        let outsidePhoto: String
        let catPhoto: String

        func call(_ who: Who, _ method: String, _ path: String, json: Any? = nil) async throws -> RawHTTP.Response {
            who == .owner ? try await test.user(method, path, json: json) : try await test.client(keys[who]!, method, path, json: json)
        }

        static func make() async throws -> House {
            let test = try await TestServer.start(photos: 2)
            let library = test.library
            var keys: [Who: String] = [:]
            var people: [Who: Person] = [:]
            for (who, name) in [(Who.contributor, "bob"), (.viewer, "cat"), (.former, "eve"), (.stranger, "dan")] {
                let person = try await library.addPerson(name: name, displayName: name.capitalized)
                people[who] = person
                keys[who] = try await library.forPerson(person).makeKey(named: "tests", scope: .write).token
            }
            let app = try await test.register("com.example.shared")
            _ = try await test.user("PUT", "/api/clients/com.example.shared/services/photoLibrary", json: ["status": "authorized"])
            keys[.app] = app
            let mine = try await library.fetchAssets().allObjects()
            let made = try await library.performChanges {
                AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Secret Trip").addAssets([mine[0]])
            }
            let album = try #require(try await library.assetCollection(withLocalIdentifier: made.createdCollections[0]))
            func photo(for who: Who, seed: UInt64) async throws -> String {
                let url = test.folder.appendingPathComponent("\(who)-\(seed).jpg")
                try SyntheticPhoto(width: 160, height: 120, seed: seed).image().write(to: url)
                return try await library.forPerson(people[who]!).performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }
                    .created[0].localIdentifier
            }
            let bobPhoto = try await photo(for: .contributor, seed: 501)
            let catPhoto = try await photo(for: .viewer, seed: 502)
            try await library.shareAlbum(album, with: "bob", as: .contributor)
            try await library.shareAlbum(album, with: "cat", as: .viewer)
            try await library.shareAlbum(album, with: "eve", as: .viewer)
            try await library.forPerson(people[.contributor]!).addToSharedAlbum(album.localIdentifier, assets: [bobPhoto])
            try await library.forPerson(people[.former]!).leaveSharedAlbum(album.localIdentifier)
            return House(
                test: test, keys: keys, album: album.localIdentifier, ownerPhoto: mine[0].localIdentifier, bobPhoto: bobPhoto,
                outsidePhoto: mine[1].localIdentifier, catPhoto: catPhoto)
        }
    }

    /// What the album's outsiders must never see.
    static func leaks(_ response: RawHTTP.Response, house: House) -> [String] {
        leaks(response.text, house: house)
    }

    static func leaks(_ text: String, house: House) -> [String] {
        // JSON may escape the identifiers' slashes.
        let text = text.replacingOccurrences(of: "\\/", with: "/")
        return [house.album, "Secret Trip", house.ownerPhoto, house.bobPhoto].filter { text.contains($0) }
    }

    @Test("Every route answers each sharing state as its role allows, and nothing of the album reaches the rest")
    func theSharingMatrix() async throws {
        let house = try await House.make()
        defer { house.test.stop() }
        let a = TestServer.escaped(house.album)
        let bob = TestServer.escaped(house.bobPhoto)
        let outside = TestServer.escaped(house.outsidePhoto)
        let members: Set<Who> = [.owner, .contributor, .viewer]
        var failures: [String] = []
        var cells = 0
        // Reads: members 200, other people 404, the app 403.
        let reads = [
            "/api/shared-albums/\(a)", "/api/shared-albums/\(a)/activity", "/api/shared-albums/\(a)/assets/\(bob)/thumbnail?size=64",
            "/api/shared-albums/\(a)/assets/\(bob)/image",
        ]
        for path in reads {
            for who in Who.allCases {
                let response = try await house.call(who, "GET", path)
                cells += 1
                let expected = members.contains(who) ? 200 : who == .app ? 403 : 404
                if response.status != expected { failures.append("\(who) GET \(path): \(response.status), not \(expected): \(response.text.prefix(200))") }
                if !members.contains(who), !Self.leaks(response, house: house).isEmpty {
                    failures.append("\(who) GET \(path) leaks \(Self.leaks(response, house: house))")
                }
            }
        }
        // A photo the album does not show is not served through it, to anyone.
        for who in Who.allCases {
            let response = try await house.call(who, "GET", "/api/shared-albums/\(a)/assets/\(outside)/thumbnail?size=64")
            cells += 1
            if response.status != (who == .app ? 403 : 404) { failures.append("\(who): a photo outside the album answered \(response.status)") }
        }
        // The list: members see the album, the rest an empty list; the app is refused.
        for who in Who.allCases {
            let response = try await house.call(who, "GET", "/api/shared-albums")
            cells += 1
            if who == .app {
                if response.status != 403 { failures.append("app GET /api/shared-albums: \(response.status)") }
                continue
            }
            let listed = ((try response.object()["albums"] as? [[String: Any]]) ?? []).compactMap { $0["localIdentifier"] as? String }
            if listed != (members.contains(who) ? [house.album] : []) { failures.append("\(who) lists \(listed)") }
            if !members.contains(who), !Self.leaks(response, house: house).isEmpty { failures.append("\(who)'s list leaks") }
        }
        // Writes: who may like, comment, add and share.
        for who in Who.allCases {
            let like = try await house.call(who, "PUT", "/api/shared-albums/\(a)/assets/\(bob)/like")
            let comment = try await house.call(who, "POST", "/api/shared-albums/\(a)/assets/\(bob)/comments", json: ["text": "from \(who)"])
            let share = try await house.call(who, "POST", "/api/shared-albums/\(a)/people", json: ["person": "dan", "role": "viewer"])
            cells += 3
            let readable = members.contains(who) ? nil : who == .app ? 403 : 404
            if like.status != (readable ?? 204) { failures.append("\(who) like: \(like.status)") }
            if comment.status != (readable ?? 201) { failures.append("\(who) comment: \(comment.status) \(comment.text.prefix(120))") }
            let shareExpected = readable ?? (who == .owner ? 200 : 403)
            if share.status != shareExpected { failures.append("\(who) share: \(share.status), not \(shareExpected) \(share.text.prefix(120))") }
            if who == .owner {
                // Dan, shared with for a moment, is taken out again: a stranger for the cells after.
                let out = try await house.call(.owner, "DELETE", "/api/shared-albums/\(a)/people/dan")
                if out.status != 204 { failures.append("owner takes dan out: \(out.status)") }
            }
            for response in [like, comment, share] where !members.contains(who) && !Self.leaks(response, house: house).isEmpty {
                failures.append("\(who)'s refused write leaks")
            }
        }
        // Adding one's own photo: the owner and the contributor; the viewer is refused.
        let catAdds = try await house.call(.viewer, "POST", "/api/shared-albums/\(a)/assets", json: ["assets": [house.catPhoto]])
        let strangerAdds = try await house.call(.stranger, "POST", "/api/shared-albums/\(a)/assets", json: ["assets": [house.catPhoto]])
        cells += 2
        if catAdds.status != 403 || (try? catAdds.object()["error"] as? [String: Any])?["code"] as? String != "notPermitted" {
            failures.append("a viewer adding: \(catAdds.status) \(catAdds.text)")
        }
        if strangerAdds.status != 404 { failures.append("a stranger adding: \(strangerAdds.status)") }
        // Deleting comments: the author or the owner.
        let activity = try await house.call(.viewer, "GET", "/api/shared-albums/\(a)/activity").object()["activity"] as? [[String: Any]] ?? []
        let catsComment = try #require(activity.first { $0["text"] as? String == "from viewer" }?["id"] as? String)
        let bobDeletes = try await house.call(.contributor, "DELETE", "/api/shared-albums/\(a)/comments/\(catsComment)")
        let ownerDeletes = try await house.call(.owner, "DELETE", "/api/shared-albums/\(a)/comments/\(catsComment)")
        cells += 2
        if bobDeletes.status != 404 || ownerDeletes.status != 204 {
            failures.append("comment deletion: bob \(bobDeletes.status), owner \(ownerDeletes.status)")
        }
        // Add to my library: members only; the copy is the viewer's own.
        let copy = try await house.call(.viewer, "POST", "/api/shared-albums/\(a)/assets/\(bob)/copy")
        let strangerCopy = try await house.call(.stranger, "POST", "/api/shared-albums/\(a)/assets/\(bob)/copy")
        cells += 2
        if copy.status != 201 || strangerCopy.status != 404 { failures.append("copy: viewer \(copy.status), stranger \(strangerCopy.status)") }
        let copied = try copy.object()["localIdentifier"] as? String ?? ""
        if try await house.call(.viewer, "GET", "/api/assets/\(TestServer.escaped(copied))").status != 200 {
            failures.append("the viewer's copy is not theirs")
        }
        if try await house.call(.contributor, "GET", "/api/assets/\(TestServer.escaped(copied))").status != 404 {
            failures.append("the copy is someone else's")
        }
        // Public links: the owner and the contributor make one, and it shows the album as they
        // see it (everyone's photos); a viewer may not pass it on; the rest learn nothing.
        let linkStatus: [Who: Int] = [.owner: 201, .contributor: 201, .viewer: 403, .former: 404, .stranger: 404, .app: 403]
        for who in Who.allCases {
            let made = try await house.call(who, "POST", "/api/shares", json: ["album": house.album])
            cells += 1
            guard made.status == linkStatus[who] else {
                failures.append("\(who) making a link: \(made.status) \(made.text)")
                continue
            }
            guard made.status == 201 else {
                // The viewer knows the album; the rest must learn nothing of it, not even its id back.
                if who != .viewer, !Self.leaks(made, house: house).isEmpty { failures.append("\(who)'s refused link leaks: \(made.text)") }
                continue
            }
            let url = try made.object()["url"] as? String ?? ""
            let data = try await house.test.send("GET", "\(url)/data")
            let count = (try? data.object()["count"] as? Int) ?? -1
            let picture = try await house.test.send("GET", "\(url)/1/thumbnail")
            cells += 2
            if count != 2 { failures.append("\(who)'s link shows \(count) photos, not the album's 2: \(data.text)") }
            if picture.status != 200 || picture.body.count < 100 { failures.append("\(who)'s link's second photo: \(picture.status)") }
        }
        // Taking photos out: a viewer may not; the contributor takes their own.
        let viewerRemoves = try await house.call(.viewer, "DELETE", "/api/shared-albums/\(a)/assets/\(bob)")
        let bobRemoves = try await house.call(.contributor, "DELETE", "/api/shared-albums/\(a)/assets/\(bob)")
        cells += 2
        if viewerRemoves.status != 403 || bobRemoves.status != 204 { failures.append("removal: viewer \(viewerRemoves.status), bob \(bobRemoves.status)") }
        if try await house.call(.contributor, "GET", "/api/assets/\(bob)").status != 200 { failures.append("bob's photo left his library") }
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.isEmpty, "\(failures.count) of \(cells) cells failed")
        print("Shared album matrix: \(cells) cells, \(Who.allCases.count) sharing states")
    }

    @Test("A comment is a change event for the album's people, not for anyone else")
    func eventsForThePeopleConcerned() async throws {
        let house = try await House.make()
        defer { house.test.stop() }
        let bobEvents = try house.test.http.open("/api/events", headers: ["Authorization": "Bearer \(house.keys[.contributor]!)"])
        let danEvents = try house.test.http.open("/api/events", headers: ["Authorization": "Bearer \(house.keys[.stranger]!)"])
        #expect(await bobEvents.read(until: ": shoebox", timeout: 10).contains("text/event-stream"))
        #expect(await danEvents.read(until: ": shoebox", timeout: 10).contains("text/event-stream"))
        let comment = try await house.call(
            .viewer, "POST", "/api/shared-albums/\(TestServer.escaped(house.album))/assets/\(TestServer.escaped(house.bobPhoto))/comments",
            json: ["text": "hello"])
        #expect(comment.status == 201)
        let heard = await bobEvents.read(until: "\"sharedAlbums\":[\"\(house.album.replacingOccurrences(of: "/", with: "\\/"))\"]", timeout: 10)
        #expect(heard.contains("event: library"), "\(heard.suffix(400))")
        #expect(heard.contains(house.album.replacingOccurrences(of: "/", with: "\\/")) || heard.contains(house.album), "Bob hears of the album")
        let danHeard = await danEvents.read(until: "never", timeout: 1.5)
        #expect(!danHeard.contains("sharedAlbums\":[\""), "a stranger hears of it: \(danHeard.suffix(300))")
        #expect(Self.leaks(danHeard, house: house).isEmpty)
    }
}
