import Foundation
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Testing

@Suite struct SecurityTests {
    @Test func foreignHostsAreRefused() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        #expect(try await test.http.send("GET", "/api/health").status == 200)
        #expect(try await test.http.send("GET", "/api/health", host: "localhost:\(test.port)").status == 200)
        let rebound = try await test.http.send("GET", "/api/health", host: "attacker.example:\(test.port)")
        #expect(rebound.status == 421)
        #expect(try rebound.object()["error"] != nil)
        #expect(try await test.http.send("GET", "/api/health", host: "127.0.0.1:1").status == 421, "another port is another server")
    }

    @Test func nobodyGetsInWithoutTheKeyOrAToken() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        #expect(try await test.http.send("GET", "/api/albums").status == 401)
        #expect(try await test.http.send("GET", "/api/assets").status == 401)
        #expect(try await test.http.send("GET", "/api/albums", headers: ["Authorization": "Bearer nonsense"]).status == 401)
        let page = try await test.http.send("GET", "/")
        // The sign-in form, which also tells the admin of the key's URL.
        #expect(page.status == 401 && page.text.contains("action=\"/signin\"") && page.text.contains("shoebox serve</code> printed"))
        #expect(try await test.http.send("GET", "/?key=wrong").status == 401)
        let signIn = try await test.http.send("GET", "/?key=\(test.server.userKey)")
        #expect(signIn.status == 303 && signIn.headers["location"] == "/")
        let cookie = try #require(signIn.headers["set-cookie"])
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        #expect(try await test.user("GET", "/api/albums").status == 200)
    }

    @Test func cookieCallersNeedTheCSRFTokenAndOurOrigin() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        let (cookie, csrf) = try await test.browserSession()
        let id = TestServer.escaped(test.photos[0])
        #expect(try await test.send("GET", "/api/assets/\(id)", headers: ["Cookie": cookie]).status == 200, "reading needs no token")
        let forged = try await test.send("PATCH", "/api/assets/\(id)", json: ["isFavorite": true], headers: ["Cookie": cookie])
        #expect(forged.status == 403)
        #expect(try forged.object()["error"].flatMap { ($0 as? [String: Any])?["code"] as? String } == "csrf")
        let crossSite = try await test.send(
            "PATCH", "/api/assets/\(id)", json: ["isFavorite": true],
            headers: ["Cookie": cookie, "X-Shoebox-CSRF": csrf, "Origin": "http://attacker.example"])
        #expect(crossSite.status == 403)
        await #expect(try test.library.fetchAssets(withLocalIdentifiers: [test.photos[0]]).firstObject?.isFavorite == false, "nothing changed")
        let allowed = try await test.send(
            "PATCH", "/api/assets/\(id)", json: ["isFavorite": true],
            headers: ["Cookie": cookie, "X-Shoebox-CSRF": csrf, "Origin": "http://127.0.0.1:\(test.port)"])
        #expect(allowed.status == 200)
        await #expect(try test.library.fetchAssets(withLocalIdentifiers: [test.photos[0]]).firstObject?.isFavorite == true)
    }

    @Test func pagesCarryAContentSecurityPolicyAndNoCORS() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let (cookie, _) = try await test.browserSession()
        let page = try await test.send("GET", "/", headers: ["Cookie": cookie, "Origin": "http://elsewhere.example"])
        let policy = try #require(page.headers["content-security-policy"])
        #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'") && policy.contains("object-src 'none'"))
        #expect(page.headers["x-content-type-options"] == "nosniff")
        #expect(page.headers["access-control-allow-origin"] == nil)
        let script = try await test.send("GET", "/app/js/library.js")
        #expect(script.status == 200 && script.headers["content-type"]?.hasPrefix("text/javascript") == true)
    }

    @Test func configuredOriginsGetCORS() async throws {
        let test = try await TestServer.start(photos: 0, configuration: .init(corsAllowedOrigins: ["https://app.example"]))
        defer { test.stop() }
        let preflight = try await test.send("OPTIONS", "/api/assets", headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "GET"])
        #expect(preflight.status == 204 && preflight.headers["access-control-allow-origin"] == "https://app.example")
        #expect(preflight.headers["access-control-allow-headers"]?.contains("Authorization") == true)
        let other = try await test.send("GET", "/api/health", headers: ["Origin": "https://other.example"])
        #expect(other.headers["access-control-allow-origin"] == nil)
    }

    @Test func noRequestPathReachesTheFilesystem() async throws {
        let test = try await TestServer.start(photos: 1)
        defer { test.stop() }
        for path in ["/app/../../../../etc/passwd", "/app/%2e%2e/%2e%2e/etc/passwd", "/app/js/../../Package.swift", "/app//etc/passwd"] {
            let response = try await test.http.send("GET", path)
            #expect(response.status == 404, "\(path): \(response.status)")
            #expect(!response.text.contains("root:"))
        }
        for id in ["..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "../catalog.sqlite"] {
            #expect(try await test.user("GET", "/api/assets/\(id)/original").status == 404)
        }
        #expect(try await test.user("GET", "/api/picker/sessions/whatever/files/..%2F..%2Fetc%2Fpasswd").status == 404)
    }

    @Test("Behind an HTTPS proxy every cookie is Secure and https:// pages of the server's hosts may change the library; otherwise neither")
    func behindHTTPS() async throws {
        for https in [false, true] {
            var configuration = PhotoLibraryServer.Configuration(port: 0)
            configuration.servedOverHTTPS = https
            let test = try await TestServer.start(photos: 0, configuration: configuration)
            defer { test.stop() }
            _ = try await test.library.addPerson(name: "kim", password: "kim's password")
            let signIn = try await test.send("POST", "/api/session", json: ["name": "kim", "password": "kim's password"])
            let keyCookie = try await test.http.send("GET", "/?key=\(test.server.userKey)")
            let form = try await test.http.send("GET", "/")
            for (what, response) in [("the session", signIn), ("the key's", keyCookie), ("the sign-in form's", form)] {
                let cookie = try #require(response.headers["set-cookie"], "\(what) cookie")
                #expect(cookie.hasSuffix("; Secure") == https, "\(what) cookie: \(cookie)")
            }
            let (cookie, csrf) = try await test.personSession(name: "kim", password: "kim's password")
            let fromHTTPS = try await test.send(
                "POST", "/api/albums", json: ["title": "From the proxy"],
                headers: ["Cookie": cookie, "X-Shoebox-CSRF": csrf, "Origin": "https://127.0.0.1:\(test.port)"])
            #expect(fromHTTPS.status == (https ? 201 : 403), "\(fromHTTPS.text)")
            // Another site is another site, over HTTPS too.
            let elsewhere = try await test.send(
                "POST", "/api/albums", json: ["title": "Elsewhere"],
                headers: ["Cookie": cookie, "X-Shoebox-CSRF": csrf, "Origin": "https://evil.example"])
            #expect(elsewhere.status == 403)
        }
    }
}
