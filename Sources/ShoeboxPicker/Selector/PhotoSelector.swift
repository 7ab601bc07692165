import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import Synchronization

/// The model of a three-pane chooser (seed 003's `PhotoSelector`): albums, the chosen album's
/// assets, and a preview of the chosen asset with its size. A user interface binds to it; the web
/// picker shows the assets as a thumbnail grid rather than a list of identifiers.
///
/// ```swift
/// let selector = try PhotoSelector(library: library, mediaTypes: [.image])
/// let albums = try await selector.albums()            // non-empty albums with allowed media
/// try await selector.selectAlbum(albums[0])           // lists its assets, clears the selection
/// try await selector.selectAsset(at: 0)               // loads the preview
/// print(selector.isSelected, selector.sizeLabel!)     // true "4032 x 3024"
/// let big = try await selector.image(targetSize: PixelSize(width: 1000, height: 700))
/// ```
///
/// Albums are the smart albums Recents, Favorites, Videos, Screenshots, Panoramas and Recently
/// Added, then the user albums (those in folders too), each only when it holds at least one
/// asset of the allowed media types that passes the filter. Hidden and Recently Deleted are never
/// offered. With ``Scope-swift.enum/recentsOnly`` (the `savedPhotosAlbum` source) only Recents is.
///
/// Sizes: the preview and any requested image must be at least ``minimumImageSize`` on both sides
/// (the seed's 10×10); smaller sizes are refused with ``PickerError/Code/sizeTooSmall``. Images are
/// made as `PHImageManager` does with `.aspectFill`: the size is a minimum on both sides, and an
/// image is never larger than the original. The ``sizeLabel`` shows the asset's own pixel size.
public final class PhotoSelector: Sendable {
    /// Which albums to offer.
    public enum Scope: String, Sendable, Hashable {
        /// Smart albums and user albums.
        case allAlbums
        /// Recents only.
        case recentsOnly
    }

    /// An album as the selector offers it: the collection and how many allowed assets it holds.
    public struct Album: Sendable, Hashable, Identifiable {
        /// The library's album, smart or the user's.
        public let collection: AssetCollection
        /// Allowed assets in it (media types and filter applied).
        public let count: Int
        /// The album's local identifier, as ``PhotoSelector/selectAlbum(withIdentifier:)`` takes it.
        public var id: String { collection.localIdentifier }
        /// The album's localized title ("Recents", "Favorites", or the name the user gave it).
        public var title: String { collection.localizedTitle }
    }

    /// The smallest preview or image size accepted, on each side.
    public static let minimumImageSize = PixelSize(width: 10, height: 10)
    /// The preview size unless set: 1024×1024 (a minimum on both sides, never past the original).
    public static let defaultPreviewSize = PixelSize(width: 1024, height: 1024)

    /// The smart albums a chooser offers, in order.
    static let offeredSmartAlbums: [AssetCollection.Subtype] = [
        .smartAlbumUserLibrary, .smartAlbumFavorites, .smartAlbumVideos, .smartAlbumScreenshots,
        .smartAlbumPanoramas, .smartAlbumRecentlyAdded,
    ]

    /// The library chosen from.
    public let library: PhotoLibrary
    /// Which albums ``albums()`` offers: all of them, or Recents only.
    public let scope: Scope
    /// What may be chosen: the media types and the configuration's filter together.
    public let filter: PickerFilter
    let images: ImageManager

    private struct State {
        var previewSize: PixelSize
        var album: Album?
        var assets: FetchResult<Asset>?
        var selected: Asset?
        var preview: Image?
        /// Bumped by every selection change, so a slow preview never lands on a newer choice.
        var generation = 0
    }

    private let state: Mutex<State>

