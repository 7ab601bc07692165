import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// The same flags on many assets (``AssetUpdate/Flags``): one statement per 500 assets, with
/// what the row-by-row path does — every asset reached, the counts, the words (written for
/// assets that had none yet), the change log — and nothing when one asset is missing.
@Suite struct BatchFlagsTests {
    @Test("A favorite, hide and deletion of 1,200 assets, 500 without words yet, reach each; a missing one changes none")
    func flagsOnManyAssets() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let store = try #require(library.catalog as? SQLCatalogStore)
        #expect(try await store.insertAssets((0..<1_200).map { BulkInsertTests.record($0) }) == 1_200)
        #expect(try await store.fillSearchText(limit: 700) == 700)
        let assets = try await library.fetchAssets().allObjects()
        #expect(assets.count == 1_200)
        func count(_ predicate: FetchOptions.Predicate, hidden: Bool = false, trashed: Bool = false) async throws -> Int {
            try await library.fetchAssets(with: FetchOptions(predicate: predicate, includeHiddenAssets: hidden, includeTrashedAssets: trashed)).count
        }
        #expect(try await count(.text("canon")) == 700, "the rows without words are not found yet")

        let token = try await library.currentChangeToken
        try await library.perform(.favorite, on: assets)
        #expect(try await count(.isFavorite(true)) == 1_200)
        #expect(try await count(.text("canon")) == 1_200, "the 500 got their words as they were written")
        let favorites = try #require(try await library.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumFavorites).firstObject)
        #expect(try await library.fetchAssets(in: favorites).count == 1_200)
        var logged: Set<String> = []
        for try await change in try await library.changes(since: token) {
            logged = change.changedAssetIdentifiers
            break
        }
        #expect(logged == Set(assets.map(\.localIdentifier)), "one change, naming every asset")

        // Gone since it was fetched: the hide names it, and hides nothing.
        let gone = assets[17]
        try await library.perform(.delete, on: [gone])
        try await library.perform(.purge, on: [gone])
        await #expect(throws: LibraryError.self) { try await library.perform(.hide, on: assets) }
        #expect(try await count(.isHidden(true), hidden: true) == 0)

        let rest = assets.filter { $0.localIdentifier != gone.localIdentifier }
        try await library.perform(.hide, on: rest)
        #expect(try await count(.isHidden(true), hidden: true) == 1_199)
        #expect(try await library.fetchAssets().count == 0)
        try await library.perform(.unhide, on: rest)
        try await library.perform(.delete, on: rest)
        #expect(try await count(.isTrashed(true), trashed: true) == 1_199)
        #expect(try await library.fetchAssets().count == 0)
        try await library.perform(.restore, on: rest)
        #expect(try await library.fetchAssets().count == 1_199)
        #expect(try await count(.text("canon")) == 1_199)
    }
}
