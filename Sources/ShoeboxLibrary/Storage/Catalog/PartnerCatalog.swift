import Foundation

/// Partner sharing: whose library each person shares with whom, from when, and whether the
/// partner shows it in their timeline. Every requirement acts for the store's person
/// (``CatalogStore/owner``); every change logs a `partner` entry for both sides, each naming
/// the other, so both event streams hear of it.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol PartnerCatalog: Sendable {
    /// The shares the person is on either side of: theirs (`sharer` is the person) and those
    /// with them, oldest first.
    func partnerShares() async throws(LibraryError) -> [PartnerShare]
    /// Shares the person's library with `partner` from `startDate` on (`nil`: all of it), or
    /// changes the date of a share already there (the partner's timeline choice stays).
    /// - Throws: ``LibraryError/Code/invalidArgument`` past ``PartnerShare/maximumPartners``.
    func setPartnerShare(partner: Int64, startDate: Date?, now: Date) async throws(LibraryError) -> PartnerShare
    /// Ends a share: the person's with `partner` (`sharer` nil) or `sharer`'s with the person;
    /// `false` when there was none.
    func removePartnerShare(partner: Int64?, sharer: Int64?, now: Date) async throws(LibraryError) -> Bool
    /// Whether the person shows `sharer`'s photos in their timeline; `false` when `sharer`
    /// shares nothing with them.
    func setPartnerShareInTimeline(sharer: Int64, shown: Bool, now: Date) async throws(LibraryError) -> Bool
    /// Assets by row id among those the windows let the person see (a fetch's pages, read
    /// again as the shares are now).
    func assets(rowIDs: [Int64], sharedThrough windows: [PartnerShare.Window]) async throws(LibraryError) -> [Int64: Asset]
    /// One asset a partner share lets the person see now, if any.
    func partnerAsset(localIdentifier: String) async throws(LibraryError) -> Asset?
}
