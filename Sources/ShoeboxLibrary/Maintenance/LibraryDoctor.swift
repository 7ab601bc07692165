internal import Crypto
import Foundation
import ShoeboxSupport
import Synchronization

/// What `doctor` found in a library.
public struct DoctorReport: Sendable, Codable {
    /// One inconsistency.
    public struct Problem: Sendable, Codable, Hashable {
        /// `stagingLeftover`, `pendingRemoval`, `orphanOriginal`, `orphanRender`, `missingOriginal`,
        /// `missingRender`, `hashMismatch`, `strayFile`.
        public let kind: String
        /// The file, blob or object concerned: a path, a blob's name in the store, or an object key;
        /// `nil` when none is.
        public let path: String?
        /// The asset concerned (a missing original or render, a mismatched blob's owner), or `nil`.
        public let localIdentifier: String?
        /// What is wrong, or what the repair did, in a sentence for people.
        public let message: String

        private enum CodingKeys: String, CodingKey { case kind, path, localIdentifier, message }

        /// Every key is written, `null` when it does not apply.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(path, forKey: .path)
            try container.encode(localIdentifier, forKey: .localIdentifier)
            try container.encode(message, forKey: .message)
        }
    }

    /// Whether nothing is wrong (after repairs, if asked).
    public var ok: Bool { problems.isEmpty }
    /// What is wrong now.
    public let problems: [Problem]
    /// What was repaired (with `repair: true`).
    public let repaired: [Problem]

    enum CodingKeys: String, CodingKey { case ok, problems, repaired }

    /// Writes `ok` with the problems and repairs, so the JSON says at once whether all is well.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ok, forKey: .ok)
        try container.encode(problems, forKey: .problems)
        try container.encode(repaired, forKey: .repaired)
    }

    /// Reads a report written by ``encode(to:)``; `ok` is not read (it follows from the problems),
    /// and a missing `repaired` is empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        problems = try container.decode([Problem].self, forKey: .problems)
        repaired = try container.decodeIfPresent([Problem].self, forKey: .repaired) ?? []
    }

    init(problems: [Problem], repaired: [Problem]) {
        self.problems = problems
        self.repaired = repaired
    }
}

extension PhotoLibrary {
    /// Checks the library for what a crash or a hand on the files can leave behind, and repairs
    /// what can be repaired without losing anything the user imported.
    ///
    /// It first settles what dead processes left, as opening the library does, and lists that under ``DoctorReport/repaired``: after a crash, `doctor` is
    /// ok without `repair`. What is left is what no crash of Shoebox leaves:
    ///
    /// - Leftovers in `staging/` (an import that never committed; the user's file is untouched
    ///   where it came from): removed on repair.
    /// - Originals no asset refers to (a crash between the rename and the catalog commit):
    ///   re-imported on repair, or moved to `quarantine/` if they no longer import. Never deleted.
    /// - Renders no asset refers to (an edit that never committed): removed on repair.
    /// - Assets whose original is missing: reported (nothing can bring the bytes back).
    /// - Edited assets whose render is missing: re-rendered on repair when the edit is in
    ///   Shoebox's ``Adjustments`` format, else reported.
    /// - With `deep`, originals whose bytes no longer match their SHA-256 name: reported.
    ///
    /// - With blobs in object storage, multipart uploads never completed (a crash mid-upload)
    ///   and derivatives of versions no longer in the library: aborted and removed on repair.
    ///
    /// Files another process is importing right now are locked and left alone. A repair takes
    /// the sweeper's lock: it throws ``LibraryError/Code/busy`` while a sweep (or another repair)
    /// of the library runs anywhere.
    public func doctor(deep: Bool = false, repair: Bool = false) async throws(LibraryError) -> DoctorReport {
        guard repair else { return try await examine(deep: deep, repair: false, grace: nil) }
        return try await exclusively { [self] () throws(LibraryError) in try await examine(deep: deep, repair: true, grace: nil) }
    }

    /// Runs a repair holding the library-wide sweeper lock.
    private func exclusively(_ repair: @escaping @Sendable () async throws(LibraryError) -> DoctorReport) async throws(LibraryError) -> DoctorReport {
        let report: DoctorReport?
        do {
            report = try await catalog.withAdvisoryLock("sweep") { try await repair() }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .storage("cannot take the sweeper's lock: \(error)", underlying: error)
        }
        guard let report else { throw .busy("another sweep or repair of this library is running") }
        return report
    }

