import Foundation

/// What to fetch and in which order: `PHFetchOptions` with a typed filter instead of an
/// `NSPredicate` string.
///
/// ```swift
/// var options = FetchOptions()
/// options.predicate = .all([.mediaType(.image), .isFavorite(true), .creationDate(from: lastYear, to: nil)])
/// options.sortDescriptors = [.init(key: .creationDate, ascending: false)]
/// options.fetchLimit = 100
/// let favorites = try await library.fetchAssets(with: options)
/// ```
public struct FetchOptions: Sendable {
    /// A composable condition on assets.
    public indirect enum Predicate: Sendable {
        /// Photos only or movies only (``Asset/mediaType``).
        case mediaType(Asset.MediaType)
        /// Taken at or after `from` and before `to` (either may be open).
        case creationDate(from: Date?, to: Date?)
        /// Marked as a favourite (`true`) or not (``Asset/isFavorite``).
        case isFavorite(Bool)
        /// Hidden (`true`) or not (``Asset/isHidden``); hidden assets match only with
        /// ``FetchOptions/includeHiddenAssets``.
        case isHidden(Bool)
        /// With GPS coordinates (`true`) or without (``Asset/location``).
        case hasLocation(Bool)
        /// Created by the client with this identifier (``Asset/creatorClient``); what the user
        /// added matches no client.
        case creatorClient(String)
        /// In the user album with this identifier.
        case inAlbum(String)
        /// Has all these subtypes.
        case mediaSubtype(Asset.MediaSubtypes)
        /// Added to the library at or after `from` and before `to`.
        case addedDate(from: Date?, to: Date?)
        /// In Recently Deleted (needs ``FetchOptions/includeTrashedAssets``).
        case isTrashed(Bool)
        /// The original file name contains the text (case-insensitive).
        case filenameContains(String)
        /// The original's type is one of these UTType identifiers (`public.jpeg`, `public.heic`,
        /// `public.mpeg-4`, `org.webmproject.webm`, …).
        case uniformTypeIdentifier([String])
        /// The original file has at most this many bytes.
        case fileSize(atMost: Int)
        /// A frame of the burst with this identifier (``Asset/burstIdentifier``).
        case burstIdentifier(String)
        /// Lasts at most this many seconds (photos last 0).
        case duration(atMost: Double)
        /// Search: a word of the asset's file names, camera, lens or place
        /// (``AssetSearchText``) starts with every word of the text, or the title of an album it
        /// is in holds it. Words are folded (case and accents do not matter).
        case text(String)
        /// Taken in this country (ISO 3166 code) and, with a name, this city
        /// (``AssetRecord/placeName``): a place of ``PhotoLibrary/fetchPlaces(with:)``.
        case place(country: String, name: String?)
        /// Has this keyword (``Asset/keywords``), case aside, or one below it: `Places/Italy`
        /// matches `Places/Italy` and `Places/Italy/Rome`, not `Places/Italy Trip`.
        case keyword(String)
        /// Taken inside these bounds (degrees; `west` greater than `east` crosses the
        /// antimeridian): a cluster of ``PhotoLibrary/fetchMapClusters(with:cellDegrees:)``.
        case region(south: Double, west: Double, north: Double, east: Double)
        /// Taken on these days (`YYYY-MM-DD`, inclusive) as the clock read where it was taken.
        case localDays(from: String, to: String)
        /// Taken on this day of the year (`MM-DD`, the clock where it was taken) in a year
        /// before `beforeYear`: "On This Day".
        case localMonthDay(String, beforeYear: Int)
        /// Every one of these holds; an empty list matches every asset.
        case all([Predicate])
        /// At least one of these holds; an empty list matches none.
        case any([Predicate])
        /// The predicate does not hold. An asset without the value compared (no creator client,
        /// burst, place or location) matches neither the predicate nor its `not`, as in SQL.
        case not(Predicate)
    }

    /// An order for results.
    public struct SortDescriptor: Sendable, Hashable {
        /// What to order by: an ``Asset`` property (`filename` is ``Asset/originalFilename``, `fileSize`
        /// the original's size).
        public enum Key: String, Sendable, CaseIterable {
            /// By ``Asset/creationDate``, ``Asset/modificationDate``, ``Asset/addedDate`` (when it came
            /// into the library), `filename`, ``Asset/duration`` (seconds; photos 0) or `fileSize` (bytes).
            case creationDate, modificationDate, addedDate, filename, duration, fileSize
        }

