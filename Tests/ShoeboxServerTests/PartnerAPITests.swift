import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary
@testable import ShoeboxServer

/// Partner sharing over HTTP (issue 42, item 3): every picture, detail, listing and change route
/// × every sharing state (the sharer, a partner who shows the photos in their timeline, one who
/// keeps them apart, a former partner, a stranger, the partner's own app with full access), with
/// no id or byte of the sharer's reaching anyone the share does not let see it, and nobody but
/// the sharer changing it.
@Suite struct PartnerAPITests {
    enum Who: String, CaseIterable {
        case sharer, partner, apart, former, stranger, app
    }

    struct House {
        let test: TestServer
        let keys: [Who: String]
        /// Ann's (the admin's) photo the shares show, her hidden one, and one taken before the shares' day.
        let shared: String
        let hidden: String
        let old: String
        let bobPhoto: String

        func call(_ who: Who, _ method: String, _ path: String, json: Any? = nil) async throws -> RawHTTP.Response {
            who == .sharer ? try await test.user(method, path, json: json) : try await test.client(keys[who]!, method, path, json: json)
        }

        static let day = "2015-06-01"

        static func make() async throws -> House {
            let test = try await TestServer.start(photos: 3)
            let library = test.library
            var keys: [Who: String] = [:]
            var people: [Who: Person] = [:]
            for (who, name) in [(Who.partner, "bob"), (.apart, "cat"), (.former, "eve"), (.stranger, "dan")] {
                let person = try await library.addPerson(name: name, displayName: name.capitalized)
                people[who] = person
                keys[who] = try await library.forPerson(person).makeKey(named: "tests", scope: .write).token
            }
            // Bob's own app, with full access to Bob's library.
            let registered = try await test.send(
                "POST", "/api/clients",
                json: ["identifier": "com.example.bobs", "displayName": "Bob's", "usageDescriptions": ["NSPhotoLibraryUsageDescription": "To show photos"]],
                headers: ["Authorization": "Bearer \(keys[.partner]!)"])
            let appToken = try #require(try registered.object()["token"] as? String, "registration: \(registered.status) \(registered.text)")
            let granted = try await test.client(keys[.partner]!, "PUT", "/api/clients/com.example.bobs/services/photoLibrary", json: ["status": "authorized"])
            #expect(granted.status == 200 || granted.status == 204, "grant: \(granted.status) \(granted.text)")
            keys[.app] = appToken

            let mine = try await library.fetchAssets().allObjects()
            try await library.performChanges {
                AssetChangeRequest(for: mine[1]).isHidden = true
                AssetChangeRequest(for: mine[2]).creationDate = Date(timeIntervalSince1970: 1_000_000_000)  // 2001
            }
            let url = test.folder.appendingPathComponent("bob.jpg")
            try SyntheticPhoto(width: 160, height: 120, seed: 601).image().write(to: url)
            let bob = library.forPerson(people[.partner]!)
            let bobPhoto = try await bob.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }.created[0].localIdentifier
            for name in ["bob", "cat", "eve"] {
                let response = try await test.user("PUT", "/api/partners/\(name)", json: ["startDate": day])
                #expect(response.status == 200, "share with \(name): \(response.status) \(response.text)")
            }
            #expect(try await test.client(keys[.partner]!, "PATCH", "/api/partners/from/admin", json: ["inTimeline": true]).status == 204)
            #expect(try await test.user("DELETE", "/api/partners/eve").status == 204)
            return House(
                test: test, keys: keys, shared: mine[0].localIdentifier, hidden: mine[1].localIdentifier, old: mine[2].localIdentifier,
                bobPhoto: bobPhoto)
        }