    /// The doctor's work; with a `grace`, blobs, uploads and derivatives younger than it are left
    /// alone (``sweep(olderThan:)``), and derivatives are not listed.
    func examine(deep: Bool, repair: Bool, grace: TimeInterval?) async throws(LibraryError) -> DoctorReport {
        guard clientIdentifier == nil else {
            throw .invalidArgument("doctor is for Shoebox's own tools; open the library without a client identifier")
        }
        // Every person's assets: a blob is orphaned only when nobody's asset refers to it.
        if catalog.owner != nil {
            // What this object's opening settled goes in the report too.
            let everyone = forEveryone()
            let settled = recoveries.withLock { done in
                defer { done.removeAll() }
                return done
            }
            everyone.recoveries.withLock { $0 += settled }
            return try await everyone.examine(deep: deep, repair: repair, grace: grace)
        }
        let cutoff = grace.map { Date().addingTimeInterval(-$0) }
        var problems: [DoctorReport.Problem] = []
        // What any process opening the library settles by itself comes first (and is reported).
        try await recover()
        var repaired = recoveries.withLock { done in
            defer { done.removeAll() }
            return done
        }

        // Staging leftovers that recovery could not remove.
        for url in staging.leftovers() {
            let problem = DoctorReport.Problem(
                kind: "stagingLeftover", path: url.path, localIdentifier: nil,
                message: "an import that never finished left \(url.lastPathComponent) in staging")
            if repair, staging.removeLeftover(url) {
                repaired.append(problem)
            } else {
                problems.append(problem)
            }
        }

        // Every blob against the catalog.
        let assets = try await fetchAssets(
            with: FetchOptions(sortDescriptors: [], includeHiddenAssets: true, includeTrashedAssets: true, includeAllBurstAssets: true)
        ).allObjects()
        var originalOwners: [String: String] = [:]
        var renderOwners: [String: String] = [:]
        for asset in assets {
            originalOwners[asset.contentHash] = asset.localIdentifier
            if let companion = asset.companion { originalOwners[companion.hash] = asset.localIdentifier }
            if let render = asset.render { renderOwners[render.hash] = asset.localIdentifier }
        }
        // Blobs that live changes hold are in flight, not orphans.
        let inFlight = Set(try await catalog.blobClaims().filter(\.isLive).map(\.key))
        var present: [BlobKind: Set<String>] = [:]
        for kind in BlobKind.allCases {
            let owners = kind == .original ? originalOwners : renderOwners
            for blob in try await blobs.list(kind) {
                guard let key = blob.key else {
                    problems.append(
                        .init(
                            kind: "strayFile", path: blob.name, localIdentifier: nil,
                            message: "\((blob.name as NSString).lastPathComponent) is not a \(kind.rawValue)'s name"))
                    continue
                }
                present[kind, default: []].insert(key.hash)
                if inFlight.contains(key) { continue }
                if let cutoff, (blob.modified ?? .distantFuture) > cutoff { continue }
                if deep, let actual = try await blobs.sha256(of: key), actual != key.hash {
                    problems.append(
                        .init(
                            kind: "hashMismatch", path: blob.name, localIdentifier: owners[key.hash],
                            message: "the bytes hash to \(actual), not to their name"))
                    continue
                }
                guard owners[key.hash] == nil else { continue }
                switch kind {
                case .original:
                    let problem = DoctorReport.Problem(
                        kind: "orphanOriginal", path: blob.name, localIdentifier: nil,
                        message: "no asset refers to this original")
                    if repair {
                        repaired.append(try await adoptOrphan(blob, problem: problem))
                    } else {
                        problems.append(problem)
                    }
                case .render:
                    // An edit whose commit never happened (or a render left by an interrupted
                    // revert): the user's original and adjustment data are intact elsewhere.
                    let problem = DoctorReport.Problem(
                        kind: "orphanRender", path: blob.name, localIdentifier: nil,
                        message: "no asset's current version is this render")
                    if repair, try await !catalog.releaseClaims(nil, candidates: [key]).isEmpty {
                        await removeMarkedBlobs([key])
                        repaired.append(problem)
                    } else {
                        problems.append(problem)
                    }
                }
            }
        }
        for asset in assets {
            if !(present[.original]?.contains(asset.contentHash) ?? false) {
                problems.append(
                    .init(
                        kind: "missingOriginal", path: BlobKey(kind: .original, hash: asset.contentHash).description,
                        localIdentifier: asset.localIdentifier, message: "the original of \(asset.originalFilename) is missing"))
            }
            if let companion = asset.companion, !(present[.original]?.contains(companion.hash) ?? false) {
                problems.append(
                    .init(
                        kind: "missingOriginal", path: BlobKey(kind: .original, hash: companion.hash).description,
                        localIdentifier: asset.localIdentifier, message: "the \(companion.type.rawValue) \(companion.filename) is missing"))
            }
            if let render = asset.render, !(present[.render]?.contains(render.hash) ?? false) {
                let problem = DoctorReport.Problem(
                    kind: "missingRender", path: BlobKey(kind: .render, hash: render.hash).description,
                    localIdentifier: asset.localIdentifier,
                    message: "the edited version of \(asset.originalFilename) is missing")
                if repair, (try? await rerender(asset)) != nil {
                    repaired.append(problem)
                } else {
                    problems.append(problem)
                }
            }
        }
        if let uploads = blobs.unfinishedUploads {
            try await examineObjectStorage(
                uploads, sources: Set(originalOwners.keys).union(renderOwners.keys), repair: repair,
                cutoff: cutoff, problems: &problems, repaired: &repaired)
        }
        return DoctorReport(problems: problems, repaired: repaired)
    }

