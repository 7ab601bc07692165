import Foundation

/// The queue of background jobs.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol JobCatalog: Sendable {
    /// Adds jobs to the queue. A job of the same kind and subject that is queued or running
    /// absorbs the request; a failed one is queued again with its attempts reset. Returns how
    /// many jobs were added or queued again.
    func enqueue(_ jobs: [BackgroundJob.Request]) async throws(LibraryError) -> Int
    /// Claims up to `limit` due queued jobs of `kinds`, oldest first, for `owner` until
    /// `leaseExpires`, counting an attempt for each. No two claims get the same job.
    func claimJobs(kinds: [BackgroundJob.Kind], limit: Int, owner: String, leaseExpires: Date) async throws(LibraryError) -> [BackgroundJob]
    /// Moves the leases `owner` still holds on `ids` to `leaseExpires`; returns the ids it holds.
    func renewJobLeases(_ ids: [Int64], owner: String, leaseExpires: Date) async throws(LibraryError) -> [Int64]
    /// Ends a job `owner` holds: removed, or queued again for `next` (a repeating job). `false`
    /// when `owner` no longer held it (its lease ended and the job went to someone else).
    func finishJob(_ id: Int64, owner: String, next: Date?) async throws(LibraryError) -> Bool
    /// Removes the finished jobs among `ids` that `owner` holds; returns their ids. The subjects
    /// of finished ``BackgroundJob/Kind/derivatives`` jobs are logged as changed (their
    /// thumbnails now exist), so observers hear of it.
    func finishJobs(_ ids: [Int64], owner: String) async throws(LibraryError) -> [Int64]
    /// Subjects among `subjects` with a job of `kind` queued or running.
    func openJobSubjects(kind: BackgroundJob.Kind, among subjects: [String]) async throws(LibraryError) -> Set<String>
    /// Records a failed attempt with its error: queued again for `retryAt`, or kept as failed
    /// when `retryAt` is `nil`. `false` when `owner` no longer held the job.
    func failJob(_ id: Int64, owner: String, error: String, retryAt: Date?) async throws(LibraryError) -> Bool
    /// Puts a job `owner` holds back in the queue at once, the attempt not counted (a stopping
    /// worker's). `false` when `owner` no longer held it.
    func handBackJob(_ id: Int64, owner: String) async throws(LibraryError) -> Bool
    /// Hands back running jobs whose lease ended or whose worker is known dead (failed when that
    /// was their last attempt); returns how many.
    func reapJobs(now: Date) async throws(LibraryError) -> Int
    /// Jobs in `states`, due first.
    func jobs(states: [BackgroundJob.State], limit: Int) async throws(LibraryError) -> [BackgroundJob]
    /// How many jobs there are of each kind in each state.
    func jobCounts() async throws(LibraryError) -> [JobCount]
    /// Queues failed jobs again (those in `ids`, or all when `nil`) with their attempts reset.
    func retryJobs(_ ids: [Int64]?) async throws(LibraryError) -> Int
    /// Removes queued and failed jobs (those in `ids`, or all when `nil`); running jobs finish.
    func cancelJobs(_ ids: [Int64]?) async throws(LibraryError) -> Int
    /// Returns when jobs may have been queued (by this process, or by any on a catalog that can
    /// notify), or after `timeout`.
    func waitForJobs(timeout: Duration) async
}
