import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import ShoeboxTesting
import Testing

@Suite struct FetchResultTests {
    /// Six assets with known dates, names, kinds and flags.
    static func populated() async throws -> (TemporaryLibrary, [String: Asset]) {
        let temporary = try await TemporaryLibrary()
        let day: TimeInterval = 86_400
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let specs: [(String, Double, Bool, Bool, Asset.Location?)] = [
            ("beach.jpg", 3, true, false, Asset.Location(latitude: 43.7, longitude: 7.3)),
            ("mountain.jpg", 1, false, false, nil),
            ("city.jpg", 5, true, false, Asset.Location(latitude: 48.85, longitude: 2.35)),
            ("secret.jpg", 2, false, true, nil),
            ("Beach party.jpg", 4, false, false, nil),
        ]
        var identifiers: [String: String] = [:]
        for (index, spec) in specs.enumerated() {
            let url = try temporary.photo(spec.0, seed: UInt64(index + 10), width: 40 + index * 10, height: 30)
            let result = try await temporary.library.performChanges {
                let request = AssetChangeRequest.creationRequestForAsset(fromImageAt: url)
                request.creationDate = base.addingTimeInterval(spec.1 * day)
                request.isFavorite = spec.2
                request.isHidden = spec.3
                request.location = spec.4
            }
            identifiers[spec.0] = result.created[0].localIdentifier
        }
        let movie = try SyntheticMovie(duration: 1, width: 64, height: 48).write(to: temporary.folder.appendingPathComponent("clip.mp4"))
        let result = try await temporary.library.performChanges {
            AssetChangeRequest.creationRequestForAsset(fromVideoAt: movie).creationDate = base.addingTimeInterval(6 * day)
        }
        identifiers["clip.mp4"] = result.created[0].localIdentifier
        let all = try await temporary.library.fetchAssets(with: FetchOptions(includeHiddenAssets: true)).allObjects()
        var byName: [String: Asset] = [:]
        for asset in all { byName[asset.originalFilename] = asset }
        return (temporary, byName)
    }

    static func names(_ result: FetchResult<Asset>) async throws -> [String] { try await result.allObjects().map(\.originalFilename) }