    /// Stale multipart uploads, and (without a cutoff: `doctor`, not the sweeper) derivatives in
    /// the bucket whose version is no longer in the library.
    private func examineObjectStorage(
        _ uploads: any UnfinishedUploads, sources: Set<String>, repair: Bool, cutoff: Date?,
        problems: inout [DoctorReport.Problem], repaired: inout [DoctorReport.Problem]
    ) async throws(LibraryError) {
        for upload in try await uploads.staleUploads(olderThan: cutoff.map { -$0.timeIntervalSinceNow } ?? Self.staleUploadAge) {
            let problem = DoctorReport.Problem(
                kind: "staleUpload", path: upload.key, localIdentifier: nil,
                message: "a multipart upload started \(upload.initiated.map { "\($0)" } ?? "long ago") never completed")
            if repair, (try? await uploads.abandon(upload)) != nil {
                repaired.append(problem)
            } else {
                problems.append(problem)
            }
        }
        guard cutoff == nil, let mirror = derivatives.mirror else { return }
        for source in try await mirror.storedSources() where !sources.contains(source) {
            let problem = DoctorReport.Problem(
                kind: "orphanDerivative", path: mirror.objectKey(source: source, name: ""), localIdentifier: nil,
                message: "derivatives of a version no asset has")
            if repair {
                await mirror.removeAll(forSource: source)
                repaired.append(problem)
            } else {
                problems.append(problem)
            }
        }
    }

    /// How old an unfinished multipart upload must be for `doctor` to call it stale: older than
    /// the longest upload (a claim's lease).
    static let staleUploadAge = BlobClaim.lease

    /// Re-imports an orphan original, or quarantines it if it no longer imports.
    private func adoptOrphan(_ blob: StoredBlob, problem: DoctorReport.Problem) async throws(LibraryError) -> DoctorReport.Problem {
        do {
            let file = try await blobs.localFile(for: blob.key!)
            try await performChanges {
                _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: file)
            }
            return DoctorReport.Problem(kind: problem.kind, path: problem.path, localIdentifier: nil, message: "re-imported")
        } catch {
            let destination = try await blobs.quarantine(blob, into: url.appendingPathComponent("quarantine"))
            return DoctorReport.Problem(
                kind: problem.kind, path: destination.path, localIdentifier: nil,
                message: "moved to quarantine: it no longer imports (\(error))")
        }
    }

    /// The SHA-256 of a file as lowercase hex: the ``Asset/contentHash`` the library gives those
    /// bytes, and the original's file name. `nil` if the file cannot be read.
    public static func contentHash(of url: URL) async -> String? {
        await sha256(of: url)
    }

    static func sha256(of url: URL) async -> String? {
        try? await BlockingPool.shared.run { () -> String? in
            guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
            defer { try? handle.close() }
            var hasher = SHA256()
            while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(data: chunk)
            }
            return Hex.encode(hasher.finalize())
        } ?? nil
    }
}

extension PhotoLibrary {
    /// How long the sweeper leaves what looks abandoned alone: a day, longer than any change
    /// holds its blobs (``BlobClaim/lease``).
    public static let sweepGrace: TimeInterval = 86_400

    /// The sweeper: what a crash anywhere (on any machine sharing the library) can leave, settled
    /// once it is older than `grace` — claims of dead or expired changes (as opening does),
    /// originals no asset refers to (adopted: imported again, never deleted), renders no asset
    /// uses (removed), and with blobs in object storage, multipart uploads never completed
    /// (aborted), and resumable uploads nobody added to for a day. What is younger may belong to
    /// a change still running elsewhere and is left alone. Returns what it did, and what it found
    /// but cannot repair. One sweep (or repair)
    /// runs at a time across every process and machine of the library (an advisory lock in
    /// PostgreSQL; a file lock for SQLite): while one runs, this throws ``LibraryError/Code/busy``.
    public func sweep(olderThan grace: TimeInterval = PhotoLibrary.sweepGrace) async throws(LibraryError) -> DoctorReport {
        // One sweeper at a time, across every process and machine of the library.
        try await exclusively { [self] () throws(LibraryError) in
            let report = try await examine(deep: false, repair: true, grace: grace)
            // Resumable uploads abandoned a day ago go too (their pieces, then the record).
            try await expireUploads()
            return report
        }
    }

    /// Runs ``sweep(olderThan:)`` every `interval` (a day by default) until the task is
    /// cancelled; `shoebox serve` runs it. Failures wait for the next round.
    public func runSweeper(every interval: Duration = .seconds(86_400), firstAfter delay: Duration = .seconds(600)) async {
        try? await Task.sleep(for: delay)
        while !Task.isCancelled {
            _ = try? await sweep()
            try? await Task.sleep(for: interval)
        }
    }
}
