import ArgumentParser
import Foundation
import ShoeboxLibrary
import ShoeboxTesting

/// `shoebox-bench jobs`: the job queue's own ceiling, on SQLite and on PostgreSQL.
struct JobsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "The job queue: claim latency with many jobs queued, and no-op jobs per second through workers.",
        discussion: """
            For each catalog (SQLite in a fresh library; PostgreSQL in a cluster of scripts/postgres \
            started in .build/bench-input/jobs/pg and halted at the end): queues --queued no-op \
            jobs, then claims them one at a time (--claims of them), timing each claim: p50 and \
            p99 in ms. Target: p99 under 20 ms at 10,000 queued. Then queues --queued more and \
            runs --workers JobWorkers (in this process, --concurrency each) until the queue is \
            empty: no-op jobs per second. Target: at least 2,000/s.
            """)

    @Option(help: "Jobs queued before claiming.") var queued = 10_000
    @Option(help: "Single claims timed.") var claims = 2_000
    @Option(help: "Workers draining the queue.") var workers = 2
    @Option(help: "Jobs each worker runs at once.") var concurrency = 8
    @Flag(help: "Skip PostgreSQL.") var skipPostgres = false
    @Flag(help: "Print JSON.") var json = false

    struct Engine: Encodable {
        var claimP50Milliseconds = 0.0
        var claimP99Milliseconds = 0.0
        var noopJobsPerSecond = 0.0
    }

    struct Result: Encodable {
        var queued = 0
        var sqlite: Engine?
        var postgres: Engine?
    }

    func run() async throws {
        let folder = Corpus.packageRoot().appendingPathComponent(".build/bench-input/jobs")
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("SQLite.shoebox"))
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("Postgres.shoebox"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var result = Result(queued: queued)
        if !json { Progress.note("SQLite") }
        result.sqlite = try await measure(try await PhotoLibrary.open(at: folder.appendingPathComponent("SQLite.shoebox")))
        if !skipPostgres {
            let cluster = folder.appendingPathComponent("pg").path
            let started = try ChildProcess.run(CatalogFixture.postgresScript, ["start", cluster])
            guard started.status == 0 else { throw ChildProcess.Failure("cannot start PostgreSQL: \(started.standardError)") }
            defer { _ = try? ChildProcess.run(CatalogFixture.postgresScript, ["halt", cluster], captureOutput: false) }
            let admin = started.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            let database = "jobs\(Int(Date().timeIntervalSince1970))"
            _ = try ChildProcess.run("psql", [admin, "-q", "-c", "CREATE DATABASE \(database)"])
            if !json { Progress.note("PostgreSQL") }
            let url = try PostgresURL(admin.replacingOccurrences(of: "/postgres", with: "/\(database)"))
            result.postgres = try await measure(
                try await PhotoLibrary.create(
                    at: folder.appendingPathComponent("Postgres.shoebox"),
                    configuration: .init(catalog: .postgres(url))))
        }
        if json {
            try BenchOutput.print(result)
        } else {
            for (name, engine) in [("SQLite", result.sqlite), ("PostgreSQL", result.postgres)] {
                guard let engine else { continue }
                print(
                    String(
                        format: "%@: claim p50 %.2f ms, p99 %.2f ms at %d queued; %.0f no-op jobs/s (%d workers × %d)",
                        name, engine.claimP50Milliseconds, engine.claimP99Milliseconds, queued, engine.noopJobsPerSecond, workers, concurrency))
            }
        }
    }

    func fill(_ library: PhotoLibrary, prefix: String) async throws {
        for start in stride(from: 0, to: queued, by: 1_000) {
            try await library.enqueue((start..<min(start + 1_000, queued)).map { BackgroundJob.Request(kind: .noop, subject: "\(prefix)\($0)") })
        }
    }

    func measure(_ library: PhotoLibrary) async throws -> Engine {
        var engine = Engine()
        try await fill(library, prefix: "c")
        let worker = JobWorker(library: library)
        var times: [Double] = []
        var held: [BackgroundJob] = []
        for _ in 0..<min(claims, queued) {
            let start = ContinuousClock.now
            let claimed = try await worker.claim(limit: 1)
            times.append(Double((ContinuousClock.now - start) / .microseconds(1)) / 1_000)
            guard !claimed.isEmpty else { break }
            held += claimed
        }
        times.sort()
        engine.claimP50Milliseconds = times[times.count / 2]
        engine.claimP99Milliseconds = times[min(times.count - 1, times.count * 99 / 100)]
        for job in held { try await worker.finish(job) }
        try await library.cancelJobs()

        try await fill(library, prefix: "r")
        let started = ContinuousClock.now
        let pool = (0..<workers).map {
            JobWorker(library: library, options: .init(concurrency: concurrency, kinds: [.noop], pollInterval: .milliseconds(50), name: "bench\($0)"))
        }
        let tasks = pool.map { worker in Task { await worker.run() } }
        while pool.map(\.statistics.finished).reduce(0, +) < queued {
            try await Task.sleep(for: .milliseconds(5))
        }
        let seconds = Double((ContinuousClock.now - started) / .microseconds(1)) / 1e6
        pool.forEach { $0.stop() }
        for task in tasks { await task.value }
        engine.noopJobsPerSecond = Double(queued) / seconds
        await library.close()
        return engine
    }
}