    /// - Parameters:
    ///   - library: The library to choose from.
    ///   - mediaTypes: The allowed media types (default: images, as in the seed).
    ///   - filter: More conditions, if any.
    ///   - scope: All albums, or Recents only.
    ///   - previewSize: The preview's size (at least ``minimumImageSize``).
    ///   - imageManager: Where pixels come from (a new manager on `library` by default).
    /// - Throws: ``PickerError/Code/invalidMediaTypes`` for empty media types;
    ///   ``PickerError/Code/sizeTooSmall`` for a preview size below the minimum.
    public init(
        library: PhotoLibrary, mediaTypes: [ImagePickerController.MediaType] = [.image], filter: PickerFilter? = nil,
        scope: Scope = .allAlbums, previewSize: PixelSize = PhotoSelector.defaultPreviewSize,
        imageManager: ImageManager? = nil
    ) throws(PickerError) {
        guard !mediaTypes.isEmpty else { throw PickerError(.invalidMediaTypes, "a photo selector needs at least one media type") }
        try Self.checkSize(previewSize, what: "preview size")
        try filter?.validate()
        self.library = library
        self.scope = scope
        let types: [PickerFilter] = mediaTypes.map { $0 == .image ? .images : .videos }
        let byType: PickerFilter = types.count == 1 ? types[0] : .any(of: types)
        self.filter = filter.map { .all(of: [byType, $0]) } ?? byType
        images = imageManager ?? ImageManager(library: library)
        state = Mutex(State(previewSize: previewSize))
    }

    static func checkSize(_ size: PixelSize, what: String) throws(PickerError) {
        guard size.width >= minimumImageSize.width else {
            throw PickerError(.sizeTooSmall, "\(what) width \(size.width) is below the minimum of \(minimumImageSize.width) pixels")
        }
        guard size.height >= minimumImageSize.height else {
            throw PickerError(.sizeTooSmall, "\(what) height \(size.height) is below the minimum of \(minimumImageSize.height) pixels")
        }
    }

    // MARK: Albums

    /// The albums holding at least one allowed asset, counted now.
    ///
    /// - Throws: ``PickerError/Code/library`` when the catalog cannot be read.
    public func albums() async throws(PickerError) -> [Album] {
        var collections: [AssetCollection] = []
        do {
            let smart = scope == .recentsOnly ? [.smartAlbumUserLibrary] : Self.offeredSmartAlbums
            for subtype in smart {
                if let collection = try await library.fetchAssetCollections(with: .smartAlbum, subtype: subtype).firstObject {
                    collections.append(collection)
                }
            }
            if scope == .allAlbums {
                collections += try await library.fetchAssetCollections(with: .album).allObjects()
            }
        } catch {
            throw PickerError(.library, "cannot list albums: \(error.message)", underlying: error)
        }
        var albums: [Album] = []
        for collection in collections {
            let count = try await fetchAssets(in: collection).count
            if count > 0 { albums.append(Album(collection: collection, count: count)) }
        }
        return albums
    }

    /// The allowed assets of `collection`, in its order (user albums: the album's order; smart
    /// albums: by creation date, newest last, as Photos shows them).
    public func fetchAssets(in collection: AssetCollection) async throws(PickerError) -> FetchResult<Asset> {
        var options = FetchOptions(predicate: filter.predicate)
        if collection.assetCollectionType == .album { options.sortDescriptors = [] }
        do {
            return try await library.fetchAssets(in: collection, options: options)
        } catch {
            throw PickerError(.library, "cannot list \(collection.localizedTitle): \(error.message)", underlying: error)
        }
    }

    /// The album whose assets are listed.
    public var selectedAlbum: Album? { state.withLock { $0.album } }

    /// The listed assets (the middle pane), `nil` before an album is chosen.
    public var assets: FetchResult<Asset>? { state.withLock { $0.assets } }

    /// Lists `album`'s allowed assets and clears the selection and the preview.
    ///
    /// - Throws: ``PickerError/Code/notFound`` when the album is not one ``albums()`` offers.
    public func selectAlbum(_ album: Album) async throws(PickerError) {
        try await selectAlbum(withIdentifier: album.id)
    }

    /// Lists the album with this identifier (see ``selectAlbum(_:)``).
    public func selectAlbum(withIdentifier identifier: String) async throws(PickerError) {
        guard let album = try await albums().first(where: { $0.id == identifier }) else {
            throw PickerError(.notFound, "no album \(identifier) with assets this selector allows")
        }
        let assets = try await fetchAssets(in: album.collection)
        state.withLock { state in
            state.album = album
            state.assets = assets
            state.selected = nil
            state.preview = nil
            state.generation += 1
        }
    }

    // MARK: Selecting

    /// Whether an asset is chosen (seed 003's `isSelected`).
    public var isSelected: Bool { state.withLock { $0.selected != nil } }

    /// The chosen asset, or `nil` (seed 003's `getAsset()`).
    public func asset() -> Asset? { state.withLock { $0.selected } }

    /// The preview of the chosen asset at ``previewSize``, or `nil` (seed 003's `getImage()`).
    public func image() -> Image? { state.withLock { $0.selected == nil ? nil : $0.preview } }