    @Test func filtersAndSorts() async throws {
        let (temporary, _) = try await Self.populated()
        defer { temporary.remove() }
        let library = temporary.library
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        // Default: by creation date, hidden assets left out.
        #expect(try await Self.names(try await library.fetchAssets()) == ["mountain.jpg", "beach.jpg", "Beach party.jpg", "city.jpg", "clip.mp4"])
        #expect(try await Self.names(try await library.fetchAssets(with: FetchOptions(includeHiddenAssets: true))).contains("secret.jpg"))
        #expect(try await Self.names(try await library.fetchAssets(with: FetchOptions(predicate: .mediaType(.video)))) == ["clip.mp4"])
        #expect(try await Self.names(try await library.fetchAssets(with: FetchOptions(predicate: .isFavorite(true)))) == ["beach.jpg", "city.jpg"])
        #expect(try await Self.names(try await library.fetchAssets(with: FetchOptions(predicate: .hasLocation(true)))) == ["beach.jpg", "city.jpg"])
        #expect(
            try await Self.names(try await library.fetchAssets(with: FetchOptions(predicate: .filenameContains("beach")))) == ["beach.jpg", "Beach party.jpg"])
        #expect(try await Self.names(try await library.fetchAssets(with: FetchOptions(predicate: .filenameContains("%")))) == [])
        let window = FetchOptions.Predicate.creationDate(from: base.addingTimeInterval(3 * 86_400), to: base.addingTimeInterval(5 * 86_400))
        #expect(try await Self.names(try await library.fetchAssets(with: FetchOptions(predicate: window))) == ["beach.jpg", "Beach party.jpg"])
        let combined = FetchOptions.Predicate.all([
            .mediaType(.image), .not(.isFavorite(true)), .any([.filenameContains("mount"), .filenameContains("party")]),
        ])
        #expect(try await Self.names(try await library.fetchAssets(with: FetchOptions(predicate: combined))) == ["mountain.jpg", "Beach party.jpg"])
        // A negation matches what the inner condition cannot say of (no creator, no location).
        let everything = ["mountain.jpg", "beach.jpg", "Beach party.jpg", "city.jpg", "clip.mp4"]
        #expect(try await Self.names(try await library.fetchAssets(with: FetchOptions(predicate: .not(.creatorClient("com.example.app"))))) == everything)
        #expect(try await Self.names(try await library.fetchAssets(with: FetchOptions(predicate: .not(.burstIdentifier("B1"))))) == everything)
        let anywhere = FetchOptions.Predicate.region(south: -90, west: -180, north: 90, east: 180)
        #expect(
            try await Self.names(try await library.fetchAssets(with: FetchOptions(predicate: .not(anywhere)))) == [
                "mountain.jpg", "Beach party.jpg", "clip.mp4",
            ])
        #expect(try await library.fetchAssets(with: FetchOptions(predicate: .not(.not(anywhere)))).count == 2)
        #expect(
            try await Self.names(try await library.fetchAssets(with: FetchOptions(predicate: .isHidden(true), includeHiddenAssets: true))) == ["secret.jpg"])
        // Sorts and limits.
        let newestFirst = FetchOptions(sortDescriptors: [.init(key: .creationDate, ascending: false)], fetchLimit: 2)
        #expect(try await Self.names(try await library.fetchAssets(with: newestFirst)) == ["clip.mp4", "city.jpg"])
        let byName = FetchOptions(sortDescriptors: [.init(key: .filename)])
        #expect(try await Self.names(try await library.fetchAssets(with: byName)) == ["Beach party.jpg", "beach.jpg", "city.jpg", "clip.mp4", "mountain.jpg"])
        let bySize = try await library.fetchAssets(with: FetchOptions(sortDescriptors: [.init(key: .fileSize, ascending: false)])).allObjects()
        #expect(bySize.map(\.fileSize) == bySize.map(\.fileSize).sorted(by: >))
        let byDuration = FetchOptions(sortDescriptors: [.init(key: .duration, ascending: false)], fetchLimit: 1)
        #expect(try await Self.names(try await library.fetchAssets(with: byDuration)) == ["clip.mp4"])
    }

    @Test func resultAccessors() async throws {
        let (temporary, byName) = try await Self.populated()
        defer { temporary.remove() }
        let result = try await temporary.library.fetchAssets()
        #expect(result.count == 5)
        #expect(try await result.firstObject?.originalFilename == "mountain.jpg")
        #expect(try await result.lastObject?.originalFilename == "clip.mp4")
        let city = try #require(byName["city.jpg"])
        #expect(result.contains(city))
        #expect(result.index(of: city) == 3)
        #expect(try await !result.contains(try #require(byName["secret.jpg"])))
        #expect(try await result.objects(in: 1..<3).map(\.originalFilename) == ["beach.jpg", "Beach party.jpg"])
    }

    @Test func aResultIsASnapshot() async throws {
        let (temporary, byName) = try await Self.populated()
        defer { temporary.remove() }
        let before = try await temporary.library.fetchAssets()
        _ = try await temporary.importFiles([try temporary.photo("new.jpg", seed: 99)])
        try await temporary.library.performChanges { AssetChangeRequest.deleteAssets([byName["city.jpg"]!]) }
        #expect(before.count == 5, "identities and order are fixed at fetch time")
        await #expect(try temporary.library.fetchAssets().count == 5, "one added, one deleted")
    }

    @Test func aResultMadeBeforeAPurgeStillReadsThePurgedAsset() async throws {
        let (temporary, byName) = try await Self.populated()
        defer { temporary.remove() }
        let before = try await temporary.library.fetchAssets(with: FetchOptions(sortDescriptors: [.init(key: .filename)]))
        let city = try #require(byName["city.jpg"])
        try await temporary.library.performChanges { AssetChangeRequest.deleteAssets([city]) }
        try await temporary.library.performChanges { AssetChangeRequest.purgeAssets([city]) }
        await #expect(try temporary.library.fetchAssets(withLocalIdentifiers: [city.localIdentifier]).isEmpty)
        // Its page was never loaded: it reads as its last state, and iterating never traps.
        let names = try await before.allObjects().map(\.originalFilename)
        #expect(names.count == 5 && names.contains("city.jpg"))
        #expect(try await before.allObjects().first { $0.localIdentifier == city.localIdentifier }?.isTrashed == true)
    }

    @Test func pagesLoadLazilyAcrossBoundaries() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        // More than one page (200) of assets, imported in one change.
        var urls: [URL] = []
        for index in 0..<230 {
            urls.append(try temporary.photo("p\(String(format: "%03d", index)).jpg", seed: UInt64(1000 + index), width: 16, height: 16))
        }
        try await temporary.library.performChanges {
            for url in urls { _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: url) }
        }
        let result = try await temporary.library.fetchAssets(with: FetchOptions(sortDescriptors: [.init(key: .filename)])).allObjects()
        #expect(result.count == 230)
        #expect(result[199].originalFilename == "p199.jpg")
        #expect(result[200].originalFilename == "p200.jpg")
        #expect(result[229].originalFilename == "p229.jpg")
        #expect(result.map(\.originalFilename) == urls.map(\.lastPathComponent))
    }
}

