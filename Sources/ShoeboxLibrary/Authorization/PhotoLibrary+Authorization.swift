import Foundation
import ShoeboxImaging
import Synchronization

/// What a library's client may read.
enum ReadScope: Sendable {
    /// Everything: Shoebox's own tools, or a client with full read-write access.
    case all
    /// What the client created or the user shared with it.
    case limited(client: String)
}

extension PhotoLibrary {
    /// The client a client token belongs to and the person it acts for, whoever's the token is
    /// (a server's look-up of a bearer token); `nil` for an unknown or revoked token, or when the
    /// client or its person is gone. The person may be disabled: the caller refuses them.
    package func clientAndPerson(forToken token: String) async throws(LibraryError) -> (ClientManifest, Person)? {
        guard !token.isEmpty, let (identifier, row) = try await catalog.client(forTokenHash: Authorization.tokenHash(token)),
            let person = try await catalog.person(rowID: row),
            let manifest = try await scoped(to: row).catalog.client(identifier)
        else { return nil }
        return (manifest, person)
    }

    /// Checks that this library's client may read the library (all of it, or a limited
    /// selection), as it is decided now.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when it may not.
    public func checkReadAccess() async throws(LibraryError) {
        _ = try await readScope()
    }

    /// Checks that this library's client may read, and says what it may see. Read each time, so
    /// a decision changed in Settings › Privacy applies at once.
    func readScope() async throws(LibraryError) -> ReadScope {
        guard let client = clientIdentifier else { return .all }
        let service = Authorization.Service.photoLibrary(.readWrite)
        switch try await Authorization.status(for: service, client: client, in: self) {
        case .authorized: return .all
        case .limited: return .limited(client: client)
        case let status: throw .authorization(.notAuthorized(client: client, service: service, status: status))
        }
    }

    /// Which assets this library's client may see now (`nil`: all); throws when it may no longer
    /// read. Fetch results hold every page they hand out to it, so a snapshot made before a
    /// grant was narrowed or taken away reads no more than the grant allows now.
    func currentVisibility() async throws(LibraryError) -> (@Sendable (Asset) -> Bool)? {
        let scope = try await readScope()
        guard case .limited = scope else { return nil }
        let selection = try await visibleSelection(in: scope)
        return { [self] asset in isVisible(asset, in: scope, selection: selection) }
    }

    /// `options` narrowed to what this library's client may see, with what a search needs to
    /// know of the album titles (``FetchOptions/wordsInAlbumTitles``).
    func scoped(_ options: FetchOptions) async throws(LibraryError) -> FetchOptions {
        var scoped = options
        var limitedTo: String?
        if case .limited(let client) = try await readScope() {
            scoped.visibleToClient = client
            limitedTo = client
        }
        if clientIdentifier != nil {
            // Apps never read partners' photos, whatever the options say.
            (scoped.partnerWindows, scoped.includesOwnAssets) = ([], true)
        } else if options.includePartnerAssets {
            scoped.partnerWindows = try await partnerWindowsInTimeline()
        }
        // The Shared Library's assets are a participant's own (their apps' too, as their grants allow).
        scoped.includesSharedLibraryAssets = try await catalog.isInSharedLibrary()
        let words = options.predicate.map(Self.searchWords) ?? []
        if !words.isEmpty {
            // Folded titles hold at least what SQL's LIKE finds in them: a word no title holds
            // here is in none there. A client with limited access searches only its own albums'
            // titles (the store reads no others for it either).
            let titles = try await catalog.albums().filter { limitedTo == nil || $0.creatorClient == limitedTo }
                .map { AssetSearchText.words(in: $0.localizedTitle).joined(separator: " ") }
            scoped.wordsInAlbumTitles = Set(words.filter { word in titles.contains { $0.contains(word) } })
        }
        return scoped
    }

    /// The folded words of every ``FetchOptions/Predicate/text(_:)`` in `predicate`.
    static func searchWords(_ predicate: FetchOptions.Predicate) -> [String] {
        switch predicate {
        case .text(let text): AssetSearchText.words(in: text)
        case .all(let predicates), .any(let predicates): predicates.flatMap(searchWords)
        case .not(let inner): searchWords(inner)
        default: []
        }
    }

    /// The current row of an asset this library's client may read (the gate for pixels, data
    /// and editing input). Logs the read as `action`.
    func authorizedAsset(_ localIdentifier: String, action: String) async throws(LibraryError) -> Asset {
        let scope = try await readScope()
        guard let asset = try await catalog.asset(localIdentifier: localIdentifier),
            isVisible(asset, in: scope, selection: try await visibleSelection(in: scope))
        else {
            throw .notFound(localIdentifier: localIdentifier)
        }
        log(action, localIdentifier)
        return asset
    }

    /// The assets the user shared with a client that has limited access (`nil`: it sees everything).
    func visibleSelection(in scope: ReadScope) async throws(LibraryError) -> Set<String>? {
        switch scope {
        case .all: nil
        case .limited(let client): Set(try await catalog.limitedSelection(client: client))
        }
    }

