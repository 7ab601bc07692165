import Foundation

/// The Shared Library (``SharedLibrary``): who is in it or invited, what each moved in, who added
/// and who deleted each of its photos. Its assets are the catalog's like any other, owned by
/// ``SharedLibrary/ownerRowID``; a store acting for a participant reads and changes them as the
/// participant's own (fetches, lookups, changes, the change log). Every requirement acts for
/// the store's person (``CatalogStore/owner``); every change to the library itself logs a
/// `sharedLibrary` entry for each person concerned.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol SharedLibraryCatalog: Sendable {
    /// The Shared Library as the person sees it: `nil` when there is none or they are neither
    /// in it nor invited.
    func sharedLibrary() async throws(LibraryError) -> SharedLibrary?
    /// Whether the person has joined the Shared Library (its photos are theirs to see and change).
    func isInSharedLibrary() async throws(LibraryError) -> Bool
    /// Invites `person`; with no Shared Library yet, makes one with the person in it first.
    /// - Throws: ``LibraryError/Code/notPermitted`` when there is one and the person is not in
    ///   it; ``LibraryError/Code/invalidArgument`` past ``SharedLibrary/maximumParticipants``
    ///   or for someone in it or invited already.
    func inviteToSharedLibrary(person: Int64, now: Date) async throws(LibraryError) -> SharedLibrary
    /// Takes back an invitation the person's Shared Library sent `person` (not yet answered).
    func withdrawSharedLibraryInvitation(person: Int64, now: Date) async throws(LibraryError) -> Bool
    /// Joins (or declines) the Shared Library the person is invited to; `false` when they are not.
    func answerSharedLibraryInvitation(join: Bool, movesNewAssets: Bool, now: Date) async throws(LibraryError) -> Bool
    /// Moves the person's photos and movies in; returns how many moved (those whose bytes the
    /// Shared Library holds already stay).
    /// - Throws: ``LibraryError/Code/notPermitted`` when the person is not in it;
    ///   ``LibraryError/Code/notFound`` for a chosen asset that is not theirs.
    func moveToSharedLibrary(_ contribution: SharedLibrary.Contribution, now: Date) async throws(LibraryError) -> Int
    /// Moves photos the person added to the Shared Library back to their own library; returns
    /// how many moved.
    /// - Throws: ``LibraryError/Code/notPermitted`` for one someone else added;
    ///   ``LibraryError/Code/notFound`` for one not in the Shared Library.
    func moveToPersonalLibrary(_ localIdentifiers: [String], now: Date) async throws(LibraryError) -> Int
    /// Whether the person's new imports and captures go to the Shared Library; `false` when
    /// they are not in it.
    func setSharedLibraryMovesNewAssets(_ moves: Bool, now: Date) async throws(LibraryError) -> Bool
    /// Leaves the Shared Library, copying what `departure` says into the person's own library
    /// (the last to leave takes everything, and it ends); returns how many copies were made.
    /// - Throws: ``LibraryError/Code/notFound`` when the person is not in it.
    func leaveSharedLibrary(keeping departure: SharedLibrary.Departure, now: Date) async throws(LibraryError) -> Int
    /// Who added, and who deleted, each of these Shared Library assets (by row id; others are
    /// left out).
    func sharedLibraryAttributions(_ rowIDs: [Int64]) async throws(LibraryError) -> [Int64: SharedLibrary.Attribution]
}
