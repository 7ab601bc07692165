import Foundation
import ShoeboxImaging

/// The library's job queue: what `shoebox jobs` shows and changes, and the work each kind of job
/// does (``perform(_:)``), which ``JobWorker`` runs.
extension PhotoLibrary {
    /// The jobs a change queues when ``queuesBackgroundWork`` is on: a new or edited asset's
    /// derivatives; a movie's poster frame and playback rendition too.
    static func jobs(forNew records: [AssetRecord], edited: [String]) -> [BackgroundJob.Request] {
        var requests: [BackgroundJob.Request] = []
        for record in records {
            if record.mediaType == Asset.MediaType.video.rawValue {
                requests.append(.init(kind: .poster, subject: record.localIdentifier))
                requests.append(.init(kind: .rendition, subject: record.localIdentifier))
            }
            requests.append(.init(kind: .derivatives, subject: record.localIdentifier))
        }
        for identifier in edited {
            requests.append(.init(kind: .derivatives, subject: identifier))
            requests.append(.init(kind: .rendition, subject: identifier))
        }
        return requests
    }

    /// Adds jobs to the queue (a job already queued or running absorbs a request for the same
    /// kind and subject; a failed one is queued again).
    ///
    /// - Returns: How many jobs were added or queued again.
    @discardableResult
    public func enqueue(_ requests: [BackgroundJob.Request]) async throws(LibraryError) -> Int {
        try await catalog.enqueue(requests)
    }

    /// Queued, running or failed jobs, due first.
    public func jobs(in states: [BackgroundJob.State] = BackgroundJob.State.allCases, limit: Int = 1_000) async throws(LibraryError) -> [BackgroundJob] {
        try await catalog.jobs(states: states, limit: limit)
    }

    /// The assets among `localIdentifiers` whose thumbnail and preview are still to be made by
    /// a queued or running job: a grid shows a placeholder for them, and hears of each as
    /// changed (``PhotoLibraryChange/changedAssetIdentifiers``) once its job is done.
    public func assetsAwaitingDerivatives(among localIdentifiers: [String]) async throws(LibraryError) -> Set<String> {
        try await catalog.openJobSubjects(kind: .derivatives, among: localIdentifiers)
    }

    /// How many jobs of each kind are queued, running and failed.
    public func jobCounts() async throws(LibraryError) -> [JobCount] {
        try await catalog.jobCounts()
    }

    /// How many writes this process has made to the catalog so far: read it before looking at
    /// the jobs, then ``waitForCatalogWrite(beyond:until:)`` misses no write in between.
    package var catalogWriteCount: Int {
        catalog.localWrites.count
    }

    /// Waits until this process writes to the catalog after `seen` writes (a job queued,
    /// claimed, finished or failed among them), until `deadline`, or until the task is cancelled.
    /// Other processes' writes do not wake it: a caller that watches their workers looks again
    /// when the deadline it chose comes.
    package func waitForCatalogWrite(beyond seen: Int, until deadline: ContinuousClock.Instant) async {
        await catalog.localWrites.wait(beyond: seen, until: deadline)
    }

    /// Queues failed jobs again (`ids`, or every failed job) with their attempts reset.
    @discardableResult
    public func retryJobs(_ ids: [Int64]? = nil) async throws(LibraryError) -> Int {
        try await catalog.retryJobs(ids)
    }

    /// Removes queued and failed jobs (`ids`, or all of them); a running job finishes.
    @discardableResult
    public func cancelJobs(_ ids: [Int64]? = nil) async throws(LibraryError) -> Int {
        try await catalog.cancelJobs(ids)
    }

    /// Queues the library's repeating jobs, which then requeue themselves: emptying Recently
    /// Deleted of what is past the retention (``purgeExpiredAssets(olderThan:now:)``, hourly,
    /// the first now) and sweeping what crashes left (``sweep(olderThan:)``, daily, the first in
    /// ten minutes); and naming the photos again if the place table changed since they were named
    /// (``placeTableChanged()``). A request for a job already queued is absorbed, so every process
    /// that serves the library may call it at start. `shoebox serve` does.
    public func scheduleRepeatingJobs() async throws(LibraryError) {
        _ = try await enqueue([
            BackgroundJob.Request(kind: .purgeExpired),
            BackgroundJob.Request(kind: .sweep, runAfter: Date().addingTimeInterval(600)),
        ])
        try await placeTableChanged()
    }

