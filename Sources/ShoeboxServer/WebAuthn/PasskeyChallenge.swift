internal import Crypto
import Foundation

/// The challenges a server gives for passkey registrations and sign-ins, without keeping them:
/// each is random bytes, when it expires, what it is for and for whom, sealed with an HMAC of a
/// key derived from the server key. Any server of the library given the same key checks it (a
/// sign-in may begin on one and end on another); each server takes a challenge once.
final class PasskeyChallenge: Sendable {
    /// What a challenge is for.
    enum Purpose: UInt8 {
        case registration = 1
        case signIn = 2
    }

    /// The HMAC key's bytes (a `SymmetricKey` is not `Sendable`).
    private let keyBytes: Data
    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }
    /// The challenges taken, until each expires.
    private let taken = OnceTokens()

    init(serverKey: String) {
        keyBytes = Data(ServerState.derive("passkey-challenge", from: serverKey).utf8)
    }

    /// A new challenge, base64url: 16 random bytes, the expiry (8), the purpose (1), the person's
    /// row id (8; 0 for a sign-in), and the HMAC of those (32).
    func make(_ purpose: Purpose, person: Int64 = 0, now: Date = Date()) -> String {
        var body = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        Self.append(UInt64(now.addingTimeInterval(WebAuthn.timeout).timeIntervalSince1970), to: &body)
        body.append(purpose.rawValue)
        Self.append(UInt64(bitPattern: person), to: &body)
        return WebAuthn.base64URL(body + Data(HMAC<SHA256>.authenticationCode(for: body, using: key)))
    }

    /// Whether `challenge` is one this key sealed, for `purpose` and `person`, not expired and
    /// not taken before on this server; takes it.
    func take(_ challenge: String, _ purpose: Purpose, person: Int64 = 0, now: Date = Date()) -> Bool {
        guard let bytes = WebAuthn.data(base64URL: challenge), bytes.count == 65 else { return false }
        let body = bytes.prefix(33)
        guard HMAC<SHA256>.isValidAuthenticationCode(bytes.suffix(32), authenticating: body, using: key) else { return false }
        let values = [UInt8](body)
        let expiry = values[16..<24].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let owner = values[25..<33].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let expires = Date(timeIntervalSince1970: TimeInterval(expiry))
        guard values[24] == purpose.rawValue, Int64(bitPattern: owner) == person, expires > now else { return false }
        // Keyed by the bytes, as base64url without padding: the same challenge spelled padded
        // is the same challenge.
        return taken.take(WebAuthn.base64URL(bytes), until: expires, now: now)
    }

    private static func append(_ value: UInt64, to data: inout Data) {
        for shift in stride(from: 56, through: 0, by: -8) { data.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
