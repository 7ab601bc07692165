internal import Crypto
import Foundation
import ShoeboxLibrary

/// A relying party's checks of WebAuthn (Web Authentication, Level 2) for passkeys: what a
/// browser returns when a person registers a passkey (``registration(clientDataJSON:attestationObject:rawID:challenge:origin:)``)
/// and when they sign in with one (``assertion(clientDataJSON:authenticatorData:signature:passkey:challenge:origin:)``).
/// Attestation is not checked (Shoebox asks for none: it trusts a person's choice of
/// authenticator, not its maker). Supported keys: ES256 (P-256, COSE -7) and EdDSA (Ed25519, -8).
package enum WebAuthn {
    /// Why a browser's answer is refused; the message names the check.
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    /// The COSE algorithms asked for, in order of preference.
    static let algorithms = [-7, -8]
    /// How long a person has to answer their authenticator: 5 minutes.
    static let timeout: TimeInterval = 300
    /// The longest credential id taken (the spec's limit).
    package static let maximumCredentialIDLength = 1_023

    /// What `clientDataJSON` says.
    struct ClientData: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
    }

    /// The authenticator data: the relying party's id hash, flags, the signature count, and at
    /// registration the new credential's id and public key.
    package struct AuthenticatorData {
        package let rpIDHash: Data
        package let flags: UInt8
        package let signCount: UInt32
        package let credentialID: Data?
        package let credentialKey: CBORValue?

        var userPresent: Bool { flags & 0x01 != 0 }
        var userVerified: Bool { flags & 0x04 != 0 }

        package init(_ data: Data) throws(Refusal) {
            let bytes = [UInt8](data)
            guard bytes.count >= 37 else { throw Refusal("the authenticator data is \(bytes.count) bytes, fewer than 37") }
            rpIDHash = Data(bytes[0..<32])
            flags = bytes[32]
            signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
            guard flags & 0x40 != 0 else {
                credentialID = nil
                credentialKey = nil
                return
            }
            // Attested credential data: AAGUID (16), the id's length (2), the id, the COSE key.
            guard bytes.count >= 55 else { throw Refusal("the attested credential data is cut short") }
            let length = Int(bytes[53]) << 8 | Int(bytes[54])
            guard length > 0, length <= WebAuthn.maximumCredentialIDLength, bytes.count >= 55 + length else {
                throw Refusal("the credential id's length (\(length)) is not one the data holds")
            }
            credentialID = Data(bytes[55..<55 + length])
            do {
                credentialKey = try CBORValue.decode(Data(bytes[(55 + length)...])).value
            } catch {
                throw Refusal("the credential's public key is not CBOR: \(error)")
            }
        }
    }

    /// A new passkey, checked: its id, public key, algorithm and signature count.
    package struct Registration {
        package let credentialID: Data
        package let publicKey: Data
        package let algorithm: Int
        package let signCount: UInt32
    }

    /// Checks a registration (`navigator.credentials.create`'s answer).
    ///
    /// - Parameters:
    ///   - rawID: The credential id the browser gave beside the response.
    ///   - challenge: Whether the challenge in the client data is one this server gave for this
    ///     registration (and not used before).
    ///   - origin: Whether the page's origin is this server's; returns the relying party id
    ///     (its host name), or `nil` for another origin.
    package static func registration(
        clientDataJSON: Data, attestationObject: Data, rawID: Data, challenge: (String) -> Bool, origin: (String) -> String?
    ) throws(Refusal) -> Registration {
        let rpID = try checkClientData(clientDataJSON, type: "webauthn.create", challenge: challenge, origin: origin)
        let attestation: CBORValue
        do { attestation = try CBORValue.decode(attestationObject).value } catch { throw Refusal("the attestation object is not CBOR: \(error)") }
        guard let authData = attestation["authData"]?.data else { throw Refusal("the attestation object has no authenticator data") }
        let data = try AuthenticatorData(authData)
        try checkAuthenticatorData(data, rpID: rpID)
        guard let credentialID = data.credentialID, let key = data.credentialKey else {
            throw Refusal("the authenticator data carries no new credential")
        }
        guard credentialID == rawID else { throw Refusal("the credential id differs from the one the browser named") }
        let (publicKey, algorithm) = try publicKey(from: key)
        return Registration(credentialID: credentialID, publicKey: publicKey, algorithm: algorithm, signCount: data.signCount)
    }

    /// Checks a sign-in (`navigator.credentials.get`'s answer) against the passkey it names;
    /// returns the signature count the authenticator reports now.
    package static func assertion(
        clientDataJSON: Data, authenticatorData: Data, signature: Data, publicKey: Data, algorithm: Int, storedSignCount: UInt32,
        challenge: (String) -> Bool, origin: (String) -> String?
    ) throws(Refusal) -> UInt32 {
        let rpID = try checkClientData(clientDataJSON, type: "webauthn.get", challenge: challenge, origin: origin)
        let data = try AuthenticatorData(authenticatorData)
        try checkAuthenticatorData(data, rpID: rpID)
        let signed = authenticatorData + Data(SHA256.hash(data: clientDataJSON))
        let valid: Bool
        switch algorithm {
        case -7:
            guard let key = try? P256.Signing.PublicKey(x963Representation: publicKey),
                let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature)
            else { throw Refusal("the signature is not an ES256 signature") }
            valid = key.isValidSignature(ecdsa, for: signed)
        case -8:
            guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { throw Refusal("the passkey's key is damaged") }
            valid = key.isValidSignature(signature, for: signed)
        default:
            throw Refusal("the passkey's algorithm \(algorithm) is not one Shoebox checks")
        }
        guard valid else { throw Refusal("the signature does not match the passkey") }
        // A count that does not grow means two authenticators hold one key: one is a clone.
        if data.signCount != 0 || storedSignCount != 0, data.signCount <= storedSignCount {
            throw Refusal("the authenticator's signature count did not grow (\(storedSignCount) → \(data.signCount)): it may be a clone")
        }
        return data.signCount
    }

    /// Checks the client data's type, challenge and origin; returns the relying party id.
    private static func checkClientData(_ json: Data, type: String, challenge: (String) -> Bool, origin: (String) -> String?) throws(Refusal) -> String {
        guard json.count <= 16 << 10, let client = try? JSONDecoder().decode(ClientData.self, from: json) else {
            throw Refusal("the client data is not the JSON a browser writes")
        }
        guard client.type == type else { throw Refusal("the client data is for \(client.type), not \(type)") }
        guard client.crossOrigin != true else { throw Refusal("the passkey was used from a frame of another site") }
        guard let rpID = origin(client.origin) else { throw Refusal("the page's origin \(client.origin) is not this server's") }
        guard challenge(client.challenge) else { throw Refusal("the challenge is not one this server gave, or it expired or was used") }
        return rpID
    }

    private static func checkAuthenticatorData(_ data: AuthenticatorData, rpID: String) throws(Refusal) {
        guard data.rpIDHash == Data(SHA256.hash(data: Data(rpID.utf8))) else { throw Refusal("the passkey is for another site than \(rpID)") }
        guard data.userPresent else { throw Refusal("the authenticator did not see the person (no user presence)") }
    }

    /// The public key of a COSE key, as Shoebox keeps it, and its algorithm.
    package static func publicKey(from key: CBORValue) throws(Refusal) -> (Data, Int) {
        guard let kty = key[1]?.int, let algorithm = key[3]?.int else { throw Refusal("the public key names no key type or algorithm") }
        switch (kty, algorithm) {
        case (2, -7):
            guard key[-1]?.int == 1, let x = key[-2]?.data, let y = key[-3]?.data, x.count == 32, y.count == 32 else {
                throw Refusal("the ES256 key is not a P-256 point")
            }
            let point = Data([0x04]) + x + y
            guard (try? P256.Signing.PublicKey(x963Representation: point)) != nil else { throw Refusal("the ES256 key is not on the curve") }
            return (point, -7)
        case (1, -8):
            guard key[-1]?.int == 6, let x = key[-2]?.data, x.count == 32, (try? Curve25519.Signing.PublicKey(rawRepresentation: x)) != nil else {
                throw Refusal("the EdDSA key is not an Ed25519 key")
            }
            return (x, -8)
        default:
            throw Refusal("the key type \(kty) with algorithm \(algorithm) is not one Shoebox takes (ES256 or EdDSA)")
        }
    }

    /// Bytes as base64url without padding, as WebAuthn writes them.
    static func base64URL(_ data: Data) -> String {
        RandomToken.base64URL(data)
    }

    /// base64url (padded or not) as bytes, or `nil`.
    static func data(base64URL text: String) -> Data? {
        guard text.count <= 64 << 10 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
