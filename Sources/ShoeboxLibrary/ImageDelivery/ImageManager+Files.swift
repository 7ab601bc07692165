import Foundation
import ShoeboxImaging

/// An encoded derivative on disk: what a server sends as a thumbnail without decoding it.
package struct DerivativeFile: Sendable, Hashable {
    /// The JPEG in `derivatives/`. Read it at once: the cache may evict it later.
    package let url: URL
    /// The file's Uniform Type Identifier: `public.jpeg` for a derivative or a movie's poster, the
    /// version's own type when the file is the photo's version itself.
    package let uniformTypeIdentifier: String
    /// The image's size in pixels, or `nil` when the cache does not know it.
    package let pixelSize: PixelSize?
    /// Stable for the same version, size, mode and crop: an entity tag.
    package let entityTag: String
    /// The version's own blob, or a derivative of the version with this hash.
    let origin: Origin

    enum Origin: Sendable, Hashable {
        case blob(BlobKey)
        case derivative(source: String)
    }
}

extension ImageManager {
    /// The derivative file for a request, rendered into the cache if it is not there (coalesced
    /// and bounded like ``requestImage(for:targetSize:contentMode:options:)``). With `.fast`
    /// resizing a cached derivative up to twice the needed size will do. A request for
    /// ``maximumSize`` or without resizing gets the version's own file for photos.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` for a bad target or crop;
    ///   ``LibraryError/Code/notFound``; ``LibraryError/Code/authorization``;
    ///   ``LibraryError/Code/renderFailed``.
    package func requestDerivativeFile(
        for asset: Asset, targetSize: PixelSize, contentMode: ImageContentMode = .aspectFill,
        options: ImageRequestOptions = ImageRequestOptions(deliveryMode: .highQualityFormat)
    ) async throws(LibraryError) -> DerivativeFile {
        do {
            return try await DerivativeStore.$owner.withValue(renderOwner) {
                try await derivativeFile(for: asset, targetSize: targetSize, contentMode: contentMode, options: options)
            }
        } catch {
            throw Self.libraryError(error)
        }
    }

    private func derivativeFile(
        for asset: Asset, targetSize: PixelSize, contentMode: ImageContentMode,
        options: ImageRequestOptions
    ) async throws(LibraryError) -> DerivativeFile {
        let plan = try await plan(for: asset, targetSize: targetSize, contentMode: contentMode, options: options)
        do {
            guard let spec = plan.spec else {
                if plan.source.mediaType == .image {
                    return DerivativeFile(
                        url: try await plan.source.file(), uniformTypeIdentifier: plan.source.uniformTypeIdentifier,
                        pixelSize: plan.source.pixelSize, entityTag: plan.source.hash, origin: .blob(plan.source.key))
                }
                let poster = try await DerivativeRenderer.poster(of: plan.source, in: store)
                return DerivativeFile(
                    url: poster.url, uniformTypeIdentifier: "public.jpeg", pixelSize: poster.pixelSize,
                    entityTag: plan.source.hash + "-poster", origin: .derivative(source: plan.source.hash))
            }
            let file: CachedDerivative
            if options.resizeMode == .fast, let covering = coveringDerivative(plan) {
                file = covering
            } else {
                file = try await DerivativeRenderer.derivative(spec, of: plan.source, in: store, progress: options.progressHandler)
            }
            return DerivativeFile(
                url: file.url, uniformTypeIdentifier: "public.jpeg", pixelSize: file.pixelSize,
                entityTag: plan.source.hash + "-" + file.key + "-" + file.url.lastPathComponent,
                origin: .derivative(source: plan.source.hash))
        } catch {
            throw Self.libraryError(error)
        }
    }
}