    /// Queues the work the catalog says is missing, as after a crash, a restore, or a library
    /// whose jobs were cancelled: the derivatives of every asset whose grid thumbnail is neither
    /// in this machine's cache nor in the bucket, a movie's poster and playback rendition, the
    /// repeating library-wide jobs, and search words for rows without them (a first batch at
    /// once, the `searchIndex` job for the rest). Work state is never lost because it can be rebuilt.
    ///
    /// - Returns: How many jobs were queued.
    @discardableResult
    public func enqueueMissingWork() async throws(LibraryError) -> Int {
        let shared = Set((try? await derivatives.mirror?.storedSources()) ?? [])
        var requests: [BackgroundJob.Request] = []
        var after: Asset?
        let options = FetchOptions(sortDescriptors: [], includeHiddenAssets: true, includeTrashedAssets: false, includeAllBurstAssets: true)
        while true {
            let page = try await fetchAssetPage(with: options, after: after, limit: 2_000).assets
            guard let last = page.last else { break }
            for asset in page {
                let hash = asset.render?.hash ?? asset.contentHash
                let hasGrid = derivatives.cached(DerivativeRenderer.grid.key, source: hash) != nil || shared.contains(hash)
                if !hasGrid {
                    if asset.mediaType == .video { requests.append(.init(kind: .poster, subject: asset.localIdentifier)) }
                    requests.append(.init(kind: .derivatives, subject: asset.localIdentifier))
                }
                if asset.mediaType == .video, derivatives.cached("playback", source: hash) == nil,
                    derivatives.cached("plays", source: hash)?.url.lastPathComponent != "plays=yes", !shared.contains(hash)
                {
                    requests.append(.init(kind: .rendition, subject: asset.localIdentifier))
                }
            }
            after = last
        }
        for kind in BackgroundJob.Kind.allCases where kind.repeatInterval != nil {
            requests.append(.init(kind: kind))
        }
        // Rows without search words: a first batch now, the job for the rest.
        if try await catalog.fillSearchText(limit: 500) > 0 { requests.append(.init(kind: .searchIndex)) }
        var queued = 0
        for start in stride(from: 0, to: requests.count, by: 500) {
            queued += try await catalog.enqueue(Array(requests[start..<min(start + 500, requests.count)]))
        }
        return queued
    }

    /// Does the work of `job` (what a ``JobWorker`` runs). Every kind is idempotent: outputs
    /// are filed under the source's content hash and the recipe, so running a job twice (its
    /// first worker died after doing it) makes nothing twice. A per-asset job whose asset is
    /// gone has nothing to do.
    ///
    /// - Throws: The error that failed the attempt (the worker records it and retries).
    public func perform(_ job: BackgroundJob) async throws {
        switch job.kind {
        case .noop:
            return
        case .metadata:
            try await rereadMetadata(of: job.subject)
        case .purgeExpired:
            try await purgeExpiredAssets()
        case .searchIndex:
            while try await catalog.fillSearchText(limit: 500) > 0 {}
        case .places:
            try await renamePlaces()
        case .sweep:
            do {
                _ = try await sweep(olderThan: Self.sweepGrace)
            } catch let error where error.code == .busy {
                return  // another process is sweeping: this round is done by it
            }
        case .derivatives, .poster, .rendition:
            guard let asset = try await fetchAssets(withLocalIdentifiers: [job.subject]).firstObject else { return }
            let source = try await versionSource(of: asset, original: false)
            switch job.kind {
            case .derivatives:
                try await DerivativeRenderer.makeStandardDerivatives(of: source, in: derivatives, renditions: false)
            case .poster:
                guard asset.mediaType == .video else { return }
                _ = try await DerivativeRenderer.poster(of: source, in: derivatives)
            default:
                guard asset.mediaType == .video, try await !DerivativeRenderer.playability(of: source, in: derivatives) else { return }
                _ = try await DerivativeRenderer.playbackRendition(of: source, in: derivatives)
            }
        }
    }
}
