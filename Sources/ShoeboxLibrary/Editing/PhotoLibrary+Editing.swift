import Foundation
import ShoeboxImaging
import ShoeboxMedia

extension PhotoLibrary {
    /// What an editor needs to edit `asset` (`PHAsset.requestContentEditingInput(with:)`).
    ///
    /// When the asset has an edit whose adjustment data `options` says it can handle, the input
    /// gives the original file and that data, so the editor can re-apply and continue the edit;
    /// otherwise it gives the current version (with every edit in its pixels) and no data.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` when the asset is gone.
    public func requestContentEditingInput(
        for asset: Asset, options: ContentEditingInputRequestOptions = ContentEditingInputRequestOptions()
    ) async throws(LibraryError) -> ContentEditingInput {
        let current = try await authorizedAsset(asset.localIdentifier, action: "editingInput")
        var adjustmentData: AdjustmentData?
        if let edit = try await catalog.contentEdit(localIdentifier: current.localIdentifier), options.canHandleAdjustmentData(edit.adjustmentData) {
            adjustmentData = edit.adjustmentData
        }
        let url = adjustmentData == nil ? try await currentURL(for: current) : try await originalURL(for: current)
        let type = adjustmentData == nil ? (current.render?.uniformTypeIdentifier ?? current.uniformTypeIdentifier) : current.uniformTypeIdentifier
        var orientation = ImageOrientation.up
        if current.mediaType == .image {
            let path = url.path
            orientation = (try? await BlockingPool.shared.run { try Image(contentsOfFile: path).orientation }) ?? .up
        }
        return ContentEditingInput(
            asset: current,
            fullSizeImageURL: current.mediaType == .image ? url : nil,
            audiovisualAssetURL: current.mediaType == .video ? url : nil,
            adjustmentData: adjustmentData, uniformTypeIdentifier: type,
            fullSizeImageOrientation: orientation, editorClient: clientIdentifier,
            stagingFolder: url.appendingPathComponent("staging"))
    }

    /// `asset`'s edit as the catalog keeps it (its adjustment data, render and the original's
    /// size), or `nil` when it has none.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` when the asset is gone or the caller
    ///   may not read it.
    public func contentEdit(for asset: Asset) async throws(LibraryError) -> ContentEdit? {
        let current = try await authorizedAsset(asset.localIdentifier, action: "contentEdit")
        return try await catalog.contentEdit(localIdentifier: current.localIdentifier)
    }

