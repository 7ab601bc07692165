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

/// A staged blob filed under its hash, held until its change ends.
struct CommittedBlob: Sendable {
    let contentHash: String
    let kind: BlobKind
    /// Whether this change put the file there (else an identical one was there already).
    let isNew: Bool
    /// The staged file's exclusive lock (new files) or a shared lock on the one already there,
    /// so that a change that fails and takes back its new file never takes one another change
    /// is about to use: that change waits at `commit` until this one ends.
    let lock: FileLock?
}

/// A blob the store holds, as `doctor` sees it.
struct StoredBlob: Sendable {
    let url: URL
    /// The SHA-256 the blob is filed under; `nil` for a file that is not named like a blob.
    let hash: String?
    /// Whether another process is writing it right now.
    let isBusy: Bool
}

/// The bytes of a library: originals and renders, content-addressed by SHA-256. Files on disk
/// (``FileBlobStore``) by default; the rest of the library talks only to this protocol, so an
/// object store can stand in for it. Reads go through local file URLs (a remote store would keep
/// a local cache).
///
/// Blobs are written once: staged while hashed, flushed, then committed under their hash. A crash
/// leaves either no blob or a whole one.
protocol BlobStore: Sendable {
    /// Creates whatever the store needs (folders, buckets).
    func prepare() throws
    /// Copies `source` into staging while hashing it, then flushes it.
    func stage(copying source: URL) throws(LibraryError) -> StagedBlob
    /// Writes `data` into staging and hashes it.
    func stage(data: Data, name: String) throws(LibraryError) -> StagedBlob
    /// Files a staged blob under its hash; an identical blob already there wins and the staged
    /// copy is dropped. Waits while another change that placed that identical blob is in flight.
    func commit(_ staged: StagedBlob, as kind: BlobKind) throws(LibraryError) -> CommittedBlob
    /// Takes back what a change that failed had filed: new blobs that nothing refers to.
    func rollBack(_ committed: CommittedBlob)
    /// Drops a staged blob that will not be kept.
    func discard(_ staged: StagedBlob)
    /// A local file holding the blob (it may not exist, if the blob is missing).
    func fileURL(forHash hash: String, kind: BlobKind) -> URL
    /// Removes a committed blob. Callers make sure nothing refers to it.
    func remove(hash: String, kind: BlobKind)
    /// Everything filed under `kind`, for `doctor`.
    func storedBlobs(_ kind: BlobKind) -> [StoredBlob]
    /// Staged files no running change holds: leftovers of a crash.
    func stagingLeftovers() -> [URL]
    /// Removes a staging leftover. Returns whether it is gone.
    func removeLeftover(_ url: URL) -> Bool
    /// Moves a blob that cannot be adopted out of the way, keeping its bytes. Returns where.
    func quarantine(_ url: URL) throws(LibraryError) -> URL
}
