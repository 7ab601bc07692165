import Foundation
import Synchronization

/// What ``PhotoLibrary/migrateBlobs(ofLibraryAt:to:deletingLocalCopies:progress:)`` did.
public struct BlobMigrationReport: Sendable, Codable {
    /// Blobs uploaded by this run.
    public let copied: Int
    /// Blobs the bucket held already (an earlier, interrupted run), checked.
    public let alreadyThere: Int
    /// Bytes uploaded by this run.
    public let bytes: Int
    /// Local files removed (with `--delete-local`), each after its object was checked.
    public let deletedLocal: Int
    /// Files in `originals/` or `renders/` not named like a blob: left where they are
    /// (`shoebox doctor` reports them).
    public let strayFiles: [String]
    /// The bucket the library now uses.
    public let blobs: String
    /// How long the run took, in seconds.
    public let seconds: Double
}

/// How far a blob migration is.
public struct BlobMigrationProgress: Sendable {
    /// Blobs uploaded or found already in the bucket so far, in this pass.
    public let done: Int
    /// Blobs this pass has to upload or check. A second pass, after the switch, copies what
    /// appeared meanwhile and counts from 0 again.
    public let total: Int
    /// Bytes uploaded so far in this pass (blobs found in the bucket count none).
    public let bytes: Int
}

extension PhotoLibrary {
    /// Moves the library's originals and renders from its folder to an S3 bucket: every blob is
    /// uploaded (the store checks each body against its SHA-256) and checked there, then the
    /// library's `library.json` switches to the bucket, then blobs that appeared meanwhile are
    /// copied too, and only then — with `deletingLocalCopies` — each local file is removed once its
    /// object is checked again.
    ///
    /// Interrupted at any point, nothing is lost: before the switch the library still uses its
    /// files (the objects already uploaded are found and checked by the next run); after it, the
    /// local files stay until a run with `deletingLocalCopies` removes them. Running it again
    /// resumes. Stop servers and workers on the library first. Derivatives stay in the local
    /// cache; they reach the bucket as they are used.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` when the library uses another bucket;
    ///   ``LibraryError/Code/storage`` for a local blob whose bytes no longer match its name (run
    ///   `shoebox doctor --deep`) or an object that does not match; ``LibraryError/Code/objectStorage``.
    public static func migrateBlobs(
        ofLibraryAt url: URL, to target: S3URL, deletingLocalCopies: Bool = false,
        progress: @escaping @Sendable (BlobMigrationProgress) -> Void = { _ in }
    ) async throws(LibraryError) -> BlobMigrationReport {
        let started = Date()
        let root = url.standardizedFileURL
        var configuration = try Configuration.load(fromLibraryAt: root)
        switch configuration.blobs {
        case .files:
            break
        case .s3(let current) where current == target:
            break  // switched by an earlier run: copy what is still local, and delete if asked
        case .s3(let other):
            throw .invalidArgument("\(root.path) keeps its blobs in \(other) already, not in \(target)")
        }
        let client = S3Client(url: target, credentials: try AWSCredentials.find())
        try await client.checkBucket()
        let bucket = S3BlobStore(client: client, cache: BlobCache(root: root.appendingPathComponent("cache/blobs")))
        let local = FileBlobStore(root: root)
        let faults = FaultInjector()
        var counts = Counts()

        // Settle what crashed processes left (as any opening does) while the files are the store.
        if configuration.blobs == .files {
            let library = try await open(at: root, configuration: configuration)
            await library.close()
        }
        try await copy(from: local, to: bucket, counts: &counts, faults: faults, progress: progress)
        if configuration.blobs == .files {
            configuration.blobs = .s3(target)
            try configuration.write(toLibraryAt: root)
            // What an import finished between the listing and the switch.
            try await copy(from: local, to: bucket, counts: &counts, faults: faults, progress: progress)
        }
        var deleted = 0
        if deletingLocalCopies {
            for kind in BlobKind.allCases {
                for blob in try await local.list(kind) {
                    guard let key = blob.key else { continue }
                    guard try await bucket.verify(key, size: blob.size) else {
                        throw .storage("the bucket's copy of \(key) does not match the local file; kept \(blob.name)")
                    }
                    try await local.remove(key)
                    deleted += 1
                }
            }
        }
        return BlobMigrationReport(
            copied: counts.copied, alreadyThere: counts.alreadyThere, bytes: counts.bytes, deletedLocal: deleted,
            strayFiles: counts.strays.sorted(), blobs: target.description, seconds: Date().timeIntervalSince(started))
    }

    private struct Counts {
        var copied = 0
        var alreadyThere = 0
        var bytes = 0
        var strays: Set<String> = []
        /// Blobs copied or checked by this run.
        var done: Set<BlobKey> = []
    }

    /// Uploads every local blob the bucket lacks, four at a time, and checks each.
    private static func copy(
        from local: FileBlobStore, to bucket: S3BlobStore, counts: inout Counts, faults: FaultInjector,
        progress: @escaping @Sendable (BlobMigrationProgress) -> Void
    ) async throws(LibraryError) {
        var work: [StoredBlob] = []
        for kind in BlobKind.allCases {
            for blob in try await local.list(kind) {
                if let key = blob.key {
                    if !counts.done.contains(key) { work.append(blob) }
                } else {
                    counts.strays.insert(blob.name)
                }
            }
        }
        let items = work
        let total = work.count
        let tally = Tally()
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = 0
                func add() {
                    guard next < items.count else { return }
                    let blob = items[next]
                    next += 1
                    group.addTask {
                        let uploaded = try await copyOne(blob, from: local, to: bucket)
                        faults.crashIfArmed(.duringBlobMigration)
                        let snapshot = tally.state.withLock { tally in
                            tally.done += 1
                            if uploaded {
                                tally.copied += 1
                                tally.bytes += blob.size
                            } else {
                                tally.already += 1
                            }
                            return tally
                        }
                        progress(BlobMigrationProgress(done: snapshot.done, total: total, bytes: snapshot.bytes))
                    }
                }
                for _ in 0..<4 { add() }
                while try await group.next() != nil { add() }
            }
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .storage("\(error)", underlying: error)
        }
        let final = tally.state.withLock { $0 }
        counts.copied += final.copied
        counts.alreadyThere += final.already
        counts.bytes += final.bytes
        counts.done.formUnion(work.compactMap(\.key))
    }

    private final class Tally: Sendable {
        let state = Mutex((done: 0, copied: 0, already: 0, bytes: 0))
    }

    /// One blob: checked if the bucket has it, else its bytes checked against their name and
    /// uploaded (and then checked). Returns whether it was uploaded.
    private static func copyOne(_ blob: StoredBlob, from local: FileBlobStore, to bucket: S3BlobStore) async throws(LibraryError) -> Bool {
        let key = blob.key!
        if try await bucket.client.headObject(bucket.objectKey(key)) != nil {
            guard try await bucket.verify(key, size: blob.size) else {
                throw .storage("the bucket holds other bytes under \(key) than \(blob.name); nothing was switched")
            }
            return false
        }
        let file = local.fileURL(for: key)
        guard let actual = await sha256(of: file) else { throw .storage("cannot read \(file.path)") }
        guard actual == key.hash else {
            throw .storage("\(file.path) no longer matches its name (its bytes hash to \(actual)); run shoebox doctor --deep; nothing was switched")
        }
        _ = try await bucket.upload(file, size: blob.size, as: key)
        guard try await bucket.verify(key, size: blob.size) else {
            throw .storage("the bucket's copy of \(key) does not match after upload; nothing was switched")
        }
        return true
    }
}
