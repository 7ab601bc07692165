import Foundation
import ShoeboxImaging

/// The file a request reads: one version (current or original) of an asset.
struct VersionSource: Sendable {
    /// SHA-256 of the file: derivatives are filed under it, so an edit (a new render, a new hash)
    /// never meets the old version's thumbnails.
    let hash: String
    let url: URL
    let mediaType: Asset.MediaType
    let uniformTypeIdentifier: String
    /// Upright size.
    let pixelSize: PixelSize
    let duration: Double
}

extension PhotoLibrary {
    /// The file of `asset`'s current version, or of its original.
    func versionSource(of asset: Asset, original: Bool) async throws(LibraryError) -> VersionSource {
        if !original, let render = asset.render {
            return VersionSource(
                hash: render.hash, url: try await blobs.localFile(for: BlobKey(kind: .render, hash: render.hash)), mediaType: asset.mediaType,
                uniformTypeIdentifier: render.uniformTypeIdentifier,
                pixelSize: PixelSize(width: asset.pixelWidth, height: asset.pixelHeight), duration: asset.duration)
        }
        let url = try await originalURL(for: asset)
        var size = PixelSize(width: asset.pixelWidth, height: asset.pixelHeight)
        var duration = asset.duration
        if asset.hasAdjustments {
            // The asset's size and length describe the render; the original's are in the file.
            switch asset.mediaType {
            case .image:
                let path = url.path
                do {
                    size = try await Blocking.run { try Image(contentsOfFile: path).pixelSize }
                } catch {
                    throw .renderFailed("cannot read the original of \(asset.localIdentifier): \(error)")
                }
            case .video:
                duration = (try? await catalog.originalDuration(localIdentifier: asset.localIdentifier)) ?? duration
            }
        }
        return VersionSource(hash: asset.contentHash, url: url, mediaType: asset.mediaType,
                             uniformTypeIdentifier: asset.uniformTypeIdentifier, pixelSize: size, duration: duration)
    }
}