    /// "W x H", the chosen asset's upright pixel size (the preview pane's label), or `nil`.
    public var sizeLabel: String? {
        state.withLock { $0.selected.map { "\($0.pixelWidth) x \($0.pixelHeight)" } }
    }

    /// The preview's size.
    public var previewSize: PixelSize { state.withLock { $0.previewSize } }

    /// Changes the preview size for the next choice.
    ///
    /// - Throws: ``PickerError/Code/sizeTooSmall`` below ``minimumImageSize``.
    public func setPreviewSize(_ size: PixelSize) throws(PickerError) {
        try Self.checkSize(size, what: "preview size")
        state.withLock { $0.previewSize = size }
    }

    /// Chooses `asset` and loads its preview.
    ///
    /// - Throws: ``PickerError/Code/notAllowed`` for an asset of another media type or that the
    ///   filter excludes, or one in Recently Deleted or hidden; ``PickerError/Code/deliveryFailed``
    ///   when the preview cannot be made (the selection is kept, with no image).
    public func selectAsset(_ asset: Asset) async throws(PickerError) {
        try checkAllowed(asset)
        let (generation, size) = state.withLock { state -> (Int, PixelSize) in
            state.selected = asset
            state.preview = nil
            state.generation += 1
            return (state.generation, state.previewSize)
        }
        let preview = try await makeImage(of: asset, targetSize: size)
        state.withLock { state in
            if state.generation == generation { state.preview = preview }
        }
    }

    /// Chooses the listed asset at `index`.
    ///
    /// - Throws: ``PickerError/Code/invalidState`` before an album is chosen;
    ///   ``PickerError/Code/invalidArgument`` for an index outside the list.
    public func selectAsset(at index: Int) async throws(PickerError) {
        guard let assets = self.assets else { throw PickerError(.invalidState, "choose an album first") }
        guard index >= 0, index < assets.count else {
            throw PickerError(.invalidArgument, "index \(index) is outside the album's \(assets.count) assets")
        }
        let loaded: Asset?
        do {
            loaded = try await assets.object(at: index)
        } catch {
            throw PickerError(.library, "cannot read the asset at \(index): \(error.message)", underlying: error)
        }
        guard let asset = loaded else {
            throw PickerError(.notFound, "the asset at \(index) was removed from the library")
        }
        try await selectAsset(asset)
    }

    /// Clears the choice and the preview.
    public func clearSelection() {
        state.withLock { state in
            state.selected = nil
            state.preview = nil
            state.generation += 1
        }
    }

    /// An image of the chosen asset at `targetSize` (seed 003's `getImage(width, height)`), or
    /// `nil` when nothing is chosen.
    ///
    /// - Throws: ``PickerError/Code/sizeTooSmall`` below ``minimumImageSize``;
    ///   ``PickerError/Code/deliveryFailed`` when the image cannot be made.
    public func image(targetSize: PixelSize) async throws(PickerError) -> Image? {
        try Self.checkSize(targetSize, what: "image size")
        guard let asset = asset() else { return nil }
        return try await makeImage(of: asset, targetSize: targetSize)
    }

    /// Whether `asset` may be chosen here.
    public func allows(_ asset: Asset) -> Bool {
        !asset.isTrashed && !asset.isHidden && filter.matches(asset)
    }

    func checkAllowed(_ asset: Asset) throws(PickerError) {
        guard !asset.isTrashed else { throw PickerError(.notAllowed, "\(asset.localIdentifier) is in Recently Deleted") }
        guard !asset.isHidden else { throw PickerError(.notAllowed, "\(asset.localIdentifier) is hidden") }
        guard filter.matches(asset) else {
            throw PickerError(
                .notAllowed,
                "\(asset.originalFilename) (\(asset.mediaType == .image ? "a photo" : "a movie")) is not allowed by this picker's media types and filter")
        }
    }

    private func makeImage(of asset: Asset, targetSize: PixelSize) async throws(PickerError) -> Image {
        let options = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .fast)
        let result = await images.requestImage(for: asset, targetSize: targetSize, contentMode: .aspectFill, options: options).finalResult()
        guard let image = result?.image else {
            throw PickerError(.deliveryFailed, "cannot make an image of \(asset.originalFilename): \(result?.error?.message ?? "no result")")
        }
        return image
    }
}
