import Foundation
import ShoeboxImaging

/// The catalog: everything a library knows about its assets, albums, edits, clients and
/// grants, and the change log — all but the bytes, which a ``BlobStore`` holds.
///
/// Shoebox ships two: SQLite (``PhotoLibrary/open(at:clientIdentifier:)``, the embedded default)
/// and PostgreSQL (``PhotoLibrary/Configuration/Catalog/postgres(_:)``, for a library shared by
/// several servers and workers). It is the sum of one protocol per concern (``AssetCatalog``,
/// ``AlbumCatalog``, ``ChangeLog``, ``BlobClaimCatalog``, ``ClientCatalog``, ``PromptCatalog``,
/// ``PickerSessionCatalog``, ``UploadCatalog``, ``SharedLinkCatalog``, ``SharedAlbumCatalog``, ``PartnerCatalog``, ``SharedLibraryCatalog``, ``JobCatalog``,
/// ``SettingsCatalog``, ``SearchCatalog``, ``PeopleCatalog``, ``SessionCatalog``, ``KeyCatalog``, ``PasskeyCatalog``), plus the one transaction that crosses them all
/// (``apply(_:beforeCommit:)``). Code that needs one concern asks for that protocol alone.
///
/// Every requirement is `async` and must never block the calling thread: the library calls them
/// from Swift's cooperative pool and from NIO's event loops.
///
/// What an implementation must guarantee:
/// - ``apply(_:beforeCommit:)`` is one transaction: everything or nothing, even with writers in
///   other processes or on other machines (no in-process locks alone).
/// - Content hashes are unique among one person's assets: an insertion whose bytes an asset already holds is
///   not inserted (a duplicate, or a restore of a trashed asset), decided inside the transaction.
/// - The blob-safety rules of ``claim(_:claimID:owner:expires:)``, ``releaseClaims(_:candidates:)``,
///   ``beginRemoval(of:remover:expires:)`` and ``apply(_:beforeCommit:)``: a blob is marked for
///   removal only in a transaction that sees no asset referring to it and no live claim on it, a
///   claim cancels a pending removal, and a removal in progress makes a claim wait.
/// - The change log grows by one entry per object a commit touched, with increasing sequence
///   numbers, so ``changes(after:)`` lets every process and server see every commit; a change
///   of a client's decisions (``setGrant(client:service:status:)``,
///   ``setLimitedSelection(_:client:)``, ``removeClient(_:)``) adds a `grant` entry naming the
///   client, so a running camera stops when its grant is revoked.
package protocol CatalogStore:
    AssetCatalog, AlbumCatalog, ChangeLog, BlobClaimCatalog, ClientCatalog, PromptCatalog, PickerSessionCatalog, UploadCatalog,
    SharedLinkCatalog, SharedAlbumCatalog, PartnerCatalog, SharedLibraryCatalog, JobCatalog, SettingsCatalog, SearchCatalog, PeopleCatalog, SessionCatalog,
    KeyCatalog, PasskeyCatalog
{
    // MARK: Whose

    /// The row id of the person whose library this object reads and writes (``Person/rowID``):
    /// fetches, counts, albums, lookups by identifier and the change log see only their rows,
    /// and what it inserts is theirs. `nil`: everyone's rows, for the library's own upkeep (jobs,
    /// the doctor, migrations); it inserts as the admin.
    var owner: Int64? { get }
    /// The same store (its connections shared) acting for `owner`.
    func scoped(to owner: Int64?) -> any CatalogStore

    // MARK: Changing

    /// Applies a whole change in one transaction: everything or nothing.
    ///
    /// An insertion whose bytes an asset already holds is not inserted: a live asset makes it a
    /// duplicate, a trashed one is restored. Purges delete only assets still in Recently
    /// Deleted. The change's blob claims (``CatalogChanges/claimID``) must all still be held,
    /// and are released. Blobs that no asset refers to any more and no live claim holds are
    /// marked for removal in the same transaction and listed in the result. `beforeCommit` runs
    /// inside the transaction, after its writes (crash tests use it).
    func apply(_ changes: CatalogChanges, beforeCommit: @escaping @Sendable () -> Void) async throws(LibraryError) -> CatalogCommit

    // MARK: Locks

    /// Runs `body` holding the library-wide lock `name`, or returns `nil` at once without
    /// running it when another process (with PostgreSQL, on any machine) holds that lock: for
    /// work of which one must run at a time, such as the sweeper. A holder that dies releases it.
    func withAdvisoryLock<T: Sendable>(_ name: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T?

    // MARK: Filling in bulk

    /// Appends assets as they are, in one transaction and the engine's fastest way (a prepared
    /// statement on SQLite, `COPY` on PostgreSQL): for filling a catalog, as benchmarks' fixtures
    /// and restores do. Nothing is logged or queued and no duplicate is looked for; a content
    /// hash an asset already has fails the whole batch. Returns how many were inserted.
    func insertAssets(_ records: [AssetRecord]) async throws(LibraryError) -> Int
    /// Up to `limit` assets' records with row ids above `rowID`, in row-id order: the whole
    /// catalog, page by page.
    func assetRecords(afterRowID rowID: Int64, limit: Int) async throws(LibraryError) -> [AssetRecord]

    // MARK: The store

    /// The SQL engine underneath, for tools that copy whole tables between engines
    /// (``PhotoLibrary/migrateCatalog(ofLibraryAt:to:progress:)``); `nil` for a store that is not
    /// on one.
    var sqlDriver: (any SQLDriver)? { get }

    /// A short description for messages: `SQLite at PATH`, `PostgreSQL at HOST:PORT/DB`.
    var location: String { get }
    /// Closes connections. The store is not used afterwards.
    func close() async
}