    func isVisible(_ asset: Asset, in scope: ReadScope, selection: Set<String>?) -> Bool {
        switch scope {
        case .all: return true
        case .limited(let client):
            return asset.creatorClient == client || selection?.contains(asset.localIdentifier) == true
        }
    }

    /// Checks a change against this library's client's access: creating needs read-write
    /// (authorized or limited) or add-only; anything else needs read-write, and with limited
    /// access may touch only assets the client may see.
    func authorizeChanges(_ recorded: [ChangeTransaction.Request]) async throws(LibraryError) {
        guard let client = clientIdentifier else { return }
        var touched: [String] = []
        var createsOnly = true
        var placeholders = Set<String>()
        // Albums and folders: changed (renamed, filled, emptied, moved, filed into) and deleted.
        var changedAlbums: [String] = []
        var deletedAlbums: [String] = []
        var albumPlaceholders = Set<String>()
        for request in recorded {
            switch request {
            case .asset(let asset):
                switch asset.kind {
                case .create:
                    if let placeholder = asset.placeholderForCreatedAsset { placeholders.insert(placeholder.localIdentifier) }
                case .modify(let identifier):
                    createsOnly = false
                    touched.append(identifier)
                case .delete(let identifiers), .restore(let identifiers), .purge(let identifiers):
                    createsOnly = false
                    touched += identifiers
                }
            case .collection(let collection):
                createsOnly = false
                switch collection.kind {
                case .create(_, let placeholder, _): albumPlaceholders.insert(placeholder)
                case .modify(let identifier): changedAlbums.append(identifier)
                case .delete(let identifiers): deletedAlbums += identifiers
                }
                for operation in collection.recordedOperations {
                    switch operation {
                    case .add(let identifiers), .remove(let identifiers): touched += identifiers
                    case .moveToFolder(let folder?): changedAlbums.append(folder)
                    default: break
                    }
                }
            }
        }
        let readWrite = Authorization.Service.photoLibrary(.readWrite)
        let readWriteStatus = try await Authorization.status(for: readWrite, client: client, in: self)
        if createsOnly {
            let addOnly = Authorization.Service.photoLibrary(.addOnly)
            let addStatus = try await Authorization.status(for: addOnly, client: client, in: self)
            guard addStatus == .authorized || readWriteStatus == .authorized || readWriteStatus == .limited else {
                throw .authorization(.notAuthorized(client: client, service: addOnly, status: addStatus))
            }
            return
        }
        try await authorizeAlbumChanges(
            changed: changedAlbums.filter { !albumPlaceholders.contains($0) },
            deleted: deletedAlbums.filter { !albumPlaceholders.contains($0) },
            client: client, status: readWriteStatus)
        switch readWriteStatus {
        case .authorized:
            return
        case .limited:
            let selection = Set(try await catalog.limitedSelection(client: client))
            let outside = touched.filter { !placeholders.contains($0) && !selection.contains($0) }
            let found = try await catalog.assets(localIdentifiers: outside)
            for identifier in outside {
                guard let asset = found[identifier], asset.creatorClient == client else {
                    throw .authorization(.notAuthorized(client: client, service: readWrite, status: .limited))
                }
            }
        case let status:
            throw .authorization(.notAuthorized(client: client, service: readWrite, status: status))
        }
    }

    /// Albums a client may change and delete: a limited client only its own (it sees no others);
    /// a client with full access may change the user's albums too, as PhotoKit allows, but
    /// deletes only its own: the user's albums are the user's to delete.
    private func authorizeAlbumChanges(changed: [String], deleted: [String], client: String, status: Authorization.Status) async throws(LibraryError) {
        // Other statuses are refused whatever the change (below, by the caller).
        guard !changed.isEmpty || !deleted.isEmpty, status == .authorized || status == .limited else { return }
        for identifier in Set(changed + deleted) {
            guard let album = try await catalog.album(localIdentifier: identifier) else { continue }  // the change reports it missing
            let isOwn = album.creatorClient == client
            if isOwn { continue }
            if status == .limited {
                // Not its own: for a limited client the album does not exist.
                throw .notFound(localIdentifier: identifier)
            }
            if deleted.contains(identifier) {
                throw .notDeletable(localIdentifier: identifier, title: album.localizedTitle, client: client)
            }
        }
    }

    /// Records that the user did not let this library's client delete `identifiers` (to Recently
    /// Deleted, or for good with `permanently`): `deleteDeclined` or `purgeDeclined` entries in
    /// its report, as a declined deletion is something the app tried.
    package func logDeclinedDeletion(of identifiers: [String], permanently: Bool) {
        logAll(identifiers.map { (permanently ? "purgeDeclined" : "deleteDeclined", $0, "the user did not allow it") })
    }

