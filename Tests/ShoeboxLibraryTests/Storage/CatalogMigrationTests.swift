import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// `shoebox migrate`: an embedded library's catalog moved into PostgreSQL, whole, verified,
/// and only then switched to; interrupted, nothing changes.
@Suite struct CatalogMigrationTests {
    @Test func everythingTheCatalogHoldsArrives() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Moving.shoebox")
        let library = try await PhotoLibrary.open(at: url, configuration: .init(backgroundWork: .onDemand))  // SQLite, whatever the test run's catalog
        var files: [URL] = []
        for index in 0..<5 {
            let file = folder.appendingPathComponent("p\(index).jpg")
            try SyntheticPhoto(width: 320, height: 200, seed: UInt64(70 + index)).image().write(to: file)
            files.append(file)
        }
        var ids: [String] = []
        for file in files {
            ids.append(try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: file) }.created[0].localIdentifier)
        }
        let assets = try await library.fetchAssets(withLocalIdentifiers: ids).allObjects()
        let made = try await library.performChanges {
            AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Ordered").addAssets([assets[3], assets[0], assets[2]])
            AssetChangeRequest(for: assets[1]).isFavorite = true
            AssetChangeRequest.deleteAssets([assets[4]])
        }
        let edited = try await library.applyAdjustments(Adjustments(rotation: 90), to: assets[2])
        let authorization = Authorization(library: library)
        try await authorization.register(
            ClientManifest(
                identifier: "com.example.moving", displayName: "Moving",
                usageDescriptions: [.photoLibrary: "to show photos"]))
        try await authorization.setStatus(.limited, for: .photoLibrary(.readWrite), client: "com.example.moving")
        try await authorization.setLimitedSelection([ids[0]], client: "com.example.moving")
        let token = try await authorization.issueToken(for: "com.example.moving")
        await library.close()

        let database = try PostgresURL(try PostgresTestServer.freshDatabase())
        let report = try await PhotoLibrary.migrateCatalog(ofLibraryAt: url, to: database)
        #expect(report.rows["asset"] == 5 && report.rows["membership"] == 3 && report.rows["assetEdit"] == 1 && report.rows["grant"] == 1)

        let moved = try await PhotoLibrary.open(at: url, backgroundWork: .onDemand)
        guard case .postgres(let catalog) = moved.configuration.catalog else {
            Issue.record("not switched")
            return
        }
        #expect(catalog == database)
        #expect(try await moved.fetchAssets().count == 4)
        let album = try #require(try await moved.assetCollection(withLocalIdentifier: made.createdCollections[0]))
        #expect(try await moved.fetchAssets(in: album).allObjects().map(\.localIdentifier) == [ids[3], ids[0], ids[2]], "album order kept")
        #expect(try await moved.fetchAssets(withLocalIdentifiers: [ids[1]]).firstObject?.isFavorite == true)
        #expect(try await moved.fetchAssets(with: FetchOptions(predicate: .isTrashed(true), includeTrashedAssets: true)).count == 1)
        let editedNow = try #require(try await moved.fetchAssets(withLocalIdentifiers: [ids[2]]).firstObject)
        #expect(editedNow.hasAdjustments && editedNow.pixelWidth == edited.pixelWidth && editedNow.pixelHeight == edited.pixelHeight)
        let movedAuthorization = Authorization(library: moved)
        #expect(try await movedAuthorization.client(forToken: token)?.identifier == "com.example.moving")
        #expect(try await movedAuthorization.status(for: .photoLibrary(.readWrite), client: "com.example.moving") == .limited)
        #expect(try await movedAuthorization.limitedSelection(client: "com.example.moving") == [ids[0]])
        // New rows take ids after the copied ones.
        let extra = folder.appendingPathComponent("new.jpg")
        try SyntheticPhoto(width: 64, height: 64, seed: 1).image().write(to: extra)
        let added = try await moved.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: extra) }.created[0]
        #expect(!added.isDuplicate)
        #expect(try await moved.fetchAssets().count == 5)
        #expect(try await moved.doctor(deep: true).ok)
        await moved.close()
    }

    /// Killed inside the copy: the library still uses SQLite and the target is empty; the next
    /// run completes the migration.
    @Test func anInterruptedMigrationChangesNothing() async throws {
        let executable = try #require(ChildProcess.builtExecutable(named: "shoebox"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Kept.shoebox")
        let library = try await PhotoLibrary.open(at: url, configuration: .init(backgroundWork: .onDemand))
        let file = folder.appendingPathComponent("kept.jpg")
        try SyntheticPhoto(width: 64, height: 64, seed: 2).image().write(to: file)
        _ = try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: file) }
        await library.close()
        let database = try PostgresTestServer.freshDatabase()

        let killed = try ChildProcess.run(
            "/usr/bin/env", ["SHOEBOX_FAULT=during-migration", executable.path, "migrate", "--library", url.path, "--to", database])
        #expect(killed.status == 128 + SIGKILL, "\(killed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: url.appendingPathComponent("library.json").path), "not switched")
        #expect(try PostgresTestServer.psql(database, "SELECT COUNT(*) FROM asset").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        let stillSQLite = try await PhotoLibrary.open(at: url)
        guard case .sqlite = stillSQLite.configuration.catalog else {
            Issue.record("switched after a crash")
            return
        }
        #expect(try await stillSQLite.fetchAssets().count == 1)
        await stillSQLite.close()

        let finished = try ChildProcess.run(executable.path, ["migrate", "--library", url.path, "--to", database, "--json"])
        #expect(finished.status == 0, "\(finished.standardError)")
        let moved = try await PhotoLibrary.open(at: url)
        guard case .postgres = moved.configuration.catalog else {
            Issue.record("not switched")
            return
        }
        #expect(try await moved.fetchAssets().count == 1)
        await moved.close()
    }
}
