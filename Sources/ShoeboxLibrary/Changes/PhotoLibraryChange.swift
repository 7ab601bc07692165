import Foundation

/// One committed change to the library, from this process or another: what
/// `PHPhotoLibraryChangeObserver.photoLibraryDidChange(_:)` receives.
///
/// ```swift
/// let recents = try await library.fetchAssets(with: FetchOptions())
/// for try await change in try await library.changes() {
///     if let details = try await change.details(for: recents) {
///         print(details.insertedIndexes, details.removedIndexes, details.changedIndexes)
///     }
/// }
/// ```
public struct PhotoLibraryChange: Sendable {
    /// Assets added.
    public let insertedAssetIdentifiers: Set<String>
    /// Assets whose properties changed (favorite, hidden, trashed, date, location, …).
    public let changedAssetIdentifiers: Set<String>
    /// Assets removed for good (purged).
    public let removedAssetIdentifiers: Set<String>
    /// Albums created, changed or deleted.
    public let changedCollectionIdentifiers: Set<String>
    /// Shared albums whose people, photos, likes or comments changed (``SharedAlbum``), the
    /// person's own and those shared with them; one that they were just taken out of too.
    public internal(set) var changedSharedAlbumIdentifiers: Set<String> = []
    /// The people (``Person/id``) whose partner sharing with the person changed (``PartnerShare``):
    /// begun, its date changed, shown in a timeline or not, ended; on either side.
    public internal(set) var changedPartnerIdentifiers: Set<String> = []
    /// The people (``Person/id``) whose place in the Shared Library changed (``SharedLibrary``):
    /// invited, joined, declined, left, their default changed. Empty when it did not change.
    public internal(set) var changedSharedLibraryParticipants: Set<String> = []
    /// Whether photos a partner shares with the person changed (added, changed, deleted; the
    /// change names none of them, since the share may not show them): a fetch that shows a
    /// partner's photos may differ, and ``details(for:)`` tells.
    public internal(set) var touchesPartnerAssets = false
    /// Whether the change names nothing of the person's own: only a partner's photos changed.
    package var isOnlyPartnerAssets: Bool {
        touchesPartnerAssets && insertedAssetIdentifiers.isEmpty && changedAssetIdentifiers.isEmpty && removedAssetIdentifiers.isEmpty
            && changedCollectionIdentifiers.isEmpty && changedSharedAlbumIdentifiers.isEmpty && changedPartnerIdentifiers.isEmpty
            && changedSharedLibraryParticipants.isEmpty
    }
    /// The change log's position after this change.
    public let sequence: Int64

    /// The token just after this change: ``PhotoLibrary/changes(since:pollingEvery:)`` with it
    /// goes on from here.
    public var token: PersistentChangeToken { PersistentChangeToken(sequence: sequence) }

    let library: PhotoLibrary

    /// How `fetchResult` changes: `nil` when this change does not touch it.
    ///
    /// The fetch is run again with the same options; the details tell, as
    /// `PHFetchResultChangeDetails` does, which indexes were removed (in the old result), inserted
    /// and changed (in the new one), and which objects moved.
    public func details(for fetchResult: FetchResult<Asset>) async throws(LibraryError) -> FetchResult<Asset>.ChangeDetails? {
        guard let after = try await fetchResult.refetch?() else { return nil }
        let changed = try await library.catalog.assets(localIdentifiers: Array(changedAssetIdentifiers))
        let touched = Set(changed.values.map(\.rowID))
        let details = FetchResult<Asset>.ChangeDetails(before: fetchResult, after: after) { touched.contains($0) }
        return details.isEmpty ? nil : details
    }
}

extension PhotoLibraryChange {
    /// This change as `library`'s client may see it: for the user and clients with full access,
    /// the change itself; for a client with limited access, only the assets it may see (those
    /// shared with it and those it made), no removed identifiers (a purged asset can no longer be
    /// checked) and only the albums it made; `nil` when nothing is left. Checking writes nothing
    /// to the access log.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the client may not read the library.
    public func visible(to library: PhotoLibrary) async throws(LibraryError) -> PhotoLibraryChange? {
        guard let isVisible = try await library.currentVisibility() else { return self }
        let found = try await library.catalog.assets(localIdentifiers: Array(insertedAssetIdentifiers.union(changedAssetIdentifiers)))
        let visible = Set(found.values.filter(isVisible).map(\.localIdentifier))
        // Its own albums only (a deleted one is no longer there to tell), read once.
        var albums = Set<String>()
        if !changedCollectionIdentifiers.isEmpty {
            let own = try await library.catalog.albums().filter { $0.creatorClient != nil && $0.creatorClient == library.clientIdentifier }
            albums = changedCollectionIdentifiers.intersection(own.map(\.localIdentifier))
        }
        guard !visible.isEmpty || !albums.isEmpty else { return nil }
        return PhotoLibraryChange(
            insertedAssetIdentifiers: insertedAssetIdentifiers.intersection(visible), changedAssetIdentifiers: changedAssetIdentifiers.intersection(visible),
            removedAssetIdentifiers: [], changedCollectionIdentifiers: albums, sequence: sequence, library: library)
    }
}

