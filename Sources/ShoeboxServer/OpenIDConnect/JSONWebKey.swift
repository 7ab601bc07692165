internal import Crypto
import Foundation
internal import _CryptoExtras

/// One public key of the provider's key set (RFC 7517), as its `jwks_uri` lists them: RSA (`n`,
/// `e`) for RS256, or an EC P-256 point (`x`, `y`) for ES256.
struct JSONWebKey: Decodable, Sendable {
    /// `RSA` or `EC`.
    let kty: String
    /// The key's identifier, which a token's header names.
    let kid: String?
    /// `sig` (or absent) for a signing key.
    let use: String?
    let n: String?
    let e: String?
    let crv: String?
    let x: String?
    let y: String?

    /// Whether `signature` is this key's signature of `input` by `algorithm` (`RS256`, `ES256`);
    /// any other algorithm, and a key of another kind, verify nothing.
    func verifies(_ signature: Data, of input: Data, algorithm: String) -> Bool {
        guard use == nil || use == "sig" else { return false }
        switch (algorithm, kty) {
        case ("RS256", "RSA"):
            guard let n = n.flatMap(WebAuthn.data(base64URL:)), let e = e.flatMap(WebAuthn.data(base64URL:)),
                let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { return false }
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5)
        case ("ES256", "EC"):
            guard crv == "P-256", let x = x.flatMap(Self.coordinate), let y = y.flatMap(Self.coordinate),
                let key = try? P256.Signing.PublicKey(rawRepresentation: x + y),
                let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
            else { return false }
            return key.isValidSignature(signature, for: SHA256.hash(data: input))
        default:
            return false
        }
    }

    /// A P-256 coordinate as 32 bytes. RFC 7518 wants the full length, but some libraries
    /// (Authlib's JOSE among them) write the shortest bytes of the number, so one key in about
    /// 128 has a 31-byte coordinate: it is padded with the zeros it lost, not refused.
    static func coordinate(_ base64URL: String) -> Data? {
        guard let bytes = WebAuthn.data(base64URL: base64URL), (1...32).contains(bytes.count) else { return nil }
        return Data(repeating: 0, count: 32 - bytes.count) + bytes
    }

    /// A key set: `{"keys": [...]}`.
    struct Set: Decodable, Sendable {
        let keys: [JSONWebKey]
    }
}
