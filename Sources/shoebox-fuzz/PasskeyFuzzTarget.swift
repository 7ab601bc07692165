import Foundation
import ShoeboxServer

/// A browser's passkey answers (WebAuthn): CBOR, the attestation object and its COSE key, and the
/// authenticator data, as `POST /api/passkeys` and `/api/passkeys/signin` read them. Whatever the
/// bytes, each is refused with a reason or read within the input; a key taken is one the
/// algorithm's library takes.
enum PasskeyFuzzTarget {
    static func run(_ data: Data) {
        if let (value, length) = try? CBORValue.decode(data) {
            FuzzCheck.require(length >= 1 && length <= data.count, "CBOR read \(length) of \(data.count) bytes")
            _ = value
        }
        if let authenticatorData = try? WebAuthn.AuthenticatorData(data) {
            FuzzCheck.require(authenticatorData.rpIDHash.count == 32, "an rpIdHash of \(authenticatorData.rpIDHash.count) bytes")
            if let id = authenticatorData.credentialID {
                FuzzCheck.require((1...WebAuthn.maximumCredentialIDLength).contains(id.count) && id.count <= data.count, "a credential id of \(id.count)")
            }
        }
        // As an attestation object, with every check but the bytes' own let through.
        let clientData = Data(#"{"type":"webauthn.create","challenge":"c","origin":"http://localhost"}"#.utf8)
        if let registration = try? WebAuthn.registration(
            clientDataJSON: clientData, attestationObject: data, rawID: credentialID(in: data), challenge: { _ in true }, origin: { _ in "localhost" })
        {
            FuzzCheck.require(
                (registration.algorithm == -7 && registration.publicKey.count == 65) || (registration.algorithm == -8 && registration.publicKey.count == 32),
                "a key of \(registration.publicKey.count) bytes for algorithm \(registration.algorithm)")
        }
    }

    /// The credential id an attestation object holds, if it holds one (so the fuzzer can reach
    /// the key's checks).
    private static func credentialID(in data: Data) -> Data {
        guard let object = try? CBORValue.decode(data).value, case .map(let map) = object, case .bytes(let authData)? = map[.text("authData")],
            let parsed = try? WebAuthn.AuthenticatorData(authData), let id = parsed.credentialID
        else { return Data() }
        return id
    }
}