    /// Renders Shoebox's portable ``Adjustments`` from `asset`'s original into `output`: a JPEG
    /// (EXIF kept, orientation upright) for photos, an MP4 (stream-copied when the cut allows)
    /// for movies. Sets the output's adjustment data.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` for adjustments that do not suit the media
    ///   type; ``LibraryError/Code/renderFailed`` when decoding, encoding or ffmpeg fails.
    public func render(_ adjustments: Adjustments, of asset: Asset, into output: ContentEditingOutput) async throws(LibraryError) {
        try adjustments.validate()
        let original = try await originalURL(for: asset)
        switch asset.mediaType {
        case .image:
            do {
                let image = try await BlockingPool.shared.run { try Image(contentsOfFile: original.path) }
                let data = try await BlockingPool.shared.decode(image, for: .wholeImage) {
                    let rendered = try adjustments.applied(to: image)
                    return try rendered.encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.92, keepsMetadata: true))
                }
                await faults.reach(.duringEditRender)
                let destination = output.renderedContentURL
                try await BlockingPool.shared.run { try data.write(to: destination) }
            } catch let error as LibraryError {
                throw error
            } catch let error as ImageError {
                throw .renderFailed(error.message)
            } catch is CancellationError {
                throw .cancelled
            } catch {
                throw .renderFailed("cannot write \(output.renderedContentURL.path): \(error)", underlying: error)
            }
        case .video:
            guard !adjustments.changesPhotoOnly else {
                throw .invalidArgument("movies take a trim; rotation, flip, straightening, crop, light and filters are for photos")
            }
            let trim = adjustments.trim ?? Adjustments.Trim(start: 0, end: asset.duration)
            do {
                let movie = try await Movie(contentsOf: original)
                await faults.reach(.duringEditRender)
                try? FileManager.default.removeItem(at: output.renderedContentURL)
                _ = try await movie.trimming(trim.start..<Swift.min(trim.end, movie.info.duration), to: output.renderedContentURL).run()
            } catch {
                throw .renderFailed(error.message)
            }
        }
        output.adjustmentData = adjustments.adjustmentData
    }

    /// Edits `asset` in place with Shoebox's portable ``Adjustments``, rendered from the original
    /// (so edits never stack losses), and commits the edit.
    ///
    /// ```swift
    /// let edited = try await library.applyAdjustments(Adjustments(rotation: 90, crop: NormalizedRect(x: 0, y: 0, width: 1, height: 0.5)), to: asset)
    /// edited.hasAdjustments   // true; library.originalURL(for: edited) is untouched
    /// ```
    ///
    /// - Returns: The asset as it is after the edit.
    /// - Throws: ``LibraryError/Code/notEditable`` when this library's client
    ///   did not create the asset (use ``saveModifiedVersion(of:applying:)``); as
    ///   ``render(_:of:into:)``.
    @discardableResult
    public func applyAdjustments(_ adjustments: Adjustments, to asset: Asset) async throws -> Asset {
        guard asset.canPerform(.content, client: clientIdentifier) else {
            throw LibraryError.notEditable(localIdentifier: asset.localIdentifier, client: clientIdentifier)
        }
        let input = try await requestContentEditingInput(for: asset)
        let output = ContentEditingOutput(contentEditingInput: input)
        try await render(adjustments, of: input.asset, into: output)
        try await performChanges {
            AssetChangeRequest(for: input.asset).contentEditingOutput = output
        }
        return try await refreshed(asset)
    }

    /// Drops `asset`'s edit: its current version is the original again.
    @discardableResult
    public func revertAssetContentToOriginal(_ asset: Asset) async throws -> Asset {
        try await performChanges {
            AssetChangeRequest(for: asset).revertAssetContentToOriginal()
        }
        return try await refreshed(asset)
    }

    /// Saves `asset` with Shoebox's portable ``Adjustments`` applied as a new asset whose
    /// ``Asset/originalAssetIdentifier`` is `asset`'s: what a client does with an asset it did not
    /// create.
    ///
    /// - Returns: The new asset.
    @discardableResult
    public func saveModifiedVersion(of asset: Asset, applying adjustments: Adjustments) async throws -> Asset {
        let input = try await requestContentEditingInput(for: asset)
        let output = ContentEditingOutput(contentEditingInput: input)
        try await render(adjustments, of: input.asset, into: output)
        let result = try await performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(modifiedVersionOf: input.asset, output: output)
        }
        guard let created = try await catalog.asset(localIdentifier: result.created[0].localIdentifier) else {
            throw LibraryError.notFound(localIdentifier: result.created[0].localIdentifier)
        }
        return created
    }

    /// Renders an edited asset's render again from its original and adjustment data (for
    /// `doctor`, when the render file is missing). Only Shoebox's own format can be re-rendered.
    func rerender(_ asset: Asset) async throws {
        guard let edit = try await catalog.contentEdit(localIdentifier: asset.localIdentifier) else { return }
        let adjustments = try Adjustments(edit.adjustmentData)
        _ = try await applyAdjustments(adjustments, to: asset)
    }

    private func refreshed(_ asset: Asset) async throws(LibraryError) -> Asset {
        guard let current = try await catalog.asset(localIdentifier: asset.localIdentifier) else {
            throw .notFound(localIdentifier: asset.localIdentifier)
        }
        return current
    }
}
