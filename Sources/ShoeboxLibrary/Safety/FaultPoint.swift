import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A named moment in a change where a crash is worth proving harmless. Setting the environment
/// variable `SHOEBOX_FAULT` to a point's name (optionally `NAME:N` for its Nth visit) makes the
/// process kill itself with SIGKILL when it gets there; the crash tests run every point against
/// every kind of change and then check that nothing was lost or left half-made.
package enum FaultPoint: String, Sendable, CaseIterable {
    /// A new file is copied into `staging/`, not yet flushed.
    case afterStage = "after-stage"
    /// The staged file is flushed to disk.
    case afterFsync = "after-fsync"
    /// The change's blobs are claimed in the catalog.
    case afterClaim = "after-claim"
    /// The blob is filed under its hash (renamed into `originals/` or `renders/`).
    case afterRename = "after-rename"
    /// Inside the catalog transaction, its writes made, before it commits.
    case insideCommit = "inside-commit"
    /// The catalog transaction has committed; the change has not yet returned.
    case afterCommit = "after-commit"
    /// A purge has committed its decision to remove a blob and has not removed it yet.
    case duringPurge = "during-purge"
    /// An edit is being rendered into its output file.
    case duringEditRender = "during-edit-render"
    /// A catalog migration has copied every table and not yet committed or switched.
    case duringMigration = "during-migration"
    /// A multipart upload to object storage has sent a part (`NAME:N`: the Nth) and is not complete.
    case duringMultipartUpload = "during-multipart-upload"
    /// A blob migration has copied (and verified) a blob to object storage (`NAME:N`: the Nth).
    case duringBlobMigration = "during-blob-migration"
}

/// Fault injection for crash tests: the environment's `SHOEBOX_FAULT` kills the process at a
/// point, and in-process tests may pause a library at a point to interleave another change.
final class FaultInjector: Sendable {
    private struct Armed {
        let point: FaultPoint
        var remaining: Int
    }

    private let armed: Mutex<Armed?>
    private let pauses = Mutex<[FaultPoint: @Sendable () async -> Void]>([:])

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        var armed: Armed?
        if let value = environment["SHOEBOX_FAULT"], !value.isEmpty {
            let parts = value.split(separator: ":", maxSplits: 1)
            if let point = FaultPoint(rawValue: String(parts[0])) {
                armed = Armed(point: point, remaining: parts.count > 1 ? max(1, Int(parts[1]) ?? 1) : 1)
            }
        }
        self.armed = Mutex(armed)
    }

    /// Kills the process here if `SHOEBOX_FAULT` names this point (and this is the visit it names).
    func crashIfArmed(_ point: FaultPoint) {
        let fire = armed.withLock { state -> Bool in
            guard state?.point == point else { return false }
            state!.remaining -= 1
            return state!.remaining == 0
        }
        if fire {
            FileHandle.standardError.write(Data("shoebox: fault injected at \(point.rawValue)\n".utf8))
            kill(getpid(), SIGKILL)
            pause()
        }
    }

    /// Kills the process if armed here, else waits for a test's pause handler (if one is set).
    func reach(_ point: FaultPoint) async {
        crashIfArmed(point)
        if let handler = pauses.withLock({ $0[point] }) {
            await handler()
        }
    }

    /// Runs `handler` whenever a change of this library reaches `point` (tests only).
    func onReaching(_ point: FaultPoint, _ handler: (@Sendable () async -> Void)?) {
        pauses.withLock { $0[point] = handler }
    }
}
