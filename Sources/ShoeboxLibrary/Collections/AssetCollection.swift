import Foundation

/// An album or a smart album: `PHAssetCollection` without the prefix.
///
/// ```swift
/// let favorites = try await library.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumFavorites).firstObject!
/// let photos = try await library.fetchAssets(in: favorites)
/// print(favorites.localizedTitle, photos.count)
/// ```
public struct AssetCollection: Sendable, Hashable, Identifiable {
    /// User albums, smart albums, or folders of albums.
    public enum CollectionType: Int, Sendable, CaseIterable {
        /// A user album, made by the user or a client, in its own order (`PHAssetCollectionType.album`).
        case album = 1
        /// A smart album the library fills from a fetch; it cannot be changed
        /// (`PHAssetCollectionType.smartAlbum`).
        case smartAlbum = 2
        /// A folder holding albums and other folders (PhotoKit's `PHCollectionList`, folded into
        /// this type): it holds no assets itself.
        case folder = 3
    }

    /// Apple's subtypes. Recents is `smartAlbumUserLibrary` — the seeds' All Photos, Camera Roll
    /// and Saved Photos.
    public enum Subtype: Int, Sendable, CaseIterable {
        /// A user album (`PHAssetCollectionSubtype.albumRegular`).
        case albumRegular = 2
        /// A user folder.
        case regularFolder = 100
        /// Recents: every asset neither hidden nor in Recently Deleted, by creation date.
        case smartAlbumUserLibrary = 209
        /// Favorites: the assets the user marked as favourites (``Asset/isFavorite``).
        case smartAlbumFavorites = 203
        /// Videos: every movie.
        case smartAlbumVideos = 202
        /// Screenshots: the photos recognised as ``Asset/MediaSubtypes/photoScreenshot``.
        case smartAlbumScreenshots = 211
        /// Panoramas: the photos recognised as ``Asset/MediaSubtypes/photoPanorama``.
        case smartAlbumPanoramas = 201
        /// Recently Added: assets added in the last ``PhotoLibrary/recentlyAddedInterval``
        /// (30 days), the latest added first.
        case smartAlbumRecentlyAdded = 206
        /// Hidden: the assets the user hid (``Asset/isHidden``).
        case smartAlbumAllHidden = 205
        /// Recently Deleted: the trashed assets, hidden ones too, the latest changed first. PhotoKit has
        /// no public subtype for it; the value is the one Photos' own Recently Deleted album carries.
        case smartAlbumRecentlyDeleted = 1_000_000_201

        /// Every smart album, in the order the Photos sidebar lists them.
        public static let smartAlbums: [Subtype] = [
            .smartAlbumUserLibrary, .smartAlbumFavorites, .smartAlbumVideos, .smartAlbumScreenshots,
            .smartAlbumPanoramas, .smartAlbumRecentlyAdded, .smartAlbumAllHidden, .smartAlbumRecentlyDeleted,
        ]

        var title: String {
            switch self {
            case .albumRegular: "Album"
            case .regularFolder: "Folder"
            case .smartAlbumUserLibrary: "Recents"
            case .smartAlbumFavorites: "Favorites"
            case .smartAlbumVideos: "Videos"
            case .smartAlbumScreenshots: "Screenshots"
            case .smartAlbumPanoramas: "Panoramas"
            case .smartAlbumRecentlyAdded: "Recently Added"
            case .smartAlbumAllHidden: "Hidden"
            case .smartAlbumRecentlyDeleted: "Recently Deleted"
            }
        }
    }

    /// A stable identifier (smart albums have fixed ones).
    public let localIdentifier: String
    /// Whether it is a user album, a smart album or a folder (`PHAssetCollection.assetCollectionType`).
    public let assetCollectionType: CollectionType
    /// Which kind of album or folder it is: ``Subtype/albumRegular``, ``Subtype/regularFolder`` or a
    /// smart album's subtype (`PHAssetCollection.assetCollectionSubtype`).
    public let assetCollectionSubtype: Subtype
    /// The album's title (smart albums: their English name).
    public let localizedTitle: String
    /// How many assets it held when fetched (a folder: how many albums and folders).
    public let estimatedAssetCount: Int
    /// When a user album was made.
    public let creationDate: Date?
    /// The folder holding this album or folder, `nil` at the top level.
    public let parentFolderIdentifier: String?
    /// The client that made this album or folder; `nil` for the user's own. A limited client
    /// sees and changes only its own; only the user (or the client that made it) deletes one.
    public let creatorClient: String?

    /// The catalog's row id (smart albums: their place in the sidebar).
    let rowID: Int64

    /// Its ``localIdentifier``, for `Identifiable`.
    public var id: String { localIdentifier }

    /// A collection as a ``CatalogStore`` describes it (user albums and folders; the library
    /// makes smart albums itself).
    public init(
        localIdentifier: String, assetCollectionType: CollectionType, assetCollectionSubtype: Subtype, localizedTitle: String,
        estimatedAssetCount: Int, creationDate: Date?, parentFolderIdentifier: String?, rowID: Int64, creatorClient: String? = nil
    ) {
        self.localIdentifier = localIdentifier
        self.assetCollectionType = assetCollectionType
        self.assetCollectionSubtype = assetCollectionSubtype
        self.localizedTitle = localizedTitle
        self.estimatedAssetCount = estimatedAssetCount
        self.creationDate = creationDate
        self.parentFolderIdentifier = parentFolderIdentifier
        self.rowID = rowID
        self.creatorClient = creatorClient
    }
}
