import Foundation
import ShoeboxImaging

/// The bytes a request reads: one version (current or original) of an asset. Its file is
/// fetched only when something must decode it (``file()``): a thumbnail already made, here or on
/// another server (derivatives in object storage), never downloads the original.
struct VersionSource: Sendable {
    /// SHA-256 of the file: derivatives are filed under it, so an edit (a new render, a new hash)
    /// never meets the old version's thumbnails.
    var hash: String { key.hash }
    /// The blob holding the version.
    let key: BlobKey
    let blobs: any BlobStore
    let mediaType: Asset.MediaType
    let uniformTypeIdentifier: String
    /// Upright size.
    let pixelSize: PixelSize
    let duration: Double

    /// A local file with the version's bytes (from object storage through the read cache).
    func file() async throws(LibraryError) -> URL {
        try await blobs.localFile(for: key)
    }
}

extension PhotoLibrary {
    /// The file of `asset`'s current version, or of its original.
    func versionSource(of asset: Asset, original: Bool) async throws(LibraryError) -> VersionSource {
        if !original, let render = asset.render {
            return VersionSource(
                key: BlobKey(kind: .render, hash: render.hash), blobs: blobs, mediaType: asset.mediaType,
                uniformTypeIdentifier: render.uniformTypeIdentifier,
                pixelSize: PixelSize(width: asset.pixelWidth, height: asset.pixelHeight), duration: asset.duration)
        }
        var size = PixelSize(width: asset.pixelWidth, height: asset.pixelHeight)
        var duration = asset.duration
        if asset.hasAdjustments {
            // The asset's size and length describe the render; the original's are in the file.
            switch asset.mediaType {
            case .image:
                let path = try await originalURL(for: asset).path
                do {
                    size = try await BlockingPool.shared.run { try Image(contentsOfFile: path).pixelSize }
                } catch {
                    throw .renderFailed("cannot read the original of \(asset.localIdentifier): \(error)", underlying: error)
                }
            case .video:
                duration = (try? await catalog.originalDuration(localIdentifier: asset.localIdentifier)) ?? duration
            }
        }
        return VersionSource(
            key: BlobKey(kind: .original, hash: asset.contentHash), blobs: blobs, mediaType: asset.mediaType,
            uniformTypeIdentifier: asset.uniformTypeIdentifier, pixelSize: size, duration: duration)
    }

    /// The movie of a Live Photo (its paired video, never edited), or `nil` for any other asset.
    func motionSource(of asset: Asset) -> VersionSource? {
        guard asset.mediaType == .image, let motion = asset.companion, motion.type == .pairedVideo else { return nil }
        return VersionSource(
            key: BlobKey(kind: .original, hash: motion.hash), blobs: blobs, mediaType: .video,
            uniformTypeIdentifier: motion.uniformTypeIdentifier,
            pixelSize: PixelSize(width: asset.pixelWidth, height: asset.pixelHeight), duration: 0)
    }
}
