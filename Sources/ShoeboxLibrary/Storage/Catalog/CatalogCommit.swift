import Foundation

/// What a committed change did beyond its requests.
package struct CatalogCommit: Sendable {
    /// Placeholders whose bytes an asset already held → that asset.
    package var duplicates: [String: String] = [:]
    /// Placeholders whose bytes sat in Recently Deleted → the asset, now restored.
    package var restored: [String: String] = [:]
    /// Assets the purges deleted (those no longer trashed were left alone).
    package var purged: [String] = []
    /// Movies that became a Live Photo's paired video (their placeholder, or the identifier of a
    /// movie already in the library, which is gone now) → the Live Photo.
    package var paired: [String: String] = [:]
    /// Blobs marked for removal.
    package var removals: [BlobKey] = []
    /// How many jobs the change queued (or queued again).
    package var queuedJobs = 0

    /// An empty result, which the store fills as the transaction goes.
    package init() {}
}
