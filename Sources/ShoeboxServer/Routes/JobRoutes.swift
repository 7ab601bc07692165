import Foundation
import Hummingbird
import ShoeboxLibrary

/// The library's background jobs, for the user: counts by kind and state, the running and failed
/// jobs (`GET /api/jobs`), and retrying or removing jobs (`POST /api/jobs/retry`,
/// `POST /api/jobs/cancel`, with `{"ids": [N]}` or `{}` for all). The web app's background-work
/// indicator and page read them.
struct JobRoutes {
    let state: ServerState

    struct Listing: Encodable {
        let counts: [JobCount]
        /// Jobs queued or running, not counting the repeating chores while they wait.
        let open: Int
        let failed: [BackgroundJob]
        let running: [BackgroundJob]
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.get("jobs") { _, context in
            try requireUser(context)
            let library = state.library
            let counts = try await library.jobCounts()
            // The repeating chores wait in the queue most of the time: they count while running.
            let open = counts.filter { $0.state == .running || ($0.state == .queued && $0.kind.repeatInterval == nil) }.map(\.count).reduce(0, +)
            return try JSONResponse.make(
                Listing(
                    counts: counts, open: open, failed: try await library.jobs(in: [.failed], limit: 200),
                    running: try await library.jobs(in: [.running], limit: 200)))
        }
        api.post("jobs/retry") { request, context in
            try requireUser(context)
            let body = try await JSONResponse.decode(RequestBody.JobSelection.self, from: request)
            return try JSONResponse.make(["retried": try await state.library.retryJobs(body.ids)])
        }
        api.post("jobs/cancel") { request, context in
            try requireUser(context)
            let body = try await JSONResponse.decode(RequestBody.JobSelection.self, from: request)
            return try JSONResponse.make(["cancelled": try await state.library.cancelJobs(body.ids)])
        }
    }

    private func requireUser(_ context: ServerRequestContext) throws {
        try context.caller.requireUser("only the user may see and change background jobs")
    }
}
