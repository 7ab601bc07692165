import Foundation
import Hummingbird
import ServiceLifecycle
import ShoeboxLibrary

/// The background jobs of a person's library, for that person: counts by kind and state, the
/// running and failed jobs (`GET /api/jobs`, which waits for a change with `?wait=S&since=TAG`),
/// and retrying or removing jobs (`POST /api/jobs/retry`, `POST /api/jobs/cancel`, with
/// `{"ids": [N]}` or `{}` for all). Each person sees and changes the jobs about their own photos
/// and movies; the library-wide chores are the first admin's (``PhotoLibrary/jobs(in:limit:)``).
/// The web app's background-work indicator and page read them.
struct JobRoutes {
    let state: ServerState

    /// Other processes' workers (`shoebox worker`) do not wake a waiting request: it looks again
    /// this often.
    static let otherWorkersInterval: Duration = .seconds(2)

    struct Listing: Encodable {
        let counts: [JobCount]
        /// Jobs queued or running, not counting the repeating chores while they wait.
        let open: Int
        let failed: [BackgroundJob]
        let running: [BackgroundJob]
        /// Names this listing's counts and jobs: a request with `since=TAG` waits while they stay so.
        let tag: String

        init(counts: [JobCount], failed: [BackgroundJob], running: [BackgroundJob]) {
            self.counts = counts
            // The repeating chores wait in the queue most of the time: they count while running.
            open = counts.filter { $0.state == .running || ($0.state == .queued && $0.kind.repeatInterval == nil) }.map(\.count).reduce(0, +)
            self.failed = failed
            self.running = running
            let what =
                counts.map { "\($0.kind.rawValue) \($0.state.rawValue) \($0.count)" } + failed.map { "failed \($0.id) \($0.attempts)" }
                + running.map { "running \($0.id) \($0.attempts)" }
            tag = Self.fnv1a(what.joined(separator: "\n"))
        }

        /// FNV-1a, 64 bits, as 16 hex digits: the same text gives the same tag on every server.
        static func fnv1a(_ text: String) -> String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            let hex = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.get("jobs") { request, context in
            let library = try jobsLibrary(context)
            let wait = min(max(request.uri.queryParameters.get("wait", as: Double.self) ?? 0, 0), 60)
            guard wait > 0, let since = request.uri.queryParameters.get("since") else { return try JSONResponse.make(try await listing(of: library)) }
            // A long poll: answer once the jobs differ from the caller's `since`, after `wait`
            // seconds, or when the server stops (with what was read last) — woken by this
            // process's catalog writes.
            let deadline = ContinuousClock.now + .seconds(wait)
            let answer = try await cancelWhenGracefulShutdown { () throws -> Listing in
                var seen = state.library.catalogWriteCount
                var current = try await listing(of: library)
                while current.tag == since, ContinuousClock.now < deadline {
                    await state.library.waitForCatalogWrite(beyond: seen, until: min(deadline, .now + Self.otherWorkersInterval))
                    if Task.isCancelled { break }
                    seen = state.library.catalogWriteCount
                    current = try await listing(of: library)
                }
                return current
            }
            return try JSONResponse.make(answer)
        }
        api.post("jobs/retry") { request, context in
            let library = try jobsLibrary(context)
            let body = try await JSONResponse.decode(RequestBody.JobSelection.self, from: request)
            return try JSONResponse.make(["retried": try await library.retryJobs(body.ids)])
        }
        api.post("jobs/cancel") { request, context in
            let library = try jobsLibrary(context)
            let body = try await JSONResponse.decode(RequestBody.JobSelection.self, from: request)
            return try JSONResponse.make(["cancelled": try await library.cancelJobs(body.ids)])
        }
    }

    private func listing(of library: PhotoLibrary) async throws -> Listing {
        Listing(
            counts: try await library.jobCounts(), failed: try await library.jobs(in: [.failed], limit: 200),
            running: try await library.jobs(in: [.running], limit: 200))
    }

    /// The library of the person calling: the jobs are a person's (an app has none to see).
    private func jobsLibrary(_ context: ServerRequestContext) throws -> PhotoLibrary {
        _ = try context.caller.requirePerson("only a person sees and changes their library's background jobs")
        return try state.handle(for: context.caller).library
    }
}
