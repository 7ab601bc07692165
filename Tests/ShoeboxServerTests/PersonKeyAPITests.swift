import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary
@testable import ShoeboxServer

/// People's keys for tools over HTTP (docs/API.md "Keys for tools"): a key acts for its person,
/// within its scope, until revoked or its person is disabled; no key reaches sign-in or a page.
@Suite struct PersonKeyAPITests {
    static let password = "kim's password"

    /// Kim's browser: her session cookie with its CSRF token, for changes.
    struct Browser {
        let test: TestServer
        let cookie: String
        let csrf: String

        func send(_ method: String, _ path: String, json: Any? = nil) async throws -> RawHTTP.Response {
            var headers = ["Cookie": cookie]
            if !["GET", "HEAD"].contains(method) {
                headers["X-Shoebox-CSRF"] = csrf
                headers["Origin"] = "http://127.0.0.1:\(test.port)"
            }
            return try await test.send(method, path, json: json, headers: headers)
        }

        /// Makes a key; returns its id and token.
        func makeKey(_ name: String, scope: String) async throws -> (id: String, token: String) {
            let made = try await send("POST", "/api/keys", json: ["name": name, "scope": scope])
            try #require(made.status == 201, "\(made.status) \(made.text)")
            #expect(made.headers["cache-control"] == "no-store")
            let object = try made.object()
            let key = try #require(object["key"] as? [String: Any])
            let token = try #require(object["token"] as? String)
            #expect(token.hasPrefix("sbk_") && token.count > 40 && key["prefix"] as? String == String(token.prefix(8)))
            #expect(key["scope"] as? String == scope && key["name"] as? String == name)
            return (try #require(key["id"] as? String), token)
        }
    }

    static func refusal(_ response: RawHTTP.Response) -> String {
        "\(response.status) \(((try? response.object())?["error"] as? [String: Any])?["code"] as? String ?? "")"
    }

    @Test("A key acts for its person within its scope, until it is revoked or its person disabled; sessions ending leave it")
    func aKeyActsForItsPersonWithinItsScope() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        _ = try await test.library.addPerson(name: "kim", password: Self.password)
        let (cookie, csrf) = try await test.personSession(name: "kim", password: Self.password)
        let kim = Browser(test: test, cookie: cookie, csrf: csrf)

