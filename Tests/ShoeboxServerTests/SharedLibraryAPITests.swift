import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary
@testable import ShoeboxServer

/// The Shared Library over HTTP (issue 42, items 2 and 7): every picture, detail, listing and
/// change route × every state (its maker, a participant, the participant's app with full access,
/// a person invited who has not joined, a former participant, a stranger): its photos reach and
/// change for the people in it (and their apps) alone.
@Suite struct SharedLibraryAPITests {
    enum Who: String, CaseIterable {
        case maker, participant, app, invited, former, stranger
    }

    struct House {
        let test: TestServer
        let keys: [Who: String]
        /// Ann's (the admin's) photo moved in, and Bob's.
        let annShared: String
        let bobShared: String
        /// Ann's photo kept personal.
        let annPersonal: String

        func call(_ who: Who, _ method: String, _ path: String, json: Any? = nil) async throws -> RawHTTP.Response {
            who == .maker ? try await test.user(method, path, json: json) : try await test.client(keys[who]!, method, path, json: json)
        }

        static func make() async throws -> House {
            let test = try await TestServer.start(photos: 2)
            let library = test.library
            var keys: [Who: String] = [:]
            var people: [Who: Person] = [:]
            for (who, name) in [(Who.participant, "bob"), (.invited, "cat"), (.former, "eve"), (.stranger, "dan")] {
                let person = try await library.addPerson(name: name, displayName: name.capitalized)
                people[who] = person
                keys[who] = try await library.forPerson(person).makeKey(named: "tests", scope: .write).token
            }
            let registered = try await test.send(
                "POST", "/api/clients",
                json: ["identifier": "com.example.bobs", "displayName": "Bob's", "usageDescriptions": ["NSPhotoLibraryUsageDescription": "To show photos"]],
                headers: ["Authorization": "Bearer \(keys[.participant]!)"])
            keys[.app] = try #require(try registered.object()["token"] as? String, "registration: \(registered.status) \(registered.text)")
            let granted = try await test.client(
                keys[.participant]!, "PUT", "/api/clients/com.example.bobs/services/photoLibrary", json: ["status": "authorized"])
            #expect(granted.status == 200 || granted.status == 204, "grant: \(granted.status) \(granted.text)")

            let mine = try await library.fetchAssets().allObjects()
            let url = test.folder.appendingPathComponent("bob.jpg")
            try SyntheticPhoto(width: 160, height: 120, seed: 602).image().write(to: url)
            let bob = library.forPerson(people[.participant]!)
            let bobPhoto = try await bob.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }.created[0].localIdentifier
            for name in ["bob", "cat", "eve"] {
                let response = try await test.user("POST", "/api/shared-library/invitations", json: ["person": name])
                #expect(response.status == 200, "invite \(name): \(response.status) \(response.text)")
            }
            let moved = try await test.user("POST", "/api/shared-library/move", json: ["to": "shared", "assets": [mine[0].localIdentifier]])
            #expect(moved.status == 200 && moved.text.contains("\"moved\":1"), "move: \(moved.status) \(moved.text)")
            let joined = try await test.client(keys[.participant]!, "POST", "/api/shared-library/join", json: ["move": "chosen", "assets": [bobPhoto]])
            #expect(joined.status == 200 && joined.text.contains("\"moved\":1"), "join: \(joined.status) \(joined.text)")
            #expect(try await test.client(keys[.former]!, "POST", "/api/shared-library/join", json: ["move": "nothing"]).status == 200)
            let left = try await test.client(keys[.former]!, "POST", "/api/shared-library/leave", json: ["keep": "mine"])
            #expect(left.status == 200 && left.text.contains("\"moved\":0"), "leave: \(left.status) \(left.text)")
            return House(test: test, keys: keys, annShared: mine[0].localIdentifier, bobShared: bobPhoto, annPersonal: mine[1].localIdentifier)
        }
    }

    static func assets(_ response: RawHTTP.Response) throws -> [[String: Any]] {
        (try response.object()["assets"] as? [[String: Any]]) ?? []
    }

    @Test("Every route answers each state as the Shared Library allows: its people and their apps read and change its photos, nobody else sees an id or a byte")
    func theSharedLibraryMatrix() async throws {
        let house = try await House.make()
        defer { house.test.stop() }
        let inside: Set<Who> = [.maker, .participant, .app]
        var failures: [String] = []
        var cells = 0
        func check(_ who: Who, _ method: String, _ path: String, json: Any? = nil, expected: Int) async throws -> RawHTTP.Response {
            let response = try await house.call(who, method, path, json: json)
            cells += 1
            if response.status != expected { failures.append("\(who) \(method) \(path): \(response.status), not \(expected): \(response.text.prefix(160))") }
            let sent = path.removingPercentEncoding ?? path
            let text = response.text.replacingOccurrences(of: "\\/", with: "/")
            var forbidden = who == .maker ? [] : [house.annPersonal]
            if !inside.contains(who) { forbidden += [house.annShared, house.bobShared] }
            let leaked = forbidden.filter { text.contains($0) && !sent.contains($0) }
            if !leaked.isEmpty { failures.append("\(who) \(method) \(path) leaks \(leaked)") }
            return response
        }
        for photo in [house.annShared, house.bobShared] {
            for route in ["", "/thumbnail?size=64", "/original", "/render", "/resources/photo"] {
                for who in Who.allCases {
                    let response = try await check(who, "GET", "/api/assets/\(TestServer.escaped(photo))\(route)", expected: inside.contains(who) ? 200 : 404)
                    if inside.contains(who), route == "/original", response.body.count < 100 { failures.append("\(who) got \(response.body.count) bytes") }
                }
            }
        }
        // Listings: the Shared Library alone, personal alone, and both; who added each.
        for who in Who.allCases {
            let shared = try await check(who, "GET", "/api/assets?library=shared&limit=100", expected: 200)
            let listed = try Self.assets(shared)
            let ids = Set(listed.compactMap { $0["localIdentifier"] as? String })
            let expected: Set<String> = inside.contains(who) ? [house.annShared, house.bobShared] : []
            if ids != expected { failures.append("\(who)'s Shared Library lists \(ids.sorted()), not \(expected.sorted())") }
            for asset in listed {
                let added = (asset["addedBy"] as? [String: Any])?["name"] as? String
                let wanted = asset["localIdentifier"] as? String == house.annShared ? "admin" : "bob"
                if asset["library"] as? String != "shared" || added != wanted {
                    failures.append("\(who) sees \(asset["library"] ?? "-") added by \(added ?? "-")")
                }
            }
            let personal = Set(
                try Self.assets(try await check(who, "GET", "/api/assets?library=personal&limit=100", expected: 200)).compactMap {
                    $0["localIdentifier"] as? String
                })
            if who == .maker, personal != [house.annPersonal] { failures.append("the maker's personal library lists \(personal.sorted())") }
            if who != .maker, !personal.isEmpty { failures.append("\(who)'s personal library lists \(personal.sorted())") }
        }
        _ = try await check(.maker, "GET", "/api/assets?library=everyone", expected: 400)
        // Same rights: the participant favorites the maker's photo; nobody outside changes it.
        let photo = TestServer.escaped(house.annShared)
        for who in Who.allCases where !inside.contains(who) {
            _ = try await check(who, "PATCH", "/api/assets/\(photo)", json: ["isFavorite": true], expected: 404)
            _ = try await check(who, "DELETE", "/api/assets/\(photo)", expected: 404)
            _ = try await check(who, "POST", "/api/assets/\(photo)/purge", expected: 404)
        }
        let untouched = try #require(try await house.test.library.fetchAssets(withLocalIdentifiers: [house.annShared]).firstObject)
        if untouched.isFavorite || untouched.trashedDate != nil { failures.append("someone outside changed the Shared Library's photo") }
        _ = try await check(.participant, "PATCH", "/api/assets/\(photo)", json: ["isFavorite": true], expected: 200)
        let favorite = try #require(try await house.test.library.fetchAssets(withLocalIdentifiers: [house.annShared]).firstObject)
        if !favorite.isFavorite { failures.append("the participant's favorite did not reach the maker") }
        // Only who added a photo moves it out.
        _ = try await check(.participant, "POST", "/api/shared-library/move", json: ["to": "personal", "assets": [house.annShared]], expected: 403)
        // Who is in it: its people and the invited see it; the former, the stranger nothing; apps are refused.
        for who in Who.allCases {
            let response = try await check(who, "GET", "/api/shared-library", expected: who == .app ? 403 : 200)
            guard response.status == 200 else { continue }
            if !response.text.contains("\"sharedLibrary\"") { failures.append("\(who)'s answer has no sharedLibrary key: \(response.text)") }
            let people = (((try response.object()["sharedLibrary"] as? [String: Any])?["participants"] as? [[String: Any]]) ?? [])
                .compactMap { ($0["person"] as? [String: Any])?["name"] as? String }
            let expected = [.maker, .participant, .invited].contains(who) ? ["admin", "bob", "cat"] : []
            if people != expected { failures.append("\(who) sees \(people) in it") }
        }
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.isEmpty, "\(failures.count) of \(cells) cells failed")
        print("Shared Library matrix: \(cells) cells, \(Who.allCases.count) states")
    }

    @Test("A photo the maker moves in reaches the participant's events; wrong input gets typed errors")
    func eventsAndErrors() async throws {
        let house = try await House.make()
        defer { house.test.stop() }
        let bobEvents = try house.test.http.open("/api/events", headers: ["Authorization": "Bearer \(house.keys[.participant]!)"])
        let danEvents = try house.test.http.open("/api/events", headers: ["Authorization": "Bearer \(house.keys[.stranger]!)"])
        #expect(await bobEvents.read(until: ": shoebox", timeout: 10).contains("text/event-stream"))
        #expect(await danEvents.read(until: ": shoebox", timeout: 10).contains("text/event-stream"))
        #expect(try await house.test.user("POST", "/api/shared-library/move", json: ["to": "shared", "assets": [house.annPersonal]]).status == 200)
        let heard = await bobEvents.read(until: house.annPersonal, timeout: 10)
        #expect(heard.contains(house.annPersonal), "Bob hears of it: \(heard.suffix(300))")
        let danHeard = await danEvents.read(until: "never", timeout: 1.5)
        #expect(!danHeard.contains(house.annPersonal), "a stranger hears of it")
        let badMove = try await house.test.user("POST", "/api/shared-library/move", json: ["to": "elsewhere"])
        #expect(badMove.status == 400 && badMove.text.contains("shared or personal"))
        let badKeep = try await house.test.user("POST", "/api/shared-library/leave", json: ["keep": "half"])
        #expect(badKeep.status == 400 && badKeep.text.contains("everything or mine"))
        #expect(try await house.test.user("POST", "/api/shared-library/invitations", json: ["person": "admin"]).status == 400)
        #expect(try await house.test.user("POST", "/api/shared-library/invitations", json: ["person": "zed"]).status == 404)
        #expect(try await house.call(.stranger, "POST", "/api/shared-library/invitations", json: ["person": "bob"]).status == 403)
    }
}
