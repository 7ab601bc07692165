import Foundation
import ShoeboxImaging

extension PhotoLibrary {
    /// `UIImageWriteToSavedPhotosAlbum`: saves an image to the library, as JPEG (or HEIC when
    /// `format` says so). `metadata`, when given, is written into the saved file's EXIF over the
    /// image's own: make, model, lens, software, exposure, ISO, focal length, flash, the capture
    /// date with its UTC offset, and the place; the pixels are stored upright (orientation 1).
    ///
    /// A client whose add-only access is `notDetermined` is asked first, through ``prompter``, as
    /// iOS asks; a client without `NSPhotoLibraryAddUsageDescription` is stopped with a message
    /// naming the key, as iOS stops the app.
    ///
    /// - Returns: The new asset's identifier (or the existing one's, for identical bytes).
    /// - Throws: ``LibraryError/Code/authorization`` when the client may not add (the user said
    ///   no, or nobody could be asked).
    @discardableResult
    public func saveImage(
        _ image: Image, metadata: ImageMetadata? = nil, format: ImageFormat = .jpeg,
        filename: String? = nil
    ) async throws -> String {
        try await requestAddAccessIfUndecided()
        let data: Data
        do {
            data = try await BlockingPool.shared.run {
                let tagged = try metadata.map { try image.writingMetadata(image.metadata.merging($0)) } ?? image
                return try tagged.encoded(as: format, options: ImageEncodingOptions(quality: 0.92))
            }
        } catch let error as ImageError {
            throw LibraryError.importFailed(
                path: filename ?? "image", code: LibraryError.Code(rawValue: error.code.rawValue), message: error.message, underlying: error)
        }
        let name = filename ?? "IMG_\(Int(Date().timeIntervalSince1970)).\(format.fileExtension)"
        let result = try await performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(from: data, metadata: metadata, filename: name)
        }
        return result.created[0].localIdentifier
    }

    /// `UISaveVideoAtPathToSavedPhotosAlbum`: copies the movie at `url` into the library.
    ///
    /// A client is asked first, as ``saveImage(_:metadata:format:filename:)`` says.
    ///
    /// - Throws: an import failure (``LibraryError/Code/unsupportedFormat`` and the like) when the movie is not one the
    ///   library keeps (see ``isVideoCompatibleWithSavedPhotosAlbum(at:)``);
    ///   ``LibraryError/Code/authorization`` when the client may not add.
    @discardableResult
    public func saveVideo(at url: URL) async throws -> String {
        try await requestAddAccessIfUndecided()
        let result = try await performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(fromVideoAt: url)
        }
        return result.created[0].localIdentifier
    }

    /// Asks the user for this library's client's add-only access when it is undecided (read-write
    /// access, which includes adding, counts as decided). A missing usage description stops the
    /// process, naming the key.
    private func requestAddAccessIfUndecided() async throws(LibraryError) {
        guard let client = clientIdentifier else { return }
        let addOnly = Authorization.Service.photoLibrary(.addOnly)
        guard try await Authorization.status(for: addOnly, client: client, in: self) == .notDetermined else { return }
        let authorization = Authorization(library: forClient(nil), prompter: prompter ?? NonInteractivePrompter())
        do {
            _ = try await authorization.requestAccess(for: addOnly, client: client, missingUsageDescription: .terminate)
        } catch let error as LibraryError {
            throw error
        } catch let error as AuthorizationError {
            throw .authorization(error)
        } catch {
            throw .authorization(.cannotPrompt(client: client, service: addOnly, reason: "\(error)"))
        }
    }

    /// How long assets stay in Recently Deleted before they are purged automatically: 30 days
    /// unless set with ``setTrashRetention(_:)``. Stored in the library, so every process and
    /// the CLI agree.
    public func trashRetention() async throws(LibraryError) -> TimeInterval {
        guard let text = try await catalog.setting(Self.trashRetentionKey), let days = Double(text) else {
            return Self.defaultTrashRetention
        }
        return days * 86_400
    }

    /// Sets how long assets stay in Recently Deleted (`nil` restores the 30-day default).
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` for a negative or non-finite interval.
    public func setTrashRetention(_ interval: TimeInterval?) async throws(LibraryError) {
        guard case .all = try await readScope() else {
            throw .authorization(.notAuthorized(client: clientIdentifier ?? "", service: .photoLibrary(.readWrite), status: .limited))
        }
        if let interval {
            guard interval.isFinite, interval >= 0 else {
                throw .invalidArgument("trash retention must be zero or more seconds, not \(interval)")
            }
            try await catalog.setSetting(Self.trashRetentionKey, to: String(interval / 86_400))
        } else {
            try await catalog.setSetting(Self.trashRetentionKey, to: nil)
        }
    }

    /// 30 days.
    public static let defaultTrashRetention: TimeInterval = 30 * 86_400
    static let trashRetentionKey = "trashRetentionDays"

    /// Purges what has been in Recently Deleted longer than `interval` (by default the library's
    /// ``trashRetention()``), in every person's library.
    ///
    /// ``runAutomaticPurge(every:)`` calls it periodically; the CLI's `import` and `delete` call it
    /// once; `shoebox purge --expired` on demand.
    /// - Returns: How many assets were purged.
    @discardableResult
    public func purgeExpiredAssets(olderThan interval: TimeInterval? = nil, now: Date = Date()) async throws -> Int {
        // The library's retention holds for everyone's Recently Deleted.
        if catalog.owner != nil { return try await forEveryone().purgeExpiredAssets(olderThan: interval, now: now) }
        let retention: TimeInterval
        if let interval { retention = interval } else { retention = try await trashRetention() }
        let cutoff = now.addingTimeInterval(-retention)
        let expired = try await fetchAssets(
            with: FetchOptions(
                predicate: .isTrashed(true), sortDescriptors: [],
                includeHiddenAssets: true, includeTrashedAssets: true)
        ).allObjects()
            .filter { ($0.trashedDate ?? now) < cutoff }
        guard !expired.isEmpty else { return 0 }
        try await performChanges { AssetChangeRequest.purgeAssets(expired) }
        return expired.count
    }

    /// Purges expired assets now and then every `interval` until the task is cancelled: the
    /// automatic purge a long-running process (`shoebox serve`, `shoebox watch`) runs.
    /// A failed round is retried at the next one.
    public func runAutomaticPurge(every interval: Duration = .seconds(3_600)) async {
        while !Task.isCancelled {
            _ = try? await purgeExpiredAssets()
            try? await Task.sleep(for: interval)
        }
    }
}
