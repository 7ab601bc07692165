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
        // The people and how they sign in, their photos and links; a boolean column that came
        // after the first ones (a burst's drive mode).
        let bob = try await library.addPerson(name: "bob", password: "correct horse battery")
        let bobs = library.forPerson(bob)
        let bobsID = try await bobs.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: files[0]) }.created[0].localIdentifier
        let bobsPhoto = try #require(try await bobs.fetchAssets(withLocalIdentifiers: [bobsID]).firstObject)
        let (_, sessionToken) = try await library.startSession(for: bob, address: "192.0.2.1", userAgent: "test")
        let (_, keyToken) = try await bobs.makeKey(named: "backup", scope: .upload)
        let (link, linkToken) = try await bobs.createSharedLink(assets: [bobsPhoto])
        let record = try #require(try await bobs.sharedLinkRecord(forToken: linkToken))
        await bobs.logSharedLinkView(record, address: "192.0.2.2", what: "page")
        // The admin's album shared with Bob, who adds his photo and comments on it.
        let ordered = try #require(try await library.assetCollection(withLocalIdentifier: made.createdCollections[0]))
        try await library.shareAlbum(ordered, with: "bob", as: .contributor)
        try await bobs.addToSharedAlbum(ordered.localIdentifier, assets: [bobsID])
        _ = try await bobs.comment("from Bob", on: bobsID, inSharedAlbum: ordered.localIdentifier)
        let drivenID = ids[0]
        try await #require(library.catalog.sqlDriver).write { db in
            try await db.execute("UPDATE asset SET continuousDrive = 1 WHERE localIdentifier = \(drivenID)")
        }
        await library.close()

        let database = try PostgresURL(try PostgresTestServer.freshDatabase())
        let report = try await PhotoLibrary.migrateCatalog(ofLibraryAt: url, to: database)
        #expect(report.rows["asset"] == 6 && report.rows["membership"] == 4 && report.rows["assetEdit"] == 1 && report.rows["grant"] == 1)

        let moved = try await PhotoLibrary.open(at: url, backgroundWork: .onDemand)
        guard case .postgres(let catalog) = moved.configuration.catalog else {
            Issue.record("not switched")
            return
        }
        #expect(catalog == database)
        #expect(try await moved.fetchAssets().count == 4)
        #expect(report.rows["person"] == 2 && report.rows["personSession"] == 1 && report.rows["personKey"] == 1 && report.rows["sharedLinkView"] == 1)
        #expect(try await moved.people().map(\.name) == ["admin", "bob"], "the people came along, the first admin as person 1")
        #expect(try await moved.authenticate(name: "bob", password: "correct horse battery")?.rowID == bob.rowID)
        #expect(try await moved.session(forToken: sessionToken)?.0.name == "bob", "signed-in browsers stay signed in")
        #expect(try await moved.person(forKeyToken: keyToken)?.0.name == "bob")
        let movedBob = try await moved.forPerson(named: "bob")
        #expect(try await movedBob.fetchAssets().allObjects().map(\.localIdentifier) == [bobsPhoto.localIdentifier], "Bob's photo is his")
        #expect(try await movedBob.sharedLinks().map(\.id) == [link.id])
        #expect(try await movedBob.sharedLinkViews(link.id).count == 1)
        #expect(report.rows["albumShare"] == 1 && report.rows["albumActivity"] == 2)
        #expect(try await movedBob.sharedAlbums().map(\.role) == [.contributor], "the album is still shared with Bob")
        #expect(try await movedBob.sharedAlbumItems(made.createdCollections[0]).map(\.asset.localIdentifier) == [ids[3], ids[0], ids[2], bobsID])
        #expect(try await movedBob.sharedAlbumActivity(made.createdCollections[0]).first?.text == "from Bob")
        let drive: Bool? = try await #require(moved.catalog.sqlDriver).read { db in
            try await db.scalar("SELECT continuousDrive FROM asset WHERE localIdentifier = \(drivenID)")
        }
        #expect(drive == true)
        let another = try await moved.addPerson(name: "carol")
        #expect(another.rowID == 3, "new people are numbered after the copied ones")
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
