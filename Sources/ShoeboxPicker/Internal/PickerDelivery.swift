import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia

/// Turns picked items into what the client receives: copies in the session's folder, square
/// crops, trimmed and transcoded movies, conversions for `.compatible`, and captures saved to the
/// library when asked. The library's own files are only ever read.
struct PickerDelivery: Sendable {
    enum Item: Sendable {
        case asset(Asset)
        case capture(CapturedMedia)
    }

    let request: PickerRequest
    let library: PhotoLibrary?
    let images: ImageManager?
    let folder: URL

    /// Image types every reader takes; `.compatible` turns the others into JPEG.
    static let compatibleImageTypes: Set<String> = ["public.jpeg", "public.png"]

    func deliver(_ items: [Item], edits: [String: PickerEdit], progress: @escaping @Sendable (Double) -> Void) async throws(PickerError)
        -> [ImagePickerController.Info]
    {
        try await prepareFolder()
        var infos: [ImagePickerController.Info] = []
        for (index, item) in items.enumerated() {
            let share = 1 / Double(max(items.count, 1))
            let report: @Sendable (Double) -> Void = { fraction in progress((Double(index) + fraction) * share) }
            switch item {
            case .asset(let asset):
                infos.append(try await deliver(asset, edit: edits[asset.localIdentifier], progress: report))
            case .capture(let capture):
                infos.append(try await deliver(capture, edit: edits[capture.id], progress: report))
            }
            progress(Double(index + 1) * share)
        }
        return infos
    }

