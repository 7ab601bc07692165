import Foundation

/// Unguessable identifiers, keys and tokens: random bits from the system's generator.
package enum RandomToken {
    /// `words` × 64 random bits, as 16 lowercase hex digits each (2 words: 128 bits, 32 digits).
    package static func hex(words: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<words).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// `bytes` random bytes (32: 256 bits) in base64url without padding: what a bearer token or a
    /// cookie carries.
    package static func base64URL(bytes: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return base64URL(Data(random))
    }

    /// `data` in base64url without padding (RFC 4648 §5), as tokens, cookies and WebAuthn write bytes.
    package static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
