import ArgumentParser
import Foundation
import ShoeboxLibrary

struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "Show and manage the library's background jobs.",
        discussion: """
            Background work (thumbnails, posters, playback renditions, metadata re-reads, the \
            expired-items purge, the blob sweeper) waits in a queue in the catalog until a worker (`shoebox worker`, \
            or the one in `shoebox serve`) runs it. Without a subcommand: counts by kind and \
            state, and the failed jobs with their errors.
            """,
        subcommands: [JobsListCommand.self, JobsRetryCommand.self, JobsCancelCommand.self, JobsEnqueueMissingCommand.self, JobsRereadMetadataCommand.self],
        defaultSubcommand: JobsListCommand.self)
}

struct JobsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Counts by kind and state, and the failed jobs with their errors.",
        discussion: """
            JSON: {"counts": [{"kind", "state", "count"}], "failed": [{"id", "kind", "subject", \
            "attempts", "maxAttempts", "lastError", …}], "running": [...]}.
            """)

    @OptionGroup var library: LibraryOptions
    @Option(help: "At most this many failed and running jobs listed.") var limit = 100
    @Flag(help: "Print JSON.") var json = false

    struct Report: Encodable {
        let counts: [JobCount]
        let failed: [BackgroundJob]
        let running: [BackgroundJob]
    }

    func run() async throws {
        let opened = try await library.open()
        let report: Report
        do {
            report = Report(
                counts: try await opened.jobCounts(), failed: try await opened.jobs(in: [.failed], limit: limit),
                running: try await opened.jobs(in: [.running], limit: limit))
        } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        if json {
            try JSONOutput.print(report)
            return
        }
        if report.counts.isEmpty { print("no jobs") }
        for kind in BackgroundJob.Kind.allCases {
            let counts = report.counts.filter { $0.kind == kind }
            guard !counts.isEmpty else { continue }
            let text = BackgroundJob.State.allCases.compactMap { state in
                counts.first { $0.state == state }.map { "\($0.count) \(state.rawValue)" }
            }
            print("\(kind.rawValue): \(text.joined(separator: ", "))")
        }
        for job in report.running {
            print("running #\(job.id) \(job.kind.rawValue) \(job.subject) (attempt \(job.attempts) of \(job.maxAttempts), \(job.leaseOwner ?? ""))")
        }
        for job in report.failed {
            print("failed #\(job.id) \(job.kind.rawValue) \(job.subject) after \(job.attempts) attempts: \(job.lastError ?? "")")
        }
    }
}

struct JobsRetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Queue failed jobs again, their attempts reset.",
        discussion: "JSON: {\"retried\": N}.")

    @OptionGroup var library: LibraryOptions
    @Argument(help: "Job numbers (as `shoebox jobs` shows them).") var ids: [Int64] = []
    @Flag(help: "Every failed job.") var all = false
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard all != !ids.isEmpty else { throw ValidationError("name the jobs to retry, or --all") }
    }

    func run() async throws {
        let opened = try await library.open()
        let count: Int
        do { count = try await opened.retryJobs(all ? nil : ids) } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        if json { print(#"{"retried": \#(count)}"#) } else { print("queued \(count) failed job(s) again") }
    }
}

struct JobsCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Remove queued or failed jobs (running ones finish).",
        discussion: "`shoebox jobs enqueue-missing` queues again whatever is still missing. JSON: {\"cancelled\": N}.")

    @OptionGroup var library: LibraryOptions
    @Argument(help: "Job numbers (as `shoebox jobs` shows them).") var ids: [Int64] = []
    @Flag(help: "Every queued and failed job.") var all = false
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard all != !ids.isEmpty else { throw ValidationError("name the jobs to cancel, or --all") }
    }

    func run() async throws {
        let opened = try await library.open()
        let count: Int
        do { count = try await opened.cancelJobs(all ? nil : ids) } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        if json { print(#"{"cancelled": \#(count)}"#) } else { print("cancelled \(count) job(s)") }
    }
}

struct JobsEnqueueMissingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enqueue-missing",
        abstract: "Queue the work the catalog says is missing.",
        discussion: """
            Finds assets whose grid thumbnail is neither in this machine's cache nor in the \
            bucket, and movies without a playback rendition, and queues their jobs, with the \
            repeating library-wide jobs. JSON: {"queued": N}.
            """)

    @OptionGroup var library: LibraryOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let opened = try await library.open()
        let count: Int
        do { count = try await opened.enqueueMissingWork() } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        if json { print(#"{"queued": \#(count)}"#) } else { print("queued \(count) job(s)") }
    }
}

struct JobsRereadMetadataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reread-metadata",
        abstract: "Queue reading originals' metadata again (sizes, kinds, dates, places).",
        discussion: """
            A worker reads each original again and updates the catalog, as after an upgrade \
            that reads more of what cameras write. A date or place set through the library API \
            (`AssetChangeRequest`) stays. JSON: {"queued": N}.
            """)

    @OptionGroup var library: LibraryOptions
    @Argument(help: "Local identifiers of the assets.") var ids: [String] = []
    @Flag(help: "Every asset, Recently Deleted included.") var all = false
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard all != !ids.isEmpty else { throw ValidationError("name the assets to read again, or --all") }
    }

    func run() async throws {
        let opened = try await library.open()
        let count: Int
        do { count = try await opened.enqueueMetadataReread(of: all ? nil : ids) } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        if json { print(#"{"queued": \#(count)}"#) } else { print("queued \(count) job(s)") }
    }
}
