import Foundation

/// One piece of background work kept in the catalog's job queue: made durable by the change
/// that called for it, claimed by one worker at a time under a lease, retried with backoff, and
/// kept as failed (with its last error) when its attempts run out.
///
/// Every kind of job is idempotent — its outputs are filed under the source's content hash and
/// the recipe — because a job whose worker died runs again elsewhere.
public struct BackgroundJob: Sendable, Hashable, Codable, Identifiable {
    /// What a job does.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The 1024-pixel preview and the 256-pixel grid thumbnail of an asset's current version
        /// (for a movie, of its poster frame). Subject: the asset's local identifier.
        case derivatives
        /// The poster frame of a movie. Subject: the asset's local identifier.
        case poster
        /// The playback rendition (H.264 MP4) of a movie browsers cannot play as it is.
        /// Subject: the asset's local identifier.
        case rendition
        /// Reads an asset's original again and updates the catalog's sizes, kinds, date and
        /// place (a date or place the user set stays). Subject: the asset's local identifier.
        case metadata
        /// Deletes for good what has been in Recently Deleted longer than the library keeps it.
        /// Library-wide (empty subject); runs again every hour.
        case purgeExpired
        /// Settles blob leftovers (``PhotoLibrary/sweep(olderThan:)``). Library-wide; daily.
        case sweep
        /// Writes the search words of assets that have none (a library from before search).
        /// Library-wide; queued by ``PhotoLibrary/enqueueMissingWork()``.
        case searchIndex
        /// Names the library's photos by the place table again when the table appeared, changed
        /// or went since it last named them (``PhotoLibrary/placeTableChanged()``): their place
        /// names and search words (the `searchIndex` job), and the local time of those whose zone
        /// comes from their place (a `metadata` job each). Library-wide; queued by workers when
        /// they start and when they see the table change.
        case places
        /// Does nothing: measures the queue itself (`shoebox-bench jobs`).
        case noop

        /// Whether the job is about one asset (its subject is a local identifier).
        public var isPerAsset: Bool {
            switch self {
            case .derivatives, .poster, .rendition, .metadata: true
            case .purgeExpired, .sweep, .searchIndex, .places, .noop: false
            }
        }

        /// How long after it finishes a library-wide job is due again, if it repeats.
        public var repeatInterval: TimeInterval? {
            switch self {
            case .purgeExpired: 3_600
            case .sweep: 86_400
            default: nil
            }
        }
    }

    /// Where a job is in its life. Finished jobs leave the queue (a repeating job is queued again).
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        /// Waiting for a worker, from ``BackgroundJob/runAfter`` on.
        case queued
        /// Claimed by the worker named in ``BackgroundJob/leaseOwner`` until ``BackgroundJob/leaseExpires``.
        case running
        /// Its last attempt failed; kept with the error until it is retried or cancelled.
        case failed
    }

    /// A job to add to the queue: its kind, subject and when it may start.
    public struct Request: Sendable, Hashable {
        /// What the job will do.
        public let kind: Kind
        /// The asset's local identifier for per-asset jobs; empty for library-wide ones.
        public let subject: String
        /// The earliest time a worker may claim the job (default: now).
        public let runAfter: Date
        /// How many attempts the job gets before it is kept as failed.
        public let maxAttempts: Int

        /// A request for a job of `kind` about `subject`, due from `runAfter`. Queueing a job that is
        /// already queued or running adds nothing; queueing a failed one queues it again.
        public init(kind: Kind, subject: String = "", runAfter: Date = Date(), maxAttempts: Int = BackgroundJob.defaultMaxAttempts) {
            self.kind = kind
            self.subject = subject
            self.runAfter = runAfter
            self.maxAttempts = maxAttempts
        }
    }

    /// Attempts before a job is kept as failed.
    public static let defaultMaxAttempts = 5

    /// The job's row id in the catalog's queue (what ``PhotoLibrary/retryJobs(_:)`` and
    /// ``PhotoLibrary/cancelJobs(_:)`` take).
    public let id: Int64
    /// What the job does.
    public let kind: Kind
    /// The asset's local identifier for a per-asset job (``Kind/isPerAsset``); empty for a
    /// library-wide one.
    public let subject: String
    /// Whether it waits, runs, or failed with its attempts spent.
    public let state: State
    /// Attempts so far, counting the one running.
    public let attempts: Int
    /// How many attempts it gets before it is kept as failed.
    public let maxAttempts: Int
    /// When it is due (a worker claims it from then on): after a failed attempt, when its
    /// ``backoff(afterAttempt:)`` ends; for a repeating job, ``Kind/repeatInterval`` after it
    /// last finished.
    public let runAfter: Date
    /// The worker holding the job (``ProcessIdentity`` text plus a worker name), while running.
    public let leaseOwner: String?
    /// While running, when the worker's lease ends (workers renew it); a job whose lease ends is
    /// queued again, or kept as failed when its attempts are spent. `nil` when not running.
    public let leaseExpires: Date?
    /// The error of the last failed attempt.
    public let lastError: String?
    /// When the job was first queued.
    public let createdDate: Date

    /// A job from its fields, as a ``CatalogStore`` reads it.
    package init(
        id: Int64, kind: Kind, subject: String, state: State, attempts: Int, maxAttempts: Int, runAfter: Date,
        leaseOwner: String?, leaseExpires: Date?, lastError: String?, createdDate: Date
    ) {
        self.id = id
        self.kind = kind
        self.subject = subject
        self.state = state
        self.attempts = attempts
        self.maxAttempts = maxAttempts
        self.runAfter = runAfter
        self.leaseOwner = leaseOwner
        self.leaseExpires = leaseExpires
        self.lastError = lastError
        self.createdDate = createdDate
    }

    /// The longest wait before a job that failed because the catalog or the bucket was away is
    /// tried again (five minutes): such a job is retried until it is back, whatever its
    /// ``maxAttempts``.
    public static let transientBackoffLimit: TimeInterval = 300

    /// The wait before attempt `attempts + 1` after a failure: 2, 4, 8 … seconds, at most an hour.
    public static func backoff(afterAttempt attempts: Int) -> TimeInterval {
        min(3_600, pow(2, Double(max(1, attempts))))
    }
}

/// How many jobs of one kind are in one state.
public struct JobCount: Sendable, Hashable, Codable {
    /// The kind of job counted.
    public let kind: BackgroundJob.Kind
    /// The state counted.
    public let state: BackgroundJob.State
    /// How many jobs of ``kind`` are in ``state``.
    public let count: Int

    /// A count from its parts, as a ``CatalogStore`` reads it.
    package init(kind: BackgroundJob.Kind, state: BackgroundJob.State, count: Int) {
        self.kind = kind
        self.state = state
        self.count = count
    }
}
