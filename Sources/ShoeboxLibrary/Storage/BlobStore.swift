import Foundation

/// Where a blob belongs.
package enum BlobKind: String, Sendable, CaseIterable {
    /// Imported bytes, never modified.
    case original
    /// The full-size result of an edit (an asset's current version).
    case render
}

/// A blob a store holds, as `doctor` and the sweeper see it.
package struct StoredBlob: Sendable, Hashable {
    /// The blob's key, or `nil` for something in the store that is not named like a blob.
    package let key: BlobKey?
    /// Where it is: a file path, or an object key.
    package let name: String
    /// Its size in bytes, as the store reports it.
    package let size: Int
    /// When it was written, if the store knows.
    package let modified: Date?

    /// A blob as ``BlobStore/list(_:)`` reports it.
    package init(key: BlobKey?, name: String, size: Int, modified: Date?) {
        self.key = key
        self.name = name
        self.size = size
        self.modified = modified
    }
}

/// The bytes of a library: originals and renders, content-addressed by SHA-256 and written once.
///
/// Files in the library folder (``FileBlobStore``) by default. A store only keeps bytes: what may
/// be removed is decided by the ``CatalogStore`` (claims and pending removals), and new bytes
/// always pass through the library's own `staging/` folder, hashed and flushed, before a store
/// files them.
///
/// Every requirement is `async` and must never block the calling thread.
package protocol BlobStore: Sendable {
    /// `files in /path/Photos.shoebox`, `s3://bucket/prefix at https://…`.
    var location: String { get }
    /// Files the bytes of `file` (a flushed local file whose bytes hash to `key.hash`) under
    /// `key`, durably, unless the store holds that blob already. The file is consumed (moved or
    /// removed). Returns whether this call stored the bytes.
    func store(consuming file: URL, size: Int, as key: BlobKey) async throws(LibraryError) -> Bool
    /// A local file holding the blob's bytes, for readers that need a file (libvips, ffmpeg,
    /// HTTP responses). Read only.
    ///
    /// - Throws: ``LibraryError/Code/storage`` when the blob is missing or cannot be fetched.
    func localFile(for key: BlobKey) async throws(LibraryError) -> URL
    /// Whether the store holds the blob.
    func contains(_ key: BlobKey) async throws(LibraryError) -> Bool
    /// The SHA-256 (lowercase hex) of the bytes the store holds for `key`, read from the store
    /// itself and never from a cache (`doctor --deep`), or `nil` when the blob is missing.
    func sha256(of key: BlobKey) async throws(LibraryError) -> String?
    /// Removes a blob (a blob that is not there is removed already). Only the library's removal
    /// path calls it, after the catalog decided.
    func remove(_ key: BlobKey) async throws(LibraryError)
    /// Everything stored under `kind`.
    func list(_ kind: BlobKind) async throws(LibraryError) -> [StoredBlob]
    /// Moves something in the store that cannot be adopted into `folder`, keeping its bytes, and
    /// out of the store. Returns the local file it became.
    func quarantine(_ blob: StoredBlob, into folder: URL) async throws(LibraryError) -> URL

    // MARK: Pieces of resumable uploads (``UploadRecord``)

    /// Keeps a received piece of upload `upload` under `name`, durably, where every server of
    /// the library finds it. The file (`size` bytes that hash to `sha256`) is consumed.
    func storeUploadPiece(consuming file: URL, size: Int, sha256: String, upload: String, name: String) async throws(LibraryError)
    /// Writes a stored piece's bytes to `destination` (created or replaced).
    func fetchUploadPiece(upload: String, name: String, to destination: URL) async throws(LibraryError)
    /// Removes every piece of `upload`, recorded or not (a server may have died between storing
    /// a piece and recording it).
    func removeUploadPieces(upload: String) async throws(LibraryError)
}
