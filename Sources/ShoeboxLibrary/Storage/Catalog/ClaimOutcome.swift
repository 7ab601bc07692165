import Foundation

/// What ``BlobClaimCatalog/claim(_:claimID:owner:expires:)`` did.
package enum ClaimOutcome: Sendable, Hashable {
    /// The blobs are claimed.
    case claimed
    /// Another process is removing one of them right now: nothing was claimed; try again shortly.
    case busy(BlobKey)
}
