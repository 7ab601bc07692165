import Foundation
import GRDB
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxLibrary

/// A purge and an import of the same bytes, interleaved every way that matters: whatever the
/// import reports saved is in the library with its original, and `doctor` finds nothing wrong.
@Suite struct PurgeImportRaceTests {

    /// The purge has decided to remove the original (no asset refers to it) and stops there; an
    /// import of the same bytes, in another library object (as another process would), runs to
    /// the end; then the purge goes on. The import's asset must keep its original.
    @Test func anImportBetweenAPurgesDecisionAndItsRemovalKeepsItsOriginal() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let purger = temporary.library
        let source = try temporary.photo("same.jpg", seed: 41)
        let first = try await temporary.importFiles([source])[0]
        let targets19 = try await purger.fetchAssets(withLocalIdentifiers: [first]).allObjects()
        try await purger.performChanges { AssetChangeRequest.deleteAssets(targets19) }

        let importer = try await PhotoLibrary.open(at: purger.url, backgroundWork: .onDemand)
        let reported = Reported()
        purger.faults.onReaching(.duringPurge) {
            do {
                let result = try await importer.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: source) }
                reported.set(result.created[0])
            } catch {
                reported.fail("\(error)")
            }
        }
        let trashed = try await purger.fetchAssets(withLocalIdentifiers: [first]).allObjects()
        try await purger.performChanges { AssetChangeRequest.purgeAssets(trashed) }
        purger.faults.onReaching(.duringPurge, nil)

        let creation = try #require(reported.creation, "the import failed: \(reported.failure ?? "")")
        #expect(!creation.isDuplicate, "the purge deleted the old row first, so the import made a new asset")
        let asset = try await #require(try purger.fetchAssets(withLocalIdentifiers: [creation.localIdentifier]).firstObject)
        #expect(try await purger.storesOriginal(of: asset), "the original the import reported saved is there")
        await #expect(try Data(contentsOf: purger.originalURL(for: asset)) == Data(contentsOf: source))
        let report = try await PhotoLibrary.open(at: purger.url).doctor(deep: true)
        #expect(report.ok, "\(report.problems)")
    }

    /// The same race without a pause: purges and imports of the same bytes in two library
    /// objects, at the same time, meeting at the catalog's write lock, which a third connection
    /// holds until both have come to it (what made the old code lose the photo 5 times in 5).
    /// Every round, an import that reported success left an asset whose original is there.
    @Test func concurrentPurgesAndImportsNeverLoseAReportedPhoto() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let purger = temporary.library
        let importer = try await PhotoLibrary.open(at: purger.url, backgroundWork: .onDemand)
        // Another writer (a third library object, as another process) holds the catalog's write
        // lock, SQLite's or an exclusive lock on PostgreSQL's asset table, from before both
        // changes start until the import has staged its copy (its catalog write comes next), so
        // both changes meet at the lock.
        let blocker = try await PhotoLibrary.open(at: purger.url)
        let blockerCatalog = try #require(blocker.catalog as? SQLCatalogStore)
        let stagingFolder = purger.url.appendingPathComponent("staging")
        var lost: [String] = []
        var saved = 0
        var metAtTheLock = 0
        for round in 0..<40 {
            let source = try temporary.photo("photo\(round).jpg", seed: UInt64(900 + round))
            let id = try await temporary.importFiles([source])[0]
            let assets = try await purger.fetchAssets(withLocalIdentifiers: [id]).allObjects()
            try await purger.performChanges { AssetChangeRequest.deleteAssets(assets) }
            let trashed = try await purger.fetchAssets(withLocalIdentifiers: [id]).allObjects()
            let staging = try FolderWatch(stagingFolder)
            let (locked, lockedSignal) = AsyncStream.makeStream(of: Void.self)
            let hold = Task {
                try await blockerCatalog.write { db in
                    if db.dialect == .postgres { try await db.execute("LOCK TABLE asset IN EXCLUSIVE MODE") }
                    lockedSignal.yield()
                    return try await staging.events(count: 1, where: { $0.kind == .closedAfterWriting }, timeout: .seconds(30)).count
                }
            }
            for await _ in locked { break }
            async let purge = purger.performChanges { AssetChangeRequest.purgeAssets(trashed) }
            async let imported = importer.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: source) }
            metAtTheLock += try await hold.value
            _ = try await purge
            let created = try await imported.created[0]
            saved += 1
            guard let asset = try await purger.fetchAssets(withLocalIdentifiers: [created.localIdentifier]).firstObject else {
                lost.append("round \(round): \(created.localIdentifier) reported saved is not in the library")
                continue
            }
            if try await !purger.storesOriginal(of: asset) {
                lost.append("round \(round): the original of \(created.localIdentifier) is gone")
            }
        }
        #expect(saved == 40)
        #expect(metAtTheLock == 40, "imports that staged their copy while the catalog was locked: \(metAtTheLock) of 40")
        #expect(lost.isEmpty, "\(lost)")
        let report = try await PhotoLibrary.open(at: purger.url).doctor(deep: true)
        #expect(report.ok, "\(report.problems)")
    }

    /// Importing bytes that sit in Recently Deleted restores that photo, says so, and the next
    /// purge leaves it alone.
    @Test func importingATrashedPhotosBytesRestoresIt() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let source = try temporary.photo("back.jpg", seed: 77)
        let id = try await temporary.importFiles([source])[0]
        let targets98 = try await library.fetchAssets(withLocalIdentifiers: [id]).allObjects()
        try await library.performChanges { AssetChangeRequest.deleteAssets(targets98) }
        await #expect(try library.fetchAssets().count == 0)

        let result = try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: source) }
        let creation = result.created[0]
        #expect(creation.localIdentifier == id)
        #expect(creation.isRestored)
        #expect(creation.isDuplicate, "nothing new was stored")
        let asset = try await #require(try library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        #expect(!asset.isTrashed)

        // Neither an explicit purge of Recently Deleted nor the expiry takes it now.
        #expect(try await library.purgeExpiredAssets(olderThan: 0, now: Date().addingTimeInterval(86_400)) == 0)
        try await library.performChanges { AssetChangeRequest.purgeAssets([asset]) }
        await #expect(try library.fetchAssets(withLocalIdentifiers: [id]).count == 1, "a purge of an asset no longer trashed does nothing")
        #expect(try await library.storesOriginal(of: asset))

        // A live duplicate stays a plain duplicate.
        let again = try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: source) }
        #expect(again.created[0].isDuplicate && !again.created[0].isRestored)
    }

    /// A purge decided before a restore commits takes nothing the restore brought back: the
    /// purge only deletes what is still trashed when its transaction runs.
    @Test func aRestoreBeforeThePurgesTransactionWins() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let source = try temporary.photo("kept.jpg", seed: 78)
        let id = try await temporary.importFiles([source])[0]
        let targets128 = try await library.fetchAssets(withLocalIdentifiers: [id]).allObjects()
        try await library.performChanges { AssetChangeRequest.deleteAssets(targets128) }
        let stale = try await library.fetchAssets(withLocalIdentifiers: [id]).allObjects()  // still says trashed
        _ = try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: source) }
        try await library.performChanges { AssetChangeRequest.purgeAssets(stale) }
        let asset = try await #require(try library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        #expect(try await library.storesOriginal(of: asset))
    }
}

/// What an import inside a pause handler reported.
final class Reported: Sendable {
    private let state = Mutex<(ChangeResult.Creation?, String?)>((nil, nil))
    func set(_ creation: ChangeResult.Creation) { state.withLock { $0.0 = creation } }
    func fail(_ message: String) { state.withLock { $0.1 = message } }
    var creation: ChangeResult.Creation? { state.withLock { $0.0 } }
    var failure: String? { state.withLock { $0.1 } }
}

@Suite struct CatalogDurabilityTests {
    /// GRDB opens WAL catalogs with `synchronous = NORMAL`, where a power loss may roll back
    /// commits that returned; the catalog's writer runs with FULL.
    @Test(.enabled(if: !PostgresTestServer.isCatalogUnderTest, "SQLite's own setting: a PostgreSQL catalog is as durable as its server's synchronous_commit"))
    func theWriterFlushesEveryCommit() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let driver = try #require((temporary.library.catalog as? SQLCatalogStore)?.driver as? SQLiteDriver)
        let level = try await driver.pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(level == 2, "2 is FULL")
    }
}
