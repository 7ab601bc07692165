import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

@Suite struct AssetCollectionTests {
    @Test func smartAlbumMembership() async throws {
        let temporary = try TemporaryLibrary()
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
        let doomed = try #require(try library.fetchAssets(with: FetchOptions(predicate: .filenameContains("deleted"))).firstObject)
        try await library.performChanges { AssetChangeRequest.deleteAssets([doomed]) }

        let smart = try library.fetchAssetCollections(with: .smartAlbum)
        #expect(smart.map(\.localizedTitle) == ["Recents", "Favorites", "Videos", "Screenshots", "Panoramas", "Recently Added", "Hidden", "Recently Deleted"])
        func members(_ subtype: AssetCollection.Subtype) throws -> Set<String> {
            let collection = try #require(try library.fetchAssetCollections(with: .smartAlbum, subtype: subtype).firstObject)
            let assets = try library.fetchAssets(in: collection)
            #expect(collection.estimatedAssetCount == assets.count, "\(subtype)")
            return Set(assets.map(\.originalFilename))
        }
        #expect(try members(.smartAlbumUserLibrary) == ["camera.jpg", "favorite.jpg", "Screenshot.png", "pano.jpg", "clip.mp4"])
        #expect(try members(.smartAlbumFavorites) == ["favorite.jpg"])
        #expect(try members(.smartAlbumVideos) == ["clip.mp4"])
        #expect(try members(.smartAlbumScreenshots) == ["Screenshot.png"])
        #expect(try members(.smartAlbumPanoramas) == ["pano.jpg"])
        #expect(try members(.smartAlbumRecentlyAdded) == ["camera.jpg", "favorite.jpg", "Screenshot.png", "pano.jpg", "clip.mp4"])
        #expect(try members(.smartAlbumAllHidden) == ["hidden.jpg"])
        #expect(try members(.smartAlbumRecentlyDeleted) == ["deleted.jpg"])
        let recents = try #require(try library.assetCollection(withLocalIdentifier: smart[0].localIdentifier))
        #expect(recents.assetCollectionSubtype == .smartAlbumUserLibrary)
    }

