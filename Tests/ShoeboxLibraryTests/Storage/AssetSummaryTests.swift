import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// The summary table the smart albums and month sections read agrees with counting the assets
/// themselves, after every kind of change.
@Suite struct AssetSummaryTests {
    @Test func summaryCountsMatchTheAssetsAfterEveryKindOfChange() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        var generator = SplitMix64(seed: 42)
        var files: [URL] = []
        for index in 0..<16 {
            // PNGs without camera data are screenshots; wide ones panoramas; dates in several months.
            let wide = index % 5 == 0
            let url = try temporary.photo(
                "s\(index).\(index % 4 == 0 ? "png" : "jpg")", seed: UInt64(500 + index),
                width: wide ? 2_400 : 120, height: wide ? 600 : 80)
            files.append(url)
        }
        let base = Date(timeIntervalSince1970: 1_600_000_000)
        _ = try await library.performChanges {
            for (index, url) in files.enumerated() {
                AssetChangeRequest.creationRequestForAsset(fromFileAt: url).creationDate = base.addingTimeInterval(Double(index) * 20 * 86_400)
            }
        }
        try await expectSummaryAgrees(library)
        for round in 0..<6 {
            let assets = try await library.fetchAssets(with: FetchOptions(includeHiddenAssets: true, includeTrashedAssets: true)).allObjects()
            let pick = { assets[Int(generator.next() % UInt64(assets.count))] }
            let (a, b, c, d) = (pick(), pick(), pick(), pick())
            try await library.performChanges {
                AssetChangeRequest(for: a).isFavorite = !a.isFavorite
                AssetChangeRequest(for: b).isHidden = !b.isHidden
                AssetChangeRequest(for: c).creationDate = base.addingTimeInterval(Double(round) * 45 * 86_400)
                if d.isTrashed { AssetChangeRequest.restoreAssets([d]) } else { AssetChangeRequest.deleteAssets([d]) }
            }
            try await expectSummaryAgrees(library)
        }
        let trashed = try await library.fetchAssets(with: FetchOptions(predicate: .isTrashed(true), includeHiddenAssets: true, includeTrashedAssets: true))
            .allObjects()
        try await library.performChanges { AssetChangeRequest.purgeAssets(trashed) }
        try await expectSummaryAgrees(library)
    }

    /// The counts and month sections from the summary equal those from scanning the assets.
    func expectSummaryAgrees(_ library: PhotoLibrary) async throws {
        let store = try #require(library.catalog as? SQLCatalogStore)
        let smart = AssetCollection.Subtype.smartAlbums.map { PhotoLibrary.options(for: $0, base: nil) }
        let extra = [FetchOptions(predicate: .not(.isFavorite(true))), FetchOptions(predicate: .any([.mediaType(.video), .isFavorite(true)]))]
        for options in smart + extra {
            let fromSummary = try await store.counts(matching: [options])[0]
            let scanned = try await library.fetchAssets(with: options).count
            #expect(fromSummary == scanned, "\(String(describing: options.predicate))")
            if AssetSummary.condition(for: options, owner: 1) != nil {
                let months = try await store.monthCounts(matching: options)
                let ids = try await library.fetchAssets(with: options).allObjects()
                var expected: [String: Int] = [:]
                let formatter = DateFormatter()
                formatter.dateFormat = "yyyy-MM"
                formatter.timeZone = TimeZone(identifier: "UTC")
                for asset in ids { expected[formatter.string(from: asset.creationDate), default: 0] += 1 }
                #expect(Dictionary(uniqueKeysWithValues: months.map { ($0.month, $0.count) }) == expected)
            }
        }
    }
}
