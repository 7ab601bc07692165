import Crypto
import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary
@testable import ShoeboxServer

/// Passkeys over HTTP, with a software authenticator written here from the WebAuthn spec (a
/// P-256 key, CTAP2's CBOR): registration and sign-in work, and each check refuses what it
/// should — a replayed challenge, another origin or site, a foreign signature, a cloned
/// authenticator, a disabled person — and failures are throttled per address.
@Suite struct WebAuthnTests {
    /// CBOR as CTAP2 writes it (definite lengths), for the items a registration uses.
    enum CBOR {
        case int(Int)
        case bytes(Data)
        case text(String)
        case map([(CBOR, CBOR)])

        var encoded: Data {
            func head(_ major: UInt8, _ value: UInt64) -> Data {
                switch value {
                case 0..<24: return Data([major << 5 | UInt8(value)])
                case 24..<256: return Data([major << 5 | 24, UInt8(value)])
                case 256..<65_536: return Data([major << 5 | 25, UInt8(value >> 8), UInt8(value & 0xFF)])
                default: return Data([major << 5 | 26] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
                }
            }
            switch self {
            case .int(let value): return value >= 0 ? head(0, UInt64(value)) : head(1, UInt64(-1 - value))
            case .bytes(let data): return head(2, UInt64(data.count)) + data
            case .text(let text): return head(3, UInt64(text.utf8.count)) + Data(text.utf8)
            case .map(let entries): return entries.reduce(head(5, UInt64(entries.count))) { $0 + $1.0.encoded + $1.1.encoded }
            }
        }
    }

    /// A passkey authenticator in software: one P-256 key and its signature counter.
    struct Authenticator {
        let key = P256.Signing.PrivateKey()
        let credentialID = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        var count: UInt32 = 0

