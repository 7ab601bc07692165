import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// A library made by the release before people (Fixtures/README.md) opens as its admin's, with
/// nothing lost, on SQLite and on PostgreSQL.
@Suite struct LibraryUpgradeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A copy of a fixture library in a temporary folder.
    static func copy(_ name: String) throws -> (folder: URL, library: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: library)
        return (folder, library)
    }

    @Test("A SQLite library of the release before people becomes its admin's, with nothing lost")
    func sqlite() async throws {
        let (folder, url) = try Self.copy("Release.shoebox")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.checkUpgraded(at: url)
    }

    @Test("A PostgreSQL library of the release before people becomes its admin's, with nothing lost")
    func postgres() async throws {
        let (folder, url) = try Self.copy("ReleasePG.shoebox")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try PostgresTestServer.freshDatabase()
        let restored = try ChildProcess.run(
            "psql", [database, "-v", "ON_ERROR_STOP=1", "-q", "-f", url.appendingPathComponent("catalog.sql").path])
        #expect(restored.status == 0, "\(restored.standardError)")
        try FileManager.default.removeItem(at: url.appendingPathComponent("catalog.sql"))
        try PhotoLibrary.Configuration(catalog: .postgres(try PostgresURL(database))).write(toLibraryAt: url)
        try await Self.checkUpgraded(at: url)
    }

    static func checkUpgraded(at url: URL) async throws {
        let library = try await PhotoLibrary.open(at: url, backgroundWork: .onDemand)
        defer { Task { await library.close() } }
        let people = try await library.people()
        #expect(people.count == 1 && people[0].role == .admin && people[0].state == .active && people[0].name == "admin")
        #expect(try await library.person() == people[0])
        // Everything the release held is the admin's: three photos (one in Recently Deleted), an
        // album of two, a favorite, an edit.
        let everything = FetchOptions(includeHiddenAssets: true, includeTrashedAssets: true, includeAllBurstAssets: true)
        let assets = try await library.fetchAssets(with: everything).allObjects()
        #expect(assets.count == 3)
        #expect(try await library.fetchAssets().count == 2)
        #expect(assets.filter(\.isFavorite).map(\.originalFilename) == ["photo-1.jpg"])
        #expect(assets.filter { $0.trashedDate != nil }.map(\.originalFilename) == ["photo-3.jpg"])
        let edited = try #require(assets.first { $0.originalFilename == "photo-2.jpg" })
        #expect(edited.pixelWidth == 48 && edited.pixelHeight == 64 && edited.render != nil)
        let albums = try await library.fetchAssetCollections(with: .album).allObjects()
        #expect(albums.map(\.localizedTitle) == ["Holiday"] && albums.first?.estimatedAssetCount == 2)
        let smart = Dictionary(
            uniqueKeysWithValues: try await library.fetchAssetCollections(with: .smartAlbum).allObjects().map { ($0.localizedTitle, $0.estimatedAssetCount) })
        #expect(smart["Favorites"] == 1 && smart["Recently Deleted"] == 1 && smart["Recents"] == 2, "\(smart)")
        #expect(try await library.fetchMonthSections().map(\.count).reduce(0, +) == 2)
        #expect(try await library.fetchAssets(with: FetchOptions(predicate: .text("photo"))).count == 2)
        let report = try await library.doctor(deep: true)
        #expect(report.problems.isEmpty, "\(report.problems)")
        // A person added now has an empty library of their own; the admin's is unchanged.
        let member = try await library.addPerson(name: "newcomer")
        #expect(try await library.forPerson(member).fetchAssets(with: everything).count == 0)
        #expect(try await library.forPerson(member).fetchAssetCollections(with: .album).count == 0)
        #expect(try await library.fetchAssets(with: everything).count == 3)
    }
}
