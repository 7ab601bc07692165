import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// The crash battery: `SHOEBOX_FAULT` kills a `shoebox` process at each point of each kind of
/// change (import, upload, edit, purge, album change). Afterwards the next process to open the
/// library finds nothing lost and nothing half-made, and `doctor` is ok without `--repair`.
@Suite struct CrashBatteryTests {
    static let importPoints: [FaultPoint] = [.afterStage, .afterFsync, .afterClaim, .afterRename, .insideCommit, .afterCommit]

    @Test(arguments: importPoints)
    func importKilledAt(_ point: FaultPoint) async throws {
        let scene = try await Scene()
        defer { scene.remove() }
        let kept = try await scene.importPhoto("kept.jpg", seed: 1)
        let photo = try scene.photo("new.jpg", seed: 2)
        let run = try scene.killed(at: point, ["import", "--library", scene.libraryPath, photo.path])
        #expect(run.status == 128 + SIGKILL, "the import reached \(point.rawValue): \(run.standardError)")

        let library = try await scene.reopenedAndHealthy()
        await #expect(try library.fetchAssets(withLocalIdentifiers: [kept]).count == 1)
        let found = try await scene.assets(in: library).filter { $0.originalFilename == "new.jpg" }
        // Until the original is filed there is nothing to keep; once it is, the import is whole
        // (committed, or adopted by the next process that opened the library).
        let filed: Set<FaultPoint> = [.afterRename, .insideCommit, .afterCommit]
        #expect(found.count == (filed.contains(point) ? 1 : 0), "\(found)")
        for asset in found {
            await #expect(try Data(contentsOf: library.originalURL(for: asset)) == Data(contentsOf: photo))
        }
        // Importing again completes the set either way.
        _ = try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: photo) }
        #expect(try await scene.assets(in: library).count == 2)
    }

    /// A Live Photo's still killed at each point of its import, its movie already in the
    /// library: once the still is filed, the next process to open the library ends with one
    /// Live Photo, as the import would have (an adopted still pairs too).
    @Test(arguments: importPoints)
    func livePhotoStillKilledAt(_ point: FaultPoint) async throws {
        let scene = try await Scene()
        defer { scene.remove() }
        let (photo, movie) = try SyntheticLivePhoto(identifier: UUID().uuidString, seed: 3).write(to: scene.folder, stem: "IMG_0007")
        _ = try CLIRunner.run(["import", "--library", scene.libraryPath, movie.path])
        let run = try scene.killed(at: point, ["import", "--library", scene.libraryPath, photo.path])
        #expect(run.status == 128 + SIGKILL, "the import reached \(point.rawValue): \(run.standardError)")

        let library = try await scene.reopenedAndHealthy()
        let found = try await scene.assets(in: library)
        let filed: Set<FaultPoint> = [.afterRename, .insideCommit, .afterCommit]
        if filed.contains(point) {
            #expect(found.count == 1 && found.first?.isLivePhoto == true, "\(found.map(\.originalFilename))")
        } else {
            #expect(found.map(\.originalFilename) == ["IMG_0007.MOV"])
        }
        for asset in found {
            for resource in asset.resources {
                let source = resource.type == .pairedVideo || resource.originalFilename.hasSuffix(".MOV") ? movie : photo
                #expect(try Data(contentsOf: try await library.fileURL(for: resource)) == Data(contentsOf: source))
            }
        }
    }

    /// A process killed while it imports the third frame of a camera's run: once the frame is
    /// filed, the next process to open the library ends with one burst of three, as the import
    /// would have (an adopted frame joins its run too).
    @Test(arguments: importPoints)
    func burstFrameKilledAt(_ point: FaultPoint) async throws {
        let scene = try await Scene()
        defer { scene.remove() }
        let frames = try (0..<3).map { index in
            var metadata = ImageMetadata()
            metadata.make = "FUJIFILM"
            metadata.model = "X-T5"
            metadata.bodySerialNumber = "5AB12345"
            var taken = ImageMetadata.DateTime(Date(timeIntervalSince1970: 1_700_000_000), timeZone: TimeZone(secondsFromGMT: 0)!)
            taken.fractionalSecond = Double(index) * 0.3
            metadata.dateTimeOriginal = taken
            let url = scene.folder.appendingPathComponent("DSCF000\(index).JPG")
            try SyntheticPhoto(width: 96, height: 64, seed: UInt64(index + 1)).image().writingMetadata(metadata)
                .write(to: url, options: ImageEncodingOptions(keepsMetadata: true))
            return url
        }
        _ = try CLIRunner.run(["import", "--library", scene.libraryPath, frames[0].path, frames[1].path])
        let run = try scene.killed(at: point, ["import", "--library", scene.libraryPath, frames[2].path])
        #expect(run.status == 128 + SIGKILL, "the import reached \(point.rawValue): \(run.standardError)")

        let library = try await scene.reopenedAndHealthy()
        let found = try await scene.assets(in: library)
        let filed: Set<FaultPoint> = [.afterRename, .insideCommit, .afterCommit]
        if filed.contains(point) {
            #expect(
                found.count == 3 && Set(found.map(\.burstIdentifier)).count == 1 && found[0].burstIdentifier != nil,
                "\(found.map { "\($0.originalFilename)=\($0.burstIdentifier ?? "-")" })")
            #expect(try await library.fetchAssets().count == 1, "the burst shows as its key photo")
        } else {
            #expect(found.count == 2 && found.allSatisfy { $0.burstIdentifier == nil })
        }
    }

    @Test(arguments: [FaultPoint.duringEditRender, .afterStage, .afterClaim, .afterRename, .insideCommit, .afterCommit])
    func editKilledAt(_ point: FaultPoint) async throws {
        let scene = try await Scene()
        defer { scene.remove() }
        let id = try await scene.importPhoto("edit.jpg", seed: 3, width: 400, height: 200)
        let run = try scene.killed(at: point, ["edit", "--library", scene.libraryPath, id, "--rotate", "90"])
        #expect(run.status == 128 + SIGKILL, "the edit reached \(point.rawValue): \(run.standardError)")

        let library = try await scene.reopenedAndHealthy()
        let asset = try await #require(try library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
        // Either the edit is whole (its render there, the size turned) or it never happened.
        if asset.hasAdjustments {
            #expect(point == .afterCommit)
            #expect(asset.pixelWidth == 200 && asset.pixelHeight == 400)
            #expect(try await FileManager.default.fileExists(atPath: library.currentURL(for: asset).path))
        } else {
            #expect(point != .afterCommit)
            #expect(asset.pixelWidth == 400 && asset.pixelHeight == 200)
        }
        let renders = try await library.blobs.list(.render)
        #expect(renders.count == (asset.hasAdjustments ? 1 : 0), "no render without its edit")
    }

    @Test(arguments: [FaultPoint.insideCommit, .afterCommit, .duringPurge])
    func purgeKilledAt(_ point: FaultPoint) async throws {
        let scene = try await Scene()
        defer { scene.remove() }
        let kept = try await scene.importPhoto("kept.jpg", seed: 4)
        let id = try await scene.importPhoto("gone.jpg", seed: 5)
        let opened = try await PhotoLibrary.open(at: scene.libraryURL)
        let doomed = try await opened.fetchAssets(withLocalIdentifiers: [id]).allObjects()
        try await opened.performChanges { AssetChangeRequest.deleteAssets(doomed) }
        let original = try await opened.originalURL(
            for: try #require(
                try await opened.fetchAssets(with: FetchOptions(includeTrashedAssets: true))
                    .allObjects().first { $0.localIdentifier == id }))
        let run = try scene.killed(at: point, ["purge", "--library", scene.libraryPath, id])
        #expect(run.status == 128 + SIGKILL, "the purge reached \(point.rawValue): \(run.standardError)")

        let library = try await scene.reopenedAndHealthy()
        let purged = try await library.fetchAssets(with: FetchOptions(includeTrashedAssets: true)).allObjects().first { $0.localIdentifier == id } == nil
        #expect(purged == (point != .insideCommit))
        // A purged asset's original goes with it (the next process finishes the removal); an
        // asset still in Recently Deleted keeps it.
        #expect(FileManager.default.fileExists(atPath: original.path) == !purged)
        await #expect(try library.fetchAssets(withLocalIdentifiers: [kept]).count == 1)
    }

    @Test(arguments: [FaultPoint.insideCommit, .afterCommit])
    func albumChangeKilledAt(_ point: FaultPoint) async throws {
        let scene = try await Scene()
        defer { scene.remove() }
        let id = try await scene.importPhoto("member.jpg", seed: 6)
        _ = try CLIRunner.run(["album", "create", "--library", scene.libraryPath, "Trip"])
        let run = try scene.killed(at: point, ["album", "add", "--library", scene.libraryPath, "Trip", id])
        #expect(run.status == 128 + SIGKILL, "the album change reached \(point.rawValue): \(run.standardError)")
        let library = try await scene.reopenedAndHealthy()
        let album = try await #require(try library.fetchAssetCollections(with: .album).allObjects().first { $0.localizedTitle == "Trip" })
        await #expect(try library.fetchAssets(in: album).count == (point == .afterCommit ? 1 : 0))
    }

    /// `shoebox serve` killed at each point of an upload's import: the partial upload and
    /// anything it filed are settled by the next process, and nothing is left in the system's
    /// temporary folder (uploads stage inside the library).
    @Test(arguments: importPoints)
    func uploadKilledAt(_ point: FaultPoint) async throws {
        let scene = try await Scene()
        defer { scene.remove() }
        let photo = try scene.photo("upload.jpg", seed: 7)
        let key = UUID().uuidString
        let server = try BackgroundCommand(
            ["serve", "--library", scene.libraryPath, "--port", "0", "--json", "--key", key],
            environment: ["SHOEBOX_FAULT": point.rawValue])
        let ready = try await server.line(containing: #""port""#)
        let port = try #require((try JSONSerialization.jsonObject(with: Data(ready.utf8)) as? [String: Any])?["port"] as? Int)
        _ = try? await RawHTTP(port: port).send(
            "POST", "/api/assets?filename=upload.jpg",
            headers: ["Authorization": "Bearer \(key)", "Content-Type": "image/jpeg"],
            body: try Data(contentsOf: photo), timeout: 30)
        _ = try await server.waitForExit(timeout: 30)
        #expect(server.terminatingSignal == SIGKILL, "the server reached \(point.rawValue): \(server.standardError)")
        let library = try await scene.reopenedAndHealthy()
        let found = try await scene.assets(in: library)
        #expect(found.count <= 1)
        for asset in found {
            await #expect(try Data(contentsOf: library.originalURL(for: asset)) == Data(contentsOf: photo))
        }
        let stray = (try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())).filter { $0.hasPrefix("shoebox-upload-") }
        #expect(stray.isEmpty, "uploads no longer stage in the system's temporary folder: \(stray)")
    }
}

