import Foundation
import ShoeboxImaging
import Synchronization

/// Runs the library's queued jobs: claims due jobs under a lease, renews the lease while they
/// run (a heartbeat), records each as finished or failed (retried with exponential backoff,
/// kept as failed after its last attempt), and hands back jobs whose worker died (the reaper).
/// Wakes when jobs are queued — at once in this process, by `NOTIFY` on PostgreSQL — and polls
/// slowly besides, for other processes on SQLite and for notifications a reconnect missed.
///
/// ```swift
/// let worker = JobWorker(library: library, options: .init(concurrency: 2))
/// let running = Task { await worker.run() }
/// // …
/// worker.stop()          // claims nothing more; running jobs finish
/// await running.value
/// ```
///
/// `shoebox worker` runs one until SIGTERM; `shoebox serve` runs one in its process unless
/// `--no-worker`.
public final class JobWorker: Sendable {
    /// How a worker runs: how many jobs at once, which kinds, its lease and its polling.
    public struct Options: Sendable {
        /// Jobs run at once.
        public var concurrency: Int
        /// The kinds this worker takes.
        public var kinds: [BackgroundJob.Kind]
        /// How long a claim holds without a heartbeat; the heartbeat renews it every third of it.
        public var lease: TimeInterval
        /// How often the worker looks for due jobs when nothing wakes it.
        public var pollInterval: Duration
        /// A name for the worker, part of the lease owner it writes.
        public var name: String
        /// How often a worker that runs `places` jobs looks whether the place table appeared or
        /// changed (``PhotoLibrary/placeTableChanged()``): a look at a file and a setting.
        public var placeTableInterval: Duration

        /// Options from their parts: by default one job per core, every kind, a 60-second lease, a
        /// look every 2 seconds, at the place table every minute. A `concurrency` below 1 counts
        /// as 1.
        public init(
            concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
            kinds: [BackgroundJob.Kind] = BackgroundJob.Kind.allCases,
            lease: TimeInterval = 60, pollInterval: Duration = .seconds(2), name: String = "worker",
            placeTableInterval: Duration = .seconds(60)
        ) {
            self.concurrency = max(1, concurrency)
            self.kinds = kinds
            self.lease = lease
            self.pollInterval = pollInterval
            self.name = name
            self.placeTableInterval = placeTableInterval
        }
    }

    /// What a worker has done since it started.
    public struct Statistics: Sendable, Hashable, Codable {
        /// Jobs it ran to the end and recorded as done.
        public var finished = 0
        /// Attempts that threw and were recorded as failed (to be retried, or kept as failed).
        public var failedAttempts = 0
        /// Running jobs a stopping worker put back in the queue.
        public var handedBack = 0
        /// Jobs of dead workers or ended leases (any worker's) that this worker's reaper put back in
        /// the queue or marked failed.
        public var reaped = 0
        /// How many times it asked the queue for jobs: each wake-up, and every poll interval
        /// when nothing wakes it.
        public var looks = 0
    }

    /// The library whose job queue it works through.
    public let library: PhotoLibrary
    /// How it runs: fixed when it is made.
    public let options: Options
    /// The lease owner this worker writes into the jobs it holds: `host/pid/start#name`.
    public let owner: String

    private struct State {
        var stopping = false
        var running: [Int64: Task<Void, Never>] = [:]
        var statistics = Statistics()
    }

    private let state = Mutex(State())
    /// Who listens to ``statisticsUpdates``; told under the state lock, so in order.
    private let updates = EventFanOut<Statistics>()
    private let wake = WakeSignal()
    private let finisher: Finisher
    /// Times the polls, the heartbeat, the reaper and the retries of an outcome.
    private let clock: ErasedClock

    /// A worker for `library`'s queue, with a lease owner of its own; it runs nothing until
    /// ``run()``. `clock` times its polls, heartbeat and reaper (a test
    /// passes a clock it moves itself); leases are dates in the catalog, on the system's clock.
    public init(library: PhotoLibrary, options: Options = Options(), clock: some Clock<Duration> = ContinuousClock()) {
        // Jobs are the library's, whoever's asset they concern.
        self.library = library.forEveryone()
        self.options = options
        self.clock = ErasedClock(clock)
        owner = "\(ProcessIdentity.current)#\(options.name)-\(UUID().uuidString.prefix(8))"
        finisher = Finisher(catalog: library.catalog, owner: owner)
    }

