import Foundation

/// Blobs in flight: the claims and removals that keep a blob's bytes and the catalog's rows
/// in step across processes (the blob-safety rules of ``CatalogStore``).
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol BlobClaimCatalog: Sendable {
    /// Claims blobs for a change, in one transaction: a claim cancels a removal that is only
    /// pending (the bytes are wanted again). Answers ``ClaimOutcome/busy`` (and claims nothing)
    /// while another process is removing one of the blobs; the caller waits and tries again.
    func claim(_ claims: [BlobClaim], claimID: String, owner: String, expires: Date) async throws(LibraryError) -> ClaimOutcome
    /// Drops a change's claims (it failed or ended; `nil`: none) and marks for removal those of
    /// `candidates` no asset refers to and no other live claim holds. Returns the blobs marked.
    func releaseClaims(_ claimID: String?, candidates: [BlobKey]) async throws(LibraryError) -> [BlobKey]
    /// Blobs marked for removal.
    func pendingRemovals() async throws(LibraryError) -> [BlobKey]
    /// Takes a pending removal for `remover` until `expires` (unless another live remover holds
    /// it, or a claim cancelled it). Returns whether the caller may now remove the blob.
    func beginRemoval(of key: BlobKey, remover: String, expires: Date) async throws(LibraryError) -> Bool
    /// Ends a removal `remover` began: `removed` deletes the mark; otherwise the removal goes
    /// back to pending, for a later try.
    func finishRemoval(of key: BlobKey, remover: String, removed: Bool) async throws(LibraryError)
    /// Every claim, live or not.
    func blobClaims() async throws(LibraryError) -> [ClaimRecord]
    /// Settles a stale claim (its process died or it expired): with `adopt` and a pending record
    /// whose blob no asset refers to, inserts that record (the import a crash interrupted) and
    /// returns its identifier. The claim is deleted either way; an unreferenced render it held is
    /// marked for removal (returned). Originals are never marked here.
    func settleStaleClaim(_ record: ClaimRecord, adopt: Bool) async throws(LibraryError) -> (adopted: String?, removals: [BlobKey])
}
