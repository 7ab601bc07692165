import Foundation

extension PhotoLibrary {
    /// How long Recently Added looks back.
    public static let recentlyAddedInterval: TimeInterval = 30 * 86_400

    /// The albums of a type, optionally of one subtype: smart albums in sidebar order, user
    /// albums by title, unless `options` filters or orders them. Counts are taken now.
    ///
    /// ```swift
    /// let smart = try await library.fetchAssetCollections(with: .smartAlbum)
    /// let albums = try await library.fetchAssetCollections(with: .album, options: .init(includesEmptyCollections: false))
    /// ```
    public func fetchAssetCollections(
        with type: AssetCollection.CollectionType, subtype: AssetCollection.Subtype? = nil,
        options: AssetCollectionFetchOptions? = nil
    ) async throws(LibraryError) -> FetchResult<AssetCollection> {
        var collections: [AssetCollection] = []
        switch type {
        case .smartAlbum:
            let wanted = AssetCollection.Subtype.smartAlbums.enumerated().filter { subtype == nil || subtype == $0.element }
            var options: [FetchOptions] = []
            for (_, smart) in wanted { options.append(try await scoped(Self.options(for: smart, base: nil))) }
            let counts = try await catalog.counts(matching: options)
            for ((index, smart), count) in zip(wanted, counts) {
                collections.append(
                    AssetCollection(
                        localIdentifier: Self.smartAlbumIdentifier(smart), assetCollectionType: .smartAlbum, assetCollectionSubtype: smart,
                        localizedTitle: smart.title, estimatedAssetCount: count,
                        creationDate: nil, parentFolderIdentifier: nil, rowID: Int64(index)))
            }
        case .album, .folder:
            collections = try await visibleAlbums().filter { $0.assetCollectionType == type && (subtype == nil || subtype == $0.assetCollectionSubtype) }
        }
        return snapshotResult(options?.apply(to: collections) ?? collections)
    }

    /// The user albums and folders this library's client may see, with counts of what it may
    /// see in them. A limited client sees only the albums and folders it made (PhotoKit's
    /// limited library), at the top level when the folder holding one is not its own.
    private func visibleAlbums() async throws(LibraryError) -> [AssetCollection] {
        let albums = try await catalog.albums()
        guard case .limited(let client) = try await readScope() else { return albums }
        let own = albums.filter { $0.creatorClient == client }
        let ownIdentifiers = Set(own.map(\.localIdentifier))
        var counted: [AssetCollection] = []
        for album in own {
            let count =
                album.assetCollectionType == .folder
                ? albums.count { $0.parentFolderIdentifier == album.localIdentifier && ownIdentifiers.contains($0.localIdentifier) }
                : try await catalog.count(matching: try await scoped(FetchOptions(predicate: .inAlbum(album.localIdentifier))))
            counted.append(
                AssetCollection(
                    localIdentifier: album.localIdentifier, assetCollectionType: album.assetCollectionType,
                    assetCollectionSubtype: album.assetCollectionSubtype, localizedTitle: album.localizedTitle, estimatedAssetCount: count,
                    creationDate: album.creationDate,
                    parentFolderIdentifier: album.parentFolderIdentifier.flatMap { ownIdentifiers.contains($0) ? $0 : nil },
                    rowID: album.rowID, creatorClient: album.creatorClient))
        }
        return counted
    }

    /// The albums and folders directly inside `folder` (`nil`: the top level), folders first,
    /// then by title (`PHCollection.fetchCollections(in:)`; `fetchTopLevelUserCollections` for nil).
    public func fetchCollections(inFolder folder: AssetCollection?) async throws(LibraryError) -> FetchResult<AssetCollection> {
        let children = try await visibleAlbums().filter { $0.parentFolderIdentifier == folder?.localIdentifier }
        let ordered = children.filter { $0.assetCollectionType == .folder } + children.filter { $0.assetCollectionType == .album }
        return snapshotResult(ordered)
    }

    private func snapshotResult(_ collections: [AssetCollection]) -> FetchResult<AssetCollection> {
        let snapshot = collections
        return FetchResult(objects: snapshot) { collection in Int64(snapshot.firstIndex(of: collection) ?? -1) }
    }

