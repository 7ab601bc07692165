import Foundation
import ShoeboxImaging

/// The job queue in the catalog's `job` table. One row per kind and subject: a request for a job
/// that is already queued or running is absorbed, and one for a failed job queues it again. A
/// claim takes the due jobs in order, skipping rows another transaction has locked on PostgreSQL
/// (`FOR UPDATE SKIP LOCKED`), so concurrent workers never take the same job; on SQLite the
/// single writer decides. A finished job leaves the table unless it repeats.
extension SQLCatalogStore {
    static func insertJobs(_ requests: [BackgroundJob.Request], in db: any SQLSession, now: Date) async throws -> Int {
        var changed = 0
        for request in requests {
            changed += try await db.execute(
                """
                INSERT INTO job (kind, subject, state, attempts, maxAttempts, runAfter, createdDate)
                VALUES (\(request.kind.rawValue), \(request.subject), 'queued', 0, \(request.maxAttempts), \(request.runAfter), \(now))
                ON CONFLICT (kind, subject) DO UPDATE SET state = 'queued', attempts = 0, runAfter = excluded.runAfter,
                  maxAttempts = excluded.maxAttempts, lastError = NULL, leaseOwner = NULL, leaseExpires = NULL
                WHERE job.state = 'failed'
                """)
        }
        if changed > 0, db.dialect == .postgres {
            try await db.execute("SELECT pg_notify('shoebox_jobs', '')")
        }
        return changed
    }

    func enqueue(_ requests: [BackgroundJob.Request]) async throws(LibraryError) -> Int {
        guard !requests.isEmpty else { return 0 }
        let added = try await write { db in try await Self.insertJobs(requests, in: db, now: Date()) }
        if added >= 500, dialect == .postgres {
            // Many rows at once: statistics that still describe an empty queue make the planner
            // sort every due job for each claim instead of reading the due index in order.
            _ = try? await statement { db in try await db.execute("ANALYZE job") }
        }
        if added > 0 { jobBoard.notify() }
        return added
    }

    func claimJobs(kinds: [BackgroundJob.Kind], limit: Int, owner: String, leaseExpires: Date) async throws(LibraryError) -> [BackgroundJob] {
        guard limit > 0, !kinds.isEmpty else { return [] }
        let skipLocked = dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        return try await statement { db in
            try await db.query(
                """
                UPDATE job SET state = 'running', attempts = attempts + 1, leaseOwner = \(owner), leaseExpires = \(leaseExpires)
                WHERE id IN (
                  SELECT id FROM job WHERE state = 'queued' AND runAfter <= \(Date()) AND kind IN \(list: kinds.map(\.rawValue))
                  ORDER BY runAfter, id LIMIT \(limit)\(raw: skipLocked))
                RETURNING *
                """
            ).map(Self.job(from:)).sorted { ($0.runAfter, $0.id) < ($1.runAfter, $1.id) }
        }
    }

