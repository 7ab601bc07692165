import Foundation

/// Which of some files (by their SHA-256) a library holds already: what a phone's backup or
/// `shoebox sync` leaves out instead of sending again. See
/// ``PhotoLibrary/knownFiles(contentHashes:)``.
public struct KnownFiles: Sendable, Hashable, Codable {
    /// The hashes of photos and movies in the library (or a Live Photo's movie, a RAW+JPEG's
    /// raw): an import of these bytes would be a duplicate.
    public var present: Set<String>
    /// The hashes of photos in Recently Deleted: an import would bring them back, which a backup
    /// should not do for a photo the person deleted on purpose.
    public var deleted: Set<String>

    /// Known files: `present` and `deleted` hashes (lowercase hex).
    public init(present: Set<String> = [], deleted: Set<String> = []) {
        self.present = present
        self.deleted = deleted
    }

    /// Whether an import of the bytes with this hash would add nothing new.
    public func contains(_ contentHash: String) -> Bool {
        present.contains(contentHash) || deleted.contains(contentHash)
    }
}
