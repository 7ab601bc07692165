import Foundation

/// A blob as the catalog names it.
package struct BlobKey: Sendable, Hashable, CustomStringConvertible {
    /// Whether it is an original or a render: the folder it is filed in.
    package let kind: BlobKind
    /// The SHA-256 of the bytes, lowercase hex.
    package let hash: String

    /// The key of the `kind` blob whose bytes hash to `hash` (lowercase hex).
    package init(kind: BlobKind, hash: String) {
        self.kind = kind
        self.hash = hash
    }

    /// `KIND HASH` (`original 9f86d0…`), for messages; also the name of the blob's PostgreSQL
    /// advisory lock.
    package var description: String { "\(kind.rawValue) \(hash)" }
}