@Suite struct TrashTests {
    @Test func deleteRestoreAndPurge() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let ids = try await temporary.importFiles([try temporary.photo("a.jpg", seed: 1), try temporary.photo("b.jpg", seed: 2)])
        let library = temporary.library
        let a = try await #require(try library.fetchAssets(withLocalIdentifiers: [ids[0]]).firstObject)
        try await library.performChanges { AssetChangeRequest.deleteAssets([a]) }
        await #expect(try library.fetchAssets().allObjects().map(\.localIdentifier) == [ids[1]])
        let trash = FetchOptions(predicate: .isTrashed(true), includeTrashedAssets: true)
        let trashed = try await #require(try library.fetchAssets(with: trash).firstObject)
        #expect(trashed.localIdentifier == ids[0] && trashed.trashedDate != nil)
        #expect(try await library.storesOriginal(of: a), "the original stays until purge")

        try await library.performChanges { AssetChangeRequest.restoreAssets([trashed]) }
        await #expect(try library.fetchAssets().count == 2)

        // Purge ignores assets that are not in Recently Deleted.
        let b = try await #require(try library.fetchAssets(withLocalIdentifiers: [ids[1]]).firstObject)
        try await library.performChanges { AssetChangeRequest.purgeAssets([b]) }
        await #expect(try library.fetchAssets().count == 2)

        try await library.performChanges { AssetChangeRequest.deleteAssets([a]) }
        let deleted = try await #require(try library.fetchAssets(with: trash).firstObject)
        try await library.performChanges { AssetChangeRequest.purgeAssets([deleted]) }
        await #expect(try library.fetchAssets(with: FetchOptions(includeTrashedAssets: true)).allObjects().map(\.localIdentifier) == [ids[1]])
        #expect(try await !library.storesOriginal(of: a), "purge removes the original")
        #expect(try await library.storesOriginal(of: b))
    }

    @Test func changingAnUnknownAssetFails() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let ids = try await temporary.importFiles([try temporary.photo("a.jpg", seed: 1)])
        let asset = try await #require(try temporary.library.fetchAssets(withLocalIdentifiers: ids).firstObject)
        try await temporary.library.performChanges { AssetChangeRequest.deleteAssets([asset]) }
        try await temporary.library.performChanges { AssetChangeRequest.purgeAssets([asset]) }
        do {
            try await temporary.library.performChanges { AssetChangeRequest(for: asset).isFavorite = true }
            Issue.record("a purged asset cannot be changed")
        } catch let error as LibraryError {
            #expect(error.code == .notFound)
        }
    }
}

