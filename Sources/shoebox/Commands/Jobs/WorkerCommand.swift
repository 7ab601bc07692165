import ArgumentParser
import Dispatch
import Foundation
import ShoeboxImaging
import ShoeboxLibrary

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run the library's queued background jobs until stopped.",
        discussion: """
            Claims due jobs from the catalog's queue (thumbnails and previews, posters, playback \
            renditions, the expired-items purge, the blob sweeper), under a lease its heartbeat \
            renews; any number of workers on any machines can share one library. Hands back the \
            jobs of workers that died. The first SIGTERM or SIGINT stops claiming and lets the \
            running jobs finish for --grace seconds; then (or at a second signal) it hands them \
            back to the queue and exits. `shoebox serve` runs a worker of its own unless \
            --no-worker. Progress: on a terminal, a line of counts kept up to date; --json prints \
            one line per event instead: {"event": "started"|"progress"|"stopping"|"stopped", \
            "owner", "finished", "failedAttempts", "handedBack", "reaped"}, "progress" each time \
            a job finishes, fails, is handed back or is taken back from a dead worker.
            """)

    @OptionGroup var library: LibraryOptions
    @Option(help: "Jobs run at once (default: the cores).") var concurrency = ProcessInfo.processInfo.activeProcessorCount
    @Option(
        help: ArgumentHelp(
            "Only these kinds (comma-separated): \(BackgroundJob.Kind.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "kinds"))
    var kinds: String?
    @Option(help: "Seconds a claim holds without a heartbeat.") var lease = 60.0
    @Option(help: "Seconds running jobs get to finish after SIGTERM before they are handed back.") var grace = 30.0
    @Option(help: ArgumentHelp("The memory decodes of photos may hold at once, in megabytes (a larger one runs alone).", valueName: "MB"))
    var decodeMemory = DecodeMemoryBudget.defaultCapacity >> 20
    @Flag(help: "Print events as JSON lines.") var json = false

    func validate() throws {
        _ = try parsedKinds()
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1") }
        guard (1...(1 << 30)).contains(decodeMemory) else {
            throw ValidationError("--decode-memory must be a positive number of megabytes, not \(decodeMemory)")
        }
        guard lease >= 3 else { throw ValidationError("--lease must be at least 3 seconds") }
    }

    func parsedKinds() throws -> [BackgroundJob.Kind] {
        guard let kinds else { return BackgroundJob.Kind.allCases }
        return try kinds.split(separator: ",").map { name in
            guard let kind = BackgroundJob.Kind(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("unknown job kind \(name); kinds are \(BackgroundJob.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return kind
        }
    }

    func run() async throws {
        Image.configureAllocatorForDecoding()
        DecodeMemoryBudget.shared.capacity = decodeMemory << 20
        let opened = try await library.open(backgroundWork: .onDemand)
        let worker = JobWorker(library: opened, options: .init(concurrency: concurrency, kinds: try parsedKinds(), lease: lease))
        report("started", worker)
        let signals = SignalWatch()
        let grace = self.grace
        let stopper = Task {
            await signals.next()
            report("stopping", worker)
            worker.stop()
            // Running jobs get the grace period, or until a second signal; then they go back.
            _ = await withTimeout(.seconds(grace)) { () -> Bool? in
                await signals.next()
                return true
            }
            await worker.handBack()
        }
        let progress = Task {
            var shown = Counts(worker.statistics)
            for await statistics in worker.statisticsUpdates where Counts(statistics) != shown {
                shown = Counts(statistics)
                report("progress", worker)
            }
        }
        await worker.run()
        progress.cancel()
        stopper.cancel()
        signals.cancel()
        report("stopped", worker)
        await opened.close()
    }

    /// What a progress report shows (the polls a worker makes while idle are not progress).
    struct Counts: Equatable {
        let finished, failedAttempts, handedBack, reaped: Int
        init(_ statistics: JobWorker.Statistics) {
            (finished, failedAttempts, handedBack, reaped) = (statistics.finished, statistics.failedAttempts, statistics.handedBack, statistics.reaped)
        }
    }

    func report(_ event: String, _ worker: JobWorker) {
        let statistics = worker.statistics
        let onTerminal = isatty(STDOUT_FILENO) == 1
        if json {
            print(
                #"{"event": "\#(event)", "owner": "\#(worker.owner)", "finished": \#(statistics.finished), "failedAttempts": \#(statistics.failedAttempts), "handedBack": \#(statistics.handedBack), "reaped": \#(statistics.reaped)}"#
            )
        } else if event == "progress" {
            // On a terminal, one line rewritten in place; in a log, only the summary at the end.
            guard onTerminal else { return }
            print("\r\(statistics.finished) finished, \(statistics.failedAttempts) failed attempts", terminator: "")
        } else {
            if onTerminal, event != "started" { print("") }  // end the progress line
            switch event {
            case "started": print("worker \(worker.owner) running jobs of \(worker.library.url.path); stop with Ctrl-C")
            case "stopping": print("stopping: no more claims; running jobs get \(Int(grace)) s (a second signal hands them back)")
            default:
                print(
                    "stopped: \(statistics.finished) finished, \(statistics.failedAttempts) failed attempts, \(statistics.handedBack) handed back, \(statistics.reaped) reaped"
                )
            }
        }
        fflush(nil)
    }
}

/// SIGINT and SIGTERM as an async sequence of wake-ups (the default handlers are replaced).
final class SignalWatch: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let iterator: Iterator

    /// The stream's one iterator; `next()` is only ever awaited by one task at a time.
    final class Iterator: @unchecked Sendable {
        var base: AsyncStream<Void>.Iterator
        init(_ base: AsyncStream<Void>.Iterator) { self.base = base }
    }

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        iterator = Iterator(stream.makeAsyncIterator())
        let continuation = self.continuation
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield() }
            source.resume()
            return source
        }
    }

    /// Returns at the next signal (or when cancelled).
    func next() async {
        var base = iterator.base
        _ = await base.next()
        iterator.base = base
    }

    func cancel() {
        sources.forEach { $0.cancel() }
        continuation.finish()
    }
}
