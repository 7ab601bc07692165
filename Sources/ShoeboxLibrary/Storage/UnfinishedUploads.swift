import Foundation

/// What a blob store that writes large blobs in parts offers the doctor: the parts of uploads
/// that were started and never finished, which only the store can see and remove (object
/// storage's multipart uploads). Asked for with ``BlobStore/unfinishedUploads``.
protocol UnfinishedUploads: Sendable {
    /// The uploads started more than `age` seconds ago and never completed.
    func staleUploads(olderThan age: TimeInterval) async throws(LibraryError) -> [S3Client.Upload]
    /// Removes an unfinished upload's parts.
    func abandon(_ upload: S3Client.Upload) async throws(LibraryError)
}

extension BlobStore {
    /// The store's unfinished uploads, when it makes any (``UnfinishedUploads``); `nil` for files
    /// in the library folder, which are written whole.
    var unfinishedUploads: (any UnfinishedUploads)? { self as? any UnfinishedUploads }
}