@Suite struct SavingTests {
    @Test func saveImageVideoAndExpiry() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let image = try SyntheticPhoto(width: 64, height: 48, seed: 5).image()
        let imageID = try await library.saveImage(image, filename: "capture.jpg")
        let movie = try SyntheticMovie(duration: 0.5, width: 64, height: 48).write(to: temporary.folder.appendingPathComponent("m.mp4"))
        let videoID = try await library.saveVideo(at: movie)
        let saved = try await library.fetchAssets(withLocalIdentifiers: [imageID, videoID]).allObjects()
        #expect(saved.map(\.mediaType) == [.image, .video])
        #expect(saved[0].uniformTypeIdentifier == "public.jpeg" && saved[0].originalFilename == "capture.jpg")
        let broken = temporary.folder.appendingPathComponent("broken.avi")
        try Data("RIFF....AVI LIST".utf8).write(to: broken)
        #expect(!(await PhotoLibrary.isVideoCompatibleWithSavedPhotosAlbum(at: broken)).isCompatible)
        await #expect(throws: LibraryError.self) { try await library.saveVideo(at: broken) }

        try await library.performChanges { AssetChangeRequest.deleteAssets(try saved) }
        #expect(try await library.purgeExpiredAssets() == 0, "just deleted")
        #expect(try await library.purgeExpiredAssets(now: Date().addingTimeInterval(31 * 86_400)) == 2)
        await #expect(try library.fetchAssets(with: FetchOptions(includeTrashedAssets: true)).isEmpty)
    }

    @Test func trashRetentionIsConfigurableAndSharedByEveryProcess() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        await #expect(try library.trashRetention() == 30 * 86_400)
        let ids = try await temporary.importFiles([try temporary.photo("a.jpg", seed: 1), try temporary.photo("b.jpg", seed: 2)])
        let assets = try await library.fetchAssets(withLocalIdentifiers: ids).allObjects()
        try await library.performChanges { AssetChangeRequest.deleteAssets(assets) }
        try await library.setTrashRetention(2 * 86_400)
        let other = try await PhotoLibrary.open(at: library.url)
        await #expect(try other.trashRetention() == 2 * 86_400)
        #expect(try await other.purgeExpiredAssets(now: Date().addingTimeInterval(86_400)) == 0)
        #expect(try await other.purgeExpiredAssets(now: Date().addingTimeInterval(3 * 86_400)) == 2)
        #expect((try await temporary.blobs(.original)).isEmpty)
        await #expect(throws: LibraryError.self) { try await library.setTrashRetention(-1) }
        try await library.setTrashRetention(nil)
        await #expect(try library.trashRetention() == PhotoLibrary.defaultTrashRetention)

        // The automatic purge runs until cancelled.
        let third = try await temporary.importFiles([try temporary.photo("c.jpg", seed: 3)])
        let targets219 = try await library.fetchAssets(withLocalIdentifiers: third).allObjects()
        try await library.performChanges { AssetChangeRequest.deleteAssets(targets219) }
        try await library.setTrashRetention(0)
        // The purge's commit reaches change observers: wait for it rather than poll the fetch.
        let changes = try await library.changes()
        let purger = Task { await library.runAutomaticPurge(every: .milliseconds(50)) }
        defer { purger.cancel() }
        let purged = try await withTimeLimit(.seconds(30)) {
            for try await change in changes where change.removedAssetIdentifiers.contains(third[0]) { return true }
            return false
        }
        #expect(purged, "the automatic purge removed the trashed photo")
        #expect(try await library.fetchAssets(with: FetchOptions(includeTrashedAssets: true)).count == 0)
    }
}