    func renewJobLeases(_ ids: [Int64], owner: String, leaseExpires: Date) async throws(LibraryError) -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try await statement { db in
            try await db.integers(
                """
                UPDATE job SET leaseExpires = \(leaseExpires)
                WHERE id IN \(list: ids) AND state = 'running' AND leaseOwner = \(owner) RETURNING id
                """)
        }
    }

    func finishJob(_ id: Int64, owner: String, next: Date?) async throws(LibraryError) -> Bool {
        try await statement { db in
            if let next {
                return try await db.execute(
                    """
                    UPDATE job SET state = 'queued', attempts = 0, runAfter = \(next), leaseOwner = NULL, leaseExpires = NULL, lastError = NULL
                    WHERE id = \(id) AND state = 'running' AND leaseOwner = \(owner)
                    """) > 0
            }
            return try await db.execute("DELETE FROM job WHERE id = \(id) AND state = 'running' AND leaseOwner = \(owner)") > 0
        }
    }

    func finishJobs(_ ids: [Int64], owner: String) async throws(LibraryError) -> [Int64] {
        guard !ids.isEmpty else { return [] }
        let finished = try await statement { db in
            try await db.query("DELETE FROM job WHERE id IN \(list: ids) AND state = 'running' AND leaseOwner = \(owner) RETURNING id, kind, subject")
        }
        // An asset whose thumbnail and preview now exist changed for those who show it: the web
        // grid swaps its placeholder for the picture.
        let made = finished.filter { ($0["kind"] as String) == BackgroundJob.Kind.derivatives.rawValue }.map { $0["subject"] as String }
        if !made.isEmpty {
            try await write { db in try await Self.logAssetUpdates(made, in: db, now: Date()) }
        }
        return finished.map { $0["id"] }
    }

    /// Subjects among `subjects` with a job of `kind` queued or running.
    func openJobSubjects(kind: BackgroundJob.Kind, among subjects: [String]) async throws(LibraryError) -> Set<String> {
        guard !subjects.isEmpty else { return [] }
        return try await read { db in
            Set(
                try await db.query(
                    """
                    SELECT subject FROM job WHERE kind = \(kind.rawValue) AND subject IN \(list: subjects) AND state IN ('queued', 'running')
                    """
                ).map { $0["subject"] as String })
        }
    }

    func failJob(_ id: Int64, owner: String, error: String, retryAt: Date?) async throws(LibraryError) -> Bool {
        let message = String(error.prefix(2_000))
        return try await statement { db in
            if let retryAt {
                return try await db.execute(
                    """
                    UPDATE job SET state = 'queued', runAfter = \(retryAt), leaseOwner = NULL, leaseExpires = NULL, lastError = \(message)
                    WHERE id = \(id) AND state = 'running' AND leaseOwner = \(owner)
                    """) > 0
            }
            return try await db.execute(
                """
                UPDATE job SET state = 'failed', leaseOwner = NULL, leaseExpires = NULL, lastError = \(message)
                WHERE id = \(id) AND state = 'running' AND leaseOwner = \(owner)
                """) > 0
        }
    }

    func handBackJob(_ id: Int64, owner: String) async throws(LibraryError) -> Bool {
        let now = Date()
        let handed = try await write { db in
            let handed =
                try await db.execute(
                    """
                    UPDATE job SET state = 'queued', attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END, runAfter = \(now),
                      leaseOwner = NULL, leaseExpires = NULL
                    WHERE id = \(id) AND state = 'running' AND leaseOwner = \(owner)
                    """) > 0
            if handed, db.dialect == .postgres { try await db.execute("SELECT pg_notify('shoebox_jobs', '')") }
            return handed
        }
        if handed { jobBoard.notify() }
        return handed
    }

    func reapJobs(now: Date) async throws(LibraryError) -> Int {
        // Owners known dead (on this host) lose their jobs at once; others when their lease ends.
        let owners = try await read { db in
            try await db.query("SELECT DISTINCT leaseOwner FROM job WHERE state = 'running'").compactMap { $0["leaseOwner"] as String? }
        }
        let dead = owners.filter { ProcessIdentity(Self.processPart(ofOwner: $0))?.mayBeAlive == false }
        let reaped = try await statement { db in
            try await db.execute(
                """
                UPDATE job SET state = CASE WHEN attempts >= maxAttempts THEN 'failed' ELSE 'queued' END,
                  lastError = 'its worker stopped (lease ended) during attempt ' || CAST(attempts AS TEXT),
                  leaseOwner = NULL, leaseExpires = NULL, runAfter = \(now)
                WHERE state = 'running' AND (leaseExpires < \(now) OR leaseOwner IN \(list: dead))
                """)
        }
        if reaped > 0 { jobBoard.notify() }
        return reaped
    }

    /// The jobs this object's person sees and changes: those about their own assets. The
    /// library-wide chores (no subject) and jobs whose asset is gone are the first admin's, the
    /// library's owner's. Everyone's, when it acts for everyone (the workers, the doctor).
    func jobCondition() -> SQLStatement {
        guard let owner else { return "TRUE" }
        let theirs: SQLStatement = "subject IN (SELECT localIdentifier FROM asset WHERE " + assetOwnerCondition() + ")"
        guard owner == Person.adminRowID else { return theirs }
        return "(" + theirs + " OR subject = '' OR subject NOT IN (SELECT localIdentifier FROM asset))"
    }

    func jobs(states: [BackgroundJob.State], limit: Int) async throws(LibraryError) -> [BackgroundJob] {
        let theirs = jobCondition()
        return try await read { db in
            try await db.query(
                "SELECT * FROM job WHERE state IN \(list: states.map(\.rawValue)) AND " + theirs + " ORDER BY runAfter, id LIMIT \(limit)"
            ).map(Self.job(from:))
        }
    }

    func jobCounts() async throws(LibraryError) -> [JobCount] {
        let theirs = jobCondition()
        return try await read { db in
            try await db.query("SELECT kind, state, COUNT(*) AS count FROM job WHERE " + theirs + " GROUP BY kind, state ORDER BY kind, state").compactMap {
                row in
                guard let kind = BackgroundJob.Kind(rawValue: row["kind"]), let state = BackgroundJob.State(rawValue: row["state"]) else { return nil }
                return JobCount(kind: kind, state: state, count: row["count"])
            }
        }
    }

    func retryJobs(_ ids: [Int64]?) async throws(LibraryError) -> Int {
        let now = Date()
        let filter: SQLStatement = (ids.map { ids -> SQLStatement in "AND id IN \(list: ids) AND " } ?? "AND ") + jobCondition()
        let count = try await write { db in
            let count = try await db.execute(
                "UPDATE job SET state = 'queued', attempts = 0, runAfter = \(now), lastError = NULL WHERE state = 'failed' " + filter)
            if count > 0, db.dialect == .postgres { try await db.execute("SELECT pg_notify('shoebox_jobs', '')") }
            return count
        }
        if count > 0 { jobBoard.notify() }
        return count
    }

    func cancelJobs(_ ids: [Int64]?) async throws(LibraryError) -> Int {
        let filter: SQLStatement = (ids.map { ids -> SQLStatement in "AND id IN \(list: ids) AND " } ?? "AND ") + jobCondition()
        return try await statement { db in
            try await db.execute("DELETE FROM job WHERE state IN ('queued', 'failed') " + filter)
        }
    }

    /// One statement that writes: on PostgreSQL in autocommit on a pooled connection (one round
    /// trip instead of BEGIN, the statement and COMMIT; a single statement is atomic anyway), on
    /// SQLite in a write transaction (its read connections cannot write).
    func statement<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws(LibraryError) -> T {
        dialect == .postgres ? try await read(body) : try await write(body)
    }

    func waitForJobs(timeout: Duration) async {
        let seen = jobBoard.count
        driver.notifier?.listen(on: "shoebox_jobs", board: jobBoard)
        await jobBoard.wait(beyond: seen, until: ContinuousClock.now + timeout)
    }

    /// `host/pid/start` of an owner written as `host/pid/start#worker`.
    static func processPart(ofOwner owner: String) -> String {
        String(owner.split(separator: "#", maxSplits: 1).first ?? "")
    }

    static func job(from row: SQLRow) -> BackgroundJob {
        BackgroundJob(
            id: row["id"], kind: BackgroundJob.Kind(rawValue: row["kind"]) ?? .noop, subject: row["subject"],
            state: BackgroundJob.State(rawValue: row["state"]) ?? .failed, attempts: row["attempts"], maxAttempts: row["maxAttempts"],
            runAfter: row["runAfter"], leaseOwner: row["leaseOwner"], leaseExpires: row["leaseExpires"], lastError: row["lastError"],
            createdDate: row["createdDate"])
    }
}