        static func clientData(_ type: String, challenge: String, origin: String) -> Data {
            Data(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
        }

        static func authenticatorData(rpID: String, flags: UInt8, count: UInt32, attested: Data = Data()) -> Data {
            Data(SHA256.hash(data: Data(rpID.utf8))) + Data([flags]) + Data((0..<4).reversed().map { UInt8(truncatingIfNeeded: count >> (8 * UInt32($0))) })
                + attested
        }

        /// `navigator.credentials.create`'s answer, as the web app sends it.
        func registration(challenge: String, origin: String, rpID: String = "localhost") -> [String: Any] {
            let point = key.publicKey.x963Representation
            let cose = CBOR.map([
                (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)), (.int(-2), .bytes(point[1..<33])), (.int(-3), .bytes(point[33..<65])),
            ])
            let attested = Data(count: 16) + Data([UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)]) + credentialID + cose.encoded
            let authData = Self.authenticatorData(rpID: rpID, flags: 0x45, count: 0, attested: attested)
            let attestation = CBOR.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData))])
            return [
                "name": "Software key",
                "credential": [
                    "rawId": WebAuthn.base64URL(credentialID), "type": "public-key",
                    "response": [
                        "clientDataJSON": WebAuthn.base64URL(Self.clientData("webauthn.create", challenge: challenge, origin: origin)),
                        "attestationObject": WebAuthn.base64URL(attestation.encoded),
                    ],
                ],
            ]
        }

        /// `navigator.credentials.get`'s answer; the counter grows unless `count` says otherwise.
        mutating func assertion(
            challenge: String, origin: String, rpID: String = "localhost", type: String = "webauthn.get", count: UInt32? = nil,
            signer: P256.Signing.PrivateKey? = nil
        ) throws -> [String: Any] {
            if count == nil { self.count += 1 }
            let clientData = Self.clientData(type, challenge: challenge, origin: origin)
            let authData = Self.authenticatorData(rpID: rpID, flags: 0x05, count: count ?? self.count)
            let signature = try (signer ?? key).signature(for: authData + Data(SHA256.hash(data: clientData)))
            return [
                "credential": [
                    "rawId": WebAuthn.base64URL(credentialID), "type": "public-key",
                    "response": [
                        "clientDataJSON": WebAuthn.base64URL(clientData), "authenticatorData": WebAuthn.base64URL(authData),
                        "signature": WebAuthn.base64URL(signature.derRepresentation),
                    ],
                ]
            ]
        }
    }

    static func code(_ response: RawHTTP.Response) -> String {
        "\(response.status) \(((try? response.object())?["error"] as? [String: Any])?["code"] as? String ?? "")"
    }

    @Test("A passkey registered over HTTP signs its person in; replays, other sites, foreign signatures and clones are refused")
    func registrationAndSignIn() async throws {
        let test = try await TestServer.start(photos: 0)
        defer { test.stop() }
        let host = "localhost:\(test.port)"
        let origin = "http://\(host)"
        let http = test.http
        let key = ["Authorization": "Bearer \(test.server.userKey)"]
        func post(_ path: String, _ body: Any = [String: Any](), headers: [String: String] = [:], at host: String? = nil) async throws -> RawHTTP.Response {
            try await http.send(
                "POST", path, headers: headers.merging(["Content-Type": "application/json"]) { $1 },
                body: try JSONSerialization.data(withJSONObject: body), host: host ?? "localhost:\(test.port)")
        }
        func challenge(_ path: String) async throws -> String {
            let options = try await post(path, headers: path.hasSuffix("registration") ? key : [:])
            try #require(options.status == 200, "\(options.text)")
            return try #require((try options.object()["publicKey"] as? [String: Any])?["challenge"] as? String)
        }

        // At an IP address there is no relying party: a sentence says so.
        let atIP = try await post("/api/passkeys/registration", headers: key, at: "127.0.0.1:\(test.port)")
        #expect(Self.code(atIP) == "400 passkeysUnavailable")

        var authenticator = Authenticator()
        let options = try await post("/api/passkeys/registration", headers: key)
        let publicKey = try #require(try options.object()["publicKey"] as? [String: Any])
        #expect((publicKey["rp"] as? [String: Any])?["id"] as? String == "localhost")
        let registering = try #require(publicKey["challenge"] as? String)
        let registration = authenticator.registration(challenge: registering, origin: origin)
        let registered = try await post("/api/passkeys", registration, headers: key)
        #expect(registered.status == 201, "\(registered.text)")
        let passkeyID = try #require(try registered.object()["id"] as? String)
        #expect(passkeyID == WebAuthn.base64URL(authenticator.credentialID))
        // The same registration again: its challenge is taken.
        #expect(Self.code(try await post("/api/passkeys", registration, headers: key)) == "400 passkeyRefused")
        // Another site's registration, and another origin's, are refused.
        let otherSite = authenticator.registration(challenge: try await challenge("/api/passkeys/registration"), origin: origin, rpID: "example.com")
        #expect(Self.code(try await post("/api/passkeys", otherSite, headers: key)) == "400 passkeyRefused")
        let otherOrigin = authenticator.registration(challenge: try await challenge("/api/passkeys/registration"), origin: "http://evil.example")
        #expect(Self.code(try await post("/api/passkeys", otherOrigin, headers: key)) == "400 passkeyRefused")

        // Sign-in: a session cookie for the first admin.
        let signedIn = try await post(
            "/api/passkeys/signin", try authenticator.assertion(challenge: try await challenge("/api/passkeys/challenge"), origin: origin))
        #expect(signedIn.status == 201, "\(signedIn.text)")
        let cookie = try #require(signedIn.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        let me = try await http.send("GET", "/api/me", headers: ["Cookie": cookie])
        #expect(me.status == 200 && me.text.contains("\"admin\""), "\(me.text)")
        #expect(try await test.library.passkeys().first?.signCount == 1)

        // Refused, each the same 401 to the caller: the same answer replayed (its challenge is
        // taken), a count that does not grow (a clone), another origin, another site, another
        // key's signature, a registration's type.
        var failures = 0
        func refused(_ body: [String: Any], _ why: Comment) async throws {
            let answer = try await post("/api/passkeys/signin", body)
            #expect(Self.code(answer) == "401 signInFailed", why)
            #expect(answer.headers["set-cookie"] == nil, why)
            failures += 1
        }
        let fresh = try await challenge("/api/passkeys/challenge")
        let good = try authenticator.assertion(challenge: fresh, origin: origin)
        #expect(try await post("/api/passkeys/signin", good).status == 201)
        try await refused(good, "a replay")
        try await refused(try authenticator.assertion(challenge: try await challenge("/api/passkeys/challenge"), origin: origin, count: 1), "a clone")
        try await refused(
            try authenticator.assertion(challenge: try await challenge("/api/passkeys/challenge"), origin: "http://evil.example"), "another origin")
        try await refused(
            try authenticator.assertion(challenge: try await challenge("/api/passkeys/challenge"), origin: origin, rpID: "example.com"), "another site")
        try await refused(
            try authenticator.assertion(challenge: try await challenge("/api/passkeys/challenge"), origin: origin, signer: P256.Signing.PrivateKey()),
            "a foreign signature")
        try await refused(
            try authenticator.assertion(challenge: try await challenge("/api/passkeys/challenge"), origin: origin, type: "webauthn.create"),
            "a registration's type")
        var stranger = Authenticator()
        try await refused(try stranger.assertion(challenge: try await challenge("/api/passkeys/challenge"), origin: origin), "an unknown passkey")

        // A disabled person's passkey signs in nobody.
        let ann = try await test.library.addPerson(name: "ann", password: "ann's password")
        let (annCookie, annCSRF) = try await test.personSession(name: "ann", password: "ann's password")
        var annAuthenticator = Authenticator()
        let annHeaders = ["Cookie": annCookie, "X-Shoebox-CSRF": annCSRF, "Origin": "http://127.0.0.1:\(test.port)"]
        let annOptions = try await http.send("POST", "/api/passkeys/registration", headers: annHeaders, host: "127.0.0.1:\(test.port)")
        #expect(Self.code(annOptions) == "400 passkeysUnavailable")
        let annLocal = ["Cookie": annCookie, "X-Shoebox-CSRF": annCSRF, "Origin": origin]
        let annChallenge = try #require(
            (try (try await post("/api/passkeys/registration", headers: annLocal)).object()["publicKey"] as? [String: Any])?["challenge"] as? String)
        // A challenge given to one person does not register a passkey for another.
        #expect(
            Self.code(try await post("/api/passkeys", annAuthenticator.registration(challenge: annChallenge, origin: origin), headers: key))
                == "400 passkeyRefused")
        let annChallenge2 = try #require(
            (try (try await post("/api/passkeys/registration", headers: annLocal)).object()["publicKey"] as? [String: Any])?["challenge"] as? String)
        #expect(try await post("/api/passkeys", annAuthenticator.registration(challenge: annChallenge2, origin: origin), headers: annLocal).status == 201)
        #expect(try await test.library.forPerson(ann).passkeys().count == 1)
        #expect(try await test.library.passkeys().count == 1)
        try await test.library.setState(.disabled, of: ann)
        try await refused(try annAuthenticator.assertion(challenge: try await challenge("/api/passkeys/challenge"), origin: origin), "a disabled person")

        // Throttled per address: after 20 failures in 15 minutes, even a good passkey waits.
        while failures < PhotoLibrary.signInFailuresPerAddress {
            var stranger = Authenticator()
            try await refused(try stranger.assertion(challenge: try await challenge("/api/passkeys/challenge"), origin: origin), "an unknown passkey")
        }
        let throttled = try await post(
            "/api/passkeys/signin", try authenticator.assertion(challenge: try await challenge("/api/passkeys/challenge"), origin: origin))
        #expect(Self.code(throttled) == "429 rateLimited" && throttled.headers["retry-after"] != nil)
    }

    @Test("CBOR that lies about its lengths, nests too deep or uses what CTAP2 does not is refused, not trusted")
    func malformedCBORIsRefused() throws {
        let good = CBOR.map([(.int(1), .int(2)), (.text("k"), .bytes(Data([1, 2, 3])))]).encoded
        let decoded = try CBORValue.decode(good)
        #expect(decoded.length == good.count && decoded.value[1]?.int == 2 && decoded.value["k"]?.data == Data([1, 2, 3]))
        let malformed: [(bytes: [UInt8], why: String)] = [
            ([0x5A, 0xFF, 0xFF, 0xFF, 0xFF], "a byte string claiming 4 GB"),
            ([0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "an array claiming 2^64 items"),
            ([UInt8](repeating: 0x81, count: 40) + [0x00], "arrays 40 deep"),
            ([0x5F, 0x41, 0x00, 0xFF], "an indefinite byte string"),
            ([0xF9, 0x3C, 0x00], "a float"),
            ([0xC1, 0x00], "a tag"),
            ([0xA2, 0x01, 0x00, 0x01, 0x00], "a repeated map key"),
            ([0x63, 0xFF, 0xFE, 0xFD], "text that is not UTF-8"),
            ([0x18], "an integer cut short"),
        ]
        for (bytes, why) in malformed {
            #expect(throws: CBORValue.Malformed.self, "\(why)") { try CBORValue.decode(Data(bytes)) }
        }
    }
}
