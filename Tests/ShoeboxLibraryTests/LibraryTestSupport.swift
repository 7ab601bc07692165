import Foundation
import ShoeboxImaging
import ShoeboxTesting

@testable import ShoeboxLibrary

let corpus = Corpus.locate()
let corpusMissing = "the shared corpus (../shared/corpus or $SHOEBOX_CORPUS) is absent"

extension TemporaryLibrary {
    /// Puts `file`'s bytes in the store under `key` behind the library's back, as a crash after
    /// filing a blob (or a hand on the files) would leave them; replaces bytes already there.
    func plant(_ file: URL, as key: BlobKey) async throws {
        switch library.blobs {
        case let files as FileBlobStore:
            let destination = files.fileURL(for: key)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.copyItem(at: file, to: destination)
        case let s3 as S3BlobStore:
            try await s3.client.putObject(s3.objectKey(key), data: try Data(contentsOf: file))
            s3.cache.remove(key)
        default:
            throw ChildProcess.Failure("unknown blob store \(library.blobs.location)")
        }
    }

    /// Replaces a stored blob's bytes behind the library's back (damage).
    func tamper(_ key: BlobKey, with data: Data) async throws {
        let file = folder.appendingPathComponent("tampered-\(UUID().uuidString)")
        try data.write(to: file)
        try await plant(file, as: key)
    }

}

extension PhotoLibrary {
    /// Whether the library's blob store holds the asset's original (asked of the store itself:
    /// files, or S3 by HEAD).
    func storesOriginal(of asset: Asset) async throws -> Bool {
        try await blobs.contains(BlobKey(kind: .original, hash: asset.contentHash))
    }
}