extension PhotoLibrary {
    /// Every change committed from now on, by any process (with a PostgreSQL catalog, on any
    /// machine), in order (`PHPhotoLibraryChangeObserver` as an `AsyncSequence`): commits made
    /// through this `PhotoLibrary` at once, other handles' and processes' within 200 ms.
    ///
    /// ```swift
    /// for try await change in try await library.changes {
    ///     if let details = try await change.details(for: result) { result = details.fetchResultAfterChanges }
    /// }
    /// ```
    ///
    /// If the catalog cannot be read later, the sequence ends by throwing that error.
    public var changes: AsyncThrowingStream<PhotoLibraryChange, any Error> {
        get async throws(LibraryError) { try await changes(pollingEvery: .milliseconds(200)) }
    }

    /// Where the change log is now: changes after this token are the ones still to come.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not read;
    ///   ``LibraryError/Code/storage`` if the catalog cannot be read.
    public var currentChangeToken: PersistentChangeToken {
        get async throws(LibraryError) {
            _ = try await readScope()
            return PersistentChangeToken(sequence: try await catalog.latestChangeSequence())
        }
    }

    /// Every change committed after `token` (or, without one, after this call returns), by any
    /// process, in order.
    ///
    /// A commit made through this `PhotoLibrary` wakes the sequence at once. Other handles' and
    /// processes' commits to a SQLite catalog are found by reading the change log's end every `interval` (a cheap
    /// indexed query; the task waits in between); a PostgreSQL catalog wakes on `NOTIFY` from any
    /// server's commit, and reads the log every `interval` (and at least every five seconds) in
    /// case a notification was missed. The sequence ends when the task iterating it is cancelled.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not read;
    ///   ``LibraryError/Code/storage`` if the catalog cannot be read.
    public func changes(since token: PersistentChangeToken? = nil, pollingEvery interval: Duration = .milliseconds(200))
        async throws(LibraryError) -> AsyncThrowingStream<PhotoLibraryChange, any Error>
    {
        let library = self
        _ = try await readScope()
        // Read now: a change committed right after this call must be reported.
        let start: Int64
        if let token { start = token.sequence } else { start = try await catalog.latestChangeSequence() }
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var last = start
                    while !Task.isCancelled {
                        // The log's end first: entries up to it are all visible (writers log in
                        // sequence order), and those of other people's commits are passed over by
                        // moving to it, so that waiting below does not wake for them again.
                        let end = try await library.catalog.latestChangeSequence()
                        let entries = try await library.catalog.changes(after: last).filter { $0.sequence <= end }
                        var commits: [String] = []
                        var grouped: [String: [ChangeLogEntry]] = [:]
                        for entry in entries {
                            if grouped[entry.commitID] == nil { commits.append(entry.commitID) }
                            grouped[entry.commitID, default: []].append(entry)
                        }
                        for commit in commits {
                            let group = grouped[commit] ?? []
                            last = max(last, group.map(\.sequence).max() ?? last)
                            func identifiers(_ kind: String) -> Set<String> { Set(group.filter { $0.kind == kind }.map(\.localIdentifier)) }
                            // A commit that changed only clients' decisions (`grant`) or a picker
                            // session changed no asset or album.
                            guard group.contains(where: { $0.kind != "grant" && $0.kind != PickerSessionRecord.changeKind }) else { continue }
                            var change = PhotoLibraryChange(
                                insertedAssetIdentifiers: identifiers("insert"), changedAssetIdentifiers: identifiers("update"),
                                removedAssetIdentifiers: identifiers("delete"), changedCollectionIdentifiers: identifiers("album"),
                                changedSharedAlbumIdentifiers: identifiers(SharedAlbum.changeKind),
                                changedPartnerIdentifiers: identifiers(PartnerShare.changeKind),
                                changedSharedLibraryParticipants: identifiers(SharedLibrary.changeKind), sequence: last, library: library)
                            change.touchesPartnerAssets = group.contains { $0.kind == ChangeLogEntry.partnerAssetKind }
                            continuation.yield(change)
                        }
                        last = max(last, end)
                        await library.catalog.waitForChanges(after: last, timeout: interval)
                        try Task.checkCancellation()
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