        /// The sharer's identifiers a response holds that `who` may not see.
        func leaks(_ response: RawHTTP.Response, to who: Who) -> [String] {
            let text = response.text.replacingOccurrences(of: "\\/", with: "/")
            let forbidden = who == .sharer ? [] : [hidden, old] + ([.partner, .apart].contains(who) ? [] : [shared])
            return forbidden.filter { text.contains($0) }
        }
    }

    static func identifiers(_ response: RawHTTP.Response) throws -> [String] {
        ((try response.object()["assets"] as? [[String: Any]]) ?? []).compactMap { $0["localIdentifier"] as? String }
    }

    @Test("Every route answers each sharing state as the share allows; nothing else of the sharer's reaches anyone, and only the sharer changes it")
    func theSharingMatrix() async throws {
        let house = try await House.make()
        defer { house.test.stop() }
        let sees: Set<Who> = [.sharer, .partner, .apart]
        var failures: [String] = []
        var cells = 0
        func check(_ who: Who, _ method: String, _ path: String, json: Any? = nil, expected: Int) async throws -> RawHTTP.Response {
            let response = try await house.call(who, method, path, json: json)
            cells += 1
            if response.status != expected { failures.append("\(who) \(method) \(path): \(response.status), not \(expected): \(response.text.prefix(160))") }
            // An identifier the caller sent may come back in the error (it tells them nothing new).
            let sent = path.removingPercentEncoding ?? path
            let leaked = house.leaks(response, to: who).filter { !sent.contains($0) }
            if !leaked.isEmpty { failures.append("\(who) \(method) \(path) leaks \(leaked)") }
            return response
        }
        // The pictures and details: the sharer and both partners; the hidden and the old photo: the sharer alone.
        let routes = ["", "/thumbnail?size=64", "/original", "/render", "/resources/photo"]
        let sharerOnly: Set<Who> = [.sharer]
        for (photo, visible) in [(house.shared, sees), (house.hidden, sharerOnly), (house.old, sharerOnly)] {
            for route in routes {
                for who in Who.allCases {
                    let response = try await check(who, "GET", "/api/assets/\(TestServer.escaped(photo))\(route)", expected: visible.contains(who) ? 200 : 404)
                    if visible.contains(who), route == "/original", response.body.count < 100 {
                        failures.append("\(who) got \(response.body.count) bytes of the original")
                    }
                }
            }
        }
        // Listings: the partner's page (partner=admin), and the timeline with partners.
        for who in Who.allCases {
            let apart = try await check(
                who, "POST", "/api/fetches", json: ["partner": "admin"], expected: who == .app ? 403 : [.partner, .apart].contains(who) ? 201 : 404)
            if apart.status == 201 {
                let id = try #require(try apart.object()["id"] as? String)
                let page = try await check(who, "GET", "/api/fetches/\(id)/assets", expected: 200)
                let listed = ((try page.object()["assets"] as? [[String: Any]]) ?? [])
                if listed.compactMap({ $0["localIdentifier"] as? String }) != [house.shared] { failures.append("\(who)'s partner page lists \(listed.count)") }
                if (listed.first?["sharedBy"] as? [String: Any])?["name"] as? String != "admin" { failures.append("\(who)'s partner page names no sharer") }
            }
            let timeline = try await check(who, "GET", "/api/assets?partners=true&limit=100", expected: 200)
            let listed = Set(try Self.identifiers(timeline))
            let expected: Set<String> =
                switch who {
                case .sharer: [house.shared, house.old]
                case .partner: [house.bobPhoto, house.shared]
                case .app: [house.bobPhoto]
                default: []
                }
            if listed != expected { failures.append("\(who)'s timeline with partners: \(listed.sorted()), not \(expected.sorted())") }
        }
        // Changes: nobody but the sharer changes the sharer's photo.
        let photo = TestServer.escaped(house.shared)
        for who in Who.allCases where who != .sharer {
            _ = try await check(who, "PATCH", "/api/assets/\(photo)", json: ["isFavorite": true], expected: 404)
            _ = try await check(who, "DELETE", "/api/assets/\(photo)", expected: 404)
            let batch = try await house.call(who, "POST", "/api/assets/batch", json: ["action": "favorite", "assets": [house.shared]])
            cells += 1
            if (200..<300).contains(batch.status) {
                // A batch may answer for what it could do: none of it is the sharer's.
                let done = (try? batch.object()["done"] as? Int) ?? 0
                if done != 0 { failures.append("\(who)'s batch changed \(done) of the sharer's") }
            }
            _ = try await check(who, "DELETE", "/api/assets/\(photo)/adjustments", expected: who == .app ? 403 : 404)
            _ = try await check(who, "POST", "/api/assets/\(photo)/purge", expected: 404)
        }
        let after = try #require(try await house.test.library.fetchAssets(withLocalIdentifiers: [house.shared]).firstObject)
        if after.isFavorite || after.trashedDate != nil || after.hasAdjustments { failures.append("the sharer's photo was changed: \(after)") }
        // The list of shares: each person sees their own side only.
        for who in Who.allCases {
            let response = try await check(who, "GET", "/api/partners", expected: who == .app ? 403 : 200)
            guard response.status == 200 else { continue }
            let object = try response.object()
            let sharing = ((object["sharing"] as? [[String: Any]]) ?? []).compactMap { ($0["partner"] as? [String: Any])?["name"] as? String }
            let sharedWithMe = ((object["sharedWithMe"] as? [[String: Any]]) ?? []).compactMap { ($0["sharer"] as? [String: Any])?["name"] as? String }
            let expected: ([String], [String]) =
                switch who {
                case .sharer: (["bob", "cat"], [])
                case .partner, .apart: ([], ["admin"])
                default: ([], [])
                }
            if sharing.sorted() != expected.0 || sharedWithMe != expected.1 { failures.append("\(who) lists \(sharing) / \(sharedWithMe)") }
        }
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.isEmpty, "\(failures.count) of \(cells) cells failed")
        print("Partner sharing matrix: \(cells) cells, \(Who.allCases.count) sharing states")
    }

    @Test("Sharing, a new day, the partner's choice and stopping are change events for both people, and nobody else; stopping takes the photos away at once")
    func eventsAndStopping() async throws {
        let house = try await House.make()
        defer { house.test.stop() }
        let bobEvents = try house.test.http.open("/api/events", headers: ["Authorization": "Bearer \(house.keys[.partner]!)"])
        let danEvents = try house.test.http.open("/api/events", headers: ["Authorization": "Bearer \(house.keys[.stranger]!)"])
        #expect(await bobEvents.read(until: ": shoebox", timeout: 10).contains("text/event-stream"))
        #expect(await danEvents.read(until: ": shoebox", timeout: 10).contains("text/event-stream"))
        let admin = try #require(try await house.test.library.person()).id
        #expect(try await house.test.user("PUT", "/api/partners/bob", json: ["startDate": NSNull()]).status == 200)
        let heard = await bobEvents.read(until: "\"partners\":[\"\(admin)\"]", timeout: 10)
        #expect(heard.contains("\"partners\":[\"\(admin)\"]"), "Bob hears of it: \(heard.suffix(300))")
        // The whole library now: the old photo too, never the hidden one.
        let all = Set(try Self.identifiers(try await house.call(.partner, "GET", "/api/assets?partner=admin&limit=100")))
        #expect(all == [house.shared, house.old])
        // Stopped: gone at once from Bob's timeline, page and pictures.
        #expect(try await house.test.user("DELETE", "/api/partners/bob").status == 204)
        #expect(Set(try Self.identifiers(try await house.call(.partner, "GET", "/api/assets?partners=true&limit=100"))) == [house.bobPhoto])
        #expect(try await house.call(.partner, "GET", "/api/assets/\(TestServer.escaped(house.shared))/thumbnail?size=64").status == 404)
        #expect(try await house.call(.partner, "GET", "/api/assets?partner=admin").status == 404)
        let danHeard = await danEvents.read(until: "never", timeout: 1.5)
        #expect(!danHeard.contains("\"partners\":[\""), "a stranger hears of it: \(danHeard.suffix(300))")
        // Wrong input: typed errors.
        let badDay = try await house.test.user("PUT", "/api/partners/bob", json: ["startDate": "yesterday"])
        #expect(badDay.status == 400 && badDay.text.contains("startDate"))
        #expect(try await house.test.user("PUT", "/api/partners/admin", json: [:]).status == 400)
        #expect(try await house.test.user("PUT", "/api/partners/zed", json: [:]).status == 404)
    }
}
