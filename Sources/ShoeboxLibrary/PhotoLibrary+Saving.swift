import Foundation
import ShoeboxImaging

extension PhotoLibrary {
    /// `UIImageWriteToSavedPhotosAlbum`: saves an image to the library, as JPEG (or HEIC when
    /// `format` says so), with `metadata`'s capture date and location when given.
    ///
    /// - Returns: The new asset's identifier (or the existing one's, for identical bytes).
    @discardableResult
    public func saveImage(_ image: Image, metadata: ImageMetadata? = nil, format: ImageFormat = .jpeg,
                          filename: String? = nil) async throws -> String {
        let data: Data
        do {
            data = try image.encoded(as: format, options: ImageEncodingOptions(quality: 0.92))
        } catch {
            throw LibraryError.importFailed(path: filename ?? "image", code: error.code, message: error.message)
        }
        let name = filename ?? "IMG_\(Int(Date().timeIntervalSince1970)).\(format.fileExtension)"
        let result = try await performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(from: data, metadata: metadata, filename: name)
        }
        return result.created[0].localIdentifier
    }

    /// `UISaveVideoAtPathToSavedPhotosAlbum`: copies the movie at `url` into the library.
    ///
    /// - Throws: ``LibraryError/importFailed(path:code:message:)`` when the movie is not one the
    ///   library keeps (see ``isVideoCompatibleWithSavedPhotosAlbum(at:)``).
    @discardableResult
    public func saveVideo(at url: URL) async throws -> String {
        let result = try await performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(fromVideoAt: url)
        }
        return result.created[0].localIdentifier
    }

    /// Purges what has been in Recently Deleted longer than `interval` (30 days by default).
    ///
    /// Call it from time to time (`shoebox purge --expired` and the server do).
    /// - Returns: How many assets were purged.
    @discardableResult
    public func purgeExpiredAssets(olderThan interval: TimeInterval = 30 * 86_400, now: Date = Date()) async throws -> Int {
        let cutoff = now.addingTimeInterval(-interval)
        let trashed = try fetchAssets(with: FetchOptions(predicate: .isTrashed(true), sortDescriptors: [],
                                                         includeHiddenAssets: true, includeTrashedAssets: true))
        let expired = trashed.filter { ($0.trashedDate ?? now) < cutoff }
        guard !expired.isEmpty else { return 0 }
        try await performChanges { AssetChangeRequest.purgeAssets(expired) }
        return expired.count
    }
}
