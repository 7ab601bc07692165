import Foundation

/// An album its owner shares with other people of the household, as a shared album of Photos
/// (`PHAssetCollectionSubtype.albumCloudShared`): viewers see it, contributors also add their own
/// photos and movies to it, and everyone in it likes and comments on its photos
/// (``SharedAlbumActivity``).
///
/// A shared album's photos stay their owners' (the person who added each): deleting one's own
/// photo takes it out of the album and nobody else's library; the album's owner takes any photo
/// out of the album, and nobody's library loses it. The bytes are stored once.
/// ``PhotoLibrary/shareAlbum(_:with:as:)`` shares one; ``PhotoLibrary/sharedAlbums()`` lists them.
public struct SharedAlbum: Sendable, Hashable, Identifiable {
    /// What a person may do in a shared album.
    public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
        /// Made the album: shares it, removes people and any photo, and adds their own.
        case owner
        /// Sees it, likes and comments, adds their own photos (and the Shared Library's) and
        /// takes them out again.
        case contributor
        /// Sees it, likes and comments.
        case viewer

        /// Whether this role adds photos.
        public var addsPhotos: Bool { self != .viewer }
    }

    /// A person in a shared album.
    public struct Member: Sendable, Hashable, Identifiable {
        /// The person's stable identifier (``Person/id``).
        public let id: String
        /// Their sign-in name.
        public let name: String
        /// The name shown.
        public let displayName: String
        /// Owner, contributor or viewer.
        public let role: Role
        /// When they joined (the album's creation for its owner).
        public let addedDate: Date
        let rowID: Int64
    }

    /// The album's identifier (the owner's album's ``AssetCollection/localIdentifier``).
    public let id: String
    /// Its title.
    public let title: String
    /// When its owner made it.
    public let creationDate: Date
    /// Who made it.
    public let owner: Member
    /// What the person asking may do in it.
    public let role: Role
    /// The people it is shared with (not the owner), in the order they were added.
    public let members: [Member]
    /// How many photos and movies it shows (neither hidden nor in Recently Deleted).
    public let count: Int

    /// Most people one album is shared with.
    public static let maximumMembers = 100

    /// The change-log kind of a change to a shared album (its people, photos, likes, comments).
    package static let changeKind = "sharedAlbum"
}

/// What someone did in a shared album: liked or commented on a photo, or added photos.
public struct SharedAlbumActivity: Sendable, Hashable, Identifiable {
    /// The kinds of activity.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A like of a photo (one a person).
        case like
        /// A comment on a photo.
        case comment
        /// Photos added (``count`` of them; ``assetIdentifier`` the first).
        case added
    }

    /// The activity's identifier (a comment's, to delete it).
    public let id: String
    /// Like, comment or addition.
    public let kind: Kind
    /// Who did it (``Person/id``): a person who is or was in the album (one who left keeps
    /// their comments there; a person removed from the library takes theirs along).
    public let personID: String
    /// Their name shown.
    public let personDisplayName: String
    /// The photo it is about.
    public let assetIdentifier: String?
    /// A comment's words.
    public let text: String?
    /// How many photos an addition added (0 for likes and comments).
    public let count: Int
    /// When.
    public let date: Date

    /// The longest comment, in characters.
    public static let maximumCommentLength = 1_000
}

/// A photo or movie of a shared album, with who added it and what people made of it.
public struct SharedAlbumItem: Sendable {
    /// The photo or movie: the person's who added it, or the Shared Library's
    /// (``Asset/isInSharedLibrary``) that they added from it.
    public let asset: Asset
    /// Who added it.
    public let addedBy: SharedAlbum.Member
    /// How many people like it.
    public let likeCount: Int
    /// Whether the person asking likes it.
    public let isLikedByMe: Bool
    /// How many comments it has.
    public let commentCount: Int
}