    /// Records what this library's client did (Shoebox's own tools are not logged). Logging
    /// never fails the operation it records.
    func log(_ action: String, _ localIdentifier: String, detail: String? = nil) {
        logAll([(action, localIdentifier, detail)])
    }

    /// Records a fetch this library's client ran: one `fetch` entry with an empty identifier and
    /// the count (`"1 asset"`, `"N assets"`). The assets themselves are recorded by ``logRevealed(_:)`` as the
    /// client receives them.
    func logFetch(count: Int) {
        log("fetch", "", detail: count == 1 ? "1 asset" : "\(count) assets")
    }

    /// Records that this library's client received these assets in a fetch: a `fetch` entry with
    /// each asset's identifier, the first time this library object hands the asset out.
    ///
    /// Called where assets are actually materialised for the client — a ``FetchResult`` page
    /// that loads, a keyset page — never for a fetch's row ids, so a million-asset fetch of which
    /// the client reads one screen records one screen. Re-reading (scrolling back, fetching
    /// again) records nothing new; the remembered set is capped at
    /// ``AccessLogBuffer/revealedLimit`` and starts over when full, which can only repeat
    /// entries, never lose one.
    func logRevealed(_ assets: some Sequence<Asset>) {
        guard clientIdentifier != nil else { return }
        let fresh = accessLogBuffer.withLock { buffer -> [String] in
            var fresh: [String] = []
            for asset in assets where !buffer.revealed.contains(asset.rowID) {
                if buffer.revealed.count >= AccessLogBuffer.revealedLimit { buffer.revealed.removeAll(keepingCapacity: true) }
                buffer.revealed.insert(asset.rowID)
                fresh.append(asset.localIdentifier)
            }
            return fresh
        }
        logAll(fresh.map { ("fetch", $0, nil) })
    }

    /// Buffers entries for the catalog.
    ///
    /// Entries are written at most every half second, in one transaction, from a background
    /// task (and when the library object goes away), so that a grid of thumbnails or a page of
    /// fetched assets does not cost the caller a catalog commit. Only when more than
    /// ``AccessLogBuffer/backlogLimit`` entries wait are they written at once (still in the
    /// background), which bounds the buffer's memory.
    func logAll(_ entries: [(action: String, localIdentifier: String, detail: String?)]) {
        guard let client = clientIdentifier, !entries.isEmpty else { return }
        let now = Date()
        let (count, schedule) = accessLogBuffer.withLock { buffer -> (Int, Bool) in
            buffer.entries += entries.map {
                AccessLogEntry(date: now, client: client, action: $0.action, localIdentifier: $0.localIdentifier, detail: $0.detail)
            }
            defer { buffer.flushScheduled = true }
            return (buffer.entries.count, !buffer.flushScheduled)
        }
        if count >= AccessLogBuffer.backlogLimit {
            Task { [self] in await flushAccessLog() }
        } else if schedule {
            Task.detached { [weak self] in
                try? await Task.sleep(for: .milliseconds(500))
                await self?.flushAccessLog()
            }
        }
    }

    /// Records in the access log that the user handed these assets to `client` through the
    /// picker (action `picked`): the picker needs no library grant, and the privacy report still
    /// shows what the client received.
    package func logPickerDelivery(of localIdentifiers: [String], to client: String) async {
        let now = Date()
        let entries = localIdentifiers.map {
            AccessLogEntry(date: now, client: client, action: "picked", localIdentifier: $0, detail: nil)
        }
        try? await catalog.logAccess(entries)
    }

    /// Writes buffered access-log entries now; when it returns, every entry logged before the
    /// call is in the catalog, those a flush already under way was writing included.
    public func flushAccessLog() async {
        await accessLogFlushes.run {
            let entries = accessLogBuffer.withLock { buffer in
                defer {
                    buffer.entries.removeAll()
                    buffer.flushScheduled = false
                }
                return buffer.entries
            }
            if !entries.isEmpty { try? await catalog.logAccess(entries) }
        }
    }
}

/// Access-log entries waiting to be written, and which assets this library object has already
/// recorded as fetched.
struct AccessLogBuffer: Sendable {
    /// The most entries that wait for the background write before the logging caller writes them
    /// itself.
    static let backlogLimit = 5_000
    /// The most assets remembered as already recorded (row ids: about 1 MB of memory).
    static let revealedLimit = 65_536

    var entries: [AccessLogEntry] = []
    var flushScheduled = false
    /// Row ids of the assets already recorded as fetched, so they are recorded once.
    var revealed: Set<Int64> = []
}

extension PhotoLibrary {
    /// The asset, if this library's client may read it; the read is recorded in the access log
    /// under `action` (`original`, `video`, `thumbnail`, …). For servers that send an asset's
    /// files themselves.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the client may not read the library;
    ///   ``LibraryError/Code/notFound`` for an unknown asset or one outside a
    ///   limited selection.
    public func readableAsset(withLocalIdentifier identifier: String, action: String) async throws(LibraryError) -> Asset {
        try await authorizedAsset(identifier, action: action)
    }
}
