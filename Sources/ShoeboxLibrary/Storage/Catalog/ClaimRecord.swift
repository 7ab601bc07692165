import Foundation

/// A claim as the catalog holds it.
package struct ClaimRecord: Sendable {
    /// The claim's row id in the catalog.
    package let id: Int64
    /// The change it belongs to (``CatalogChanges/claimID``): a change's claims share it.
    package let claimID: String
    /// The claimed blob.
    package let key: BlobKey
    /// The claiming process, as `host/pid/start`: a claim of a process known dead is stale at once.
    package let owner: String
    /// When the claim lapses if its change neither commits nor fails (``BlobClaim/lease`` after
    /// an import claims it).
    package let expires: Date
    /// The asset the import would insert, for adoption after a crash
    /// (``BlobClaimCatalog/settleStaleClaim(_:adopt:)``); `nil` for renders.
    package let pendingRecord: AssetRecord?

    /// A claim as ``BlobClaimCatalog/blobClaims()`` returns it.
    package init(id: Int64, claimID: String, key: BlobKey, owner: String, expires: Date, pendingRecord: AssetRecord?) {
        self.id = id
        self.claimID = claimID
        self.key = key
        self.owner = owner
        self.expires = expires
        self.pendingRecord = pendingRecord
    }

    /// Whether the claim still holds now: not expired, and its owner not known dead
    /// (``BlobClaim/isLive(owner:expires:now:)``).
    package var isLive: Bool { BlobClaim.isLive(owner: owner, expires: expires) }
}
