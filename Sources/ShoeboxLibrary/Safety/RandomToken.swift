/// Unguessable identifiers and keys: random bits from the system's generator, as lowercase hex.
package enum RandomHex {
    /// `words` × 64 random bits, as 16 hex digits each (2 words: 128 bits, 32 digits).
    package static func make(words: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<words).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
