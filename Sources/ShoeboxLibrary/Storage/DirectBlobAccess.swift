import AsyncHTTPClient
import Foundation

/// What a blob store whose bytes live where browsers can fetch them offers besides the
/// ``BlobStore`` requirements (object storage: presigned URLs, ranged reads, a bucket that
/// derivatives are mirrored to). The library asks a store for it (``BlobStore/directAccess``)
/// instead of asking which store it is, so a store of another kind that can hand out URLs
/// offers the same by conforming.
protocol DirectBlobAccess: Sendable {
    /// The origin direct URLs point at (for a page's Content-Security-Policy).
    var directURLOrigin: String { get }
    /// A URL that reads `key` without credentials for a window (see ``PhotoLibrary/directURL(for:downloadName:)``).
    func presignedURL(for key: BlobKey, contentType: String?, downloadName: String?) -> URL
    /// The blob's bytes (or `range` of them) as they arrive, with their length when the store says it.
    func download(_ key: BlobKey, range: ClosedRange<Int>?) async throws(LibraryError) -> (length: Int?, body: HTTPClientResponse.Body)
    /// Where derivatives made in this process are copied so that browsers can fetch them too.
    func derivativeMirror() -> DerivativeMirror
}

extension BlobStore {
    /// The store's direct access, when it has one (``DirectBlobAccess``); `nil` for files in
    /// the library folder.
    var directAccess: (any DirectBlobAccess)? { self as? any DirectBlobAccess }
    /// Whether the bytes live away from this machine, where each transfer mostly waits.
    var isRemote: Bool { directAccess != nil }
}
