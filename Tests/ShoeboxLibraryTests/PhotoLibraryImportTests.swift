import Foundation
import GRDB
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting
import Testing

@Suite struct PhotoLibraryImportTests {
    @Test func importsAPhotoWithItsFacts() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let url = try temporary.photo("IMG_0001.jpg", seed: 1, width: 300, height: 200)
        let result = try await temporary.library.performChanges {
            let request = AssetChangeRequest.creationRequestForAsset(fromImageAt: url)
            request.isFavorite = true
        }
        let creation = try #require(result.created.first)
        #expect(!creation.isDuplicate)
        let asset = try await #require(try temporary.library.fetchAssets(withLocalIdentifiers: [creation.localIdentifier]).firstObject)
        #expect(asset.mediaType == .image)
        #expect(asset.pixelWidth == 300 && asset.pixelHeight == 200)
        #expect(asset.originalFilename == "IMG_0001.jpg")
        #expect(asset.isFavorite)
        #expect(asset.uniformTypeIdentifier == "public.jpeg")
        let bytes = try Data(contentsOf: url)
        #expect(asset.fileSize == bytes.count)
        // The original is stored content-addressed, byte for byte.
        let original = try await temporary.library.originalURL(for: asset)
        #expect(original.lastPathComponent == asset.contentHash)
        #expect(try await temporary.blobs(.original).map(\.key) == [BlobKey(kind: .original, hash: asset.contentHash)])
        #expect(try Data(contentsOf: original) == bytes)
        #expect(temporary.files(in: "staging").isEmpty)
    }

    @Test func identicalBytesAreStoredOnce() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let url = try temporary.photo("a.jpg", seed: 7)
        let copy = temporary.folder.appendingPathComponent("copy of a.jpg")
        try FileManager.default.copyItem(at: url, to: copy)
        let first = try await temporary.library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: url) }
        let second = try await temporary.library.performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: copy)
            _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: copy)
        }
        #expect(second.created.count == 2)
        #expect(second.created.allSatisfy { $0.isDuplicate && $0.localIdentifier == first.created[0].localIdentifier })
        await #expect(try temporary.library.fetchAssets().count == 1)
        #expect((try await temporary.blobs(.original)).count == 1)
        #expect(temporary.files(in: "staging").isEmpty)
    }

    @Test func performChangesIsAllOrNothing() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let good = try temporary.photo("good.jpg", seed: 2)
        let bad = temporary.folder.appendingPathComponent("bad.jpg")
        try Data("not a photo".utf8).write(to: bad)
        let existing = try await temporary.importFiles([try temporary.photo("old.jpg", seed: 3)])
        let old = try await #require(try temporary.library.fetchAssets(withLocalIdentifiers: existing).firstObject)
        do {
            try await temporary.library.performChanges {
                _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: good)
                AssetChangeRequest(for: old).isFavorite = true
                _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: bad)
            }
            Issue.record("a change with a bad file must fail")
        } catch let error as LibraryError {
            #expect(error.code == .unsupportedFormat)
            #expect(error.message.contains("bad.jpg"))
        }
        let all = try await temporary.library.fetchAssets()
        #expect(all.count == 1, "only the earlier asset")
        #expect(try await all.firstObject?.isFavorite == false, "the modification was not applied either")
        #expect((try await temporary.blobs(.original)).count == 1)
        #expect(temporary.files(in: "staging").isEmpty)
    }

    @Test func aChangeTheCatalogRefusesLeavesNoOriginalBehind() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let gone = try await #require(
            try temporary.library.fetchAssets(withLocalIdentifiers: try await temporary.importFiles([try temporary.photo("gone.jpg", seed: 5)])).firstObject)
        try await temporary.library.performChanges { AssetChangeRequest.deleteAssets([gone]) }
        try await temporary.library.performChanges { AssetChangeRequest.purgeAssets([gone]) }
        #expect((try await temporary.blobs(.original)).isEmpty)
        // The new photo's bytes are filed before the catalog refuses the change (its update names
        // a purged asset): they must go again, or doctor would bring the failed import back.
        await #expect(throws: LibraryError.self) {
            try await temporary.library.performChanges {
                _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: try temporary.photo("new.jpg", seed: 6))
                AssetChangeRequest(for: gone).isFavorite = true
            }
        }
        await #expect(try temporary.library.fetchAssets().isEmpty)
        #expect((try await temporary.blobs(.original)).isEmpty, "the refused change's original was taken back")
        #expect(temporary.files(in: "staging").isEmpty)
        #expect(try await temporary.library.doctor().ok)
    }

    @Test func damagedAndForeignFilesFailWithTypedErrors() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let jpeg = try Data(contentsOf: try temporary.photo("whole.jpg", seed: 4, width: 400, height: 300))
        let truncated = temporary.folder.appendingPathComponent("truncated.jpg")
        try jpeg.prefix(jpeg.count / 2).write(to: truncated)
        let movie = try SyntheticMovie(duration: 0.5, width: 64, height: 64).write(to: temporary.folder.appendingPathComponent("clip.mp4"))
        let cases: [(AssetChangeRequestMaker, String)] = [
            ({ AssetChangeRequest.creationRequestForAsset(fromImageAt: truncated) }, "corrupt"),
            ({ AssetChangeRequest.creationRequestForAsset(fromImageAt: movie) }, "unsupportedFormat"),
            ({ AssetChangeRequest.creationRequestForAsset(fromVideoAt: temporary.folder.appendingPathComponent("whole.jpg")) }, "unsupportedFormat"),
            ({ AssetChangeRequest.creationRequestForAsset(fromFileAt: temporary.folder.appendingPathComponent("missing.jpg")) }, "io"),
            ({ AssetChangeRequest.creationRequestForAsset(fromFileAt: temporary.folder) }, "io"),
        ]
        for (make, code) in cases {
            do {
                try await temporary.library.performChanges { _ = make() }
                Issue.record("expected \(code)")
            } catch let error as LibraryError {
                #expect(error.code.rawValue == code, "\(error)")
            }
        }
        await #expect(try temporary.library.fetchAssets().isEmpty)
        #expect(temporary.files(in: "staging").isEmpty)
        #expect(try await temporary.blobs(.original).isEmpty)
    }

    typealias AssetChangeRequestMaker = @Sendable () -> AssetChangeRequest

    @Test func importsMoviesAndData() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let movie = try SyntheticMovie(duration: 1.5, width: 160, height: 120, rotation: 90)
            .write(to: temporary.folder.appendingPathComponent("clip.mov"))
        let data = try SyntheticPhoto(width: 50, height: 40, seed: 9).image().encoded(as: .png)
        var metadata = ImageMetadata()
        metadata.dateTimeOriginal = ImageMetadata.DateTime(year: 2020, month: 2, day: 29, hour: 12, minute: 0, second: 0, utcOffset: 0)
        metadata.latitude = 51.5
        metadata.longitude = -0.12
        let result = try await temporary.library.performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(fromVideoAt: movie)
            _ = AssetChangeRequest.creationRequestForAsset(from: data, metadata: metadata, filename: "drawing.png")
        }
        let assets = try await temporary.library.fetchAssets(withLocalIdentifiers: result.created.map(\.localIdentifier)).allObjects()
        let video = assets[0]
        let image = assets[1]
        #expect(video.mediaType == .video && abs(video.duration - 1.5) < 0.05)
        #expect(video.pixelWidth == 120 && video.pixelHeight == 160, "upright")
        #expect(video.uniformTypeIdentifier == "com.apple.quicktime-movie")
        #expect(image.originalFilename == "drawing.png")
        #expect(image.creationDate == Date(timeIntervalSince1970: 1_582_977_600))
        #expect(image.location == Asset.Location(latitude: 51.5, longitude: -0.12))
    }

    @Test func changeRequestsOutsidePerformChangesAreAProgrammerError() async {
        await #expect(processExitsWith: .failure) {
            _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: URL(fileURLWithPath: "/tmp/x.jpg"))
        }
    }

    @Test func aNewerCatalogIsRefused() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        if case .postgres(let url) = temporary.library.configuration.catalog {
            await temporary.library.close()
            try PostgresTestServer.psql(url.description, "INSERT INTO shoebox_migration (identifier, date) VALUES ('v99-from-the-future', now())")
        } else {
            let catalog = temporary.library.url.appendingPathComponent("catalog.sqlite")
            let queue = try DatabaseQueue(path: catalog.path)
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
            }
            try queue.close()
        }
        await #expect {
            _ = try await PhotoLibrary.open(at: temporary.library.url)
        } throws: { error in
            guard let error = error as? LibraryError, error.code == .newerSchema else { return false }
            return error.message.contains("(schema v99-from-the-future)")
        }
    }

    @Test func openingAFileIsRefused() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let file = temporary.folder.appendingPathComponent("not-a-folder.shoebox")
        try Data("x".utf8).write(to: file)
        await #expect(throws: LibraryError.self) { _ = try await PhotoLibrary.open(at: file) }
    }

    @Test func concurrentImportsOfTheSameBytesStoreThemOnce() async throws {
        let temporary = try await TemporaryLibrary(derivatives: true)
        defer { temporary.remove() }
        let url = try temporary.photo("same.jpg", seed: 42, width: 600, height: 400)
        let library = temporary.library
        let results = try await withThrowingTaskGroup(of: ChangeResult.self) { group in
            for _ in 0..<8 {
                group.addTask { try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: url) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let creations = results.flatMap(\.created)
        #expect(creations.filter { !$0.isDuplicate }.count == 1)
        #expect(Set(creations.map(\.localIdentifier)).count == 1)
        await #expect(try library.fetchAssets().count == 1)
        await library.waitForBackgroundWork()
        #expect((try await temporary.blobs(.original)).count == 1)
        #expect(temporary.files(in: "staging").isEmpty)
        #expect(temporary.files(in: "derivatives").filter { $0.contains("/.") }.isEmpty, "no staged derivative left behind")
        #expect(try await library.doctor(deep: true).ok)
    }
}