    /// The album or smart album with this identifier.
    public func assetCollection(withLocalIdentifier identifier: String) async throws(LibraryError) -> AssetCollection? {
        if let smart = AssetCollection.Subtype.smartAlbums.first(where: { Self.smartAlbumIdentifier($0) == identifier }) {
            return try await fetchAssetCollections(with: .smartAlbum, subtype: smart).firstObject
        }
        return try await visibleAlbums().first { $0.localIdentifier == identifier }
    }

    /// The assets in a collection.
    ///
    /// A user album keeps its own order when `options` is `nil` or has no sort descriptors; a smart album
    /// sorts as `options` says (Recents: by creation date; Recently Added and Recently Deleted:
    /// newest first). `options`' filter narrows either.
    public func fetchAssets(in collection: AssetCollection, options: FetchOptions? = nil) async throws(LibraryError) -> FetchResult<Asset> {
        switch collection.assetCollectionType {
        case .folder:
            return makeAssetResult([])
        case .album:
            if let options, !options.sortDescriptors.isEmpty {
                var scoped = options
                scoped.predicate = .all([.inAlbum(collection.localIdentifier)] + (options.predicate.map { [$0] } ?? []))
                return try await fetchAssets(with: scoped)
            }
            let ids = try await catalog.assetRowIDs(inAlbum: collection.localIdentifier, options: try await scoped(options ?? FetchOptions()))
            logFetch(count: ids.count)
            return makeAssetResult(ids) { [self] () async throws(LibraryError) in try await fetchAssets(in: collection, options: options) }
        case .smartAlbum:
            return try await fetchAssets(with: Self.options(for: collection.assetCollectionSubtype, base: options))
        }
    }

    static func smartAlbumIdentifier(_ subtype: AssetCollection.Subtype) -> String {
        "SMART-\(subtype.rawValue)/L0/040"
    }

    /// What each smart album holds.
    static func options(for subtype: AssetCollection.Subtype, base: FetchOptions?) -> FetchOptions {
        var options = base ?? FetchOptions()
        let extra: FetchOptions.Predicate?
        switch subtype {
        case .albumRegular, .regularFolder, .smartAlbumUserLibrary:
            extra = nil
        case .smartAlbumFavorites:
            extra = .isFavorite(true)
        case .smartAlbumVideos:
            extra = .mediaType(.video)
        case .smartAlbumScreenshots:
            extra = .mediaSubtype(.photoScreenshot)
        case .smartAlbumPanoramas:
            extra = .mediaSubtype(.photoPanorama)
        case .smartAlbumRecentlyAdded:
            extra = .addedDate(from: Date().addingTimeInterval(-recentlyAddedInterval), to: nil)
            if base == nil { options.sortDescriptors = [.init(key: .addedDate, ascending: false)] }
        case .smartAlbumAllHidden:
            extra = .isHidden(true)
            options.includeHiddenAssets = true
        case .smartAlbumRecentlyDeleted:
            extra = .isTrashed(true)
            options.includeTrashedAssets = true
            options.includeHiddenAssets = true
            if base == nil { options.sortDescriptors = [.init(key: .modificationDate, ascending: false)] }
        }
        if let extra {
            options.predicate = options.predicate.map { .all([extra, $0]) } ?? extra
        }
        return options
    }
}

extension PhotoLibrary {
    /// Options that fetch `collection`'s assets with ``fetchAssets(with:)``, on top of `base`
    /// (by creation date unless `base` sorts otherwise): for keyset paging through an album with
    /// ``fetchAssets(with:after:limit:)``. `nil` for a folder, which holds no assets.
    public func fetchOptions(for collection: AssetCollection, base: FetchOptions? = nil) -> FetchOptions? {
        switch collection.assetCollectionType {
        case .folder:
            return nil
        case .album:
            var options = base ?? FetchOptions()
            if options.sortDescriptors.isEmpty { options.sortDescriptors = [.init(key: .creationDate)] }
            options.predicate = .all([.inAlbum(collection.localIdentifier)] + (options.predicate.map { [$0] } ?? []))
            return options
        case .smartAlbum:
            return Self.options(for: collection.assetCollectionSubtype, base: base)
        }
    }
}
