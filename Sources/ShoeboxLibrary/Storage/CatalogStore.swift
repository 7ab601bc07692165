import Foundation
import ShoeboxImaging

/// The catalog: everything a library knows about its assets, albums, edits, clients and
/// grants, and the change log — all but the bytes, which a ``BlobStore`` holds.
///
/// Shoebox ships two: SQLite (``PhotoLibrary/open(at:clientIdentifier:)``, the embedded default)
/// and PostgreSQL (``PhotoLibrary/Configuration/Catalog/postgres(_:)``, for a library shared by
/// several servers and workers). A third engine implements this protocol and is passed as
/// ``PhotoLibrary/Configuration/Catalog/custom(_:)``.
///
/// Every requirement is `async` and must never block the calling thread: the library calls them
/// from Swift's cooperative pool and from NIO's event loops.
///
/// What an implementation must guarantee:
/// - ``apply(_:beforeCommit:)`` is one transaction: everything or nothing, even with writers in
///   other processes or on other machines (no in-process locks alone).
/// - Content hashes are unique among assets: an insertion whose bytes an asset already holds is
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
package protocol CatalogStore: Sendable {
    // MARK: Assets

    /// The row ids of the assets matching `options`, in order.
    func assetRowIDs(matching options: FetchOptions) async throws(LibraryError) -> [Int64]
    /// The assets with these row ids (missing ones are left out; assets purged less than a day
    /// ago are returned as they were).
    func assets(rowIDs: [Int64]) async throws(LibraryError) -> [Int64: Asset]
    /// The assets with these identifiers (unknown ones are left out).
    func assets(localIdentifiers: [String]) async throws(LibraryError) -> [String: Asset]
    /// How many assets match.
    func count(matching options: FetchOptions) async throws(LibraryError) -> Int
    /// How many frames each of these bursts has among the assets `options` fetch (with every
    /// frame included); bursts with none are left out.
    func burstFrameCounts(_ burstIdentifiers: [String], matching options: FetchOptions) async throws(LibraryError) -> [String: Int]
    /// The count of each options' fetch, in one pass.
    func counts(matching list: [FetchOptions]) async throws(LibraryError) -> [Int]
    /// Assets per calendar month (`YYYY-MM`, as the clock read where each was taken: its creation
    /// date plus its UTC offset) of their creation date, in the order of the
    /// options' creation-date sort.
    func monthCounts(matching options: FetchOptions) async throws(LibraryError) -> [MonthCount]
    /// The assets matching `options` that have a place, per country and city
    /// (``AssetRecord/placeName``), with the most recently added one's row id as the cover.
    func placeCounts(matching options: FetchOptions) async throws(LibraryError) -> [PlaceCount]
    /// The assets matching `options` that have GPS, gathered in cells of `cellDegrees` of
    /// latitude and longitude.
    func mapClusters(matching options: FetchOptions, cellDegrees: Double) async throws(LibraryError) -> [MapClusterRow]
    // MARK: Shared links

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

    /// The assets matching `options` per local day taken and place (``AssetRecord/placeName``),
    /// oldest day first, with the most recently added one's row id: what memories are made of.
    func dayCounts(matching options: FetchOptions) async throws(LibraryError) -> [DayCount]
    /// Up to `limit` assets in the options' order after `after` (keyset paging).
    func assetPage(matching options: FetchOptions, after: Asset?, limit: Int) async throws(LibraryError) -> [Asset]
    /// An edit of an asset's content: the edit that made its current version, if it has one.
    func contentEdit(localIdentifier: String) async throws(LibraryError) -> ContentEdit?
    /// An edited asset's original length (its `duration` is the render's).
    func originalDuration(localIdentifier: String) async throws(LibraryError) -> Double?

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

    // MARK: Albums

    /// The user albums and folders, by title.
    func albums() async throws(LibraryError) -> [AssetCollection]
    /// The user album or folder with this identifier, with its count as ``albums()`` has it;
    /// `nil` for any other (smart albums are the library's, not the catalog's).
    func album(localIdentifier: String) async throws(LibraryError) -> AssetCollection?
    /// The row ids of an album's assets in album order, filtered as `options` says (its sort is ignored).
    func assetRowIDs(inAlbum localIdentifier: String, options: FetchOptions) async throws(LibraryError) -> [Int64]

    // MARK: Change log

    /// The newest change-log sequence number (0 when empty).
    func latestChangeSequence() async throws(LibraryError) -> Int64
    /// Change-log entries after `sequence`, oldest first.
    func changes(after sequence: Int64) async throws(LibraryError) -> [ChangeLogEntry]
    /// Returns when a commit may have added entries after `sequence` (at once if it already has),
    /// or after `timeout`. A commit in this process wakes it at once; on SQLite, the caller's
    /// loop finds other processes' commits every `timeout`; PostgreSQL listens for notifications
    /// (with a slow poll as the fallback for a missed one).
    func waitForChanges(after sequence: Int64, timeout: Duration) async

    // MARK: Blobs in flight

    /// Claims blobs for a change, in one transaction: a claim cancels a removal that is only
    /// pending (the bytes are wanted again). Answers ``ClaimOutcome/busy`` (and claims nothing)
    /// while another process is removing one of the blobs; the caller waits and tries again.
    func claim(_ claims: [BlobClaim], claimID: String, owner: String, expires: Date) async throws(LibraryError) -> ClaimOutcome
    /// Drops a change's claims (it failed or ended; `nil`: none) and marks for removal those of
    /// `candidates` no asset refers to and no other live claim holds. Returns the blobs marked.
    func releaseClaims(_ claimID: String?, candidates: [BlobKey]) async throws(LibraryError) -> [BlobKey]
    /// Blobs marked for removal.
    func pendingRemovals() async throws(LibraryError) -> [BlobKey]
    /// Takes a pending removal for `remover` until `expires` (unless another live remover holds
    /// it, or a claim cancelled it). Returns whether the caller may now remove the blob.
    func beginRemoval(of key: BlobKey, remover: String, expires: Date) async throws(LibraryError) -> Bool
    /// Ends a removal `remover` began: `removed` deletes the mark; otherwise the removal goes
    /// back to pending, for a later try.
    func finishRemoval(of key: BlobKey, remover: String, removed: Bool) async throws(LibraryError)
    /// Every claim, live or not.
    func blobClaims() async throws(LibraryError) -> [ClaimRecord]
    /// Settles a stale claim (its process died or it expired): with `adopt` and a pending record
    /// whose blob no asset refers to, inserts that record (the import a crash interrupted) and
    /// returns its identifier. The claim is deleted either way; an unreferenced render it held is
    /// marked for removal (returned). Originals are never marked here.
    func settleStaleClaim(_ record: ClaimRecord, adopt: Bool) async throws(LibraryError) -> (adopted: String?, removals: [BlobKey])

    // MARK: Clients and grants

    /// Stores a client's manifest, or replaces the one stored under its identifier (its
    /// decisions and tokens stay). The caller validates it.
    func register(_ manifest: ClientManifest) async throws(LibraryError)
    /// The registered client's manifest, or `nil` for an identifier never registered (or removed).
    func client(_ identifier: String) async throws(LibraryError) -> ClientManifest?
    /// Every registered client's manifest, by identifier.
    func clients() async throws(LibraryError) -> [ClientManifest]
    /// The stored status name for a client and service (`nil`: never decided).
    func grant(client: String, service: String) async throws(LibraryError) -> String?
    /// Stores the status name (an ``Authorization/Status`` raw value) for a client and service
    /// (``Authorization/Service/policyName``), or forgets it for `nil`; adds a `grant` change-log entry.
    func setGrant(client: String, service: String, status: String?) async throws(LibraryError)
    /// The identifiers of the assets the user shared with a limited client, in the order they
    /// were added to the library.
    func limitedSelection(client: String) async throws(LibraryError) -> [String]
    /// Replaces a client's limited selection and adds a `grant` change-log entry; throws
    /// ``LibraryError/Code/notFound`` for an unknown asset, changing nothing.
    func setLimitedSelection(_ assets: [String], client: String) async throws(LibraryError)
    /// Stores a new token for a client as its hash (SHA-256, lowercase hex): never the token.
    func addClientToken(hash: String, client: String) async throws(LibraryError)
    /// The identifier of the client whose token hashes to `hash`, or `nil` for an unknown or
    /// revoked token.
    func client(forTokenHash hash: String) async throws(LibraryError) -> String?
    /// Revokes every token of a client; its registration and decisions stay.
    func removeClientTokens(client: String) async throws(LibraryError)
    /// How many tokens a client holds (0 for a client unknown or without any).
    func clientTokenCount(client: String) async throws(LibraryError) -> Int
    /// Forgets a client: its registration, decisions, limited selection and tokens (its access
    /// log stays, the record of what it did).
    func removeClient(_ identifier: String) async throws(LibraryError)
    /// Appends entries to the access log, in order (an empty list writes nothing).
    func logAccess(_ entries: [AccessLogEntry]) async throws(LibraryError)
    /// A client's latest `limit` access-log entries, the newest first.
    func accessLog(client: String, limit: Int) async throws(LibraryError) -> [AccessLogEntry]

    // MARK: Authorization questions

    /// Adds a question, unless one for the same client and service is still pending: then that
    /// one is returned (two servers asking at once ask the user once). Questions past their
    /// expiry are marked expired first, and ones settled over a day ago removed. When the client
    /// already has a decision for the service (answered since the asker read its status), no
    /// question is added: the returned one, not stored, is answered with that decision.
    func addPrompt(_ prompt: AuthorizationPromptRecord) async throws(LibraryError) -> AuthorizationPromptRecord
    /// The question with this id, in whatever state; `nil` when unknown or removed (settled
    /// questions go after a day).
    func prompt(id: String) async throws(LibraryError) -> AuthorizationPromptRecord?
    /// Questions waiting for the user at `now`, oldest first.
    func pendingPrompts(now: Date) async throws(LibraryError) -> [AuthorizationPromptRecord]
    /// Records the user's answer to a pending, unexpired question and, in the same transaction,
    /// the decision it makes (`grant`: the status, and a limited selection); `false` when it was
    /// not pending (answered already, expired or unknown), and then nothing is recorded.
    func answerPrompt(
        id: String, answer: AuthorizationPromptRecord.Answer, now: Date, recording grant: (status: String, selection: [String]?)?
    ) async throws(LibraryError) -> Bool
    /// Marks a pending question expired; `false` when it was not pending.
    func expirePrompt(id: String) async throws(LibraryError) -> Bool

    // MARK: Picker sessions

    /// Adds a session (and forgets finished ones past ``PickerSessionRecord/finishedRetention``
    /// and abandoned ones past ``PickerSessionRecord/abandonedRetention``).
    func addPickerSession(_ record: PickerSessionRecord) async throws(LibraryError)
    /// The session with this id, finished or not; `nil` when unknown or forgotten.
    func pickerSession(id: String) async throws(LibraryError) -> PickerSessionRecord?
    /// Sessions changed after `date`, oldest first.
    func pickerSessions(updatedAfter date: Date) async throws(LibraryError) -> [PickerSessionRecord]
    /// Writes a session's new state over `version`: the new version, or `nil` when the stored one
    /// is no longer `version` (another server changed it) or the session has finished.
    func updatePickerSession(id: String, state: Data, finished: Bool, over version: Int) async throws(LibraryError) -> Int?

    // MARK: Resumable uploads

    /// Stores a new upload as it is (its id must not be in use).
    func addUpload(_ record: UploadRecord) async throws(LibraryError)
    /// The upload with this id, or `nil` when unknown (cancelled, or forgotten after it ended).
    func upload(id: String) async throws(LibraryError) -> UploadRecord?
    /// Uploads not changed since `date` (to expire or forget).
    func uploads(updatedBefore date: Date) async throws(LibraryError) -> [UploadRecord]
    /// How many uploads `owner` (`nil`: the user) has still receiving, and the bytes they declare.
    func receivingUploads(owner: String?) async throws(LibraryError) -> (count: Int, bytes: Int)
    /// Records a stored piece, if it starts where the upload stands and the upload still
    /// receives: the upload after it, or `nil` when it was refused (nothing changed then).
    func addUploadPiece(id: String, piece: UploadRecord.Piece) async throws(LibraryError) -> UploadRecord?
    /// Marks an upload ``UploadRecord/State/complete``, with the asset it became as its
    /// ``UploadRecord/assetIdentifier``.
    func completeUpload(id: String, assetIdentifier: String) async throws(LibraryError)
    /// Forgets an upload (nothing for an unknown id); its pieces in the ``BlobStore`` are the
    /// caller's to remove.
    func removeUpload(id: String) async throws(LibraryError)

    // MARK: Locks

    /// Runs `body` holding the library-wide lock `name`, or returns `nil` at once without
    /// running it when another process (with PostgreSQL, on any machine) holds that lock: for
    /// work of which one must run at a time, such as the sweeper. A holder that dies releases it.
    func withAdvisoryLock<T: Sendable>(_ name: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T?

    // MARK: Settings

    /// A library-wide setting.
    func setting(_ key: String) async throws(LibraryError) -> String?
    /// Stores a library-wide setting, or removes it for `nil`.
    func setSetting(_ key: String, to value: String?) async throws(LibraryError)
    /// The setting, stored as `value` first if it has none: of several processes doing this at
    /// once, every one gets the first one's value.
    func setting(_ key: String, default value: String) async throws(LibraryError) -> String

    /// A short description for messages: `SQLite at PATH`, `PostgreSQL at HOST:PORT/DB`.
    var location: String { get }
    /// Closes connections. The store is not used afterwards.
    func close() async

    // MARK: Jobs

    /// Adds jobs to the queue. A job of the same kind and subject that is queued or running
    /// absorbs the request; a failed one is queued again with its attempts reset. Returns how
    /// many jobs were added or queued again.
    func enqueue(_ jobs: [BackgroundJob.Request]) async throws(LibraryError) -> Int
    /// Claims up to `limit` due queued jobs of `kinds`, oldest first, for `owner` until
    /// `leaseExpires`, counting an attempt for each. No two claims get the same job.
    func claimJobs(kinds: [BackgroundJob.Kind], limit: Int, owner: String, leaseExpires: Date) async throws(LibraryError) -> [BackgroundJob]
    /// Moves the leases `owner` still holds on `ids` to `leaseExpires`; returns the ids it holds.
    func renewJobLeases(_ ids: [Int64], owner: String, leaseExpires: Date) async throws(LibraryError) -> [Int64]
    /// Ends a job `owner` holds: removed, or queued again for `next` (a repeating job). `false`
    /// when `owner` no longer held it (its lease ended and the job went to someone else).
    func finishJob(_ id: Int64, owner: String, next: Date?) async throws(LibraryError) -> Bool
    /// Removes the finished jobs among `ids` that `owner` holds; returns their ids. The subjects
    /// of finished ``BackgroundJob/Kind/derivatives`` jobs are logged as changed (their
    /// thumbnails now exist), so observers hear of it.
    func finishJobs(_ ids: [Int64], owner: String) async throws(LibraryError) -> [Int64]
    /// Subjects among `subjects` with a job of `kind` queued or running.
    func openJobSubjects(kind: BackgroundJob.Kind, among subjects: [String]) async throws(LibraryError) -> Set<String>
    /// Records a failed attempt with its error: queued again for `retryAt`, or kept as failed
    /// when `retryAt` is `nil`. `false` when `owner` no longer held the job.
    func failJob(_ id: Int64, owner: String, error: String, retryAt: Date?) async throws(LibraryError) -> Bool
    /// Puts a job `owner` holds back in the queue at once, the attempt not counted (a stopping
    /// worker's). `false` when `owner` no longer held it.
    func handBackJob(_ id: Int64, owner: String) async throws(LibraryError) -> Bool
    /// Hands back running jobs whose lease ended or whose worker is known dead (failed when that
    /// was their last attempt); returns how many.
    func reapJobs(now: Date) async throws(LibraryError) -> Int
    /// Jobs in `states`, due first.
    func jobs(states: [BackgroundJob.State], limit: Int) async throws(LibraryError) -> [BackgroundJob]
    /// How many jobs there are of each kind in each state.
    func jobCounts() async throws(LibraryError) -> [JobCount]
    /// Queues failed jobs again (those in `ids`, or all when `nil`) with their attempts reset.
    func retryJobs(_ ids: [Int64]?) async throws(LibraryError) -> Int
    /// Removes queued and failed jobs (those in `ids`, or all when `nil`); running jobs finish.
    func cancelJobs(_ ids: [Int64]?) async throws(LibraryError) -> Int
    /// Returns when jobs may have been queued (by this process, or by any on a catalog that can
    /// notify), or after `timeout`.
    func waitForJobs(timeout: Duration) async

    // MARK: Search

    /// Writes the search words (``AssetSearchText``) of up to `limit` assets that have none yet
    /// (rows from before search, or written by a store that does not index); returns how many.
    func fillSearchText(limit: Int) async throws(LibraryError) -> Int

    /// Clears the search words of every asset with GPS (``fillSearchText(limit:)`` writes them
    /// and the place names again by the place table there now), and returns the local identifiers of the
    /// assets with GPS whose local time should be read again (`zonesToReread`).
    func forgetPlaceNames(zonesToReread: PlaceZoneReread) async throws(LibraryError) -> [String]
}

/// How many assets of a fetch were taken in one city (or, with no `name`, elsewhere in a country).
package struct PlaceCount: Sendable, Hashable {
    /// The country's ISO 3166 code (``AssetRecord/placeCountry``).
    package let country: String
    /// The city (``AssetRecord/placeName``), or `nil` for those taken away from every named place.
    package let name: String?
    /// How many assets of the fetch were taken there.
    package let count: Int
    /// The middle of where they were taken.
    package let latitude: Double
    /// The mean longitude of where they were taken, in degrees.
    package let longitude: Double
    /// The row id of the most recently added one.
    package let coverRowID: Int64

    /// A count as ``CatalogStore/placeCounts(matching:)`` returns it.
    package init(country: String, name: String?, count: Int, latitude: Double, longitude: Double, coverRowID: Int64) {
        (self.country, self.name, self.count, self.latitude, self.longitude, self.coverRowID) = (country, name, count, latitude, longitude, coverRowID)
    }
}

/// The assets of a fetch taken in one cell of a map: how many, their middle and their bounds.
package struct MapClusterRow: Sendable, Hashable {
    /// How many assets of the fetch have GPS in the cell.
    package let count: Int
    /// The mean latitude of the cell's assets, in degrees: where a map shows the cluster.
    package let latitude: Double
    /// The mean longitude of the cell's assets, in degrees.
    package let longitude: Double
    /// The lowest latitude among them, in degrees.
    package let south: Double
    /// The lowest longitude among them, in degrees (cells never cross the antimeridian).
    package let west: Double
    /// The highest latitude among them, in degrees.
    package let north: Double
    /// The highest longitude among them, in degrees.
    package let east: Double
    /// The row id of the most recently added one.
    package let coverRowID: Int64

    /// A cell as ``CatalogStore/mapClusters(matching:cellDegrees:)`` returns it.
    package init(count: Int, latitude: Double, longitude: Double, south: Double, west: Double, north: Double, east: Double, coverRowID: Int64) {
        (self.count, self.latitude, self.longitude, self.coverRowID) = (count, latitude, longitude, coverRowID)
        (self.south, self.west, self.north, self.east) = (south, west, north, east)
    }
}

/// How many assets of a fetch were taken on one day (the clock where they were taken) in one place.
package struct DayCount: Sendable, Hashable {
    /// `YYYY-MM-DD`.
    package let day: String
    /// The ISO 3166 code of the country (``AssetRecord/placeCountry``), or `nil` when not known.
    package let country: String?
    /// The city (``AssetRecord/placeName``), or `nil` when not known.
    package let place: String?
    /// How many assets of the fetch were taken that day in that place.
    package let count: Int
    /// The row id of the most recently added one.
    package let coverRowID: Int64

    /// A count as ``CatalogStore/dayCounts(matching:)`` returns it.
    package init(day: String, country: String?, place: String?, count: Int, coverRowID: Int64) {
        (self.day, self.country, self.place, self.count, self.coverRowID) = (day, country, place, count, coverRowID)
    }
}

/// How many assets of a fetch were taken in one calendar month
/// (``CatalogStore/monthCounts(matching:)``).
package struct MonthCount: Sendable, Hashable {
    /// `YYYY-MM`, the month as the clock read where the assets were taken.
    package let month: String
    /// How many assets of the fetch were taken in ``month``.
    package let count: Int

    /// A count as ``CatalogStore/monthCounts(matching:)`` returns it.
    package init(month: String, count: Int) {
        self.month = month
        self.count = count
    }
}

/// An edit of an asset's content, as the catalog keeps it.
public struct ContentEdit: Sendable, Hashable {
    /// SHA-256 of the render's bytes (lowercase hex), filed in `renders/`.
    public let renderHash: String
    /// The render's Uniform Type Identifier, which need not be the original's.
    public let renderUniformTypeIdentifier: String
    /// The render's size in bytes.
    public let renderFileSize: Int
    /// The render's upright size and length.
    public let pixelWidth: Int
    /// The render's height as displayed (upright), in pixels.
    public let pixelHeight: Int
    /// The render's length in seconds (0 for photos).
    public let duration: Double
    /// What the edit did, for its editor to read back and continue (`PHAdjustmentData`).
    public let adjustmentData: AdjustmentData
    /// The client that made the edit; `nil` for the user with Shoebox's own tools.
    public let editorClient: String?
    /// When the edit was made.
    public let date: Date
    /// The original's upright size and length, as they were when the edit was made (0 when not
    /// known).
    public let originalPixelWidth: Int
    /// The original's height as displayed (upright), in pixels (0 when not known).
    public let originalPixelHeight: Int
    /// The original's length in seconds (0 for photos, or when not known).
    public let originalDuration: Double

    /// An edit to record, or one read back. The `original…` values matter only when read: applying
    /// an edit keeps the original's size and length the catalog already has, else the asset's own.
    public init(
        renderHash: String, renderUniformTypeIdentifier: String, renderFileSize: Int, pixelWidth: Int, pixelHeight: Int,
        duration: Double, adjustmentData: AdjustmentData, editorClient: String?, date: Date,
        originalPixelWidth: Int = 0, originalPixelHeight: Int = 0, originalDuration: Double = 0
    ) {
        self.originalPixelWidth = originalPixelWidth
        self.originalPixelHeight = originalPixelHeight
        self.originalDuration = originalDuration
        self.renderHash = renderHash
        self.renderUniformTypeIdentifier = renderUniformTypeIdentifier
        self.renderFileSize = renderFileSize
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.duration = duration
        self.adjustmentData = adjustmentData
        self.editorClient = editorClient
        self.date = date
    }
}

/// A change to an asset's pixels.
package enum ContentChange: Sendable, Hashable {
    /// The edit becomes the asset's current version: its render replaces any earlier one
    /// (``AssetChangeRequest/contentEditingOutput``).
    case edit(ContentEdit)
    /// The edit is dropped and the original, at its own size and length, is the current version
    /// again; nothing for an asset never edited (``AssetChangeRequest/revertAssetContentToOriginal()``).
    case revert
}

/// One object touched by one commit.
package struct ChangeLogEntry: Sendable, Hashable {
    /// The entry's number in the log, increasing with each entry
    /// (``CatalogStore/changes(after:)`` reads after one).
    package let sequence: Int64
    /// The commit that wrote it (a UUID): entries of one transaction share it.
    package let commitID: String
    /// When the commit was made, by the clock of the process that made it.
    package let date: Date
    /// `insert`, `update`, `delete` or `album` (naming an asset or an album), or `grant`: a
    /// decision about a client changed (its grants, its limited selection, or its removal), and
    /// ``localIdentifier`` is the client's identifier.
    package let kind: String
    /// The asset or album the entry names, or the client's identifier for `grant`.
    package let localIdentifier: String

    /// An entry as ``CatalogStore/changes(after:)`` returns it.
    package init(sequence: Int64, commitID: String, date: Date, kind: String, localIdentifier: String) {
        self.sequence = sequence
        self.commitID = commitID
        self.date = date
        self.kind = kind
        self.localIdentifier = localIdentifier
    }
}

/// A blob as the catalog names it.
package struct BlobKey: Sendable, Hashable, CustomStringConvertible {
    /// Whether it is an original or a render: the folder it is filed in.
    package let kind: BlobKind
    /// The SHA-256 of the bytes, lowercase hex.
    package let hash: String

    /// The key of the `kind` blob whose bytes hash to `hash` (lowercase hex).
    package init(kind: BlobKind, hash: String) {
        self.kind = kind
        self.hash = hash
    }

    /// `KIND HASH` (`original 9f86d0…`), for messages; also the name of the blob's PostgreSQL
    /// advisory lock.
    package var description: String { "\(kind.rawValue) \(hash)" }
}

/// One blob a change is about to file.
package struct BlobClaim: Sendable {
    /// The blob the change will file.
    package let key: BlobKey
    /// The record the import would insert (for adoption after a crash); `nil` for renders.
    package let pendingRecord: AssetRecord?

    /// A claim on `key`, with the record to adopt should the import be interrupted.
    package init(key: BlobKey, pendingRecord: AssetRecord?) {
        self.key = key
        self.pendingRecord = pendingRecord
    }

    /// How long a claim holds without its change committing or failing: long enough for the
    /// slowest upload of a blob to object storage.
    package static let lease: TimeInterval = 6 * 3_600

    /// Whether a claim (or a removal) still holds: not expired, and its process not known dead.
    package static func isLive(owner: String, expires: Date, now: Date = Date()) -> Bool {
        guard expires > now else { return false }
        return ProcessIdentity(owner)?.mayBeAlive ?? true
    }
}

/// What ``CatalogStore/claim(_:claimID:owner:expires:)`` did.
package enum ClaimOutcome: Sendable, Hashable {
    /// The blobs are claimed.
    case claimed
    /// Another process is removing one of them right now: nothing was claimed; try again shortly.
    case busy(BlobKey)
}

/// A claim as the catalog holds it.
package struct ClaimRecord: Sendable {
    /// The claim's row id in the catalog.
    package let id: Int64
    /// The change it belongs to (``CatalogChanges/claimID``): a change's claims share it.
    package let claimID: String
    /// The claimed blob.
    package let key: BlobKey
    /// The claiming process, as `host/pid/start`: a claim of a process known dead is stale at once.
    package let owner: String
    /// When the claim lapses if its change neither commits nor fails (``BlobClaim/lease`` after
    /// an import claims it).
    package let expires: Date
    /// The asset the import would insert, for adoption after a crash
    /// (``CatalogStore/settleStaleClaim(_:adopt:)``); `nil` for renders.
    package let pendingRecord: AssetRecord?

    /// A claim as ``CatalogStore/blobClaims()`` returns it.
    package init(id: Int64, claimID: String, key: BlobKey, owner: String, expires: Date, pendingRecord: AssetRecord?) {
        self.id = id
        self.claimID = claimID
        self.key = key
        self.owner = owner
        self.expires = expires
        self.pendingRecord = pendingRecord
    }

    /// Whether the claim still holds now: not expired, and its owner not known dead
    /// (``BlobClaim/isLive(owner:expires:now:)``).
    package var isLive: Bool { BlobClaim.isLive(owner: owner, expires: expires) }
}

/// What a committed change did beyond its requests.
package struct CatalogCommit: Sendable {
    /// Placeholders whose bytes an asset already held → that asset.
    package var duplicates: [String: String] = [:]
    /// Placeholders whose bytes sat in Recently Deleted → the asset, now restored.
    package var restored: [String: String] = [:]
    /// Assets the purges deleted (those no longer trashed were left alone).
    package var purged: [String] = []
    /// Movies that became a Live Photo's paired video (their placeholder, or the identifier of a
    /// movie already in the library, which is gone now) → the Live Photo.
    package var paired: [String: String] = [:]
    /// Blobs marked for removal.
    package var removals: [BlobKey] = []
    /// How many jobs the change queued (or queued again).
    package var queuedJobs = 0

    /// An empty result, which the store fills as the transaction goes.
    package init() {}
}

/// One transaction's worth of catalog writes.
package struct CatalogChanges: Sendable {
    /// An album created by the change.
    package struct AlbumCreation: Sendable {
        /// The new album's identifier (the creation's placeholder).
        package let localIdentifier: String
        /// Its name as shown.
        package let title: String
        /// Whether it is a folder, which holds albums and folders rather than assets.
        package let isFolder: Bool
        /// The client making it (`nil`: the user).
        package let creatorClient: String?

        /// An album or folder to create, at the top level.
        package init(localIdentifier: String, title: String, isFolder: Bool, creatorClient: String? = nil) {
            self.localIdentifier = localIdentifier
            self.title = title
            self.isFolder = isFolder
            self.creatorClient = creatorClient
        }
    }

    /// The claim this change holds on the blobs it filed, and how many blobs it claimed.
    package var claimID: String?
    /// How many blobs the change claimed under ``CatalogChanges/claimID``: the commit fails
    /// unless every one is still held.
    package var claimCount = 0
    /// New assets (their `id` is nil; their identifier is the creation's placeholder).
    package var insertions: [AssetRecord] = []
    /// Changes to existing assets' fields and content, applied in order.
    package var updates: [AssetUpdate] = []
    /// Assets to delete for good, if they are still in Recently Deleted.
    package var purges: [String] = []
    /// Albums and folders to create.
    package var albumCreations: [AlbumCreation] = []
    /// Changes to albums, in request order; asset identifiers may be placeholders listed in `aliases`.
    package var albumOperations: [(localIdentifier: String, operations: [AssetCollectionChangeRequest.Operation])] = []
    /// Albums and folders to delete. A deleted folder's albums and folders move up a level;
    /// the assets stay in the library.
    package var albumDeletions: [String] = []
    /// Placeholder identifiers of duplicate creations → the existing assets' (or another
    /// placeholder of this change, for the same bytes twice).
    package var aliases: [String: String] = [:]
    /// Jobs the change calls for, queued in its transaction (per-asset jobs of creations that
    /// turned out duplicates are dropped).
    package var jobs: [BackgroundJob.Request] = []

    /// A change with nothing in it.
    package init() {}

    /// The asset an identifier names once aliases are followed.
    package func resolve(_ identifier: String) -> String {
        var current = identifier
        for _ in 0..<4 {
            guard let next = aliases[current], next != current else { break }
            current = next
        }
        return current
    }
}

/// New values for one asset's editable fields (`nil`: unchanged).
package struct AssetUpdate: Sendable {
    /// The asset to change.
    package let localIdentifier: String
    /// Marks it as a favourite, or unmarks it.
    package var isFavorite: Bool?
    /// Hides it, or shows it again.
    package var isHidden: Bool?
    /// Moves when it was taken (its zone stays) and marks the date as the user's.
    package var creationDate: Date?
    /// `.some(nil)` restores from Recently Deleted.
    package var trashedDate: Date??
    /// A new location, or `.some(nil)` to remove it; either marks the location as the user's.
    package var location: Asset.Location??
    /// An edit of its pixels, or a revert to the original.
    package var content: ContentChange?
    /// What the asset's original file says, read again (the `metadata` job).
    package var fileMetadata: FileMetadata?
    /// Makes the asset its burst's key photo, chosen by the user (the other frames lose that
    /// choice).
    package var makesBurstKeyPhoto = false

    /// What reading an original gives the catalog. A date or location the file lacks is `nil`
    /// (and changes nothing).
    package struct FileMetadata: Sendable, Hashable {
        /// Width as displayed (upright), in pixels; applied only to an unedited asset.
        package var pixelWidth: Int
        /// Height as displayed (upright), in pixels; applied only to an unedited asset.
        package var pixelHeight: Int
        /// Length in seconds (0 for photos); applied only to an unedited asset.
        package var duration: Double
        /// ``Asset/MediaSubtypes`` raw value the file gives (a Live Photo's comes from its
        /// companion and is kept).
        package var mediaSubtypes: Int
        /// When it was taken, with the zone it was taken in.
        package var captureTime: CaptureTime?
        /// Where it was taken; never replaces a location the user set.
        package var location: Asset.Location?
        /// The camera that took it (`nil` when the file does not say).
        package var camera: Camera?
        /// Apple's burst identifier, when the file has one.
        package var burstIdentifier: String?
        /// The lens (EXIF `LensModel`), when the file names it.
        package var lensModel: String?

        /// A camera as EXIF names it.
        package struct Camera: Sendable, Hashable {
            /// EXIF `Make`, if the file has it.
            package var make: String?
            /// EXIF `Model`.
            package var model: String
            /// EXIF `BodySerialNumber` (else the maker note's), if the file has it.
            package var serialNumber: String?
            /// Whether its drive was set to shoot continuously, if the maker note says.
            package var continuousDrive: Bool?

            /// The camera `metadata` names, if it names a model.
            package init?(_ metadata: ImageMetadata) {
                guard let model = metadata.model else { return nil }
                (make, self.model, serialNumber) = (metadata.make, model, metadata.bodySerialNumber)
                continuousDrive = metadata.continuousDrive
            }
        }

        /// What reading an original gave; the camera, burst identifier and lens default to none.
        package init(
            pixelWidth: Int, pixelHeight: Int, duration: Double, mediaSubtypes: Int, captureTime: CaptureTime?, location: Asset.Location?,
            camera: Camera? = nil, burstIdentifier: String? = nil, lensModel: String? = nil
        ) {
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
            self.duration = duration
            self.mediaSubtypes = mediaSubtypes
            self.captureTime = captureTime
            self.location = location
            self.camera = camera
            self.burstIdentifier = burstIdentifier
            self.lensModel = lensModel
        }
    }

    /// An update of the fields given; ``AssetUpdate/fileMetadata`` and
    /// ``AssetUpdate/makesBurstKeyPhoto`` are set afterwards.
    package init(
        localIdentifier: String, isFavorite: Bool? = nil, isHidden: Bool? = nil, creationDate: Date? = nil,
        trashedDate: Date?? = nil, location: Asset.Location?? = nil, content: ContentChange? = nil
    ) {
        self.localIdentifier = localIdentifier
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.creationDate = creationDate
        self.trashedDate = trashedDate
        self.location = location
        self.content = content
    }
}

extension CatalogStore {
    /// A store without a search index of its own has nothing to fill.
    package func fillSearchText(limit: Int) async throws(LibraryError) -> Int { 0 }

    /// A store without place columns of its own has nothing to forget.
    package func forgetPlaceNames(zonesToReread: PlaceZoneReread) async throws(LibraryError) -> [String] { [] }

    /// The asset with this identifier, if any.
    func asset(localIdentifier: String) async throws(LibraryError) -> Asset? {
        try await assets(localIdentifiers: [localIdentifier])[localIdentifier]
    }
}
