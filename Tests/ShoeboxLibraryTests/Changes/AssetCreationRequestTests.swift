import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

/// `AssetCreationRequest.addResource(with:fileURL:options:)`: one asset from several files, paired
/// as the caller says whatever their metadata says.
@Suite struct AssetCreationRequestTests {
    static func photo(_ temporary: TemporaryLibrary, _ name: String, seed: UInt64) throws -> URL {
        let url = temporary.folder.appendingPathComponent(name)
        try SyntheticPhoto(width: 96, height: 64, seed: seed).image().encoded(as: .jpeg).write(to: url)
        return url
    }

    static func movie(_ temporary: TemporaryLibrary, _ name: String) throws -> URL {
        try SyntheticMovie(duration: 1, width: 160, height: 120, hasAudio: false).write(to: temporary.folder.appendingPathComponent(name))
    }

    @Test("A photo and a movie with nothing in common become a Live Photo; the request's settings go to the asset")
    func livePhotoFromTwoFiles() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let still = try Self.photo(temporary, "still.jpg", seed: 1)
        let motion = try Self.movie(temporary, "motion.mov")
        var placeholder: String?
        let result = try await temporary.library.performChanges {
            let request = AssetCreationRequest.forAsset()
            request.addResource(with: .pairedVideo, fileURL: motion)  // the order they come in does not matter
            request.addResource(with: .photo, fileURL: still, options: AssetResourceCreationOptions(originalFilename: "IMG_0042.JPG"))
            request.isFavorite = true
            placeholder = request.placeholderForCreatedAsset?.localIdentifier
        }
        let assets = try await temporary.library.fetchAssets().allObjects()
        try #require(assets.count == 1, "\(assets.count) assets")
        let asset = assets[0]
        #expect(asset.localIdentifier == placeholder)
        #expect(asset.isLivePhoto && asset.isFavorite && asset.originalFilename == "IMG_0042.JPG")
        #expect(asset.resources.map(\.type) == [.photo, .pairedVideo])
        #expect(result.created.count == 2 && result.created.allSatisfy { $0.localIdentifier == placeholder })
        #expect(result.created.filter(\.isPairedResource).count == 1)
        let collected = Collected()
        try await AssetResourceManager(library: temporary.library).requestData(for: asset.resources[1]) { collected.append($0) }
        #expect(collected.data == (try Data(contentsOf: motion)))
    }

    @Test("A JPEG and a raw file with different names and times become a RAW+JPEG pair")
    func rawPlusJPEGFromTwoFiles() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let raw = try RawPlusJPEGTests.raw(temporary, "A.DNG", taken: "2020:01:01 00:00:00")
        let jpeg = try Self.photo(temporary, "B.JPG", seed: 3)
        try await temporary.library.performChanges {
            let request = AssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: jpeg)
            request.addResource(with: .alternatePhoto, fileURL: raw)
        }
        let asset = try #require(try await temporary.library.fetchAssets().allObjects().first)
        #expect(try await temporary.library.fetchAssets().count == 1)
        #expect(asset.resources.map(\.type) == [.photo, .alternatePhoto])
        #expect(asset.resources.map(\.originalFilename) == ["B.JPG", "A.DNG"])
    }

    @Test("Files that make no asset are refused, naming the problem, and nothing is kept")
    func wrongResources() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let one = try Self.photo(temporary, "one.jpg", seed: 4)
        let two = try Self.photo(temporary, "two.jpg", seed: 5)
        let clip = try Self.movie(temporary, "clip.mov")
        let cases: [(String, [(AssetResource.ResourceType, URL)])] = [
            ("exactly one photo or video", [(.photo, one), (.photo, two)]),
            ("exactly one photo or video", [(.pairedVideo, clip)]),
            ("is a movie", [(.photo, clip)]),
            ("is not a movie", [(.photo, one), (.pairedVideo, two)]),
            ("only a photo has one", [(.video, clip), (.pairedVideo, clip)]),
            ("raw file", [(.photo, one), (.alternatePhoto, two)]),
            ("edit's render", [(.photo, one), (.fullSizePhoto, two)]),
        ]
        for (expected, files) in cases {
            await #expect {
                try await temporary.library.performChanges {
                    let request = AssetCreationRequest.forAsset()
                    for (type, url) in files { request.addResource(with: type, fileURL: url) }
                }
            } throws: { error in
                guard let error = error as? LibraryError, error.code == .invalidArgument else { return false }
                let message = error.message
                return message.contains(expected)
            }
        }
        #expect(try await temporary.library.fetchAssets(with: FetchOptions(includeHiddenAssets: true, includeTrashedAssets: true)).count == 0)
        #expect(temporary.files(in: "originals").isEmpty, "no original kept: \(temporary.files(in: "originals"))")
    }
}