/// A library in a temporary folder and the files the battery imports.
struct Scene {
    let folder: URL
    var libraryURL: URL { folder.appendingPathComponent("Crash.shoebox") }
    var libraryPath: String { libraryURL.path }

    /// With `SHOEBOX_TEST_CATALOG=postgres` the library's catalog is a fresh PostgreSQL database,
    /// and with `SHOEBOX_TEST_BLOBS=s3` its blobs are in a fresh prefix of the test bucket (its
    /// `library.json` names them, so the killed `shoebox` processes use them too).
    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = PhotoLibrary.Configuration()
        if PostgresTestServer.isCatalogUnderTest {
            configuration.catalog = .postgres(try PostgresURL(try PostgresTestServer.freshDatabase()))
        }
        if S3TestServer.isBlobStoreUnderTest {
            let blobs = try S3URL(try S3TestServer.freshBlobsURL())
            try await S3Client(url: blobs, credentials: try AWSCredentials.find()).createBucket()
            configuration.blobs = .s3(blobs)
        }
        let library = try await PhotoLibrary.create(at: libraryURL, configuration: configuration)
        await library.close()
    }

    func photo(_ name: String, seed: UInt64, width: Int = 320, height: Int = 240) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try SyntheticPhoto(width: width, height: height, seed: seed).image().write(to: url)
        return url
    }

    func importPhoto(_ name: String, seed: UInt64, width: Int = 320, height: Int = 240) async throws -> String {
        let url = try photo(name, seed: seed, width: width, height: height)
        let library = try await PhotoLibrary.open(at: libraryURL, backgroundWork: .onDemand)
        return try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }.created[0].localIdentifier
    }

    /// Runs `shoebox` with `SHOEBOX_FAULT` set to `point`.
    func killed(at point: FaultPoint, _ arguments: [String]) throws -> ChildProcess.Result {
        let executable = try #require(CLIRunner.executable)
        return try ChildProcess.run("/usr/bin/env", ["SHOEBOX_FAULT=\(point.rawValue)", executable.path] + arguments)
    }

    /// Opens the library as the next process would, and checks it: `doctor` (deep) is ok
    /// without repair, staging is empty, and every asset's original is whole. With blobs in S3,
    /// the bucket holds exactly the objects the assets refer to (nothing unreferenced), and no
    /// multipart upload is left open.
    func reopenedAndHealthy() async throws -> PhotoLibrary {
        let library = try await PhotoLibrary.open(at: libraryURL, backgroundWork: .onDemand)
        let report = try await library.doctor(deep: true)
        #expect(report.ok, "\(report.problems)")
        #expect(files(in: "staging").isEmpty, "\(files(in: "staging"))")
        let assets = try await assets(in: library)
        for asset in assets {
            #expect(try await PhotoLibrary.contentHash(of: library.originalURL(for: asset)) == asset.contentHash)
        }
        if case .s3(let blobs) = library.configuration.blobs {
            _ = try await library.sweep(olderThan: 0)
            let client = S3Client(url: blobs, credentials: try AWSCredentials.find())
            // Every resource's blob: originals (a Live Photo's movie among them) and renders.
            var referenced: Set<String> = []
            for resource in assets.flatMap(\.resources) {
                let hash = resource.contentHash
                referenced.insert("\(resource.isOriginal ? "originals" : "renders")/\(hash.prefix(2))/\(hash)")
            }
            var stored: Set<String> = []
            for kind in ["originals/", "renders/"] {
                for object in try await client.listObjects(prefix: blobs.key(kind)) { stored.insert(String(object.key.dropFirst(blobs.prefix.count + 1))) }
            }
            #expect(stored == referenced, "unreferenced: \(stored.subtracting(referenced)), missing: \(referenced.subtracting(stored))")
        }
        return library
    }

    func assets(in library: PhotoLibrary) async throws -> [Asset] {
        try await library.fetchAssets(with: FetchOptions(includeHiddenAssets: true, includeTrashedAssets: true, includeAllBurstAssets: true)).allObjects()
    }

    func files(in subfolder: String) -> [String] {
        let root = libraryURL.appendingPathComponent(subfolder)
        return ((try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? []).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
