import Foundation
import ShoeboxSupport

/// Naming photos by the place table that is there now: a library records which table
/// (the table's fingerprint) named its photos, and when the table appears, changes or goes,
/// the `places` job names them again in the background.
extension PhotoLibrary {
    /// The catalog setting that holds the fingerprint of the table that named the photos
    /// (`none` when they were named without one).
    static let placeTableSetting = "placeTable"

    /// Whether the place table differs from the one that named the library's photos; if it
    /// does, queues the `places` job (``BackgroundJob/Kind/places``), which names them again.
    /// Cheap when nothing changed: a look at the table's file and one setting read. Workers call
    /// it when they start and every ``JobWorker/Options/placeTableInterval``;
    /// ``scheduleRepeatingJobs()`` calls it too.
    ///
    /// - Returns: Whether the job was queued.
    @discardableResult
    public func placeTableChanged() async throws(LibraryError) -> Bool {
        let current = await currentPlaceTable()
        guard try await catalog.setting(Self.placeTableSetting) != current else { return false }
        _ = try await catalog.enqueue([.init(kind: .places)])
        return true
    }

    /// A library that has no photos yet and has recorded no table records the one there now:
    /// it names what it imports by it, and a later table names its photos again.
    func recordPlaceTableOfNewLibrary() async {
        let everything = FetchOptions(sortDescriptors: [], includeHiddenAssets: true, includeTrashedAssets: true, includeAllBurstAssets: true)
        do {
            guard try await catalog.setting(Self.placeTableSetting) == nil, try await catalog.count(matching: everything) == 0 else { return }
            _ = try await catalog.setting(Self.placeTableSetting, default: await currentPlaceTable())
        } catch {
            return  // the worker's look settles it later
        }
    }

    /// The fingerprint of the table there now (read again if its file changed), or `none`.
    func currentPlaceTable() async -> String {
        guard let places = configuration.places else { return "none" }
        let fingerprint = try? await BlockingPool.shared.run { () -> String? in
            places.refresh()
            return places.fingerprint
        }
        return fingerprint ?? "none"
    }

    /// The `places` job: forgets the search words of every asset with GPS and writes them and
    /// the place names again by the current table (a first batch at once, the `searchIndex` job
    /// for the rest); queues a
    /// `metadata` job for each asset whose local time a place should give and does not (taken
    /// where the file records no UTC offset, named while there was no table), and, when a table
    /// replaced another, for those whose zone came from the old one. Then records the table.
    func renamePlaces() async throws(LibraryError) {
        let current = await currentPlaceTable()
        let previous = try await catalog.setting(Self.placeTableSetting)
        guard previous != current else { return }
        let replaced = previous != nil && previous != "none" && current != "none"
        let reread = try await catalog.forgetPlaceNames(zonesToReread: current == "none" ? .none : replaced ? .all : .missing)
        // A first batch of words now, the `searchIndex` job for the rest (in `shoebox jobs`).
        var requests: [BackgroundJob.Request] = try await catalog.fillSearchText(limit: 500) < 500 ? [] : [.init(kind: .searchIndex)]
        requests += reread.map { .init(kind: .metadata, subject: $0) }
        for start in stride(from: 0, to: requests.count, by: 500) {
            _ = try await catalog.enqueue(Array(requests[start..<min(start + 500, requests.count)]))
        }
        try await catalog.setSetting(Self.placeTableSetting, to: current)
    }
}