    private func prepareFolder() async throws(PickerError) {
        let folder = folder
        do {
            // Private to this user: picked copies and captures are the user's photos.
            try await BlockingPool.shared.run {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw PickerError(.deliveryFailed, "cannot make \(folder.path): \(error.localizedDescription)", underlying: error)
        }
    }

    /// A file name in the folder that is not taken yet: `NAME.ext`, `NAME-2.ext`, …
    func uniqueURL(_ name: String) async -> URL {
        let folder = folder
        return await BlockingPool.shared.run {
            let base = (name as NSString).deletingPathExtension.replacingOccurrences(of: "/", with: "_")
            let ext = (name as NSString).pathExtension
            var candidate = folder.appendingPathComponent(name.replacingOccurrences(of: "/", with: "_"))
            var counter = 2
            while FileManager.default.fileExists(atPath: candidate.path) {
                candidate = folder.appendingPathComponent("\(base)-\(counter)" + (ext.isEmpty ? "" : ".\(ext)"))
                counter += 1
            }
            return candidate
        }
    }

    /// Copies on the blocking pool: a picked movie may be gigabytes, and under `shoebox serve`
    /// this task runs on an event loop.
    private func copy(_ source: URL, to destination: URL) async throws(PickerError) {
        do {
            try await BlockingPool.shared.run { try FileManager.default.copyItem(at: source, to: destination) }
        } catch {
            throw PickerError(.deliveryFailed, "cannot copy \(source.lastPathComponent): \(error.localizedDescription)", underlying: error)
        }
    }

    // MARK: Library picks

    private func deliver(_ asset: Asset, edit: PickerEdit?, progress: @escaping @Sendable (Double) -> Void) async throws(PickerError)
        -> ImagePickerController.Info
    {
        guard let library else { throw PickerError(.invalidState, "no library") }
        var info: ImagePickerController.Info
        switch asset.mediaType {
        case .image:
            info = ImagePickerController.Info(mediaType: .image)
            let source: URL
            do {
                source = try await library.currentURL(for: asset)
            } catch {
                throw PickerError(.deliveryFailed, "cannot read \(asset.originalFilename): \(error.message)", underlying: error)
            }
            let uti = asset.currentResource.uniformTypeIdentifier
            let stem = (asset.originalFilename as NSString).deletingPathExtension
            let file: URL
            if request.configuration.preferredAssetRepresentationMode == .compatible, !Self.compatibleImageTypes.contains(uti) {
                file = await uniqueURL("\(stem).jpg")
                try await convertToJPEG(source, to: file)
                info.uniformTypeIdentifier = "public.jpeg"
            } else {
                file = await uniqueURL("\(stem).\(UTType.filenameExtension(for: uti))")
                try await copy(source, to: file)
                info.uniformTypeIdentifier = uti
            }
            try await finishImage(&info, file: file, edit: edit, stem: stem)
            if asset.isLivePhoto { info.livePhotoVideoURL = try await deliverMotion(of: asset, stem: stem) }
        case .video:
            info = ImagePickerController.Info(mediaType: .movie)
            let playable = try await playableSource(for: asset)
            try await finishMovie(
                &info, source: playable.url, sourceType: playable.uniformTypeIdentifier, duration: asset.duration,
                edit: edit, stem: (asset.originalFilename as NSString).deletingPathExtension, progress: progress)
        }
        info.asset = asset
        info.referenceURL = ImagePickerController.referenceURL(for: asset)
        return info
    }

    /// A copy of a Live Photo's movie: as stored for `.current`, else the file browsers play (the
    /// stored movie, or its MP4 rendition).
    private func deliverMotion(of asset: Asset, stem: String) async throws(PickerError) -> URL {
        guard let library, let resource = asset.resources.first(where: { $0.type == .pairedVideo }) else {
            throw PickerError(.invalidState, "no library")
        }
        let source: URL
        var type = resource.uniformTypeIdentifier
        do {
            if request.configuration.preferredAssetRepresentationMode == .current {
                source = try await library.fileURL(for: resource)
            } else {
                let stored = try await library.fileURL(for: resource)
                source = try await (images ?? ImageManager(library: library)).requestVideoURL(for: asset)
                if source != stored { type = "public.mpeg-4" }
            }
        } catch {
            throw PickerError(.deliveryFailed, "cannot read the movie of the Live Photo \(asset.originalFilename): \(error.message)", underlying: error)
        }
        let file = await uniqueURL("\(stem).\(UTType.filenameExtension(for: type))")
        try await copy(source, to: file)
        return file
    }

    /// The movie file to start from: as stored for `.current`; else the stored file when the
    /// browser plays it, or its MP4 playback rendition.
    private func playableSource(for asset: Asset) async throws(PickerError) -> (url: URL, uniformTypeIdentifier: String) {
        guard let library else { throw PickerError(.invalidState, "no library") }
        let stored: URL
        do {
            stored = try await library.currentURL(for: asset)
        } catch {
            throw PickerError(.deliveryFailed, "cannot read \(asset.originalFilename): \(error.message)", underlying: error)
        }
        let storedType = asset.currentResource.uniformTypeIdentifier
        if request.configuration.preferredAssetRepresentationMode == .current { return (stored, storedType) }
        do {
            let url = try await (images ?? ImageManager(library: library)).requestVideoURL(for: asset)
            return (url, url == stored ? storedType : "public.mpeg-4")
        } catch {
            throw PickerError(.deliveryFailed, "cannot make a playable copy of \(asset.originalFilename): \(error.message)", underlying: error)
        }
    }

    // MARK: Captures

    private func deliver(_ capture: CapturedMedia, edit: PickerEdit?, progress: @escaping @Sendable (Double) -> Void) async throws(PickerError)
        -> ImagePickerController.Info
    {
        var info = ImagePickerController.Info(mediaType: capture.mediaType)
        let stem = capture.id
        switch capture.mediaType {
        case .image:
            info.mediaMetadata = capture.metadata
            var file = capture.fileURL
            info.uniformTypeIdentifier = capture.uniformTypeIdentifier
            if request.configuration.preferredAssetRepresentationMode == .compatible, !Self.compatibleImageTypes.contains(capture.uniformTypeIdentifier) {
                file = await uniqueURL("\(stem)-compatible.jpg")
                try await convertToJPEG(capture.fileURL, to: file)
                info.uniformTypeIdentifier = "public.jpeg"
            }
            try await finishImage(&info, file: file, edit: edit, stem: stem)
            if request.savesCapturedMedia {
                info.savedAssetIdentifier = try await save(capture, crop: info.cropRect.map { NormalizedRect(pixel: $0, in: capture.pixelSize) })
            }
        case .movie:
            // Recordings are delivered at videoQuality, as UIImagePickerController records them.
            try await finishMovie(
                &info, source: capture.fileURL, sourceType: capture.uniformTypeIdentifier, duration: capture.duration ?? 0,
                edit: edit, stem: stem, forceTranscode: true, progress: progress)
            if request.savesCapturedMedia {
                let trim = edit?.trim.map { Adjustments.Trim(start: $0.lowerBound, end: $0.upperBound) }
                info.savedAssetIdentifier = try await save(capture, trim: trim)
            }
        }
        return info
    }

    /// Saves a capture's original to the library; a crop or trim becomes the asset's edit, so
    /// the original capture is kept and the edit can be reverted.
    private func save(_ capture: CapturedMedia, crop: NormalizedRect? = nil, trim: Adjustments.Trim? = nil) async throws(PickerError) -> String {
        guard let library else { throw PickerError(.invalidState, "there is no library to save captures to") }
        do {
            let result = try await library.performChanges {
                let request = AssetChangeRequest.creationRequestForAsset(fromFileAt: capture.fileURL)
                request.creatorClient = self.request.clientIdentifier
            }
            let identifier = result.created[0].localIdentifier
            let adjustments = Adjustments(crop: crop, trim: trim)
            if !adjustments.isIdentity, let asset = try await library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject {
                _ = try await library.applyAdjustments(adjustments, to: asset)
            }
            return identifier
        } catch let error as LibraryError {
            throw PickerError(.library, "cannot save the capture: \(error.message)", underlying: error)
        } catch {
            throw PickerError(.library, "cannot save the capture: \(error)", underlying: error)
        }
    }

    // MARK: Images

    private func convertToJPEG(_ source: URL, to destination: URL) async throws(PickerError) {
        do {
            try await BlockingPool.shared.run {
                try Image(contentsOf: source).write(to: destination, format: .jpeg, options: ImageEncodingOptions(quality: 0.92, keepsMetadata: true))
            }
        } catch {
            throw PickerError(.deliveryFailed, "cannot convert \(source.lastPathComponent) to JPEG: \(Self.message(error))", underlying: error)
        }
    }

    /// An imaging error's sentence, else the error as text.
    private static func message(_ error: any Error) -> String {
        (error as? ImageError)?.message ?? "\(error)"
    }

    /// Opens the delivered image and, with editing, makes the square crop (the user's, or the
    /// largest centred square) at most `maximumEditedImagePixelSize` on a side.
    /// (libvips's reads, crop and encode run on the blocking pool.)
    private func finishImage(_ info: inout ImagePickerController.Info, file: URL, edit: PickerEdit?, stem: String) async throws(PickerError) {
        let original: Image
        do {
            original = try await BlockingPool.shared.run { try Image(contentsOf: file) }
        } catch {
            throw PickerError(.deliveryFailed, "cannot open the picked image \(file.lastPathComponent): \(Self.message(error))", underlying: error)
        }
        info.originalImage = original
        info.imageURL = file
        guard request.allowsEditing else { return }
        let rect = edit?.cropRect ?? Self.centredSquare(in: original.pixelSize)
        let editedFile = await uniqueURL("\(stem)-edited.jpg")
        let maximum = request.maximumEditedImagePixelSize
        do {
            info.editedImage = try await BlockingPool.shared.run {
                let edited = try original.croppingToSquare(rect, maximumPixelSize: maximum)
                try edited.write(to: editedFile, format: .jpeg, options: ImageEncodingOptions(quality: 0.92, keepsMetadata: false))
                return try Image(contentsOf: editedFile)
            }
            info.editedImageURL = editedFile
            info.cropRect = rect
        } catch {
            throw PickerError(.deliveryFailed, "cannot crop \(file.lastPathComponent) to \(rect): \(Self.message(error))", underlying: error)
        }
    }

    /// The largest square in the middle of `size`: the crop editor's starting point.
    static func centredSquare(in size: PixelSize) -> PixelRect {
        let side = min(size.width, size.height)
        return PixelRect(x: (size.width - side) / 2, y: (size.height - side) / 2, width: side, height: side)
    }

    // MARK: Movies

    /// Delivers a movie: with editing (or when longer than the maximum) trimmed to the user's
    /// range — or the first `videoMaximumDuration` seconds — and transcoded to `videoQuality`;
    /// otherwise a copy (converted to H.264 MP4 for `.compatible` when needed).
    private func finishMovie(
        _ info: inout ImagePickerController.Info, source: URL, sourceType: String, duration: Double, edit: PickerEdit?,
        stem: String, forceTranscode: Bool = false, progress: @escaping @Sendable (Double) -> Void
    ) async throws(PickerError) {
        let maximum = request.videoMaximumDuration
        let needsTrim = request.allowsEditing || duration > maximum + 0.001
        let movie: Movie
        do {
            movie = try await Movie(contentsOf: source)
        } catch {
            throw PickerError(.deliveryFailed, "cannot read the movie \(source.lastPathComponent): \(error.message)", underlying: error)
        }
        var export: MovieExport?
        var destination = source
        if needsTrim {
            let range = edit?.trim ?? 0..<min(duration > 0 ? duration : movie.info.duration, maximum)
            destination = await uniqueURL("\(stem)-trimmed.mp4")
            export = movie.trimming(range, to: destination, maximumDuration: maximum, quality: request.videoQuality)
        } else if forceTranscode || (request.configuration.preferredAssetRepresentationMode == .compatible && !Movie.playsInBrowsers(movie.info)) {
            destination = await uniqueURL("\(stem).mp4")
            export = movie.transcoding(to: destination, quality: forceTranscode ? request.videoQuality : .typeHigh)
        }
        if let export {
            do {
                let result = try await export.run { progress($0.fractionCompleted) }
                info.mediaURL = result.url
                info.duration = result.info.duration
                info.uniformTypeIdentifier = "public.mpeg-4"
            } catch {
                throw PickerError(.deliveryFailed, "cannot \(needsTrim ? "trim" : "convert") \(source.lastPathComponent): \(error.message)")
            }
        } else {
            let ext = UTType.filenameExtension(for: sourceType)
            let file = await uniqueURL("\(stem).\(ext)")
            try await copy(source, to: file)
            info.mediaURL = file
            info.duration = movie.info.duration
            info.uniformTypeIdentifier = sourceType
        }
    }
}

extension NormalizedRect {
    /// `rect` in unit coordinates of an image of `size`.
    init(pixel rect: PixelRect, in size: PixelSize) {
        self.init(
            x: Double(rect.x) / Double(size.width), y: Double(rect.y) / Double(size.height),
            width: Double(rect.width) / Double(size.width), height: Double(rect.height) / Double(size.height))
    }
}
