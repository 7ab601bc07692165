import Foundation
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxLibrary

/// The job queue in the catalog, on SQLite and (with `SHOEBOX_TEST_CATALOG=postgres`) on
/// PostgreSQL: imports queue their work in their own transaction, a worker does it, claims never
/// overlap, failures back off and are kept, dead workers' jobs come back, and the queue can be
/// rebuilt from the catalog.
@Suite struct JobQueueTests {
    /// Waits until no job of `kinds` is queued or running (60 s at most), looking at the queue
    /// each time `worker` has done something (a job ended, or it was looked for) instead of
    /// polling it.
    static func drain(_ library: PhotoLibrary, worker: JobWorker, kinds: Set<BackgroundJob.Kind>) async throws {
        let library = library.forEveryone()  // the whole queue, every person's jobs
        let updates = worker.statisticsUpdates  // what it has done now, then each change
        let drained = try await withTimeLimit(.seconds(60)) {
            for await _ in updates {
                let open = try await library.jobCounts().filter { kinds.contains($0.kind) && $0.state != .failed }
                if open.isEmpty { return true }
            }
            return false
        }
        if !drained { Issue.record("jobs still open after 60 s: \(try await library.jobCounts())") }
    }

    @Test func theRepeatingJobsAreQueuedOnceHoweverOftenTheyAreScheduled() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let started = Date()
        try await library.scheduleRepeatingJobs()
        try await library.scheduleRepeatingJobs()  // a second server starting
        let jobs = try await library.jobs()
        #expect(jobs.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.purgeExpired, .sweep], "\(jobs)")
        let sweep = try #require(jobs.first { $0.kind == .sweep })
        #expect(sweep.runAfter.timeIntervalSince(started) > 590, "the first sweep waits ten minutes")
        #expect(try #require(jobs.first { $0.kind == .purgeExpired }).runAfter <= Date())
    }

    @Test func importsQueueTheirWorkAndAWorkerDoesIt() async throws {
        let temporary = try await TemporaryLibrary(backgroundWork: .queued)
        defer { temporary.remove() }
        let library = temporary.library
        let photo = try temporary.photo("a.jpg", seed: 1, width: 640, height: 480)
        let movie = try SyntheticMovie(duration: 1, width: 160, height: 120).write(to: temporary.folder.appendingPathComponent("clip.webm"))
        let ids = try await temporary.importFiles([photo, movie])
        await library.waitForBackgroundWork()
        let counts = Dictionary(uniqueKeysWithValues: try await library.jobCounts().map { ($0.kind, $0.count) })
        #expect(counts == [.derivatives: 2, .poster: 1, .rendition: 1], "\(counts)")
        #expect(library.derivatives.renderCount.load(ordering: .relaxed) == 0, "the import made nothing itself")
        // The same bytes again: a duplicate queues nothing.
        _ = try await temporary.importFiles([photo])
        #expect(try await library.jobCounts().map(\.count).reduce(0, +) == 4)

        let worker = JobWorker(library: library, options: .init(concurrency: 2, pollInterval: .milliseconds(100)))
        let running = Task { await worker.run() }
        try await Self.drain(library, worker: worker, kinds: Set(BackgroundJob.Kind.allCases))
        worker.stop()
        await running.value
        #expect(worker.statistics.finished == 4)
        #expect(worker.statistics.failedAttempts == 0)
        for id in ids {
            let asset = try #require(try await library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
            #expect(library.derivatives.cached(DerivativeRenderer.grid.key, source: asset.contentHash) != nil, "grid thumbnail of \(id)")
            #expect(library.derivatives.cached(DerivativeRenderer.preview.key, source: asset.contentHash) != nil, "preview of \(id)")
        }
        let movieAsset = try #require(try await library.fetchAssets(withLocalIdentifiers: [ids[1]]).firstObject)
        #expect(library.derivatives.cached("playback", source: movieAsset.contentHash) != nil, "the WebM movie's playback rendition")
        #expect(try await library.jobCounts().isEmpty)
    }

    /// A worker woken by its own finished job used to leave a wake-up behind for its next wait,
    /// and every wait after it returned at once: an idle `shoebox serve` kept a core busy. On a
    /// clock the test moves, the worker looks exactly once per poll interval and at no other time.
    @Test("An idle worker looks for jobs once a poll interval, also after a job woke it")
    func idleWorkersDoNotSpin() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let clock = TestClock()
        _ = try await library.enqueue([.init(kind: .noop)])
        let worker = JobWorker(library: library, options: .init(concurrency: 1, kinds: [.noop], pollInterval: .milliseconds(200)), clock: clock)
        let updates = EventRecorder(worker.statisticsUpdates)
        let running = Task { await worker.run() }
        // The first look claims the job; its end wakes the worker, whose second look finds nothing.
        #expect(await updates.wait { ($0.last?.finished ?? 0) == 1 && ($0.last?.looks ?? 0) == 2 }, "\(updates.elements)")
        // Asleep on the clock: the heartbeat and the poll (nothing else wakes an idle worker).
        try #require(await clock.waitForSleepers(2))
        #expect(worker.statistics.looks == 2)
        // Short of the poll interval nothing is due, so nothing runs.
        #expect(clock.advance(by: .milliseconds(199)) == 0)
        #expect(clock.advance(by: .milliseconds(1)) == 1, "the poll was not due after 200 ms")
        #expect(await updates.wait { $0.last?.looks == 3 })
        // A second of polls: five looks, one per interval, each after the worker slept again.
        for look in 4...8 {
            try #require(await clock.waitForSleepers(2))
            #expect(clock.advance(by: .milliseconds(200)) == 1)
            #expect(await updates.wait { $0.last?.looks == look }, "look \(look): \(worker.statistics)")
        }
        try #require(await clock.waitForSleepers(2))
        #expect(worker.statistics.looks == 8, "\(worker.statistics.looks) looks for 6 polls after the job")
        worker.stop()
        await running.value
    }

    @Test func claimsNeverHandTheSameJobToTwoWorkers() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let first = temporary.library
        let second = try await PhotoLibrary.open(at: first.url)
        defer { Task { await second.close() } }
        let requests = (0..<300).map { BackgroundJob.Request(kind: .noop, subject: "n\($0)") }
        #expect(try await first.enqueue(requests) == 300)
        #expect(try await first.enqueue(requests) == 0, "queued jobs absorb the same requests")

        func claimAll(_ library: PhotoLibrary, owner: String) async throws -> [Int64] {
            var mine: [Int64] = []
            while true {
                let claimed = try await library.catalog.claimJobs(kinds: [.noop], limit: 7, owner: owner, leaseExpires: Date().addingTimeInterval(60))
                if claimed.isEmpty { return mine }
                #expect(claimed.allSatisfy { $0.state == .running && $0.leaseOwner == owner && $0.attempts == 1 })
                mine += claimed.map(\.id)
            }
        }
        async let a = claimAll(first, owner: "a")
        async let b = claimAll(second, owner: "b")
        let (ours, theirs) = try await (a, b)
        #expect(Set(ours).isDisjoint(with: theirs), "no job went to both")
        #expect(Set(ours + theirs).count == 300 && ours.count + theirs.count == 300)
        // Finishing needs the lease: the other claimer cannot finish a job it does not hold.
        let (held, holder, other) = ours.isEmpty ? (theirs[0], "b", "a") : (ours[0], "a", "b")
        #expect(try await second.catalog.finishJob(held, owner: other, next: nil) == false)
        #expect(try await first.catalog.finishJob(held, owner: holder, next: nil))
        #expect(try await first.jobCounts() == [JobCount(kind: .noop, state: .running, count: 299)])
    }

    @Test func failuresBackOffThenStayFailedUntilRetried() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let id = try await temporary.importFiles([try temporary.photo("lost.jpg", seed: 2)])[0]
        let asset = try #require(try await library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        try await temporary.lose(BlobKey(kind: .original, hash: asset.contentHash))
        try await library.enqueue([BackgroundJob.Request(kind: .derivatives, subject: id, maxAttempts: 2)])

        let worker = JobWorker(library: library, options: .init(concurrency: 1, pollInterval: .milliseconds(100)))
        let updates = EventRecorder(worker.statisticsUpdates)
        let started = ContinuousClock.now
        let running = Task { await worker.run() }
        // Two attempts, each counted once the catalog has its outcome (the second: failed for good).
        #expect(await updates.wait(timeout: .seconds(30)) { ($0.last?.failedAttempts ?? 0) >= 2 })
        let failed = try await library.jobs(in: [.failed])
        worker.stop()
        await running.value
        let job = try #require(failed.first)
        #expect(job.attempts == 2 && job.kind == .derivatives && job.subject == id)
        #expect(ContinuousClock.now - started >= .seconds(2), "the second attempt waited for its backoff")
        #expect(worker.statistics.failedAttempts == 2)
        let error = try #require(job.lastError)
        #expect(error.contains(asset.contentHash) || error.lowercased().contains("missing") || error.lowercased().contains("no such"), "\(error)")

        #expect(try await library.enqueue([BackgroundJob.Request(kind: .derivatives, subject: id)]) == 1, "a request queues a failed job again")
        #expect(try await library.jobs(in: [.queued]).first?.attempts == 0)
        #expect(try await library.cancelJobs() == 1)
        try await library.enqueue([BackgroundJob.Request(kind: .derivatives, subject: id, maxAttempts: 1)])
        let claimed = try await library.catalog.claimJobs(kinds: [.derivatives], limit: 1, owner: "t", leaseExpires: Date().addingTimeInterval(60))
        #expect(try await library.catalog.failJob(claimed[0].id, owner: "t", error: "boom", retryAt: nil))
        #expect(try await library.retryJobs([claimed[0].id]) == 1)
        #expect(try await library.jobs(in: [.queued]).map(\.id) == [claimed[0].id])
    }

    @Test func deadWorkersJobsComeBackAndHeartbeatsKeepLeases() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let catalog = library.catalog
        try await library.enqueue((0..<3).map { BackgroundJob.Request(kind: .noop, subject: "j\($0)") })
        // A process on this host that is gone: its job comes back at once.
        let dead = "\(ProcessIdentity(host: ProcessIdentity.current.host, pid: 999_999, startTime: 1))#w"
        let now = Date()
        let far = now.addingTimeInterval(3_600)
        let deadJob = try await catalog.claimJobs(kinds: [.noop], limit: 1, owner: dead, leaseExpires: far)[0]
        // A worker on another machine: presumed alive until its lease ends.
        let remote = "elsewhere/12/34#w"
        let remoteJob = try await catalog.claimJobs(kinds: [.noop], limit: 1, owner: remote, leaseExpires: now.addingTimeInterval(60))[0]
        // A worker that renews its lease keeps its job.
        let beating = "elsewhere/56/78#w"
        let beatingJob = try await catalog.claimJobs(kinds: [.noop], limit: 1, owner: beating, leaseExpires: now.addingTimeInterval(60))[0]

        #expect(try await catalog.reapJobs(now: now) == 1)
        var queued = try await library.jobs(in: [.queued])
        #expect(queued.map(\.id) == [deadJob.id])
        #expect(queued.first?.lastError?.contains("worker stopped") == true)

        // A heartbeat moves the lease on; only the holder's renewal counts.
        #expect(try await catalog.renewJobLeases([beatingJob.id, remoteJob.id], owner: beating, leaseExpires: far) == [beatingJob.id])
        // Two minutes on, the remote worker's lease has ended; the beating one's has not.
        #expect(try await catalog.reapJobs(now: now.addingTimeInterval(120)) == 1)
        queued = try await library.jobs(in: [.queued])
        #expect(Set(queued.map(\.id)) == [deadJob.id, remoteJob.id])
        #expect(try await library.jobs(in: [.running]).map(\.id) == [beatingJob.id])
        // The remote worker's late finish is refused: its job went back.
        #expect(try await catalog.finishJob(remoteJob.id, owner: remote, next: nil) == false)
        // A job that was on its last attempt is kept as failed instead.
        try await library.enqueue([BackgroundJob.Request(kind: .noop, subject: "last", maxAttempts: 1)])
        let last = try await catalog.claimJobs(kinds: [.noop], limit: 5, owner: dead, leaseExpires: far).first { $0.subject == "last" }
        _ = try await catalog.reapJobs(now: now)
        #expect(try await library.jobs(in: [.failed]).map(\.id) == [try #require(last).id])
    }

    @Test func theQueueIsRebuiltFromTheCatalogAndRepeatingJobsComeBack() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let ids = try await temporary.importFiles([
            try temporary.photo("x.jpg", seed: 3, width: 400, height: 300),
            try temporary.photo("y.jpg", seed: 4, width: 300, height: 400),
        ])
        #expect(try await library.jobCounts().isEmpty, "without queued background work nothing is queued")
        #expect(try await library.enqueueMissingWork() == 4, "two assets' derivatives, the purge and the sweep")
        #expect(Set(try await library.jobs(in: [.queued]).filter { $0.kind == .derivatives }.map(\.subject)) == Set(ids))

        let worker = JobWorker(library: library, options: .init(concurrency: 2, pollInterval: .milliseconds(100)))
        let updates = EventRecorder(worker.statisticsUpdates)
        let running = Task { await worker.run() }
        try await Self.drain(library, worker: worker, kinds: [.derivatives])
        // The repeating jobs ran and are queued again for later.
        #expect(await updates.wait(timeout: .seconds(30)) { ($0.last?.finished ?? 0) >= 4 })
        worker.stop()
        await running.value
        let repeating = try await library.jobs(in: [.queued])
        #expect(Set(repeating.map(\.kind)) == [.purgeExpired, .sweep])
        #expect(repeating.allSatisfy { $0.runAfter > Date().addingTimeInterval(3_000) && $0.attempts == 0 })
        #expect(try await library.enqueueMissingWork() == 0, "nothing is missing now")
    }
}
