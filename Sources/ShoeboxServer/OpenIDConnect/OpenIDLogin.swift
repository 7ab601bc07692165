internal import Crypto
import Foundation
import ShoeboxLibrary

/// The browser's half of a sign-in with the provider under way: the `state`, `nonce` and PKCE
/// verifier the callback must find, where the provider sends the browser back, whom it links the
/// account to (a person connecting it in Settings › Account; `nil` for a sign-in) and where the
/// browser goes afterwards. Sealed (ChaCha20-Poly1305, a key derived from the server key) in an
/// HttpOnly cookie of ten minutes: any server given the key opens it, nobody else reads or makes
/// one.
struct OpenIDLogin: Codable, Sendable {
    let state: String
    let nonce: String
    let verifier: String
    let redirectURI: String
    /// The row id of the person connecting the account, or `nil` for a sign-in.
    let person: Int64?
    /// A page of this server (a path) to go to afterwards.
    let next: String
    let expires: Date

    /// How long a sign-in may take at the provider.
    static let lifetime: TimeInterval = 600

    /// A new login with fresh random `state`, `nonce` and verifier (32 bytes each, base64url).
    init(redirectURI: String, person: Int64?, next: String, now: Date = Date()) {
        state = RandomToken.base64URL(bytes: 32)
        nonce = RandomToken.base64URL(bytes: 32)
        verifier = RandomToken.base64URL(bytes: 32)
        self.redirectURI = redirectURI
        self.person = person
        self.next = next
        expires = now.addingTimeInterval(Self.lifetime)
    }

    /// The cookie's value.
    func sealed(serverKey: String) -> String {
        let data = (try? JSONEncoder().encode(self)) ?? Data()
        let box = try? ChaChaPoly.seal(data, using: Self.key(serverKey))
        return box.map { RandomToken.base64URL($0.combined) } ?? ""
    }

    /// The login a cookie's value seals, if this server key sealed it and it has not expired.
    static func opened(_ value: String, serverKey: String, now: Date = Date()) -> OpenIDLogin? {
        guard let combined = WebAuthn.data(base64URL: value), let box = try? ChaChaPoly.SealedBox(combined: combined),
            let data = try? ChaChaPoly.open(box, using: key(serverKey)), let login = try? JSONDecoder().decode(OpenIDLogin.self, from: data),
            login.expires > now
        else { return nil }
        return login
    }

    private static func key(_ serverKey: String) -> SymmetricKey {
        SymmetricKey(data: SHA256.hash(data: Data(ServerState.derive("openid-login", from: serverKey).utf8)))
    }
}