        let read = try await kim.makeKey("gallery script", scope: "read")
        let upload = try await kim.makeKey("phone backup", scope: "upload")
        let write = try await kim.makeKey("organizer", scope: "write")
        let listed = try await kim.send("GET", "/api/keys")
        #expect(listed.status == 200)
        let keys = try #require(try listed.object()["keys"] as? [[String: Any]])
        #expect(keys.compactMap { $0["id"] as? String }.sorted() == [read.id, upload.id, write.id].sorted())
        // The tokens are in the answers that made the keys and nowhere after.
        for token in [read.token, upload.token, write.token] { #expect(!listed.text.contains(token)) }
        // Another person sees none of Kim's keys, and cannot revoke one.
        let adminKeys = try await test.user("GET", "/api/keys")
        #expect(adminKeys.status == 200 && !adminKeys.text.contains(read.id))
        #expect(try await test.user("DELETE", "/api/keys/\(read.id)").status == 404)

        // Upload: adds a photo to Kim's library, and reads nothing.
        let photo = try SyntheticPhoto(width: 64, height: 48, seed: 9).image().encoded(as: .jpeg)
        let added = try await test.client(upload.token, "POST", "/api/assets?filename=kim.jpg", body: photo)
        #expect(added.status == 201, "\(added.text)")
        #expect(Self.refusal(try await test.client(upload.token, "GET", "/api/assets")) == "403 insufficientScope")
        let uploadMe = try await test.client(upload.token, "GET", "/api/me")
        #expect(uploadMe.status == 200 && uploadMe.text.contains("\"kim\""))

        // Read: Kim's photo only, not the admin's; changes nothing.
        let listing = try await test.client(read.token, "GET", "/api/assets")
        #expect(listing.status == 200)
        #expect(listing.text.contains("kim.jpg") && !listing.text.contains(TestServer.escaped(test.photos[0])) && !listing.text.contains(test.photos[0]))
        #expect(Self.refusal(try await test.client(read.token, "POST", "/api/albums", json: ["title": "Nope"])) == "403 insufficientScope")
        let me = try await test.client(read.token, "GET", "/api/me").object()
        #expect((me["key"] as? [String: Any])?["id"] as? String == read.id && me["usesServerKey"] as? Bool == false)
        #expect(me["session"] == nil || me["session"] is NSNull)

        // Write: changes Kim's library, and never her sign-in or a page.
        #expect(try await test.client(write.token, "POST", "/api/albums", json: ["title": "Kim's album"]).status == 201)
        for (method, path) in [
            ("GET", "/api/keys"), ("POST", "/api/keys"), ("DELETE", "/api/keys/\(read.id)"), ("GET", "/api/sessions"), ("POST", "/api/sessions/end-all"),
            ("DELETE", "/api/session"), ("POST", "/api/me/password"), ("GET", "//api//keys"), ("GET", "/api/keys/"), ("GET", "/"),
            ("GET", "/pick/nothing"),
        ] {
            let answer = try await test.client(write.token, method, path, json: method == "GET" ? nil : ["name": "x", "scope": "write"])
            #expect(Self.refusal(answer) == "403 keyNotAllowed", "\(method) \(path): \(answer.status) \(answer.text.prefix(200))")
        }
        let albums = try await test.user("GET", "/api/albums")
        #expect(!albums.text.contains("Kim's album"), "Kim's album is not the admin's")

        // Signing out everywhere ends Kim's sessions, not her keys.
        #expect(try await kim.send("POST", "/api/sessions/end-all").status == 204)
        #expect(try await kim.send("GET", "/api/me").status == 401)
        #expect(try await test.client(read.token, "GET", "/api/me").status == 200)

        // Revoked: refused at once on this server (and within a second on any other).
        let (again, newCSRF) = try await test.personSession(name: "kim", password: Self.password)
        let kimAgain = Browser(test: test, cookie: again, csrf: newCSRF)
        #expect(try await kimAgain.send("DELETE", "/api/keys/\(read.id)").status == 204)
        #expect(Self.refusal(try await test.client(read.token, "GET", "/api/me")) == "401 invalidToken")
        #expect(try await kimAgain.send("DELETE", "/api/keys/\(read.id)").status == 404)

        // Disabled: every key of hers is refused; enabled again, they work again.
        let disabled = try await test.user("PATCH", "/api/people/kim", json: ["state": "disabled"])
        #expect(disabled.status == 200, "\(disabled.text)")
        #expect(Self.refusal(try await test.client(write.token, "GET", "/api/me")) == "401 invalidToken")
        #expect(try await test.user("PATCH", "/api/people/kim", json: ["state": "active"]).status == 200)
        #expect(try await test.client(write.token, "GET", "/api/me").status == 200)

        // A forged key with the prefix is nobody's.
        #expect(Self.refusal(try await test.client("sbk_" + String(repeating: "A", count: 43), "GET", "/api/me")) == "401 invalidToken")
    }

    @Test("A picker session made with a key answers the page's path, never a URL signed in with the server key")
    func aKeysPickerSessionNeverCarriesTheServerKey() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let (key, token) = try await test.library.makeKey(named: "pick on the laptop", scope: .write)
        #expect(key.scope == .write)
        let created = try await test.client(token, "POST", "/api/picker/sessions", json: ["sourceType": "photoLibrary"])
        #expect(created.status == 201, "\(created.text)")
        let url = try #require(try created.object()["url"] as? String)
        #expect(url.hasPrefix("/pick/") && !url.contains("key=") && !created.text.contains(test.server.userKey))
        // The server key's own tools still get the signed-in page.
        let own = try await test.user("POST", "/api/picker/sessions", json: ["sourceType": "photoLibrary"])
        #expect((try own.object()["url"] as? String)?.contains("key=") == true)
    }