    @Test func userAlbums() async throws {
        let temporary = try TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let ids = try await temporary.importFiles((0..<4).map { try temporary.photo("p\($0).jpg", seed: UInt64(20 + $0)) })
        let assets = Array(try library.fetchAssets(withLocalIdentifiers: ids))
        let newPhoto = try temporary.photo("new.jpg", seed: 30)
        let result = try await library.performChanges {
            let album = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Holidays")
            album.addAssets([assets[2], assets[0]])
            let created = AssetChangeRequest.creationRequestForAsset(fromImageAt: newPhoto)
            album.addAssets([created.placeholderForCreatedAsset!])
            _ = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "art")
        }
        #expect(result.createdCollections.count == 2)
        let albums = try library.fetchAssetCollections(with: .album)
        #expect(albums.map(\.localizedTitle) == ["art", "Holidays"])
        // Options: non-empty only, by title descending, a title filter, a limit.
        #expect(try library.fetchAssetCollections(with: .album, options: .init(includesEmptyCollections: false)).map(\.localizedTitle) == ["Holidays"])
        #expect(try library.fetchAssetCollections(with: .album, options: .init(sortsByTitleAscending: false)).map(\.localizedTitle) == ["Holidays", "art"])
        #expect(try library.fetchAssetCollections(with: .album, options: .init(titleContains: "HOLI")).map(\.localizedTitle) == ["Holidays"])
        #expect(try library.fetchAssetCollections(with: .smartAlbum, options: .init(includesEmptyCollections: false, fetchLimit: 2)).map(\.localizedTitle)
                    == ["Recents", "Recently Added"])
        var holidays = try #require(albums.first { $0.localizedTitle == "Holidays" })
        #expect(holidays.estimatedAssetCount == 3)
        #expect(try library.fetchAssets(in: holidays).map(\.originalFilename) == ["p2.jpg", "p0.jpg", "new.jpg"])

        try await library.performChanges {
            let change = AssetCollectionChangeRequest(for: holidays)
            change.title = "Summer"
            change.addAssets([assets[2], assets[3]])  // p2 is already in: stays where it is
            change.moveAssets(at: IndexSet([2, 3]), to: 0)  // new.jpg, p3 to the front
            change.removeAssets([assets[0]])
        }
        holidays = try #require(try library.assetCollection(withLocalIdentifier: holidays.localIdentifier))
        #expect(holidays.localizedTitle == "Summer")
        #expect(try library.fetchAssets(in: holidays).map(\.originalFilename) == ["new.jpg", "p3.jpg", "p2.jpg"])
        let sorted = try library.fetchAssets(in: holidays, options: FetchOptions(sortDescriptors: [.init(key: .filename)]))
        #expect(sorted.map(\.originalFilename) == ["new.jpg", "p2.jpg", "p3.jpg"])
        #expect(try library.fetchAssets(with: FetchOptions(predicate: .inAlbum(holidays.localIdentifier))).count == 3)

        // Trashed assets leave the album's view, and come back when restored.
        try await library.performChanges { AssetChangeRequest.deleteAssets([assets[3]]) }
        #expect(try library.fetchAssets(in: holidays).map(\.originalFilename) == ["new.jpg", "p2.jpg"])

        try await library.performChanges { AssetCollectionChangeRequest.deleteAssetCollections([holidays]) }
        #expect(try library.fetchAssetCollections(with: .album).map(\.localizedTitle) == ["art"])
        #expect(try library.fetchAssets().count == 4, "deleting an album keeps its assets")
    }

    @Test func smartAlbumsCannotBeChanged() async throws {
        let temporary = try TemporaryLibrary()
        defer { temporary.remove() }
        let favorites = try #require(try temporary.library.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumFavorites).firstObject)
        do {
            try await temporary.library.performChanges { AssetCollectionChangeRequest(for: favorites).title = "Mine" }
            Issue.record("smart albums are fixed")
        } catch let error as LibraryError {
            #expect(error.code == "invalidArgument")
        }
    }

    @Test func foldersHoldAlbumsAndNeverLoseThem() async throws {
        let temporary = try TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let ids = try await temporary.importFiles([try temporary.photo("a.jpg", seed: 1)])
        let asset = try #require(try library.fetchAssets(withLocalIdentifiers: ids).firstObject)
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
        let folders = try library.fetchAssetCollections(with: .folder)
        #expect(folders.map(\.localizedTitle) == ["Europe", "Travel"])
        #expect(try library.fetchAssetCollections(with: .album).map(\.localizedTitle) == ["Loose", "Rome"])
        #expect(try library.fetchCollections(inFolder: nil).map(\.localizedTitle) == ["Travel", "Loose"])
        let travel = try #require(try library.assetCollection(withLocalIdentifier: travelID))
        let europe = try #require(try library.assetCollection(withLocalIdentifier: europeID))
        #expect(travel.assetCollectionType == .folder && travel.estimatedAssetCount == 1)
        #expect(try library.fetchCollections(inFolder: travel).map(\.localIdentifier) == [europeID])
        #expect(try library.fetchCollections(inFolder: europe).map(\.localIdentifier) == [romeID])
        #expect(try library.fetchAssets(in: travel).isEmpty)

        // A folder cannot go inside its own subfolder, and holds no assets.
        await #expect(throws: LibraryError.self) {
            try await library.performChanges { AssetCollectionChangeRequest(for: travel).moveToFolder(europe) }
        }
        await #expect(throws: LibraryError.self) {
            try await library.performChanges { AssetCollectionChangeRequest(for: europe).addAssets([asset]) }
        }
        // Deleting a folder moves what it held up a level.
        try await library.performChanges { AssetCollectionChangeRequest.deleteAssetCollections([europe]) }
        let rome = try #require(try library.assetCollection(withLocalIdentifier: romeID))
        #expect(rome.parentFolderIdentifier == travelID)
        #expect(try library.fetchAssets(in: rome).map(\.localIdentifier) == ids)
        try await library.performChanges { AssetCollectionChangeRequest(for: rome).moveToFolder(nil) }
        #expect(try library.fetchCollections(inFolder: nil).map(\.localizedTitle) == ["Travel", "Loose", "Rome"])
    }
}
