import Foundation
import ShoeboxImaging
import ShoeboxMedia
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxLibrary

@Suite struct ImageManagerTests {
    func asset(_ fixture: TemporaryLibrary, _ url: URL) async throws -> Asset {
        let id = try await fixture.importFiles([url])[0]
        return try await #require(try fixture.library.fetchAssets(withLocalIdentifiers: [id]).firstObject)
    }

    func finalImage(
        _ manager: ImageManager, _ asset: Asset, _ target: PixelSize, _ mode: ImageContentMode = .aspectFit,
        _ options: ImageRequestOptions = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
    ) async throws -> Image {
        let result = try #require(await manager.requestImage(for: asset, targetSize: target, contentMode: mode, options: options).finalResult())
        if let error = result.error { throw error }
        return try #require(result.image)
    }

    struct SizeCase: Sendable, CustomTestStringConvertible {
        let name: String
        let stored: PixelSize
        let orientation: Int
        let fit: PixelSize
        let fill: PixelSize
        var testDescription: String { name }
    }

    static let sizeCases = [
        SizeCase(
            name: "landscape", stored: PixelSize(width: 400, height: 300), orientation: 1,
            fit: PixelSize(width: 100, height: 75), fill: PixelSize(width: 133, height: 100)),
        SizeCase(
            name: "portrait", stored: PixelSize(width: 300, height: 400), orientation: 1,
            fit: PixelSize(width: 75, height: 100), fill: PixelSize(width: 100, height: 133)),
        SizeCase(
            name: "square", stored: PixelSize(width: 300, height: 300), orientation: 1,
            fit: PixelSize(width: 100, height: 100), fill: PixelSize(width: 100, height: 100)),
        SizeCase(
            name: "orientation 6", stored: PixelSize(width: 400, height: 300), orientation: 6,
            fit: PixelSize(width: 75, height: 100), fill: PixelSize(width: 100, height: 133)),
        SizeCase(
            name: "orientation 8", stored: PixelSize(width: 400, height: 300), orientation: 8,
            fit: PixelSize(width: 75, height: 100), fill: PixelSize(width: 100, height: 133)),
    ]

