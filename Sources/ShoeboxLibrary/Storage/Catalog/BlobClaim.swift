import Foundation

/// One blob a change is about to file.
package struct BlobClaim: Sendable {
    /// The blob the change will file.
    package let key: BlobKey
    /// The record the import would insert (for adoption after a crash); `nil` for renders.
    package let pendingRecord: AssetRecord?

    /// A claim on `key`, with the record to adopt should the import be interrupted.
    package init(key: BlobKey, pendingRecord: AssetRecord?) {
        self.key = key
        self.pendingRecord = pendingRecord
    }

    /// How long a claim holds without its change committing or failing: long enough for the
    /// slowest upload of a blob to object storage.
    package static let lease: TimeInterval = 6 * 3_600

    /// Whether a claim (or a removal) still holds: not expired, and its process not known dead.
    package static func isLive(owner: String, expires: Date, now: Date = Date()) -> Bool {
        guard expires > now else { return false }
        return ProcessIdentity(owner)?.mayBeAlive ?? true
    }
}
