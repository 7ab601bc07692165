import Foundation
import ShoeboxImaging
import ShoeboxMedia

/// Reading an original's metadata again (the `metadata` job): after a version of Shoebox that
/// reads more of what cameras write, or a restore from another tool, the catalog catches up with
/// the files. A date or place the user set stays theirs.
extension PhotoLibrary {
    /// Queues a `metadata` job for each asset named (every asset, trashed ones included, when
    /// `localIdentifiers` is `nil`).
    ///
    /// - Returns: How many jobs were queued (one already queued for an asset is not queued twice).
    @discardableResult
    public func enqueueMetadataReread(of localIdentifiers: [String]? = nil) async throws(LibraryError) -> Int {
        var subjects: [String] = []
        if let localIdentifiers {
            let found = try await catalog.assets(localIdentifiers: localIdentifiers)
            if let missing = localIdentifiers.first(where: { found[$0] == nil }) { throw .notFound(localIdentifier: missing) }
            subjects = localIdentifiers
        } else {
            var after: Asset?
            let options = FetchOptions(sortDescriptors: [], includeHiddenAssets: true, includeTrashedAssets: true, includeAllBurstAssets: true)
            while true {
                let page = try await fetchAssetPage(with: options, after: after, limit: 2_000).assets
                guard let last = page.last else { break }
                subjects += page.map(\.localIdentifier)
                after = last
            }
        }
        var queued = 0
        for start in stride(from: 0, to: subjects.count, by: 500) {
            queued += try await catalog.enqueue(subjects[start..<min(start + 500, subjects.count)].map { .init(kind: .metadata, subject: $0) })
        }
        return queued
    }

    /// Reads `asset`'s original again and writes what it says to the catalog (one change, which
    /// observers hear of as an update). Nothing happens for an asset that is gone.
    func rereadMetadata(of localIdentifier: String) async throws(LibraryError) {
        guard let asset = try await catalog.asset(localIdentifier: localIdentifier) else { return }
        let file = try await blobs.localFile(for: BlobKey(kind: .original, hash: asset.contentHash))
        let metadata = try await Self.fileMetadata(
            of: file, isMovie: asset.mediaType == .video, path: asset.originalFilename,
            places: configuration.places)
        var changes = CatalogChanges()
        var update = AssetUpdate(localIdentifier: localIdentifier)
        update.fileMetadata = metadata
        changes.updates = [update]
        do {
            _ = try await catalog.apply(changes, beforeCommit: {})
        } catch let error where error.code == .notFound {
            return  // purged meanwhile
        }
    }

    /// What an original file says, as the catalog keeps it.
    static func fileMetadata(of file: URL, isMovie: Bool, path: String, places: Gazetteer?) async throws(LibraryError) -> AssetUpdate.FileMetadata {
        if isMovie {
            let info: MovieInfo
            do {
                info = try await MovieInfo(contentsOf: file)
            } catch {
                throw .importFailed(path: path, code: LibraryError.Code(rawValue: error.code.rawValue), message: error.message, underlying: error)
            }
            return AssetUpdate.FileMetadata(
                pixelWidth: info.pixelSize.width, pixelHeight: info.pixelSize.height, duration: info.duration, mediaSubtypes: 0,
                captureTime: await captureTime(of: info, places: places), location: location(of: info))
        }
        let image: Image
        do {
            // The header only: libvips decodes pixels when asked for them.
            image = try await BlockingPool.shared.run { () throws(ImageError) -> Image in try Image(contentsOfFile: file.path) }
        } catch {
            let imageError = error as? ImageError
            throw .importFailed(
                path: path, code: imageError.map { LibraryError.Code(rawValue: $0.code.rawValue) } ?? .io,
                message: imageError?.message ?? "\(error)", underlying: error)
        }
        return AssetUpdate.FileMetadata(
            pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight, duration: 0,
            mediaSubtypes: subtypes(format: image.format ?? .jpeg, size: image.pixelSize, metadata: image.metadata).rawValue,
            captureTime: await captureTime(of: image.metadata, places: places), location: location(of: image.metadata),
            camera: .init(image.metadata), burstIdentifier: image.metadata.burstIdentifier, lensModel: image.metadata.lensModel)
    }

    /// When a photo was taken, by its metadata, in the zone it was taken in (``CaptureTime``).
    static func captureTime(of metadata: ImageMetadata, places: Gazetteer?) async -> CaptureTime? {
        guard let recorded = metadata.dateTimeOriginal else { return nil }
        let location = location(of: metadata)
        guard recorded.utcOffset == nil, location != nil, let places else { return CaptureTime(recorded: recorded, location: nil, places: nil) }
        // The place's zone: the first question reads the place table from disk.
        return (try? await BlockingPool.shared.run { CaptureTime(recorded: recorded, location: location, places: places) }) ?? nil
    }

    /// When a movie was recorded, in the zone it was recorded in.
    static func captureTime(of info: MovieInfo, places: Gazetteer?) async -> CaptureTime? {
        guard let instant = info.creationDate else { return nil }
        let location = location(of: info)
        let offset = info.creationTimeZoneOffset
        guard offset == nil, location != nil, let places else {
            return CaptureTime(instant: instant, recordedOffset: offset, location: nil, places: nil)
        }
        return try? await BlockingPool.shared.run { CaptureTime(instant: instant, recordedOffset: nil, location: location, places: places) }
    }

    /// Where a movie was recorded, by its ISO 6709 location.
    static func location(of info: MovieInfo) -> Asset.Location? {
        info.latitude.flatMap { latitude in info.longitude.map { Asset.Location(latitude: latitude, longitude: $0, altitude: info.altitude) } }
    }

    /// Where a photo was taken, by its metadata.
    static func location(of metadata: ImageMetadata) -> Asset.Location? {
        metadata.latitude.flatMap { latitude in metadata.longitude.map { Asset.Location(latitude: latitude, longitude: $0, altitude: metadata.altitude) } }
    }
}
