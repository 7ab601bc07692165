import Foundation

/// Shared links and the looks at them.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol SharedLinkCatalog: Sendable {
    /// Adds a shared link (its token only as a hash).
    func addSharedLink(_ record: SharedLinkRecord) async throws(LibraryError)
    /// Every shared link, the newest first, with its view counts.
    func sharedLinks() async throws(LibraryError) -> [SharedLinkRecord]
    /// The link whose token hashes to `tokenHash`, revoked or not.
    func sharedLink(tokenHash: String) async throws(LibraryError) -> SharedLinkRecord?
    /// Revokes a link; `false` when there is none with `id`.
    func revokeSharedLink(id: String, at date: Date) async throws(LibraryError) -> Bool
    /// Logs one look at a link, keeping the latest ``SharedLink/maximumLoggedViews``.
    func logSharedLinkView(link: String, view: SharedLink.View) async throws(LibraryError)
    /// How many looks of kind `what` at a link since `since`, from `address` (`nil`: from anywhere).
    func sharedLinkViewCount(link: String, what: String, address: String?, since: Date) async throws(LibraryError) -> Int
    /// The latest looks at a link, the newest first.
    func sharedLinkViews(link: String, limit: Int) async throws(LibraryError) -> [SharedLink.View]
}