    /// Group commit for finished jobs: the first to finish deletes its job at once; those that
    /// finish while that statement runs go together in the next one.
    actor Finisher {
        let catalog: any CatalogStore
        let owner: String
        private var pending: [(id: Int64, done: CheckedContinuation<Bool?, Never>)] = []
        private var flushing = false

        init(catalog: any CatalogStore, owner: String) {
            self.catalog = catalog
            self.owner = owner
        }

        /// Returns once the job's row is gone: `false` when this worker no longer held it, `nil`
        /// when the catalog could not be reached (try again).
        func finish(_ id: Int64) async -> Bool? {
            await withCheckedContinuation { continuation in
                pending.append((id, continuation))
                if !flushing {
                    flushing = true
                    Task { await flush() }
                }
            }
        }

        private func flush() async {
            while !pending.isEmpty {
                let batch = pending
                pending = []
                do {
                    let finished = Set(try await catalog.finishJobs(batch.map(\.id), owner: owner))
                    for item in batch { item.done.resume(returning: finished.contains(item.id)) }
                } catch {
                    for item in batch { item.done.resume(returning: nil) }
                }
            }
            flushing = false
        }
    }

    /// What the worker has done so far.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// The ``statistics`` now, then again each time they change, until the stream is dropped:
    /// for waiting on what a worker has done (a progress display, a test) without polling. A
    /// reader that falls behind gets the latest statistics, not every step.
    public var statisticsUpdates: AsyncStream<Statistics> {
        state.withLock { state in updates.subscribe(replaying: [state.statistics], bufferingPolicy: .bufferingNewest(1)) }
    }

    /// Changes the statistics and tells ``statisticsUpdates``' listeners.
    private func count(_ change: (inout Statistics) -> Void) {
        state.withLock { state in
            change(&state.statistics)
            updates.yield(state.statistics)
        }
    }

    /// Claims nothing more; ``run()`` returns once the running jobs finish.
    public func stop() {
        state.withLock { $0.stopping = true }
        wakeUp()
    }

    private func wakeUp() {
        wake.signal()
    }

    /// Cancels the running jobs and puts them back in the queue, their attempt not counted, for
    /// another worker to take (a stopping worker that cannot wait for them).
    package func handBack() async {
        stop()
        let running = state.withLock { $0.running }
        for (id, task) in running {
            task.cancel()
            if (try? await library.catalog.handBackJob(id, owner: owner)) == true {
                count { $0.handedBack += 1 }
            }
        }
    }

    /// Claims up to `limit` due jobs for this worker without running them (for a runner of
    /// one's own, or to measure the queue); ``finish(_:)`` ends each.
    package func claim(limit: Int) async throws(LibraryError) -> [BackgroundJob] {
        try await library.catalog.claimJobs(kinds: options.kinds, limit: limit, owner: owner, leaseExpires: Date().addingTimeInterval(options.lease))
    }

    /// Ends a job ``claim(limit:)`` returned, as done (a repeating job is queued again).
    package func finish(_ job: BackgroundJob) async throws(LibraryError) {
        _ = try await library.catalog.finishJob(job.id, owner: owner, next: job.kind.repeatInterval.map { Date().addingTimeInterval($0) })
    }

    /// Runs jobs until ``stop()`` (or the task is cancelled), then waits for the running ones.
    /// A worker that runs `searchIndex` jobs first gives words to a batch of rows that have none
    /// (a library from before search) and, if there were any, queues the job for the rest. One
    /// that runs `places` jobs looks whether the place table appeared or changed since the
    /// photos were named, at start and every ``Options/placeTableInterval``, and if so queues
    /// the job that names them again.
    public func run() async {
        let heartbeat = Task { [self] in await beat() }
        defer { heartbeat.cancel() }
        if options.kinds.contains(.searchIndex), (try? await library.catalog.fillSearchText(limit: 500)) ?? 0 > 0 {
            _ = try? await library.catalog.enqueue([.init(kind: .searchIndex)])
        }
        var lastReap: Duration?
        var lastPlaceLook: Duration?
        while !Task.isCancelled, !state.withLock({ $0.stopping }) {
            let now = clock.elapsed()
            if options.kinds.contains(.places), lastPlaceLook.map({ now - $0 >= options.placeTableInterval }) ?? true {
                lastPlaceLook = now
                _ = try? await library.placeTableChanged()
            }
            if lastReap.map({ now - $0 > .seconds(max(1, options.lease / 4)) }) ?? true {
                lastReap = now
                if let reaped = try? await library.catalog.reapJobs(now: Date()), reaped > 0 {
                    count { $0.reaped += reaped }
                }
            }
            let running = state.withLock { $0.running.count }
            let free = options.concurrency - running
            // Claims come in batches: when half the slots are free (or none is busy), not one
            // slot at a time, which would make a claim per job.
            guard free > 0, free * 2 >= options.concurrency || running == 0 else {
                await waitForWork()
                continue
            }
            count { $0.looks += 1 }
            let claimed =
                (try? await library.catalog.claimJobs(
                    kinds: options.kinds, limit: free, owner: owner,
                    leaseExpires: Date().addingTimeInterval(options.lease))) ?? []
            for job in claimed { start(job) }
            if claimed.count < free {
                await waitForWork()
            }
        }
        // Stopping: the running jobs finish (or were handed back).
        while let (id, task) = state.withLock({ $0.running.first.map { ($0.key, $0.value) } }) {
            await task.value
            state.withLock { _ = $0.running.removeValue(forKey: id) }
        }
    }

