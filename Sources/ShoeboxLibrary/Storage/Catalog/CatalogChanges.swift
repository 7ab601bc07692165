import Foundation

/// One transaction's worth of catalog writes.
package struct CatalogChanges: Sendable {
    /// An album created by the change.
    package struct AlbumCreation: Sendable {
        /// The new album's identifier (the creation's placeholder).
        package let localIdentifier: String
        /// Its name as shown.
        package let title: String
        /// Whether it is a folder, which holds albums and folders rather than assets.
        package let isFolder: Bool
        /// The client making it (`nil`: the user).
        package let creatorClient: String?

        /// An album or folder to create, at the top level.
        package init(localIdentifier: String, title: String, isFolder: Bool, creatorClient: String? = nil) {
            self.localIdentifier = localIdentifier
            self.title = title
            self.isFolder = isFolder
            self.creatorClient = creatorClient
        }
    }

    /// The claim this change holds on the blobs it filed, and how many blobs it claimed.
    package var claimID: String?
    /// How many blobs the change claimed under ``CatalogChanges/claimID``: the commit fails
    /// unless every one is still held.
    package var claimCount = 0
    /// New assets (their `id` is nil; their identifier is the creation's placeholder).
    package var insertions: [AssetRecord] = []
    /// Changes to existing assets' fields and content, applied in order.
    package var updates: [AssetUpdate] = []
    /// Assets to delete for good, if they are still in Recently Deleted.
    package var purges: [String] = []
    /// Albums and folders to create.
    package var albumCreations: [AlbumCreation] = []
    /// Changes to albums, in request order; asset identifiers may be placeholders listed in `aliases`.
    package var albumOperations: [(localIdentifier: String, operations: [AssetCollectionChangeRequest.Operation])] = []
    /// Albums and folders to delete. A deleted folder's albums and folders move up a level;
    /// the assets stay in the library.
    package var albumDeletions: [String] = []
    /// Placeholder identifiers of duplicate creations → the existing assets' (or another
    /// placeholder of this change, for the same bytes twice).
    package var aliases: [String: String] = [:]
    /// Jobs the change calls for, queued in its transaction (per-asset jobs of creations that
    /// turned out duplicates are dropped).
    package var jobs: [BackgroundJob.Request] = []

    /// A change with nothing in it.
    package init() {}

    /// The asset an identifier names once aliases are followed.
    package func resolve(_ identifier: String) -> String {
        var current = identifier
        for _ in 0..<4 {
            guard let next = aliases[current], next != current else { break }
            current = next
        }
        return current
    }
}
