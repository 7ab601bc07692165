import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary
@testable import ShoeboxServer

/// Signing in with an OpenID Connect provider (docs/API.md "OpenID Connect"), against a real one
/// the test starts (`OpenIDTestProvider`: Authlib's JOSE): discovery, the code flow with PKCE, a
/// person connecting their account and then signing in with it, and every ID token defect
/// refused with a sentence and no session.
@Suite struct OpenIDConnectTests {
    static let password = "kim's password"

    /// The cookies (`NAME=VALUE`) a response sets, by name.
    static func cookies(_ response: RawHTTP.Response) -> [String: String] {
        var found: [String: String] = [:]
        for part in (response.headers["set-cookie"] ?? "").components(separatedBy: ", ") {
            guard let pair = part.split(separator: ";").first, let equals = pair.firstIndex(of: "=") else { continue }
            found[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        return found
    }

    /// A round trip through the provider: the authorization URL the server sent the browser to,
    /// signed in there as `name`; returns the callback's path and query on this server.
    static func throughTheProvider(_ authorization: String, as name: String, provider: OpenIDTestProvider) async throws -> String {
        let url = try #require(URLComponents(string: authorization))
        #expect(url.port == provider.issuer.port && url.path == "/authorize", "\(authorization)")
        let items = url.queryItems ?? []
        #expect(items.first { $0.name == "code_challenge_method" }?.value == "S256" && items.contains { $0.name == "nonce" })
        let answer = try await RawHTTP(port: provider.issuer.port ?? 0).send("GET", "/authorize?\(url.percentEncodedQuery ?? "")&login_hint=\(name)")
        #expect(answer.status == 302, "\(answer.text)")
        let back = try #require(answer.headers["location"].flatMap { URLComponents(string: $0) })
        return back.path + "?" + (back.percentEncodedQuery ?? "")
    }

    /// Starts a sign-in at `/signin/oidc`, goes through the provider as `name`, and comes back
    /// with the login cookie only (the session cookie stays behind: the provider is another site).
    static func signIn(_ test: TestServer, as name: String, provider: OpenIDTestProvider) async throws -> RawHTTP.Response {
        let started = try await test.http.send("GET", "/signin/oidc?next=%2F")
        #expect(started.status == 303, "\(started.text)")
        let login = try #require(cookies(started).first { $0.key.hasPrefix("shoebox_oidc_") })
        let callback = try await throughTheProvider(try #require(started.headers["location"]), as: name, provider: provider)
        return try await test.http.send("GET", callback, headers: ["Cookie": "\(login.key)=\(login.value)"])
    }

    static func session(of response: RawHTTP.Response) -> String? {
        cookies(response).first { $0.key.hasPrefix("shoebox_session_") && !$0.value.isEmpty }.map { "\($0.key)=\($0.value)" }
    }

    static func start(_ provider: OpenIDTestProvider) async throws -> TestServer {
        var configuration = PhotoLibraryServer.Configuration(port: 0)
        configuration.openID = OpenIDConfiguration(
            issuer: provider.issuer, clientID: provider.clientID, clientSecret: provider.clientSecret, displayName: "Home Login")
        return try await TestServer.start(photos: 0, configuration: configuration)
    }

    @Test("A person connects their account, signs in with it, and an account nobody connected signs in nobody")
    func connectAndSignIn() async throws {
        let provider = try OpenIDTestProvider.start()
        defer { provider.stop() }
        let test = try await Self.start(provider)
        defer { test.stop() }
        _ = try await test.library.addPerson(name: "kim", password: Self.password)
        let page = try await test.http.send("GET", "/")
        #expect(page.text.contains("Sign In with Home Login") && page.text.contains("/signin/oidc?next="), "the sign-in page offers the provider")

        // Kim, signed in with her password, connects her account.
        let (cookie, csrf) = try await test.personSession(name: "kim", password: Self.password)
        let browser = ["Cookie": cookie, "X-Shoebox-CSRF": csrf, "Origin": "http://127.0.0.1:\(test.port)"]
        #expect((try await test.send("GET", "/api/me", headers: browser).object()["signInAccount"] as? [String: Any])?["provider"] as? String == "Home Login")
        let connecting = try await test.send("POST", "/api/me/oidc", json: [:], headers: browser)
        #expect(connecting.status == 200, "\(connecting.text)")
        let login = try #require(Self.cookies(connecting).first { $0.key.hasPrefix("shoebox_oidc_") })
        let callback = try await Self.throughTheProvider(try #require(try connecting.object()["url"] as? String), as: "kim", provider: provider)
        let connected = try await test.http.send("GET", callback, headers: ["Cookie": "\(login.key)=\(login.value)"])
        #expect(connected.status == 200 && connected.text.contains("url=/#/account"), "\(connected.status) \(connected.text)")
        let account = try await test.send("GET", "/api/me", headers: browser).object()["signInAccount"] as? [String: Any]
        #expect(account?["account"] as? String == "kim@example.org", "\(String(describing: account))")
        // The same answer again is refused: a login is taken once.
        let replayed = try await test.http.send("GET", callback, headers: ["Cookie": "\(login.key)=\(login.value)"])
        #expect(replayed.status == 403 && replayed.text.contains("expired or is not this browser"), "\(replayed.text)")

        // Signing in with it: a session of Kim's, reached through a page of this site.
        let signedIn = try await Self.signIn(test, as: "kim", provider: provider)
        #expect(signedIn.status == 200 && signedIn.text.contains("http-equiv=\"refresh\""), "\(signedIn.text)")
        let session = try #require(Self.session(of: signedIn))
        let me = try await test.send("GET", "/api/me", headers: ["Cookie": session]).object()
        #expect((me["person"] as? [String: Any])?["name"] as? String == "kim")

        // An account nobody connected, and one a browser did not start, sign in nobody.
        let stranger = try await Self.signIn(test, as: "stranger", provider: provider)
        #expect(stranger.status == 403 && stranger.text.contains("No one here signs in with stranger@example.org"), "\(stranger.text)")
        #expect(Self.session(of: stranger) == nil)
        let started = try await test.http.send("GET", "/signin/oidc")
        let unstarted = try await test.http.send(
            "GET", try await Self.throughTheProvider(try #require(started.headers["location"]), as: "kim", provider: provider))
        #expect(unstarted.status == 403 && Self.session(of: unstarted) == nil, "no login cookie: \(unstarted.text)")

        // Another person cannot take Kim's account; Kim disconnects it and it signs in nobody.
        _ = try await test.library.addPerson(name: "lee", password: "lee's password")
        let (leeCookie, leeCSRF) = try await test.personSession(name: "lee", password: "lee's password")
        let lee = ["Cookie": leeCookie, "X-Shoebox-CSRF": leeCSRF, "Origin": "http://127.0.0.1:\(test.port)"]
        let leeConnecting = try await test.send("POST", "/api/me/oidc", json: [:], headers: lee)
        let leeLogin = try #require(Self.cookies(leeConnecting).first { $0.key.hasPrefix("shoebox_oidc_") })
        let taken = try await test.http.send(
            "GET", try await Self.throughTheProvider(try #require(try leeConnecting.object()["url"] as? String), as: "kim", provider: provider),
            headers: ["Cookie": "\(leeLogin.key)=\(leeLogin.value)"])
        #expect(taken.text.contains("oidc=taken"), "\(taken.text)")
        #expect(try await test.send("DELETE", "/api/me/oidc", headers: browser).status == 204)
        #expect(try await test.send("DELETE", "/api/me/oidc", headers: browser).status == 404)
        let disconnected = try await Self.signIn(test, as: "kim", provider: provider)
        #expect(disconnected.status == 403 && Self.session(of: disconnected) == nil)
        // A key reaches none of it.
        let (_, token) = try await test.library.forPerson(try #require(try await test.library.person(named: "kim"))).makeKey(named: "k", scope: .write)
        #expect(try await test.client(token, "POST", "/api/me/oidc", json: [:]).status == 403)
    }

    @Test(
        "Every defect of the provider's ID token is refused with a sentence, and signs nobody in",
        arguments: [
            ("wrong-nonce", "not this sign-in's"), ("wrong-audience", "is meant for another-client"), ("wrong-issuer", "issued by http://evil.example"),
            ("expired", "has expired"), ("bad-signature", "signature is not one of the provider's keys"),
            ("unknown-key", "signature is not one of the provider's keys"),
        ])
    func defectsAreRefused(_ defect: String, _ sentence: String) async throws {
        let provider = try OpenIDTestProvider.start()
        defer { provider.stop() }
        let test = try await Self.start(provider)
        defer { test.stop() }
        let kim = try await test.library.addPerson(name: "kim", password: Self.password)
        try await test.library.linkSignIn(issuer: provider.issuer.absoluteString, subject: "subject-kim", to: kim)
        try await provider.makeNextToken(defect)
        let refused = try await Self.signIn(test, as: "kim", provider: provider)
        #expect(refused.status == 401 && refused.text.contains(sentence), "\(defect): \(refused.status) \(refused.text)")
        #expect(Self.session(of: refused) == nil)
        // The next, good, token signs in (and one signed with ES256 too).
        try await provider.makeNextToken("es256")
        let good = try await Self.signIn(test, as: "kim", provider: provider)
        #expect(good.status == 200 && Self.session(of: good) != nil, "\(good.text)")
    }

    @Test("A confidential client sends its secret; a wrong secret is refused by the provider, and says so")
    func clientSecret() async throws {
        let provider = try OpenIDTestProvider.start(clientSecret: "the secret")
        defer { provider.stop() }
        let test = try await Self.start(provider)
        defer { test.stop() }
        let kim = try await test.library.addPerson(name: "kim", password: Self.password)
        try await test.library.linkSignIn(issuer: provider.issuer.absoluteString, subject: "subject-kim", to: kim)
        #expect(Self.session(of: try await Self.signIn(test, as: "kim", provider: provider)) != nil)

        var configuration = PhotoLibraryServer.Configuration(port: 0)
        configuration.openID = OpenIDConfiguration(issuer: provider.issuer, clientID: provider.clientID, clientSecret: "not it")
        let wrong = try await TestServer.start(photos: 0, configuration: configuration)
        defer { wrong.stop() }
        let other = try await wrong.library.addPerson(name: "kim", password: Self.password)
        try await wrong.library.linkSignIn(issuer: provider.issuer.absoluteString, subject: "subject-kim", to: other)
        let refused = try await Self.signIn(wrong, as: "kim", provider: provider)
        #expect(refused.status == 401 && refused.text.contains("refused the sign-in (401 invalid_client)"), "\(refused.text)")
    }

    @Test("A provider that cannot be reached, or names another issuer, is a sentence on the sign-in page")
    func unreachableProvider() async throws {
        var configuration = PhotoLibraryServer.Configuration(port: 0)
        configuration.openID = OpenIDConfiguration(issuer: URL(string: "http://127.0.0.1:9")!, clientID: "shoebox", displayName: "Nowhere")
        let test = try await TestServer.start(photos: 0, configuration: configuration)
        defer { test.stop() }
        let started = try await test.http.send("GET", "/signin/oidc")
        #expect(started.status == 503 && started.text.contains("Nowhere cannot be reached now"), "\(started.text)")
    }
}
