import Foundation
import ShoeboxSupport

/// What a blob store on a local file system offers resumable uploads: one file per upload that
/// every piece is written into at its offset as it arrives (``UploadPieceWriter``), instead of a
/// stored object per piece that the finish reads back and puts together. The finish then links
/// that file into the library's staging: the bytes are written once. Asked for with
/// ``BlobStore/uploadFilesInPlace``; object storage has no such file and stores pieces.
protocol UploadFilesInPlace: Sendable {
    /// The file upload `upload`'s pieces are written into (its folder made when missing).
    /// Blocks: call it on the blocking pool.
    func uploadFile(_ upload: String) throws(LibraryError) -> URL
    /// Where that file is, without looking at the disk.
    func uploadFilePath(_ upload: String) -> URL
}

extension BlobStore {
    /// The store's in-place upload files, when it keeps them (``UploadFilesInPlace``); `nil` for
    /// a bucket.
    var uploadFilesInPlace: (any UploadFilesInPlace)? { self as? any UploadFilesInPlace }
}

extension FileBlobStore: UploadFilesInPlace {
    /// The piece name of bytes written into ``uploadFile(_:)`` (``UploadRecord/Piece/name``).
    static let inPlacePieceName = "data"

    func uploadFile(_ upload: String) throws(LibraryError) -> URL {
        BlockingCheck.note("creating an upload's folder")
        let folder = uploadFolder(upload)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storage("cannot create \(folder.path): \(error)", underlying: error)
        }
        return folder.appendingPathComponent(Self.inPlacePieceName)
    }

    func uploadFilePath(_ upload: String) -> URL {
        uploadFolder(upload).appendingPathComponent(Self.inPlacePieceName)
    }
}
