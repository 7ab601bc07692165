import Foundation

/// One committed change to the library, from this process or another: what
/// `PHPhotoLibraryChangeObserver.photoLibraryDidChange(_:)` receives.
///
/// ```swift
/// let recents = try library.fetchAssets(with: FetchOptions())
/// for try await change in try library.changes() {
///     if let details = try change.details(for: recents) {
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
    /// The change log's position after this change.
    public let sequence: Int64

    let library: PhotoLibrary

    /// How `fetchResult` changes: `nil` when this change does not touch it.
    ///
    /// The fetch is run again with the same options; the details tell, as
    /// `PHFetchResultChangeDetails` does, which indexes were removed (in the old result), inserted
    /// and changed (in the new one), and which objects moved.
    public func details(for fetchResult: FetchResult<Asset>) throws(LibraryError) -> FetchResult<Asset>.ChangeDetails? {
        guard let after = try fetchResult.refetch?() else { return nil }
        let touched = changedAssetIdentifiers.union(insertedAssetIdentifiers).union(removedAssetIdentifiers)
        let details = FetchResult<Asset>.ChangeDetails(before: fetchResult, after: after) { asset in
            touched.contains(asset.localIdentifier)
        }
        return details.isEmpty ? nil : details
    }
}

extension PhotoLibrary {
    /// Every change committed from now on, by any process, in order, polled every 200 ms
    /// (`PHPhotoLibraryChangeObserver` as an `AsyncSequence`).
    ///
    /// ```swift
    /// for try await change in library.changes {
    ///     if let details = change.details(for: result) { result = details.fetchResultAfterChanges }
    /// }
    /// ```
    ///
    /// If the catalog cannot be read, the sequence ends by throwing that error.
    public var changes: AsyncThrowingStream<PhotoLibraryChange, any Error> {
        do {
            return try changes(pollingEvery: .milliseconds(200))
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
    }

    /// Every change committed after this call, by any process, in order.
    ///
    /// The catalog's change log is polled every `interval` (a cheap indexed query; the task
    /// sleeps in between). The sequence ends when the task iterating it is cancelled.
    ///
    /// - Throws: ``LibraryError/storage(_:)`` if the catalog cannot be read.
    public func changes(pollingEvery interval: Duration = .milliseconds(200)) throws(LibraryError) -> AsyncThrowingStream<PhotoLibraryChange, any Error> {
        let library = self
        // Read now, not when the polling task first runs: a change committed right after this
        // call must be reported.
        _ = try readScope()
        let start = try catalog.latestChangeSequence()
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var last = start
                    while !Task.isCancelled {
                        let entries = try library.catalog.changes(after: last)
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
                            continuation.yield(PhotoLibraryChange(
                                insertedAssetIdentifiers: identifiers("insert"), changedAssetIdentifiers: identifiers("update"),
                                removedAssetIdentifiers: identifiers("delete"), changedCollectionIdentifiers: identifiers("album"),
                                sequence: last, library: library))
                        }
                        try await Task.sleep(for: interval)
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
