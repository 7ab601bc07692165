internal import Crypto
import Foundation

/// Bytes as lowercase hexadecimal: content hashes (the names of originals), token hashes, S3
/// checksums and signatures.
package enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits per byte.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The SHA-256 of `data`, in hex.
    package static func sha256(_ data: some DataProtocol) -> String {
        encode(SHA256.hash(data: data))
    }
}
