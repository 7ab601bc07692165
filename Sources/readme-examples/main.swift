// swift-format-ignore-file
// Generated from README.md by scripts/readme-examples: edit the README, then run the script.
// Compiled by `swift build` so that the README's examples keep compiling; never run.

import Foundation
import HTTPTypes
import HummingbirdTesting
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import ShoeboxPicker
import ShoeboxServer
import ShoeboxTesting

func readmeExamples() async throws {
    do {  // README example 1

        do {
            let photo = try Image(contentsOf: URL(fileURLWithPath: "IMG_5195.HEIC"))
            print(photo.format!, photo.pixelSize, photo.storedPixelSize, photo.orientation)
            if let latitude = photo.metadata.latitude, let longitude = photo.metadata.longitude {
                print("taken at \(latitude), \(longitude) on \(photo.metadata.dateTimeOriginal!)")
            }

            // Apple's content modes: fit inside, or cover (the target is a minimum on both sides).
            let grid = try photo.thumbnail(targetSize: PixelSize(square: 256), contentMode: .aspectFill, cropToFill: true)
            try grid.write(to: URL(fileURLWithPath: "grid.jpg"), options: ImageEncodingOptions(quality: 0.8))

            // The picker's square crop with a maximum pixel size.
            let side = min(photo.pixelWidth, photo.pixelHeight)
            let avatar = try photo.croppingToSquare(PixelRect(x: 0, y: 0, width: side, height: side), maximumPixelSize: 512)
            let webp: Data = try avatar.encoded(as: .webp, options: ImageEncodingOptions(keepsMetadata: false))
            print(webp.count)
        } catch let error where error.code == .tooLarge {
            print("refused: \(error.pixelCount ?? 0) pixels > \(error.pixelLimit ?? 0)")
        } catch {
            print(error.code, error.message)   // ImageError.Code: unsupportedFormat, corrupt, io, …
        }
        do {  // README example 2

            let movie = try await Movie(contentsOf: URL(fileURLWithPath: "IMG_0042.MOV"))
            print(movie.info.duration, movie.info.pixelSize, movie.info.videoCodec)
            let poster = try await movie.posterFrame()                          // an upright ShoeboxImaging.Image
            let clip = try await movie.trimming(2..<7.5, to: URL(fileURLWithPath: "clip.mov"), maximumDuration: 10).run()
            for try await event in movie.transcoding(to: URL(fileURLWithPath: "small.mp4"), quality: .typeMedium) {
                if case .progress(let progress) = event { print(Int(progress.fractionCompleted * 100), "%") }
            }
            let answer = await Movie.isVideoCompatibleWithSavedPhotosAlbum(at: clip.url)   // .isCompatible, .reason
            do {  // README example 3

                let library = try await PhotoLibrary.open(at: URL(fileURLWithPath: "Photos.shoebox"))
                let result = try await library.performChanges {
                    let request = AssetChangeRequest.creationRequestForAsset(fromImageAt: URL(fileURLWithPath: "IMG_0001.HEIC"))
                    request.isFavorite = true
                }
                let asset = try await library.fetchAssets(withLocalIdentifiers: [result.created[0].localIdentifier]).firstObject!

                // Pixels at the size needed: a degraded result first when one is cached, then the final one.
                let images = ImageManager(library: library)
                for await delivery in images.requestImage(for: asset, targetSize: PixelSize(square: 512), contentMode: .aspectFill) {
                    print(delivery.image?.pixelSize as Any, delivery.isDegraded ? "degraded" : "final")
                }

                // A non-destructive edit in Shoebox's portable format; the original never changes.
                let edited = try await library.applyAdjustments(
                    Adjustments(rotation: 90, straighten: -2.5, light: .init(exposure: 0.5, shadows: 0.3), filter: .vivid), to: asset)
                print(edited.hasAdjustments, edited.resources.map(\.type))   // true [photo, fullSizePhoto]
                try await library.revertAssetContentToOriginal(edited)

                // A burst is one asset per frame; fetches show its key photo unless asked for every frame.
                if let burst = asset.burstIdentifier {
                    let frames = try await library.fetchAssets(withBurstIdentifier: burst).allObjects()
                    try await library.performChanges { AssetChangeRequest(for: frames[frames.count / 2]).makeKeyPhotoOfBurst() }
                }

                // Every file of an asset: a Live Photo's movie, a RAW+JPEG pair's raw, an edit's render.
                let files = AssetResourceManager(library: library)
                for resource in asset.resources where resource.type == .pairedVideo || resource.type == .alternatePhoto {
                    try await files.writeData(for: resource, toFile: URL(fileURLWithPath: "/tmp/" + resource.originalFilename))
                }

                // Changes from any process, as PHPhotoLibraryChangeObserver: fetch results updated in place.
                let changes = try await library.changes
                Task {
                    var recents = try await library.fetchAssets()
                    for try await change in changes {
                        guard let details = try await change.details(for: recents) else { continue }
                        print(details.insertedIndexes, details.removedIndexes, details.changedIndexes)
                        recents = details.fetchResultAfterChanges
                    }
                }

                // A capture straight into the library: an asset on commit, nothing at all if the process dies.
                let pending = try await library.beginCapture(filename: "clip.mp4")
                // … a MovieFileOutput records to pending.url …
                let clip = try await pending.commit()

                // Where photos were taken (offline place table), and the memories the library makes.
                for country in try await library.fetchPlaces() {
                    print(country.name, country.count, country.cities.map(\.name))
                }
                let inRome = try await library.fetchAssets(with: FetchOptions(predicate: .place(country: "IT", name: "Rome")))
                for memory in try await library.fetchMemories() {
                    print(memory.title, memory.subtitle, try await library.fetchAssets(with: FetchOptions(predicate: memory.predicate)).count)
                }

                // A read-only link for anyone who has it: a week, no downloads, no place or camera details.
                let (link, token) = try await library.createSharedLink(assets: [asset], options: .init(expiresDate: Date().addingTimeInterval(7 * 86_400)))
                print("http://127.0.0.1:8123/s/\(token)", link.id, inRome.count)
                do {  // README example 4

                    // The picker in the browser: UIImagePickerController's properties, PHPicker's configuration.
                    let server = PhotoLibraryServer(library: library, configuration: .init(port: 0))
                    let serving = try await server.start()              // returns once it listens; stop() to stop
                    let picker = ImagePickerController(library: library, presenter: WebPresenter(server: server) { url in print("open", url) })
                    try picker.setMediaTypes([.image, .movie])        // throws for empty or unavailable types, as UIKit raises
                    picker.allowsEditing = true                       // square crop (≤ 1024 px), movie trim (≤ videoMaximumDuration)
                    picker.configuration = PickerConfiguration(selectionLimit: 3, selection: .ordered, preferredAssetRepresentationMode: .compatible)
                    switch try await picker.pick() {
                    case .picked(let infos):
                        for info in infos { print(info.mediaType, info.imageURL ?? info.mediaURL!, info.cropRect as Any, info.asset?.localIdentifier as Any) }
                    case .cancelled:
                        print("cancelled")
                    }

                    // The camera, with custom controls: several pictures, each to the delegate as it is taken.
                    try picker.setSourceType(.camera)
                    try picker.setShowsCameraControls(false)
                    let session = try await picker.present()
                    for _ in 0..<3 { try await picker.takePicture() }
                    await picker.dismiss()
                    print(await session.result().infos.count)          // 3
                    await server.stop()                                // gracefully: what is in progress is answered
                    try await serving.value
                    do {  // README example 5
                        do {
                            _ = try await library.fetchAssets()
                        } catch let error where error.code == .authorization {     // fetchAssets throws LibraryError
                            print("refused:", error.authorizationError?.status?.rawValue ?? "?")
                        } catch {
                            print(error.code, error.message, error.underlying.map { "\($0)" } ?? "")
                        }

                        /// One line for any error, whichever module threw it.
                        func errorLine(_ error: any Error) -> String {
                            guard let error = error as? any ShoeboxError else { return "\(error)" }
                            return "\(error.code.rawValue): \(error.message)"              // "corrupt: …", "notFound: …"
                        }
                        do {  // README example 6

                            let home = try await PhotoLibrary.open(at: URL(fileURLWithPath: "Home.shoebox"))   // the first admin's library
                            let bob = try await home.addPerson(name: "bob", displayName: "Bob", password: "correct horse battery", quota: 200 << 30)
                            let bobs = home.forPerson(bob)            // or PhotoLibrary.open(at: url, as: "bob")
                            print(try await bobs.fetchAssets().count) // 0: a library of his own
                            print(try await home.usage()[bob.id]?.byteCount ?? 0)
                            let (key, token) = try await bobs.makeKey(named: "phone backup", scope: .upload)   // token: shown once
                            print(key.prefix, token.count)
                            await home.close()
                            do {  // README example 7

                                let household = try await PhotoLibrary.open(at: URL(fileURLWithPath: "Home.shoebox"))
                                try await household.sharePartnerLibrary(with: "bob", from: nil)          // the admin's whole library
                                let bobsView = try await household.forPerson(named: "bob")
                                try await bobsView.showPartnerAssetsInTimeline(true, from: "admin")
                                var timeline = FetchOptions()
                                timeline.includePartnerAssets = true
                                print(try await bobsView.fetchAssets(with: timeline).count)              // Bob's photos and the admin's
                                print(try await bobsView.fetchPartnerAssets(from: "admin").count)        // the admin's alone
                                await household.close()
                                do {  // README example 8

                                    let home = try await PhotoLibrary.open(at: URL(fileURLWithPath: "Home.shoebox"))
                                    try await home.inviteToSharedLibrary("bob")                               // the admin starts it
                                    try await home.moveToSharedLibrary(.everything)
                                    let bob = try await home.forPerson(named: "bob")
                                    try await bob.joinSharedLibrary(moving: .nothing, movesNewAssets: true)
                                    var shared = FetchOptions()
                                    shared.library = .shared                                                  // or .personal, .both (the default)
                                    let photos = try await bob.fetchAssets(with: shared).allObjects()
                                    let who = try await bob.sharedLibraryAttributions(of: photos)             // who added each
                                    print(photos.count, who.values.compactMap { $0.addedBy?.name })
                                    try await bob.leaveSharedLibrary(keeping: .ownContributions)
                                    await home.close()
                                    do {  // README example 9
                                        let database = try PostgresURL("postgres://shoebox@127.0.0.1:5432/photos")
                                        let shared = try await PhotoLibrary.create(at: URL(fileURLWithPath: "Shared.shoebox"), configuration: .init(catalog: .postgres(database)))
                                        let forClient = shared.forClient("com.example.booth")   // the same connections and caches, another client's grants
                                        await shared.close()
                                        do {  // README example 10
                                            let bucket = try S3URL("s3://photos/main?endpoint=http://127.0.0.1:8333&region=us-east-1")
                                            try await S3Client(url: bucket, credentials: try AWSCredentials.find()).createBucket()
                                            let inBucket = try await PhotoLibrary.create(at: URL(fileURLWithPath: "Bucket.shoebox"), configuration: .init(blobs: .s3(bucket)))
                                            if let asset = try await inBucket.fetchAssets().firstObject {
                                                let url = inBucket.directURL(for: asset.resources[0])   // presigned, for a browser
                                                print(url?.absoluteString ?? "files")
                                            }
                                            let report = try await inBucket.sweep(olderThan: PhotoLibrary.sweepGrace)
                                            print(report.repaired.map(\.kind))
                                            await inBucket.close()
                                            do {  // README example 11
                                                let queued = try await PhotoLibrary.open(at: URL(fileURLWithPath: "Queued.shoebox"), backgroundWork: .queued)
                                                let worker = JobWorker(library: queued, options: .init(concurrency: 2))
                                                let working = Task { await worker.run() }
                                                for count in try await queued.jobCounts() { print(count.kind, count.state, count.count) }
                                                worker.stop()                                           // claims nothing more; running jobs finish
                                                await working.value
                                                try await queued.retryJobs()                            // failed jobs, queued again
                                                do {  // README example 12

                                                    let temporary = try await TemporaryLibrary(backgroundWork: .queued)  // SQLite and files in a temporary folder
                                                    defer { temporary.remove() }
                                                    _ = try await temporary.importFiles([try temporary.photo("a.jpg", seed: 1)])
                                                    let testWorker = JobWorker(library: temporary.library)
                                                    let statistics = EventRecorder(testWorker.statisticsUpdates)
                                                    let testRun = Task { await testWorker.run() }
                                                    let thumbnailsMade = await statistics.wait(timeout: .seconds(30)) { ($0.last?.finished ?? 0) >= 1 }
                                                    testWorker.stop()
                                                    await testRun.value
                                                    print(thumbnailsMade)

                                                    let staging = try FolderWatch(temporary.library.url.appendingPathComponent("staging"))
                                                    let nothingStaged = try await staging.wait(timeout: .seconds(10)) {   // checked at each change
                                                        (try? FileManager.default.contentsOfDirectory(atPath: staging.url.path).isEmpty) ?? false
                                                    }
                                                    print(nothingStaged)

                                                    let clock = TestClock()                                // moves only when the test moves it
                                                    let polled = JobWorker(library: temporary.library, options: .init(pollInterval: .seconds(2)), clock: clock)
                                                    let polling = Task { await polled.run() }
                                                    _ = await clock.waitForSleepers(2)                    // asleep: its poll and its heartbeat
                                                    print(clock.advance(by: .seconds(2)))                 // 1: the poll woke, and nothing else
                                                    polled.stop()
                                                    await polling.value
                                                    do {  // README example 13

                                                        CaptureDevice.isSyntheticCameraEnabled = true
                                                        let cameraClock = TestClock()
                                                        let capture = CaptureSession(clock: cameraClock)       // frames are paced and stamped on it
                                                        let recorder = MovieFileOutput()
                                                        try capture.addInput(CaptureDeviceInput(device: await CaptureDevice.default(for: .video)!))
                                                        try capture.addOutput(recorder)
                                                        try await capture.startRunning()
                                                        _ = await cameraClock.waitForSleepers()               // the camera waits for its next frame
                                                        try await recorder.startRecording(to: URL(fileURLWithPath: "/tmp/two-seconds.mp4"))
                                                        let twoSeconds = cameraClock.now.advanced(by: .seconds(2))
                                                        while await cameraClock.waitForSleepers(), let due = cameraClock.nextDeadline, due <= twoSeconds {
                                                            _ = cameraClock.advance(to: due)                  // one frame, recorded before the next sleep
                                                        }
                                                        _ = cameraClock.advance(to: twoSeconds)
                                                        print(await recorder.stopRecording()?.info?.duration ?? 0)  // 2.0: two seconds on the clock
                                                        await capture.stopRunning()
                                                        do {  // README example 14

                                                            let testServer = PhotoLibraryServer(library: temporary.library, configuration: .init(port: 0))
                                                            let answered = try await testServer.test(.router) { client in
                                                                try await client.execute(uri: "/api/assets", method: .get, headers: [.authorization: "Bearer \(testServer.userKey)"]).status
                                                            }
                                                            print(answered)                                       // 200 OK
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

if CommandLine.arguments.contains("--run-readme-examples") {
    try await readmeExamples()
}
