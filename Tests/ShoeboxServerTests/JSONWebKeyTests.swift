import Crypto
import Foundation
import Testing

@testable import ShoeboxServer

/// A provider's ES256 key whose coordinate begins with a zero byte, written short as Authlib's
/// JOSE writes it (one key in about 128): Shoebox verifies its signatures all the same. The
/// OpenID Connect suite failed about once in 100 runs on this, with a fresh key each run.
@Suite struct JSONWebKeyTests {
    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func aShortCoordinateIsTheSamePoint() throws {
        // A key whose x starts with 0x00: about one in 256 does.
        var found: P256.Signing.PrivateKey?
        for _ in 0..<5_000 {
            let key = P256.Signing.PrivateKey()
            if key.publicKey.rawRepresentation.first == 0 {
                found = key
                break
            }
        }
        let key = try #require(found, "no key with a leading zero in 5,000 tries")
        let raw = key.publicKey.rawRepresentation
        let (x, y) = (raw.prefix(32).drop { $0 == 0 }, raw.suffix(32))
        #expect(x.count < 32)
        let json = #"{"kty": "EC", "crv": "P-256", "kid": "ec-1", "use": "sig", "x": "\#(Self.base64URL(Data(x)))", "y": "\#(Self.base64URL(Data(y)))"}"#
        let jwk = try JSONDecoder().decode(JSONWebKey.self, from: Data(json.utf8))
        let input = Data("header.payload".utf8)
        let signature = try key.signature(for: SHA256.hash(data: input)).rawRepresentation
        #expect(jwk.verifies(signature, of: input, algorithm: "ES256"))
        #expect(!jwk.verifies(signature, of: Data("header.other".utf8), algorithm: "ES256"))
        #expect(JSONWebKey.coordinate(Self.base64URL(Data(repeating: 1, count: 33))) == nil, "longer than a P-256 coordinate")
    }
}
