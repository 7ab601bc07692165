import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

@Suite struct AssetCollectionTests {
    @Test func smartAlbumMembership() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        // A camera photo, a favorite, a hidden one, a screenshot-like PNG, a panorama, a movie, a deleted one.
        let camera = try temporary.photo("camera.jpg", seed: 1)
        let favorite = try temporary.photo("favorite.jpg", seed: 2)
        let hidden = try temporary.photo("hidden.jpg", seed: 3)
        let screenshot = temporary.folder.appendingPathComponent("Screenshot.png")
        try SyntheticPhoto(width: 120, height: 260, seed: 4).image().write(to: screenshot)
        let panorama = temporary.folder.appendingPathComponent("pano.jpg")
        try SyntheticPhoto(width: 2400, height: 600, seed: 5).image().write(to: panorama)
        let movie = try SyntheticMovie(duration: 0.5, width: 64, height: 48).write(to: temporary.folder.appendingPathComponent("clip.mp4"))
        let deleted = try temporary.photo("deleted.jpg", seed: 6)
        try await library.performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: camera)
            AssetChangeRequest.creationRequestForAsset(fromImageAt: favorite).isFavorite = true
            AssetChangeRequest.creationRequestForAsset(fromImageAt: hidden).isHidden = true
            _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: screenshot)
            _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: panorama)
            _ = AssetChangeRequest.creationRequestForAsset(fromVideoAt: movie)
            _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: deleted)
        }
        let doomed = try await #require(try library.fetchAssets(with: FetchOptions(predicate: .filenameContains("deleted"))).firstObject)
        try await library.performChanges { AssetChangeRequest.deleteAssets([doomed]) }

        let smart = try await library.fetchAssetCollections(with: .smartAlbum).allObjects()
        #expect(smart.map(\.localizedTitle) == ["Recents", "Favorites", "Videos", "Screenshots", "Panoramas", "Recently Added", "Hidden", "Recently Deleted"])
        func members(_ subtype: AssetCollection.Subtype) async throws -> Set<String> {
            let collection = try #require(try await library.fetchAssetCollections(with: .smartAlbum, subtype: subtype).firstObject)
            let assets = try await library.fetchAssets(in: collection)
            #expect(collection.estimatedAssetCount == assets.count, "\(subtype)")
            return Set(try await assets.allObjects().map(\.originalFilename))
        }
        #expect(try await members(.smartAlbumUserLibrary) == ["camera.jpg", "favorite.jpg", "Screenshot.png", "pano.jpg", "clip.mp4"])
        #expect(try await members(.smartAlbumFavorites) == ["favorite.jpg"])
        #expect(try await members(.smartAlbumVideos) == ["clip.mp4"])
        #expect(try await members(.smartAlbumScreenshots) == ["Screenshot.png"])
        #expect(try await members(.smartAlbumPanoramas) == ["pano.jpg"])
        #expect(try await members(.smartAlbumRecentlyAdded) == ["camera.jpg", "favorite.jpg", "Screenshot.png", "pano.jpg", "clip.mp4"])
        #expect(try await members(.smartAlbumAllHidden) == ["hidden.jpg"])
        #expect(try await members(.smartAlbumRecentlyDeleted) == ["deleted.jpg"])
        let recents = try await #require(try library.assetCollection(withLocalIdentifier: smart[0].localIdentifier))
        #expect(recents.assetCollectionSubtype == .smartAlbumUserLibrary)
    }

    @Test func userAlbums() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let ids = try await temporary.importFiles((0..<4).map { try temporary.photo("p\($0).jpg", seed: UInt64(20 + $0)) })
        let assets = try await library.fetchAssets(withLocalIdentifiers: ids).allObjects()
        let newPhoto = try temporary.photo("new.jpg", seed: 30)
        let result = try await library.performChanges {
            let album = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Holidays")
            album.addAssets([assets[2], assets[0]])
            let created = AssetChangeRequest.creationRequestForAsset(fromImageAt: newPhoto)
            album.addAssets([created.placeholderForCreatedAsset!])
            _ = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "art")
        }
        #expect(result.createdCollections.count == 2)
        let albums = try await library.fetchAssetCollections(with: .album).allObjects()
        #expect(albums.map(\.localizedTitle) == ["art", "Holidays"])
        // Options: non-empty only, by title descending, a title filter, a limit.
        await #expect(
            try library.fetchAssetCollections(with: .album, options: .init(includesEmptyCollections: false)).allObjects().map(\.localizedTitle) == ["Holidays"])
        await #expect(
            try library.fetchAssetCollections(with: .album, options: .init(sortsByTitleAscending: false)).allObjects().map(\.localizedTitle) == [
                "Holidays", "art",
            ])
        await #expect(try library.fetchAssetCollections(with: .album, options: .init(titleContains: "HOLI")).allObjects().map(\.localizedTitle) == ["Holidays"])
        await #expect(
            try library.fetchAssetCollections(with: .smartAlbum, options: .init(includesEmptyCollections: false, fetchLimit: 2)).allObjects().map(
                \.localizedTitle)
                == ["Recents", "Recently Added"])
        var holidays = try await #require(albums.first { $0.localizedTitle == "Holidays" })
        #expect(holidays.estimatedAssetCount == 3)
        await #expect(try library.fetchAssets(in: holidays).allObjects().map(\.originalFilename) == ["p2.jpg", "p0.jpg", "new.jpg"])

        try await library.performChanges {
            let change = AssetCollectionChangeRequest(for: holidays)
            change.title = "Summer"
            change.addAssets([assets[2], assets[3]])  // p2 is already in: stays where it is
            change.moveAssets(at: IndexSet([2, 3]), to: 0)  // new.jpg, p3 to the front
            change.removeAssets([assets[0]])
        }
        holidays = try await #require(try library.assetCollection(withLocalIdentifier: holidays.localIdentifier))
        #expect(holidays.localizedTitle == "Summer")
        await #expect(try library.fetchAssets(in: holidays).allObjects().map(\.originalFilename) == ["new.jpg", "p3.jpg", "p2.jpg"])
        let sorted = try await library.fetchAssets(in: holidays, options: FetchOptions(sortDescriptors: [.init(key: .filename)])).allObjects()
        #expect(sorted.map(\.originalFilename) == ["new.jpg", "p2.jpg", "p3.jpg"])
        await #expect(try library.fetchAssets(with: FetchOptions(predicate: .inAlbum(holidays.localIdentifier))).count == 3)

        // Trashed assets leave the album's view, and come back when restored.
        try await library.performChanges { AssetChangeRequest.deleteAssets([assets[3]]) }
        await #expect(try library.fetchAssets(in: holidays).allObjects().map(\.originalFilename) == ["new.jpg", "p2.jpg"])

        try await library.performChanges { AssetCollectionChangeRequest.deleteAssetCollections([holidays]) }
        await #expect(try library.fetchAssetCollections(with: .album).allObjects().map(\.localizedTitle) == ["art"])
        await #expect(try library.fetchAssets().count == 4, "deleting an album keeps its assets")
    }

    @Test func titlesAreTrimmedAndKeptToOneToTwoHundredCharacters() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        var id: String?
        try await library.performChanges {
            id = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "  Trip \n").placeholderForCreatedAssetCollection?.localIdentifier
        }
        let identifier = try #require(id)
        let album = try #require(try await library.assetCollection(withLocalIdentifier: identifier))
        #expect(album.localizedTitle == "Trip")
        for bad in ["", " \t\n", String(repeating: "é", count: 201)] {
            let refused = await #expect(throws: LibraryError.self) {
                try await library.performChanges { _ = AssetCollectionChangeRequest.creationRequestForFolder(withTitle: bad) }
            }
            #expect(refused?.code == .invalidArgument && refused?.message.contains("1 to 200 characters") == true)
            await #expect(throws: LibraryError.self) {
                try await library.performChanges { AssetCollectionChangeRequest(for: album).title = bad }
            }
        }
        try await library.performChanges { AssetCollectionChangeRequest(for: album).title = String(repeating: "é", count: 200) + " " }
        #expect(try await library.assetCollection(withLocalIdentifier: album.localIdentifier)?.localizedTitle == String(repeating: "é", count: 200))
        #expect(try await library.fetchAssetCollections(with: .folder).count == 0, "no refused folder was made")
    }

    @Test func batchActionsApplyToEveryAssetInOneChange() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let files = try (1...3).map { try temporary.photo("batch-\($0).jpg", seed: 40 + $0) }
        try await library.performChanges { for file in files { _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: file) } }
        let assets = try await library.fetchAssets().allObjects()
        try await library.perform(.favorite, on: assets)
        #expect(try await library.fetchAssets().allObjects().allSatisfy(\.isFavorite))
        await #expect(throws: LibraryError.self, "an album action needs an album") { try await library.perform(.addToAlbum, on: assets) }
        var id: String?
        try await library.performChanges {
            id = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Batch").placeholderForCreatedAssetCollection?.localIdentifier
        }
        let identifier = try #require(id)
        let album = try #require(try await library.assetCollection(withLocalIdentifier: identifier))
        try await library.perform(.addToAlbum, on: assets, album: album)
        #expect(try await library.fetchAssets(in: album).count == 3)
        try await library.perform(.delete, on: Array(assets.prefix(2)))
        #expect(try await library.fetchAssets().count == 1)
        #expect(try await library.withWholeBursts(assets).map(\.localIdentifier) == assets.map(\.localIdentifier), "no bursts: the same assets")
    }

    @Test func smartAlbumsCannotBeChanged() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let favorites = try await #require(try temporary.library.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumFavorites).firstObject)
        do {
            try await temporary.library.performChanges { AssetCollectionChangeRequest(for: favorites).title = "Mine" }
            Issue.record("smart albums are fixed")
        } catch let error as LibraryError {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test func foldersHoldAlbumsAndNeverLoseThem() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let ids = try await temporary.importFiles([try temporary.photo("a.jpg", seed: 1)])
        let asset = try await #require(try library.fetchAssets(withLocalIdentifiers: ids).firstObject)
        let made = try await library.performChanges {
            let travel = AssetCollectionChangeRequest.creationRequestForFolder(withTitle: "Travel")
            let europe = AssetCollectionChangeRequest.creationRequestForFolder(withTitle: "Europe")
            europe.moveToFolder(travel.placeholderForCreatedAssetCollection!)
            let rome = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Rome")
            rome.moveToFolder(europe.placeholderForCreatedAssetCollection!)
            rome.addAssets([asset])
            _ = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Loose")
        }
        let (travelID, europeID, romeID) = (made.createdCollections[0], made.createdCollections[1], made.createdCollections[2])
        let folders = try await library.fetchAssetCollections(with: .folder).allObjects()
        #expect(folders.map(\.localizedTitle) == ["Europe", "Travel"])
        await #expect(try library.fetchAssetCollections(with: .album).allObjects().map(\.localizedTitle) == ["Loose", "Rome"])
        await #expect(try library.fetchCollections(inFolder: nil).allObjects().map(\.localizedTitle) == ["Travel", "Loose"])
        let travel = try await #require(try library.assetCollection(withLocalIdentifier: travelID))
        let europe = try await #require(try library.assetCollection(withLocalIdentifier: europeID))
        #expect(travel.assetCollectionType == .folder && travel.estimatedAssetCount == 1)
        await #expect(try library.fetchCollections(inFolder: travel).allObjects().map(\.localIdentifier) == [europeID])
        await #expect(try library.fetchCollections(inFolder: europe).allObjects().map(\.localIdentifier) == [romeID])
        await #expect(try library.fetchAssets(in: travel).isEmpty)

        // A folder cannot go inside its own subfolder, and holds no assets.
        await #expect(throws: LibraryError.self) {
            try await library.performChanges { AssetCollectionChangeRequest(for: travel).moveToFolder(europe) }
        }
        await #expect(throws: LibraryError.self) {
            try await library.performChanges { AssetCollectionChangeRequest(for: europe).addAssets([asset]) }
        }
        // Deleting a folder moves what it held up a level.
        try await library.performChanges { AssetCollectionChangeRequest.deleteAssetCollections([europe]) }
        let rome = try await #require(try library.assetCollection(withLocalIdentifier: romeID))
        #expect(rome.parentFolderIdentifier == travelID)
        await #expect(try library.fetchAssets(in: rome).allObjects().map(\.localIdentifier) == ids)
        try await library.performChanges { AssetCollectionChangeRequest(for: rome).moveToFolder(nil) }
        await #expect(try library.fetchCollections(inFolder: nil).allObjects().map(\.localizedTitle) == ["Travel", "Loose", "Rome"])
    }
}
