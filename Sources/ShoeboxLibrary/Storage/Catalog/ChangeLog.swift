import Foundation
import ShoeboxImaging

/// The catalog's change log: one entry per object a commit touched, read by every process
/// and server to hear of every commit.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol ChangeLog: Sendable {
    /// The newest change-log sequence number (0 when empty).
    func latestChangeSequence() async throws(LibraryError) -> Int64
    /// Change-log entries after `sequence`, oldest first.
    func changes(after sequence: Int64) async throws(LibraryError) -> [ChangeLogEntry]
    /// Returns when a commit may have added entries after `sequence` (at once if it already has),
    /// or after `timeout`. A commit in this process wakes it at once; on SQLite, the caller's
    /// loop finds other processes' commits every `timeout`; PostgreSQL listens for notifications
    /// (with a slow poll as the fallback for a missed one).
    func waitForChanges(after sequence: Int64, timeout: Duration) async
    /// Wakes when this process writes to the catalog (a count of its writes and a way to wait
    /// for the next): what a caller watching this process's own work waits on.
    var localWrites: NotificationBoard { get }
    /// Whether other processes' commits wake ``waitForChanges(after:timeout:)`` at once
    /// (PostgreSQL's `NOTIFY`); otherwise they are found when its timeout passes.
    var hearsOtherProcessesCommits: Bool { get }
}
