import Foundation

/// An ID token (a JWS in compact form, RFC 7515) and the claims Shoebox reads of it, checked as
/// OpenID Connect Core 1.0 §3.1.3.7 says: the signature by one of the provider's keys, the issuer,
/// the audience (and `azp` when there are several), the expiry (60 s of clock difference allowed)
/// and the nonce this sign-in sent.
struct IDToken: Sendable {
    /// The claims read.
    struct Claims: Decodable, Sendable {
        let iss: String
        let sub: String
        let aud: [String]
        let exp: Double
        let iat: Double?
        let nonce: String?
        let azp: String?
        let email: String?
        let emailVerified: Bool?

        private enum CodingKeys: String, CodingKey {
            case iss, sub, aud, exp, iat, nonce, azp, email
            case emailVerified = "email_verified"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            iss = try container.decode(String.self, forKey: .iss)
            sub = try container.decode(String.self, forKey: .sub)
            // One audience may be a string, several an array.
            if let one = try? container.decode(String.self, forKey: .aud) { aud = [one] } else { aud = try container.decode([String].self, forKey: .aud) }
            exp = try container.decode(Double.self, forKey: .exp)
            iat = try container.decodeIfPresent(Double.self, forKey: .iat)
            nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
            azp = try container.decodeIfPresent(String.self, forKey: .azp)
            email = try container.decodeIfPresent(String.self, forKey: .email)
            emailVerified = try? container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        }
    }

    private struct Header: Decodable {
        let alg: String
        let kid: String?
    }

    let algorithm: String
    let keyID: String?
    let claims: Claims
    /// What the signature covers: the header and payload as sent, with the dot between.
    let signingInput: Data
    let signature: Data

    /// Reads a compact JWS; throws ``OpenIDError/Code/invalidToken`` for anything else.
    init(_ text: String) throws(OpenIDError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.utf8.count <= 64 << 10, parts.count == 3, let headerData = WebAuthn.data(base64URL: String(parts[0])),
            let payload = WebAuthn.data(base64URL: String(parts[1])), let signature = WebAuthn.data(base64URL: String(parts[2]))
        else { throw OpenIDError(.invalidToken, "the provider's ID token is not a signed JSON Web Token") }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: headerData)
            claims = try JSONDecoder().decode(Claims.self, from: payload)
        } catch {
            throw OpenIDError(.invalidToken, "the provider's ID token lacks the claims OpenID Connect requires (iss, sub, aud, exp)", underlying: error)
        }
        algorithm = header.alg
        keyID = header.kid
        signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        self.signature = signature
    }

    /// The claims, once the token holds for this sign-in.
    ///
    /// - Parameters:
    ///   - keys: The provider's signing keys.
    ///   - issuer: The provider's issuer, which `iss` must be.
    ///   - clientID: Shoebox's client identifier, which `aud` must hold.
    ///   - nonce: The nonce this sign-in sent, which the token must carry.
    func verified(keys: [JSONWebKey], issuer: String, clientID: String, nonce: String, now: Date = Date()) throws(OpenIDError) -> Claims {
        guard ["RS256", "ES256"].contains(algorithm) else {
            throw OpenIDError(.invalidToken, "the provider signed its ID token with \(algorithm): Shoebox takes RS256 or ES256")
        }
        let candidates = keys.filter { keyID == nil || $0.kid == nil || $0.kid == keyID }
        guard candidates.contains(where: { $0.verifies(signature, of: signingInput, algorithm: algorithm) }) else {
            throw OpenIDError(.invalidToken, "the ID token's signature is not one of the provider's keys")
        }
        var trimmed = claims.iss
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard trimmed == issuer else { throw OpenIDError(.invalidToken, "the ID token was issued by \(claims.iss), not \(issuer)") }
        guard claims.aud.contains(clientID), claims.aud.count == 1 || claims.azp == clientID else {
            throw OpenIDError(.invalidToken, "the ID token is meant for \(claims.aud.joined(separator: ", ")), not this server (\(clientID))")
        }
        guard claims.exp + 60 > now.timeIntervalSince1970 else { throw OpenIDError(.invalidToken, "the ID token has expired") }
        if let issued = claims.iat, issued - 60 > now.timeIntervalSince1970 {
            throw OpenIDError(.invalidToken, "the ID token says it was issued in the future (check the clocks)")
        }
        guard let sent = claims.nonce, sent == nonce else {
            throw OpenIDError(.invalidToken, "the ID token is not this sign-in's (its nonce differs): sign in again")
        }
        return claims
    }
}
