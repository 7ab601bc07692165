import Foundation

/// A shared album as the catalog finds it for the person asking: the album, its owner, and the
/// asking person's role in it.
package struct SharedAlbumRow: Sendable {
    package let collectionID: Int64
    package let localIdentifier: String
    package let title: String
    package let creationDate: Date
    package let ownerID: Int64
    package let role: SharedAlbum.Role
}

/// A photo of a shared album as the catalog lists it: which asset, who put it in the album, and
/// its likes and comments.
package struct SharedAlbumItemRow: Sendable {
    package let assetID: Int64
    package let localIdentifier: String
    /// The person who added it: the one kept with it, else (added before that was kept) its owner.
    package let addedByID: Int64
    package let likeCount: Int
    package let isLikedByMe: Bool
    package let commentCount: Int
}

/// Shared albums: who an album is shared with and as what, the photos everyone in it added, and
/// their likes and comments. Every requirement acts for the store's person (``CatalogStore/owner``),
/// and every change logs a `sharedAlbum` entry for each person concerned (the owner, the people in
/// the album, and one just taken out of it), so their event streams hear of it.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol SharedAlbumCatalog: Sendable {
    /// The albums shared with the person, and theirs that they share with anyone; with
    /// `localIdentifier`, that album alone when the person owns it (shared or not) or is in it.
    func sharedAlbumRows(localIdentifier: String?) async throws(LibraryError) -> [SharedAlbumRow]
    /// The people each album is shared with (not its owner), in the order they were added.
    func sharedAlbumMembers(_ collectionIDs: [Int64]) async throws(LibraryError) -> [Int64: [SharedAlbum.Member]]
    /// People by row id, as members (role `owner`, date their own creation): for owners and activity.
    func sharedAlbumPeople(_ rowIDs: [Int64]) async throws(LibraryError) -> [Int64: SharedAlbum.Member]
    /// How many photos each album shows, whoever added them (neither hidden nor deleted).
    func sharedAlbumCounts(_ collectionIDs: [Int64]) async throws(LibraryError) -> [Int64: Int]
    /// Shares an album with a person as `role`, changes their role, or (`nil`) takes them out
    /// (their likes and comments stay); `false` when there was nothing to take out.
    func setAlbumShare(collectionID: Int64, person: Int64, role: SharedAlbum.Role?, now: Date) async throws(LibraryError) -> Bool
    /// The album's photos in album order, whoever added them, neither hidden nor deleted.
    func sharedAlbumItems(collectionID: Int64) async throws(LibraryError) -> [SharedAlbumItemRow]
    /// Whether the album shows the asset (in it, neither hidden nor deleted): one indexed look,
    /// for each picture a shared album serves.
    func sharedAlbumShows(collectionID: Int64, asset: String) async throws(LibraryError) -> Bool
    /// The local identifier of the album's photo at `index` of ``sharedAlbumItems(collectionID:)``
    /// (`nil` past the end): one indexed look, for each picture a link to the album serves.
    func sharedAlbumItem(collectionID: Int64, at index: Int) async throws(LibraryError) -> String?
    /// Adds assets of the person's (their own, and the Shared Library's while they are in it) to
    /// the album as added by them (an `added` activity when any were new); how many were new.
    /// - Throws: ``LibraryError/Code/notFound`` for an asset that is not the person's.
    func addToSharedAlbum(collectionID: Int64, assets: [String], now: Date) async throws(LibraryError) -> Int
    /// Takes assets out of the album: any (`addedBy` nil, for its owner) or only those `addedBy`
    /// put there (their own photos, and the Shared Library's they added); how many.
    func removeFromSharedAlbum(collectionID: Int64, assets: [String], addedBy: Int64?, now: Date) async throws(LibraryError) -> Int
    /// Likes (once) or comments on a photo of the album, as the person; the activity's id, or
    /// `nil` for a like already there. The photo must be in the album.
    func addAlbumActivity(collectionID: Int64, asset: String, kind: SharedAlbumActivity.Kind, text: String?, now: Date) async throws(LibraryError) -> String?
    /// Takes back the person's like of a photo; `false` when there was none.
    func removeAlbumLike(collectionID: Int64, asset: String, now: Date) async throws(LibraryError) -> Bool
    /// Deletes a comment: the person's own, or anyone's (`anyone`, for the album's owner); `false` when none.
    func removeAlbumComment(collectionID: Int64, id: String, anyone: Bool, now: Date) async throws(LibraryError) -> Bool
    /// The album's activity on photos it still shows, the newest first.
    func albumActivity(collectionID: Int64, limit: Int) async throws(LibraryError) -> [SharedAlbumActivity]
    /// Reads one of anyone's assets as a record (for copying a shared photo).
    func assetRecord(localIdentifier: String) async throws(LibraryError) -> AssetRecord?
}