        /// The property compared.
        public var key: Key
        /// Whether smaller values (earlier dates, shorter movies, smaller files) come first.
        public var ascending: Bool

        /// An order by `key`, ascending unless `ascending` is `false`.
        public init(key: Key, ascending: Bool = true) {
            self.key = key
            self.ascending = ascending
        }
    }

    /// Which assets; `nil` means all.
    public var predicate: Predicate?
    /// The order; assets that tie are ordered by when they were added. Default: creation date,
    /// oldest first (Apple's default for Recents).
    public var sortDescriptors: [SortDescriptor]
    /// At most this many results.
    public var fetchLimit: Int?
    /// Whether hidden assets are included (they are not, by default, as in PhotoKit).
    public var includeHiddenAssets: Bool
    /// Whether assets in Recently Deleted are included (default `false`).
    public var includeTrashedAssets: Bool
    /// Whether every frame of a burst is included (default `false`: only the frame that
    /// ``Asset/representsBurst``, as in PhotoKit). Frames in Recently Deleted or hidden are never
    /// left out, and a client with limited access sees every frame it was given.
    public var includeAllBurstAssets: Bool
    /// Set by the library for a client with limited access: only what it created or the user
    /// shared with it (a ``CatalogStore`` filters by it).
    public internal(set) var visibleToClient: String?
    /// Set by the library for a fetch with ``Predicate/text(_:)``: the search words that some
    /// album's title holds (`nil`: not known, every word may). A ``CatalogStore`` asks albums
    /// only about these, and the index alone about the rest.
    public internal(set) var wordsInAlbumTitles: Set<String>?
    /// Whether the photos and movies that partners share with the person (``PartnerShare``) and
    /// that the person shows in their timeline (``PartnerShare/isShownInTimeline``) come with
    /// the person's own (default `false`). A partner's hidden and deleted assets never do, nor
    /// those taken before the share's ``PartnerShare/startDate``. Apps never see them.
    public var includePartnerAssets = false
    /// Set by the library: the partners' libraries the fetch reads beside (or, without
    /// ``includesOwnAssets``, instead of) the person's own.
    package var partnerWindows: [PartnerShare.Window] = []
    /// Set by the library: `false` for a fetch of one partner's photos only.
    package var includesOwnAssets = true
    /// Which of the person's libraries the fetch reads when they are in the Shared Library
    /// (``SharedLibrary``): both (the default), their personal library alone, or the Shared
    /// Library alone. For a person not in it, ``LibraryScope/shared`` finds nothing.
    public var library: LibraryScope = .both
    /// Set by the library: whether the person is in the Shared Library (its assets are theirs).
    package var includesSharedLibraryAssets = false

    /// The libraries a timeline shows, as Photos' library switcher.
    public enum LibraryScope: String, Sendable, Hashable, CaseIterable {
        /// The personal library and the Shared Library together.
        case both
        /// The person's own photos and movies only.
        case personal
        /// The Shared Library's only.
        case shared
    }

    /// Whose assets the options read for `person`, partners' apart: their own, the Shared
    /// Library's, or both.
    package func assetOwners(for person: Int64) -> [Int64] {
        var owners: [Int64] = []
        if includesOwnAssets, library != .shared { owners.append(person) }
        if includesSharedLibraryAssets, includesOwnAssets, library != .personal { owners.append(SharedLibrary.ownerRowID) }
        return owners
    }

    /// Options from their parts; the defaults fetch every asset neither hidden nor in Recently
    /// Deleted, one frame per burst, oldest first.
    public init(
        predicate: Predicate? = nil, sortDescriptors: [SortDescriptor] = [SortDescriptor(key: .creationDate)],
        fetchLimit: Int? = nil, includeHiddenAssets: Bool = false, includeTrashedAssets: Bool = false,
        includeAllBurstAssets: Bool = false
    ) {
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.includeHiddenAssets = includeHiddenAssets
        self.includeTrashedAssets = includeTrashedAssets
        self.includeAllBurstAssets = includeAllBurstAssets
    }
}
