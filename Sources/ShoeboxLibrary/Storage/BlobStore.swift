import Foundation

/// Where a blob belongs.
enum BlobKind: String, Sendable, CaseIterable {
    /// Imported bytes, never modified.
    case original
    /// The full-size result of an edit (an asset's current version).
    case render
}

/// A file copied into the store's staging area, hashed and flushed, waiting for its change to
/// commit.
struct StagedBlob: Sendable {
    let url: URL
    let contentHash: String
    let size: Int
    /// Held until the change commits or fails, so `doctor` can tell an import in flight from a
    /// crash's leftover.
    let lock: FileLock?
}

/// A blob the store holds, as `doctor` sees it.
struct StoredBlob: Sendable {
    let url: URL
    /// The SHA-256 the blob is filed under; `nil` for a file that is not named like a blob.
    let hash: String?
}

/// The bytes of a library: originals and renders, content-addressed by SHA-256. Files on disk
/// (``FileBlobStore``) by default; the rest of the library talks only to this protocol, so an
/// object store can stand in for it. Reads go through local file URLs (a remote store would keep
/// a local cache).
///
/// Blobs are written once: staged while hashed, flushed, then placed under their hash. A crash
/// leaves either no blob or a whole one. The store decides nothing about what may be removed:
/// the catalog does, in the transactions that claim blobs and mark them for removal (see
/// ``CatalogStore/claim(_:claimID:owner:expires:remove:)``).
protocol BlobStore: Sendable {
    /// Creates whatever the store needs (folders, buckets).
    func prepare() throws
    /// Copies `source` into staging while hashing it, then flushes it.
    func stage(copying source: URL) throws(LibraryError) -> StagedBlob
    /// Writes `data` into staging and hashes it.
    func stage(data: Data, name: String) throws(LibraryError) -> StagedBlob
    /// Files a staged blob under its hash, durably, unless an identical blob is there already
    /// (then the staged copy is dropped). The caller holds a claim on the blob. Returns whether
    /// this call placed it.
    func place(_ staged: StagedBlob, as kind: BlobKind) throws(LibraryError) -> Bool
    /// Drops a staged blob that will not be kept.
    func discard(_ staged: StagedBlob)
    /// A local file holding the blob (it may not exist, if the blob is missing).
    func fileURL(forHash hash: String, kind: BlobKind) -> URL
    /// Whether the blob is stored.
    func contains(_ key: BlobKey) -> Bool
    /// Removes a blob (a blob that is not there is removed already). Only the catalog's removal
    /// transactions call it.
    func remove(_ key: BlobKey) throws(LibraryError)
    /// Everything filed under `kind`, for `doctor`.
    func storedBlobs(_ kind: BlobKind) -> [StoredBlob]
    /// Staged files no running change holds: leftovers of a crash.
    func stagingLeftovers() -> [URL]
    /// Removes a staging leftover unless a change took hold of it meanwhile. Returns whether it is gone.
    func removeLeftover(_ url: URL) -> Bool
    /// Moves a blob that cannot be adopted out of the way, keeping its bytes. Returns where.
    func quarantine(_ url: URL) throws(LibraryError) -> URL
}
