extension PhotoLibrary {
    /// Applies `action` to `assets` in one change.
    ///
    /// - Parameter album: The album for ``AssetBatchAction/addToAlbum`` and
    ///   ``AssetBatchAction/removeFromAlbum`` (a user album, not a folder or a smart album).
    /// - Throws: ``LibraryError/Code/invalidArgument`` when an album action has no album or one
    ///   that is not an album; whatever ``performChanges(_:)`` throws (``LibraryError/Code/authorization``
    ///   when the client may not change them, …).
    public func perform(_ action: AssetBatchAction, on assets: [Asset], album: AssetCollection? = nil) async throws(LibraryError) {
        if action.needsAlbum {
            guard let album, album.assetCollectionType == .album else {
                throw .invalidArgument("\(action.rawValue) needs an album")
            }
        }
        do {
            try await performChanges {
                switch action {
                case .favorite, .unfavorite: for asset in assets { AssetChangeRequest(for: asset).isFavorite = action == .favorite }
                case .hide, .unhide: for asset in assets { AssetChangeRequest(for: asset).isHidden = action == .hide }
                case .delete: AssetChangeRequest.deleteAssets(assets)
                case .restore: AssetChangeRequest.restoreAssets(assets)
                case .purge: AssetChangeRequest.purgeAssets(assets)
                case .addToAlbum, .removeFromAlbum:
                    guard let album else { return }
                    let change = AssetCollectionChangeRequest(for: album)
                    if action == .addToAlbum { change.addAssets(assets) } else { change.removeAssets(assets) }
                }
            }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .storage("\(error)", underlying: error)
        }
    }

    /// `assets` with every other frame of the bursts whose key photos are among them (frames
    /// already hidden or deleted included, so that hiding or showing a burst takes them all), in
    /// the order given, each once.
    public func withWholeBursts(_ assets: [Asset]) async throws(LibraryError) -> [Asset] {
        var all = assets
        var seen = Set(assets.map(\.localIdentifier))
        for burst in Set(assets.filter(\.representsBurst).compactMap(\.burstIdentifier)) {
            let options = FetchOptions(includeHiddenAssets: true)
            for frame in try await fetchAssets(withBurstIdentifier: burst, options: options).allObjects()
            where seen.insert(frame.localIdentifier).inserted {
                all.append(frame)
            }
        }
        return all
    }
}