    @Test("Fit, fill, exact crop, never larger, maximum size", arguments: sizeCases)
    func sizes(_ size: SizeCase) async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let url = try fixture.orientedPhoto("p.jpg", seed: 3, width: size.stored.width, height: size.stored.height, orientation: size.orientation)
        let photo = try await asset(fixture, url)
        let upright = size.orientation >= 5 ? size.stored.transposed : size.stored
        #expect(PixelSize(width: photo.pixelWidth, height: photo.pixelHeight) == upright)
        let manager = ImageManager(library: fixture.library)
        #expect(try await finalImage(manager, photo, PixelSize(square: 100), .aspectFit).pixelSize == size.fit)
        #expect(try await finalImage(manager, photo, PixelSize(square: 100), .aspectFill).pixelSize == size.fill)
        // Never larger than the original.
        #expect(try await finalImage(manager, photo, PixelSize(square: 5_000), .aspectFill).pixelSize == upright)
        #expect(try await finalImage(manager, photo, ImageManager.maximumSize).pixelSize == upright)
        // A crop of the upright image's top-left quarter, then fitted.
        var cropped = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
        cropped.normalizedCropRect = NormalizedRect(x: 0, y: 0, width: 0.5, height: 0.5)
        let quarter = PixelSize(width: upright.width / 2, height: upright.height / 2)
        #expect(try await finalImage(manager, photo, PixelSize(square: 1_000), .aspectFit, cropped).pixelSize == quarter)
        #expect(
            try await finalImage(manager, photo, PixelSize(square: 50), .aspectFit, cropped).pixelSize
                == DerivativeRenderer.outputSize(for: quarter, target: PixelSize(square: 50), mode: .aspectFit))
        // The pixels are upright: the top-left of the upright original is what the crop shows.
        let full = try Image(contentsOfFile: url.path).cropping(to: PixelRect(x: 0, y: 0, width: quarter.width, height: quarter.height))
        let viaManager = try await finalImage(manager, photo, PixelSize(square: 1_000), .aspectFit, cropped)
        #expect(try Self.meanDifference(full, viaManager) < 8)
    }

    static func meanDifference(_ a: Image, _ b: Image) throws -> Double {
        let first = try a.bitmap()
        let second = try b.bitmap()
        guard first.bytes.count == second.bytes.count else { return .infinity }
        let total = zip(first.bytes, second.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(first.bytes.count)
    }

    @Test func invalidTargetsAndCropsAreClearErrors() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let photo = try await asset(fixture, try fixture.photo("a.jpg", seed: 1))
        let manager = ImageManager(library: fixture.library)
        for target in [PixelSize(width: 0, height: 100), PixelSize(width: 100, height: -5)] {
            let result = await manager.requestImage(for: photo, targetSize: target).finalResult()
            #expect(result?.image == nil && result?.error?.code == .invalidArgument)
        }
        var options = ImageRequestOptions(resizeMode: .exact)
        options.normalizedCropRect = NormalizedRect(x: 0.8, y: 0, width: 0.5, height: 1)
        #expect(await manager.requestImage(for: photo, targetSize: PixelSize(square: 50), options: options).finalResult()?.error?.code == .invalidArgument)
        try await fixture.library.performChanges { AssetChangeRequest.deleteAssets([photo]) }
        let trashed = try await #require(try fixture.library.fetchAssets(withLocalIdentifiers: [photo.localIdentifier]).firstObject)
        try await fixture.library.performChanges { AssetChangeRequest.purgeAssets([trashed]) }
        #expect(await manager.requestImage(for: photo, targetSize: PixelSize(square: 50)).finalResult()?.error?.code == .notFound)
    }

    @Test func opportunisticDeliversDegradedThenFinal() async throws {
        let fixture = try await TemporaryLibrary(derivatives: true)
        defer { fixture.remove() }
        let photo = try await asset(fixture, try fixture.photo("big.jpg", seed: 9, width: 2_000, height: 1_500))
        await fixture.library.waitForBackgroundWork()
        let cached = fixture.library.derivatives.derivatives(forSource: photo.contentHash).map(\.key).sorted()
        #expect(cached == ["fill-256x256", "fit-1024x1024"])

        let manager = ImageManager(library: fixture.library)
        let options = ImageRequestOptions(deliveryMode: .opportunistic, resizeMode: .exact)
        var results: [ImageResult] = []
        for await result in manager.requestImage(for: photo, targetSize: PixelSize(square: 1_600), options: options) {
            results.append(result)
        }
        #expect(results.map(\.isDegraded) == [true, false])
        #expect(results.map { $0.image?.pixelSize } == [PixelSize(width: 1_024, height: 768), PixelSize(width: 1_600, height: 1_200)])
        #expect(Set(results.map(\.requestID)).count == 1)
        // Now cached: one final result.
        var again: [ImageResult] = []
        for await result in manager.requestImage(for: photo, targetSize: PixelSize(square: 1_600), options: options) { again.append(result) }
        #expect(again.map(\.isDegraded) == [false])

        // .fast resizing settles for the cached preview when it covers the request within 2×.
        let renders = fixture.library.derivatives.renderCount.load(ordering: .relaxed)
        let fast = try await finalImage(
            manager, photo, PixelSize(square: 800), .aspectFit, ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .fast))
        #expect(fast.pixelSize == PixelSize(width: 1_024, height: 768))
        // .fastFormat gives the nearest cached derivative, marked degraded when smaller.
        let quick = try #require(
            await manager.requestImage(
                for: photo, targetSize: PixelSize(square: 300), contentMode: .aspectFill,
                options: ImageRequestOptions(deliveryMode: .fastFormat)
            ).finalResult())
        #expect(quick.image?.pixelSize == PixelSize(width: 341, height: 256) && quick.isDegraded)
        #expect(fixture.library.derivatives.renderCount.load(ordering: .relaxed) == renders, "nothing new rendered")
    }

    @Test func cacheHitsAfterTheFirstRequestAcrossManagers() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let photo = try await asset(fixture, try fixture.photo("a.jpg", seed: 4, width: 800, height: 600))
        let store = fixture.library.derivatives
        let first = ImageManager(library: fixture.library)
        var progress: [Double] = []
        let recorded = EventRecorder<Double>()
        let options = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact, progressHandler: { recorded.append($0) })
        _ = try await finalImage(first, photo, PixelSize(square: 300), .aspectFill, options)
        progress = recorded.elements
        #expect(progress == [0, 1])
        #expect(store.renderCount.load(ordering: .relaxed) == 1)
        _ = try await finalImage(first, photo, PixelSize(square: 300), .aspectFill, options)  // memory
        // A new manager (as after a restart) reads the file: still one render.
        let reopened = try await PhotoLibrary.open(at: fixture.library.url)
        let second = ImageManager(library: reopened)
        let fromDisk = try await finalImage(second, photo, PixelSize(square: 300), .aspectFill, options)
        #expect(fromDisk.pixelSize == PixelSize(width: 400, height: 300))
        #expect(store.renderCount.load(ordering: .relaxed) == 1)
        #expect(reopened.derivatives.renderCount.load(ordering: .relaxed) == 0, "read from disk, not rendered")
        #expect(recorded.elements == [0, 1], "no progress for cached results")
        // Deleting the cache loses nothing: it is made again (or, with blobs in object storage,
        // fetched from the bucket, where it was uploaded after it was made).
        await store.waitUntilIdle()
        try FileManager.default.removeItem(at: fixture.library.url.appendingPathComponent("derivatives"))
        let third = ImageManager(library: fixture.library)
        #expect(try await finalImage(third, photo, PixelSize(square: 300), .aspectFill, options).pixelSize == PixelSize(width: 400, height: 300))
        #expect(store.renderCount.load(ordering: .relaxed) == (fixture.isS3 ? 1 : 2))
    }

    @Test func manyConcurrentRequestsForOneAssetRenderOnce() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let photo = try await asset(fixture, try fixture.photo("a.jpg", seed: 5, width: 3_000, height: 2_000))
        let managers = (0..<4).map { _ in ImageManager(library: fixture.library) }
        let sizes = await withTaskGroup(of: PixelSize?.self) { group in
            for index in 0..<60 {
                group.addTask {
                    let manager = managers[index % managers.count]
                    let options = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
                    return await manager.requestImage(for: photo, targetSize: PixelSize(square: 512), options: options).finalResult()?.image?.pixelSize
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sizes.count == 60 && sizes.allSatisfy { $0 == PixelSize(width: 512, height: 341) })
        #expect(fixture.library.derivatives.renderCount.load(ordering: .relaxed) == 1)
    }

    @Test func cancellationStopsWork() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let photo = try await asset(fixture, try fixture.photo("a.jpg", seed: 6, width: 3_000, height: 2_000))
        let manager = ImageManager(library: fixture.library)
        let options = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
        // 30 different sizes: 30 renders if nothing stops them.
        let requests = (0..<30).map { manager.requestImage(for: photo, targetSize: PixelSize(square: 200 + $0 * 10), options: options) }
        requests.forEach { manager.cancelImageRequest($0.id) }
        var cancelled = 0
        for request in requests {
            if let result = await request.finalResult(), result.isCancelled { cancelled += 1 }
        }
        await fixture.library.waitForBackgroundWork()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let rendered = fixture.library.derivatives.renderCount.load(ordering: .relaxed)
        #expect(rendered <= cores, "\(rendered) renders ran for cancelled requests; at most the \(cores) already started may finish")
        #expect(cancelled >= 30 - cores)

        // Cancelling the iterating tasks works the same way: 30 more sizes, at most a core's
        // worth of renders, and every request ends without an image or as cancelled.
        let before = fixture.library.derivatives.renderCount.load(ordering: .relaxed)
        let tasks = (0..<30).map { index in
            Task { await manager.requestImage(for: photo, targetSize: PixelSize(square: 600 + index * 10), options: options).finalResult() }
        }
        tasks.forEach { $0.cancel() }
        var delivered = 0
        for task in tasks where await task.value?.image != nil { delivered += 1 }
        await fixture.library.waitForBackgroundWork()
        let renderedAfterCancel = fixture.library.derivatives.renderCount.load(ordering: .relaxed) - before
        #expect(renderedAfterCancel <= cores, "\(renderedAfterCancel) renders ran for cancelled tasks")
        #expect(delivered <= cores, "\(delivered) cancelled tasks still got an image")
    }

    @Test func editsAndRevertsGetFreshDerivatives() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let photo = try await asset(fixture, try fixture.photo("a.jpg", seed: 7, width: 400, height: 300))
        let manager = ImageManager(library: fixture.library)
        #expect(try await finalImage(manager, photo, PixelSize(square: 100)).pixelSize == PixelSize(width: 100, height: 75))
        let edited = try await fixture.library.applyAdjustments(Adjustments(rotation: 90), to: photo)
        // The stale `photo` value still gets the current version.
        #expect(try await finalImage(manager, photo, PixelSize(square: 100)).pixelSize == PixelSize(width: 75, height: 100))
        var original = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
        original.version = .original
        #expect(try await finalImage(manager, photo, PixelSize(square: 100), .aspectFit, original).pixelSize == PixelSize(width: 100, height: 75))
        let renderHash = try #require(edited.resources.last?.contentHash)
        #expect(!fixture.library.derivatives.derivatives(forSource: renderHash).isEmpty)
        _ = try await fixture.library.revertAssetContentToOriginal(edited)
        #expect(fixture.library.derivatives.derivatives(forSource: renderHash).isEmpty, "the render's derivatives went with it")
        #expect(try await finalImage(manager, photo, PixelSize(square: 100)).pixelSize == PixelSize(width: 100, height: 75))
    }

    @Test func evictionKeepsTheCacheUnderItsCap() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let photo = try await asset(fixture, try fixture.photo("a.jpg", seed: 8, width: 1_200, height: 900))
        fixture.library.derivativeCacheByteLimit = 60_000
        let manager = ImageManager(library: fixture.library, memoryByteLimit: 0)
        for side in stride(from: 100, through: 600, by: 50) {
            _ = try await finalImage(manager, photo, PixelSize(square: side))
        }
        let usage = fixture.library.derivatives.diskUsage()
        #expect(usage <= 60_000 && usage > 0)
        // The most recent stays; the oldest went.
        let keys = Set(fixture.library.derivatives.derivatives(forSource: photo.contentHash).map(\.key))
        #expect(keys.contains("fit-600x600") && !keys.contains("fit-100x100"))
    }

    @Test func moviesGetPosterFramesAndPlayableURLs() async throws {
        let fixture = try await TemporaryLibrary(derivatives: true)
        defer { fixture.remove() }
        let mp4 = try await asset(
            fixture, try SyntheticMovie(duration: 2, width: 320, height: 240).write(to: fixture.folder.appendingPathComponent("clip.mp4")))
        let webm = try await asset(
            fixture, try SyntheticMovie(duration: 1, width: 160, height: 120).write(to: fixture.folder.appendingPathComponent("web.webm")))
        await fixture.library.waitForBackgroundWork()
        let manager = ImageManager(library: fixture.library)
        #expect(try await finalImage(manager, mp4, PixelSize(square: 100)).pixelSize == PixelSize(width: 100, height: 75))
        #expect(try await finalImage(manager, mp4, ImageManager.maximumSize).pixelSize == PixelSize(width: 320, height: 240))
        #expect(try await manager.requestVideoURL(for: mp4) == fixture.library.originalURL(for: mp4))
        // The WebM recording got an H.264 MP4 rendition on import.
        let keys = Set(fixture.library.derivatives.derivatives(forSource: webm.contentHash).map(\.key))
        #expect(keys.isSuperset(of: ["poster", "playback", "fit-1024x1024", "fill-256x256"]))
        let playback = try await manager.requestVideoURL(for: webm)
        #expect(playback.lastPathComponent == "playback=h264.mp4")
        let info = try await MovieInfo(contentsOf: playback)
        #expect(info.container == "mp4" && info.videoCodec == "h264" && abs(info.duration - 1) < 0.1)
        await #expect(throws: LibraryError.self) {
            try await manager.requestVideoURL(for: try await asset(fixture, try fixture.photo("p.jpg", seed: 1)))
        }
    }

    @Test func imageDataSynchronousRequestsAndCaching() async throws {
        let fixture = try await TemporaryLibrary()
        defer { fixture.remove() }
        let url = try fixture.orientedPhoto("r.jpg", seed: 2, width: 400, height: 300, orientation: 6)
        let photo = try await asset(fixture, url)
        let caching = CachingImageManager(library: fixture.library)
        let data = try await caching.requestImageDataAndOrientation(for: photo)
        #expect(data.data == (try Data(contentsOf: url)) && data.uniformTypeIdentifier == "public.jpeg" && data.orientation == .right)

        // The blocking form, from a thread outside the concurrency pool.
        let delivered = EventRecorder<Double>()
        let thread = Thread {
            caching.requestImage(for: photo, targetSize: PixelSize(square: 64), options: ImageRequestOptions(isSynchronous: true)) { result in
                delivered.append(Double(result.image?.pixelWidth ?? -1))
            }
            delivered.append(-100)  // after the handler, since the call blocked
        }
        thread.start()
        #expect(await delivered.first(2) == [48, -100])

        // Caching ahead: the requests that follow render nothing new.
        let others = [
            try await asset(fixture, try fixture.photo("b.jpg", seed: 21, width: 600, height: 400)),
            try await asset(fixture, try fixture.photo("c.jpg", seed: 22, width: 600, height: 400)),
        ]
        let options = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
        caching.startCachingImages(for: others, targetSize: PixelSize(square: 150), contentMode: .aspectFill, options: options)
        await caching.waitForCaching()
        #expect(caching.cachedImageCount == 2 && caching.memory.totalCost > 0)
        let before = fixture.library.derivatives.renderCount.load(ordering: .relaxed)
        for other in others {
            #expect(try await finalImage(caching, other, PixelSize(square: 150), .aspectFill, options).pixelSize == PixelSize(width: 225, height: 150))
        }
        #expect(fixture.library.derivatives.renderCount.load(ordering: .relaxed) == before)
        caching.stopCachingImages(for: [others[0]], targetSize: PixelSize(square: 150), contentMode: .aspectFill, options: options)
        #expect(caching.cachedImageCount == 1)
        caching.stopCachingImagesForAllAssets()
        #expect(caching.cachedImageCount == 0 && caching.memory.totalCost == 0)
    }
}
