import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// What only a PostgreSQL catalog does: several servers (here, library objects with their own
/// connection pools, as processes on other machines would have) on one database.
@Suite struct PostgresCatalogTests {
    /// Library folders sharing one fresh database.
    struct Cluster {
        let folder: URL
        let database: PostgresURL

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-pg-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            database = try PostgresURL(try PostgresTestServer.freshDatabase())
        }

        /// A library folder of its own (its own staging and caches) on the shared catalog; the
        /// originals folder is shared through a symbolic link, as a shared disk would be.
        func node(_ name: String) async throws -> PhotoLibrary {
            let url = folder.appendingPathComponent("\(name).shoebox")
            let library = try await PhotoLibrary.open(at: url, configuration: .init(catalog: .postgres(database), backgroundWork: .onDemand))
            return library
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test func serversStartingTogetherMigrateOnce() async throws {
        let cluster = try Cluster()
        defer { cluster.remove() }
        let libraries = try await withThrowingTaskGroup(of: PhotoLibrary.self) { group in
            for index in 0..<4 { group.addTask { try await cluster.node("n\(index)") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(libraries.count == 4)
        let applied = try PostgresTestServer.psql(cluster.database.description, "SELECT identifier FROM shoebox_migration")
        #expect(applied.split(separator: "\n").map(String.init) == PostgresSchema.migrations.map(\.identifier))
        for library in libraries { await library.close() }
    }

    @Test func aCatalogNewerThanTheCodeIsRefused() async throws {
        let cluster = try Cluster()
        defer { cluster.remove() }
        let first = try await cluster.node("a")
        await first.close()
        try PostgresTestServer.psql(cluster.database.description, "INSERT INTO shoebox_migration VALUES ('pg99-from-the-future', now())")
        await #expect {
            _ = try await cluster.node("b")
        } throws: { error in
            guard let error = error as? LibraryError, error.code == .newerSchema else { return false }
            return error.message.contains("(schema pg99-from-the-future)")
        }
    }

    /// Imports of the same bytes on two servers at once store one asset; a change that fails
    /// on one server leaves nothing (all or nothing across connections, not in-process locks).
    @Test func concurrentWritersOnSeveralServers() async throws {
        let cluster = try Cluster()
        defer { cluster.remove() }
        let shared = cluster.folder.appendingPathComponent("shared-originals")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let a = try await cluster.node("a")
        let b = try await cluster.node("b")
        // One originals folder for both, as object storage or a shared disk would give.
        for library in [a, b] {
            let originals = library.url.appendingPathComponent("originals")
            try FileManager.default.removeItem(at: originals)
            try FileManager.default.createSymbolicLink(at: originals, withDestinationURL: shared)
        }
        var sources: [URL] = []
        for index in 0..<12 {
            let url = cluster.folder.appendingPathComponent("p\(index).jpg")
            try SyntheticPhoto(width: 64, height: 48, seed: UInt64(300 + index)).image().write(to: url)
            sources.append(url)
        }
        let results = try await withThrowingTaskGroup(of: [ChangeResult.Creation].self) { group in
            for (index, url) in (sources + sources).enumerated() {
                let library = index % 2 == 0 ? a : b
                group.addTask {
                    try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }.created
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(results.count == 24)
        #expect(results.filter { !$0.isDuplicate }.count == 12, "each photo stored once")
        let all = try await a.fetchAssets().allObjects()
        #expect(all.count == 12 && Set(all.map(\.contentHash)).count == 12)

        // A change that names a missing asset commits none of its parts, on either server.
        let extra = cluster.folder.appendingPathComponent("extra.jpg")
        try SyntheticPhoto(width: 64, height: 48, seed: 999).image().write(to: extra)
        await #expect(throws: LibraryError.self) {
            try await b.performChanges {
                _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: extra)
                AssetChangeRequest(for: all[0]).isFavorite = true
                AssetChangeRequest.deleteAssets([
                    Asset(
                        record: AssetRecord(
                            id: 999_999, localIdentifier: "NOPE/L0/001", mediaType: 1, mediaSubtypes: 0, pixelWidth: 1, pixelHeight: 1,
                            creationDate: Date(), modificationDate: Date(), addedDate: Date(), latitude: nil, longitude: nil, altitude: nil,
                            duration: 0, isFavorite: false, isHidden: false, trashedDate: nil, originalFilename: "x", contentHash: "x",
                            uniformTypeIdentifier: "public.jpeg", fileSize: 1, creatorClient: nil))
                ])
            }
        }
        #expect(try await a.fetchAssets().count == 12)
        #expect(try await a.fetchAssets(withLocalIdentifiers: [all[0].localIdentifier]).firstObject?.isFavorite == false)
        #expect(try await a.doctor(deep: true).ok)
        await a.close()
        await b.close()
    }

    /// A commit on one server wakes the change observers of another at once (`NOTIFY`), not at
    /// the next poll: here the observer polls every 30 s (and the driver's fallback every 5 s),
    /// and the change arrives within two.
    @Test func changesReachOtherServersByNotification() async throws {
        let cluster = try Cluster()
        defer { cluster.remove() }
        let a = try await cluster.node("a")
        let b = try await cluster.node("b")
        let photo = cluster.folder.appendingPathComponent("n.jpg")
        try SyntheticPhoto(width: 64, height: 48, seed: 5).image().write(to: photo)
        var changes = try await b.changes(pollingEvery: .seconds(30)).makeAsyncIterator()
        // The commit comes once B listens (before, B's first read of the log would find it).
        let driver = try #require((b.catalog as? SQLCatalogStore)?.driver as? PostgresDriver)
        await driver.waitUntilListening(timeout: .seconds(30))
        let created = try await a.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: photo) }.created[0]
        let started = ContinuousClock.now
        let change = try await changes.next()
        let waited = ContinuousClock.now - started
        #expect(change?.insertedAssetIdentifiers == [created.localIdentifier])
        #expect(waited < .seconds(2), "arrived after \(waited), not at a poll")
        await a.close()
        await b.close()
    }

    /// A picker session written on one server wakes another server's watcher by `NOTIFY`, not at
    /// the end of its wait.
    @Test func pickerSessionWritesReachOtherServersByNotification() async throws {
        let cluster = try Cluster()
        defer { cluster.remove() }
        let a = try await cluster.node("a")
        let b = try await cluster.node("b")
        #expect(a.notifiesOtherProcessesCommits && b.notifiesOtherProcessesCommits)
        let record = PickerSessionRecord(id: "0123456789abcdef", owner: nil, request: Data("{}".utf8), state: Data("{}".utf8))
        let driver = try #require((b.catalog as? SQLCatalogStore)?.driver as? PostgresDriver)
        let end = try await b.changeLogEnd()
        let waiting = Task { try await b.pickerSessionWrites(after: end, timeout: .seconds(30)) }
        await driver.waitUntilListening(timeout: .seconds(30))
        try await a.addPickerSession(record)
        let started = ContinuousClock.now
        let writes = try await waiting.value
        let waited = ContinuousClock.now - started
        #expect(writes.identifiers == [record.id] && writes.end > end)
        #expect(waited < .seconds(2), "arrived after \(waited), not at the end of the wait")
        // And a change of state, from the other side.
        let next = Task { try await a.pickerSessionWrites(after: writes.end, timeout: .seconds(30)) }
        #expect(try await b.updatePickerSession(id: record.id, state: Data(#"{"selection":[]}"#.utf8), finished: false, over: 1) == 2)
        #expect(try await next.value.identifiers == [record.id])
        await a.close()
        await b.close()
    }

    /// A change-log sequence is seen only once every smaller one is: a commit that took a later
    /// number waits for the one that took an earlier number to commit. (Before the log's lock,
    /// the second commit went through while the first was open, and a reader past it never saw
    /// the first.)
    @Test func changeLogSequencesBecomeVisibleInOrder() async throws {
        let cluster = try Cluster()
        defer { cluster.remove() }
        let a = try await cluster.node("a")
        let b = try await cluster.node("b")
        let first = try #require(a.catalog as? SQLCatalogStore)
        let second = try #require(b.catalog as? SQLCatalogStore)
        let (logged, loggedSignal) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseSignal) = AsyncStream.makeStream(of: Void.self)
        // The first transaction takes its sequence number, then stays open until released.
        let open = Task {
            try await first.write { db in
                try await SQLCatalogStore.logEntries([("update", "first", 1)], in: db, now: Date())
                loggedSignal.yield()
                for await _ in release { break }
            }
        }
        for await _ in logged { break }
        // While the first is open, the second cannot take a later number: told to wait for no
        // lock longer than 10 ms, its log entry fails with PostgreSQL's lock timeout. (Without the
        // log's lock it would get through at once.)
        do {
            try await second.write { db in
                try await db.execute("SET LOCAL lock_timeout = '10ms'")
                try await SQLCatalogStore.logEntries([("update", "blocked", 1)], in: db, now: Date())
            }
            Issue.record("a second log entry went through while the first transaction was open")
        } catch {
            #expect("\(error)".contains("lock timeout"), "\(error)")
        }
        // Once the first commits, the second logs after it and, when its commit returns, a reader
        // sees both.
        releaseSignal.yield()
        try await open.value
        try await second.write { db in try await SQLCatalogStore.logEntries([("update", "second", 1)], in: db, now: Date()) }
        let seen = try await second.changes(after: 0).map(\.localIdentifier).filter { ["first", "second", "blocked"].contains($0) }
        #expect(seen == ["first", "second"], "the log read \(seen)")
        await a.close()
        await b.close()
    }
}
