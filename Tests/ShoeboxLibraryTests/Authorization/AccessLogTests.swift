import AsyncAlgorithms
import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// The privacy report answers "what did this app see, and what did it do?", asset by asset.
@Suite struct AccessLogTests {
    static var client: String { AuthorizationTests.full.identifier }

    /// The client's entries (its library's buffer written first).
    func entries(of app: PhotoLibrary, _ authorization: Authorization) async throws -> [AccessLogEntry] {
        await app.flushAccessLog()
        return try await authorization.accessLog(client: Self.client, limit: 10_000)
    }

    /// How many times each asset is in the report as fetched.
    func fetched(_ log: [AccessLogEntry]) -> [String: Int] {
        log.filter { $0.action == "fetch" && !$0.localIdentifier.isEmpty }.reduce(into: [:]) { $0[$1.localIdentifier, default: 0] += 1 }
    }

    /// A flush that finds the buffer taken by a flush still writing waits for it: when any flush
    /// returns, what was logged before it is in the report (the report route flushes, then reads).
    @Test func aFlushWaitsForTheOneUnderWay() async throws {
        let (fixture, authorization, _) = try await AuthorizationTests().fixture()
        defer { fixture.remove() }
        try await authorization.setStatus(.authorized, for: .photoLibrary(.readWrite), client: Self.client)
        let app = try await PhotoLibrary.open(at: fixture.library.url, clientIdentifier: Self.client)
        for round in 0..<25 {
            app.logAll((0..<50).map { ("fetch", "round-\(round)-\($0)", nil) })
            let seen = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        await app.flushAccessLog()
                        let log = try? await authorization.accessLog(client: Self.client, limit: 10_000)
                        return log?.filter { $0.localIdentifier.hasPrefix("round-\(round)-") }.count ?? -1
                    }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(seen == [50, 50, 50], "round \(round): each flush returned with all 50 entries written")
        }
    }

    @Test func theReportNamesEachAssetAClientFetchedReadAndChanged() async throws {
        let (fixture, authorization, user) = try await AuthorizationTests().fixture()
        defer { fixture.remove() }
        let third = try await fixture.importFiles([try fixture.photo("c.jpg", seed: 3)])[0]
        try await authorization.setStatus(.authorized, for: .photoLibrary(.readWrite), client: Self.client)
        let app = try await PhotoLibrary.open(at: fixture.library.url, clientIdentifier: Self.client, backgroundWork: .onDemand)

        // A fetch alone reveals a count, not assets.
        let all = try await app.fetchAssets()
        #expect(all.count == 3)
        var log = try await entries(of: app, authorization)
        #expect(log.contains { $0.action == "fetch" && $0.localIdentifier.isEmpty && $0.detail == "3 assets" })
        #expect(fetched(log).isEmpty, "no asset was loaded yet")

        // Loading the page reveals its assets, each once however often it is read or fetched again.
        let shown = try await Array(all)
        _ = try await app.fetchAssets().firstObject
        _ = try await app.fetchAssets(withLocalIdentifiers: [user[0].localIdentifier]).firstObject
        log = try await entries(of: app, authorization)
        #expect(fetched(log) == [user[0].localIdentifier: 1, user[1].localIdentifier: 1, third: 1])

        // Reading pixels.
        let image = await ImageManager(library: app).requestImage(for: user[0], targetSize: PixelSize(square: 32)).finalResult()
        #expect(image?.image != nil)

        // Creating, updating, and deleting (to Recently Deleted, then for good).
        let created = try await app.saveImage(try SyntheticPhoto(width: 40, height: 30, seed: 77).image(), filename: "mine.jpg")
        try await app.performChanges { AssetChangeRequest(for: shown[1]).isFavorite = true }
        let doomed = try #require(shown.first { $0.localIdentifier == third })
        try await app.performChanges { AssetChangeRequest.deleteAssets([doomed]) }
        try await app.performChanges { AssetChangeRequest.purgeAssets([doomed]) }

        log = try await entries(of: app, authorization)
        let actions = Set(log.map { "\($0.action) \($0.localIdentifier)" })
        #expect(actions.contains("image \(user[0].localIdentifier)"))
        #expect(actions.contains("create \(created)"))
        #expect(actions.contains("update \(shown[1].localIdentifier)"))
        #expect(actions.contains("update \(third)"), "moving to Recently Deleted changes the asset")
        #expect(actions.contains("delete \(third)"), "purging deletes it")
        #expect(!log.contains { $0.action == "delete" && $0.localIdentifier != third })
        #expect(log.allSatisfy { $0.client == Self.client })
        // Newest first: the purge is the last thing the client did.
        #expect(log.first?.action == "delete")
    }

    @Test func aKeysetPageRevealsOnlyItsOwnAssets() async throws {
        let (fixture, authorization, _) = try await AuthorizationTests().fixture()
        defer { fixture.remove() }
        try await authorization.setStatus(.authorized, for: .photoLibrary(.readWrite), client: Self.client)
        let app = try await PhotoLibrary.open(at: fixture.library.url, clientIdentifier: Self.client)
        // A page that looks one asset ahead (for a `next` cursor) reveals only its own.
        let firstPage = try await app.fetchAssetPage(with: FetchOptions(), after: nil, limit: 1)
        let (first, hasMore) = (firstPage.assets, firstPage.hasMore)
        #expect(first.count == 1 && hasMore)
        var log = try await entries(of: app, authorization)
        #expect(fetched(log) == [first[0].localIdentifier: 1])
        #expect(log.contains { $0.action == "fetch" && $0.localIdentifier.isEmpty && $0.detail == "1 asset" }, "one asset, not \"1 assets\"")
        let second = try await app.fetchAssetPage(with: FetchOptions(), after: first[0], limit: 10).assets
        log = try await entries(of: app, authorization)
        #expect(fetched(log) == [first[0].localIdentifier: 1, second[0].localIdentifier: 1])
    }

    @Test func aLargeFetchRecordsOnlyThePagesTheClientLoads() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let authorization = Authorization(library: fixture.library)
        try await authorization.register(AuthorizationTests.full)
        try await authorization.setStatus(.authorized, for: .photoLibrary(.readWrite), client: Self.client)
        // One page and five more, in one change.
        let total = FetchResult<Asset>.pageSize + 5
        let files = try (0..<total).map { try fixture.photo("p\($0).jpg", seed: UInt64(1_000 + $0), width: 16, height: 12) }
        try await fixture.library.performChanges {
            for file in files { _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: file) }
        }
        let app = try await PhotoLibrary.open(at: fixture.library.url, clientIdentifier: Self.client)
        let all = try await app.fetchAssets()
        #expect(all.count == total)
        _ = try await all.object(at: 0)
        let firstPage = await fetched(try entries(of: app, authorization))
        #expect(firstPage.count == FetchResult<Asset>.pageSize, "the first page only")
        let last = try #require(try await all.object(at: total - 1))  // loads the last page
        #expect(firstPage[last.localIdentifier] == nil)
        let both = await fetched(try entries(of: app, authorization))
        #expect(both.count == total)
        #expect(both.values.allSatisfy { $0 == 1 })
    }
}
