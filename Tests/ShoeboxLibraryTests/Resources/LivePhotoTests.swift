import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import ShoeboxTesting
import Testing

/// Live Photos: a photo and a movie with one Apple content identifier become one asset with a
/// `.photo` and a `.pairedVideo` resource, whichever order they come in.
@Suite struct LivePhotoTests {
    /// A Live Photo's two files, with an identifier of their own.
    static func pair(_ temporary: TemporaryLibrary, stem: String = "IMG_0001", seed: UInt64 = 1) throws -> (photo: URL, movie: URL) {
        try SyntheticLivePhoto(identifier: UUID().uuidString, seed: seed).write(to: temporary.folder, stem: stem)
    }

    static func only(_ library: PhotoLibrary) async throws -> Asset {
        let all = try await library.fetchAssets().allObjects()
        try #require(all.count == 1, "\(all.count) assets")
        return all[0]
    }

    /// What a Live Photo of `photo` and `movie` must be.
    static func expectLive(_ asset: Asset, photo: URL, movie: URL, library: PhotoLibrary) async throws {
        #expect(asset.mediaType == .image)
        #expect(asset.isLivePhoto && asset.mediaSubtypes.contains(.photoLive))
        #expect(asset.resources.map(\.type) == [.photo, .pairedVideo])
        #expect(asset.currentResource.type == .photo)
        #expect(asset.originalFilename == photo.lastPathComponent)
        let video = try #require(asset.resources.last)
        #expect(video.originalFilename == movie.lastPathComponent)
        #expect(video.uniformTypeIdentifier == "com.apple.quicktime-movie")
        // Both originals, byte for byte, through the resource manager.
        let manager = AssetResourceManager(library: library)
        for (resource, file) in [(asset.resources[0], photo), (video, movie)] {
            let collected = Collected()
            try await manager.requestData(for: resource) { collected.append($0) }
            #expect(collected.data == (try Data(contentsOf: file)), "\(resource.type)")
        }
    }

    @Test func photoFirstThenMovie() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let (photo, movie) = try Self.pair(temporary)
        let photoID = try #require(try await temporary.importFiles([photo]).first)
        let result = try await temporary.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: movie) }
        let creation = try #require(result.created.first)
        #expect(creation.isPairedResource && !creation.isDuplicate && creation.localIdentifier == photoID)
        let asset = try await Self.only(temporary.library)
        #expect(asset.localIdentifier == photoID)
        try await Self.expectLive(asset, photo: photo, movie: movie, library: temporary.library)
    }

    @Test("A movie already in the library joins the photo that comes later; its own asset goes")
    func movieFirstThenPhoto() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let (photo, movie) = try Self.pair(temporary)
        let movieID = try #require(try await temporary.importFiles([movie]).first)
        let movieAsset = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: [movieID]).firstObject)
        try await temporary.library.performChanges {
            let request = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
            request.addAssets([movieAsset])
        }
        let photoID = try #require(try await temporary.importFiles([photo]).first)
        let asset = try await Self.only(temporary.library)
        #expect(asset.localIdentifier == photoID)
        try await Self.expectLive(asset, photo: photo, movie: movie, library: temporary.library)
        #expect(try await temporary.library.fetchAssets(withLocalIdentifiers: [movieID]).count == 0)
        // The movie's album holds the Live Photo now.
        let collection = try #require(try await temporary.library.fetchAssetCollections(with: .album).allObjects().first { $0.localizedTitle == "Trip" })
        #expect(try await temporary.library.fetchAssets(in: collection).allObjects().map(\.localIdentifier) == [photoID])
    }

    @Test("One change with both files, movie first, as a folder import brings them")
    func bothInOneChange() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let (photo, movie) = try Self.pair(temporary)
        let result = try await temporary.library.performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: movie)
            _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: photo)
        }
        let asset = try await Self.only(temporary.library)
        #expect(result.created.map(\.localIdentifier) == [asset.localIdentifier, asset.localIdentifier])
        #expect(result.created.map(\.isPairedResource) == [true, false])
        try await Self.expectLive(asset, photo: photo, movie: movie, library: temporary.library)
    }

    @Test("The movie again is a duplicate of the Live Photo; purging the Live Photo removes both files")
    func duplicatesAndPurge() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let (photo, movie) = try Self.pair(temporary)
        _ = try await temporary.importFiles([photo, movie])
        let live = try await Self.only(temporary.library)
        let copy = temporary.folder.appendingPathComponent("again.MOV")
        try FileManager.default.copyItem(at: movie, to: copy)
        let again = try await temporary.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: copy) }
        #expect(again.created.first?.isDuplicate == true && again.created.first?.localIdentifier == live.localIdentifier)
        #expect(try await temporary.library.fetchAssets().count == 1)
        #expect(try await temporary.blobs(.original).count == 2)
        #expect(try await temporary.library.doctor().problems.isEmpty)

        try await temporary.library.performChanges { AssetChangeRequest.deleteAssets([live]) }
        let trashed = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: [live.localIdentifier]).firstObject)
        try await temporary.library.performChanges { AssetChangeRequest.purgeAssets([trashed]) }
        #expect(try await temporary.blobs(.original).isEmpty)
    }

    @Test("Different identifiers stay apart; a movie in Recently Deleted is not paired")
    func whatDoesNotPair() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let first = try Self.pair(temporary, stem: "A", seed: 1)
        let second = try Self.pair(temporary, stem: "B", seed: 2)
        let ids = try await temporary.importFiles([first.photo, second.movie])
        let both = try await temporary.library.fetchAssets(withLocalIdentifiers: ids).allObjects()
        #expect(both.count == 2 && both.allSatisfy { !$0.isLivePhoto && $0.resources.count == 1 })

        try await temporary.library.performChanges { AssetChangeRequest.deleteAssets(both.filter { $0.mediaType == .video }) }
        let secondPhoto = try #require(try await temporary.importFiles([second.photo]).first)
        let lone = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: [secondPhoto]).firstObject)
        #expect(!lone.isLivePhoto)
        #expect(try await temporary.library.fetchAssets(withLocalIdentifiers: [ids[1]]).firstObject?.isTrashed == true)
    }

    @Test("requestVideoURL plays a Live Photo's motion; a plain photo has none")
    func motionPlays() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let (photo, movie) = try Self.pair(temporary)
        _ = try await temporary.importFiles([photo, movie])
        let live = try await Self.only(temporary.library)
        let images = ImageManager(library: temporary.library)
        let url = try await images.requestVideoURL(for: live)
        let info = try await MovieInfo(contentsOf: url)
        #expect(info.videoCodec == "h264" && info.contentIdentifier != nil)
        let plainID = try #require(try await temporary.importFiles([try temporary.photo("plain.jpg", seed: 9)]).first)
        let plain = try #require(try await temporary.library.fetchAssets(withLocalIdentifiers: [plainID]).firstObject)
        await #expect(throws: LibraryError.self) { try await images.requestVideoURL(for: plain) }
    }
}

/// Bytes a data handler receives, in order.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = Data()
    func append(_ chunk: Data) { lock.withLock { bytes.append(chunk) } }
    var data: Data { lock.withLock { bytes } }
}