    /// What docs/API.md says a key of `scope` may call: `nil` when it passes the gate, else the
    /// refusal (status and code).
    static func gate(_ scope: String, method: String, template: String) -> String? {
        let path = String(template.prefix { $0 != "?" })
        if path.hasPrefix("/s/") { return nil }  // a shared link's routes read no credentials
        guard path.hasPrefix("/api/") else { return "403 keyNotAllowed" }
        let signIn = ["/api/keys", "/api/passkeys", "/api/session", "/api/sessions", "/api/me/password", "/api/me/oidc"].contains {
            path == $0 || path.hasPrefix($0 + "/")
        }
        if signIn || (path.hasPrefix("/api/people/") && path.hasSuffix("/password")) { return "403 keyNotAllowed" }
        switch scope {
        case "read":
            return ["GET", "HEAD"].contains(method) || (method == "POST" && ["/api/fetches", "/api/assets/known"].contains(path))
                ? nil : "403 insufficientScope"
        case "upload":
            let adds =
                (method == "POST" && ["/api/assets", "/api/uploads", "/api/assets/known"].contains(path))
                || (["GET", "HEAD", "PUT", "DELETE"].contains(method) && path.hasPrefix("/api/uploads/") && path.split(separator: "/").count == 3)
                || (method == "GET" && path == "/api/me")
            return adds ? nil : "403 insufficientScope"
        default:
            return nil
        }
    }

    @Test("Every endpoint of docs/API.md holds a read key and an upload key to their scope")
    func everyEndpointHoldsAKeyToItsScope() async throws {
        let document = try APIDocument.load()
        let tabled = Set(MatrixEndpoint.table.map(\.documented))
        #expect(Set(document.endpoints.map(\.endpoint)).isSubset(of: tabled), "the matrix's table lacks endpoints of docs/API.md")
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let read = try await test.library.makeKey(named: "read", scope: .read).token
        let upload = try await test.library.makeKey(named: "upload", scope: .upload).token
        var checked = 0
        var passed = 0
        for endpoint in MatrixEndpoint.table {
            // Placeholders name nothing: an endpoint the gate lets through answers 4xx of its own.
            var path = endpoint.template
            while let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") {
                path.replaceSubrange(open...close, with: "nothing")
            }
            for (scope, token) in [("read", read), ("upload", upload)] {
                let expected = Self.gate(scope, method: endpoint.method, template: endpoint.template)
                // A stream the gate lets through would not end: its start is not this test's.
                if expected == nil, endpoint.streams { continue }
                // A refusal is immediate: a stream let through by mistake fails here, not hangs.
                let body = ["GET", "HEAD"].contains(endpoint.method) ? nil : Data(#"{"nothing": true}"#.utf8)
                var headers = ["Authorization": "Bearer \(token)"]
                if body != nil { headers["Content-Type"] = "application/json" }
                let answer: RawHTTP.Response
                do {
                    answer = try await test.http.send(endpoint.method, path, headers: headers, body: body, timeout: 10)
                } catch {
                    Issue.record("\(scope) key, \(endpoint.method) \(endpoint.template): no answer in 10 s (\(error))")
                    continue
                }
                checked += 1
                if let expected {
                    #expect(
                        Self.refusal(answer) == expected, "\(scope) key, \(endpoint.method) \(endpoint.template): \(answer.status) \(answer.text.prefix(200))")
                } else {
                    passed += 1
                    let refusal = Self.refusal(answer)
                    #expect(
                        !["403 keyNotAllowed", "403 insufficientScope", "401 invalidToken", "401 authenticationRequired"].contains(refusal),
                        "\(scope) key, \(endpoint.method) \(endpoint.template): \(answer.status) \(answer.text.prefix(200))")
                }
            }
        }
        print("Keys' scope gate: \(checked) calls, \(passed) let through, \(checked - passed) refused")
        // Both sides of the gate were reached, on many endpoints.
        #expect(checked > 200 && passed > 50 && checked - passed > 100, "checked \(checked), passed \(passed)")
    }
}
