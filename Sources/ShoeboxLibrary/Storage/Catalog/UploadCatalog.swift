import Foundation

/// Resumable uploads and their pieces.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol UploadCatalog: Sendable {
    /// Stores a new upload as it is (its id must not be in use).
    func addUpload(_ record: UploadRecord) async throws(LibraryError)
    /// The upload with this id, or `nil` when unknown (cancelled, or forgotten after it ended).
    func upload(id: String) async throws(LibraryError) -> UploadRecord?
    /// Uploads not changed since `date` (to expire or forget).
    func uploads(updatedBefore date: Date) async throws(LibraryError) -> [UploadRecord]
    /// How many uploads `owner` (`nil`: the user) has still receiving, and the bytes they declare.
    func receivingUploads(owner: String?) async throws(LibraryError) -> (count: Int, bytes: Int)
    /// Records a stored piece, if it starts where the upload stands and the upload still
    /// receives: the upload after it, or `nil` when it was refused (nothing changed then).
    func addUploadPiece(id: String, piece: UploadRecord.Piece) async throws(LibraryError) -> UploadRecord?
    /// Marks an upload ``UploadRecord/State/complete``, with the asset it became as its
    /// ``UploadRecord/assetIdentifier``.
    func completeUpload(id: String, assetIdentifier: String) async throws(LibraryError)
    /// Forgets an upload (nothing for an unknown id); its pieces in the ``BlobStore`` are the
    /// caller's to remove.
    func removeUpload(id: String) async throws(LibraryError)
    /// Which of these content hashes an import by this store's person would find as theirs
    /// already (their own assets' content or companion hashes and, while they are in it, the
    /// Shared Library's), each with whether that asset is in Recently Deleted.
    func importMatches(contentHashes: [String]) async throws(LibraryError) -> [String: Bool]
}