    private func start(_ job: BackgroundJob) {
        // Registered before it can finish, so that its own removal comes after.
        state.withLock { current in
            current.running[job.id] = Task { [self] in
                await execute(job)
                state.withLock { _ = $0.running.removeValue(forKey: job.id) }
                wakeUp()
            }
        }
    }

    private func execute(_ job: BackgroundJob) async {
        var failure: String?
        var transient = false
        do {
            try await library.perform(job)
        } catch {
            if Task.isCancelled { return }  // handed back
            failure = Self.describe(error)
            transient = Self.isTransient(error)
        }
        // The outcome is written even if the catalog is away for a while (a restart): the job
        // keeps its slot, and its lease its heartbeat, until the catalog has it or the worker is
        // told to hand its jobs back.
        while !Task.isCancelled {
            let settled: Bool?
            if let failure {
                // A failure of the catalog or the bucket (down, restarting, throttled) says nothing
                // about the job: it is tried again whatever its attempts, with a backoff that
                // stops growing at five minutes. A bad file fails for good after its attempts.
                let retry: Date? =
                    transient
                    ? Date().addingTimeInterval(min(BackgroundJob.transientBackoffLimit, BackgroundJob.backoff(afterAttempt: job.attempts)))
                    : job.attempts < job.maxAttempts ? Date().addingTimeInterval(BackgroundJob.backoff(afterAttempt: job.attempts)) : nil
                settled = try? await library.catalog.failJob(job.id, owner: owner, error: failure, retryAt: retry)
            } else if let interval = job.kind.repeatInterval {
                settled = try? await library.catalog.finishJob(job.id, owner: owner, next: Date().addingTimeInterval(interval))
            } else {
                // Finishes are committed together: one statement for all that end meanwhile.
                settled = await finisher.finish(job.id)
            }
            if settled != nil { break }
            try? await clock.sleep(for: .seconds(1))
        }
        count {
            if failure == nil { $0.finished += 1 } else { $0.failedAttempts += 1 }
        }
    }

    /// Until a job finishes (a slot is free), jobs may have been queued, ``stop()``, or the poll.
    private func waitForWork() async {
        let catalog = library.catalog
        let poll = options.pollInterval
        let clock = self.clock
        // Both are cancelled once the wait below ends (whoever woke it): a late wake-up from
        // either would make every later wait return at once, and an idle worker spin. The
        // catalog's wait has no time limit of its own: the poll is the worker's clock's.
        let watcher = Task { [self] in
            await catalog.waitForJobs(timeout: .seconds(86_400))
            if !Task.isCancelled { wakeUp() }
        }
        let poller = Task { [self] in
            guard (try? await clock.sleep(for: poll)) != nil, !Task.isCancelled else { return }
            wakeUp()
        }
        // `stop()` sets `stopping` before it signals: a stop after this look wakes the wait.
        if !state.withLock({ $0.stopping }) { await wake.wait() }
        watcher.cancel()
        poller.cancel()
    }

    /// Renews the leases of the running jobs every third of the lease.
    private func beat() async {
        while !Task.isCancelled {
            guard (try? await clock.sleep(for: .seconds(options.lease / 3))) != nil else { return }
            let ids = state.withLock { Array($0.running.keys) }
            _ = try? await library.catalog.renewJobLeases(ids, owner: owner, leaseExpires: Date().addingTimeInterval(options.lease))
        }
    }

    /// Whether `error` comes from a store that is away for a while (the catalog unavailable, the
    /// bucket unreachable, throttling or failing on its side, or busy) rather than from the job's
    /// subject: such a job is retried by itself until the store is back.
    static func isTransient(_ error: any Error) -> Bool {
        guard let error = error as? LibraryError else { return false }
        switch error.code {
        case .catalogUnavailable, .busy:
            return true
        case .objectStorage:
            guard let code = error.objectStorageError?.code else { return false }
            return [.unreachable, .throttled, .serverError].contains(code)
        default:
            return false
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? LibraryError { return error.description }
        return String(describing: error)
    }
}
