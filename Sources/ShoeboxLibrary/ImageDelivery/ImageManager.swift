import Foundation
import ShoeboxImaging
import Synchronization

/// Pixels of assets, at the size they are needed: `PHImageManager` for Shoebox. The one path by
/// which the picker, the web grid, the CLI and Swift clients get images of assets.
///
/// ```swift
/// let manager = ImageManager(library: library)
/// for await result in manager.requestImage(for: asset, targetSize: PixelSize(square: 512), contentMode: .aspectFill) {
///     if let image = result.image { show(image, final: !result.isDegraded) }
/// }
/// ```
///
/// Sizes are in pixels and follow ``ShoeboxImaging/ImageContentMode``: `.aspectFit` fits inside
/// the target; `.aspectFill` covers it, the target being a minimum on both sides (a 4000×3000
/// photo at 256×256 gives 341×256). A result is never larger than the original; a target of zero
/// or less on a side is an ``LibraryError/Code/invalidArgument`` result; ``maximumSize`` asks for
/// the full size. Movies give their poster frame (10 % in, or the first frame).
///
/// Results come from, in order: this manager's memory cache, the library's derivative cache
/// (`derivatives/`, shared by every process and kept across restarts), or a render from the
/// version's file, done once however many requests ask for it at the same time, at most one
/// per core.
public class ImageManager: @unchecked Sendable {
    // @unchecked: every stored property is a constant of a Sendable type or a Mutex; the class is
    // open to subclassing only for CachingImageManager.

    /// "The original's size", as a target (`PHImageManagerMaximumSize`).
    public static let maximumSize = PixelSize(width: -1, height: -1)

    /// The library whose assets it delivers.
    public let library: PhotoLibrary
    /// Images in memory with the pixel size they stand for.
    let memory: LeastRecentlyUsedCache<(image: Image, pixelSize: PixelSize)>
    private let requests = Mutex<[ImageRequestID: Task<Void, Never>]>([:])
    private let playable = Mutex<[String: Bool]>([:])
    private static let nextRequestID = Atomic<Int32>(0)

    /// A manager with a memory cache of `memoryByteLimit` bytes (32 MiB by default).
    public init(library: PhotoLibrary, memoryByteLimit: Int = 32 << 20) {
        self.library = library
        memory = LeastRecentlyUsedCache(byteLimit: memoryByteLimit)
    }

    var store: DerivativeStore { library.derivatives }

    // MARK: Requesting images

    /// Requests an image of `asset`: an `AsyncSequence` of results (for `.opportunistic` delivery
    /// possibly a degraded one first, then the final one). Errors come as a result with
    /// ``ImageResult/error`` set.
    ///
    /// Cancel with ``cancelImageRequest(_:)`` (the request's ``ImageRequest/id``), by cancelling
    /// the task that iterates, or by stopping the iteration: work not yet started is dropped, and
    /// a render in flight stops unless another request is waiting for the same derivative.
    public func requestImage(
        for asset: Asset, targetSize: PixelSize, contentMode: ImageContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions()
    ) -> ImageRequest {
        let id = Self.nextRequestID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<ImageResult>.makeStream()
        let owner = renderOwner
        let task = Task { [self] in
            await DerivativeStore.$owner.withValue(owner) {
                await deliver(asset, targetSize: targetSize, contentMode: contentMode, options: options, requestID: id) { result in
                    continuation.yield(result)
                }
            }
            continuation.finish()
            _ = requests.withLock { $0.removeValue(forKey: id) }
        }
        requests.withLock { $0[id] = task }
        continuation.onTermination = { _ in task.cancel() }
        return ImageRequest(id: id, stream: stream)
    }

    /// The `PHImageManager` form: `resultHandler` is called once per result (from a background
    /// task), or, with ``ImageRequestOptions/isSynchronous``, once with the final result before
    /// this returns. Blocking is for callers outside async code: never set `isSynchronous` in an
    /// async context.
    @discardableResult
    public func requestImage(
        for asset: Asset, targetSize: PixelSize, contentMode: ImageContentMode = .aspectFit,
        options: ImageRequestOptions = ImageRequestOptions(),
        resultHandler: @escaping @Sendable (ImageResult) -> Void
    ) -> ImageRequestID {
        var options = options
        if options.isSynchronous, options.deliveryMode == .opportunistic {
            options.deliveryMode = .highQualityFormat  // one result, as PHImageManager does
        }
        let request = requestImage(for: asset, targetSize: targetSize, contentMode: contentMode, options: options)
        let done = DispatchSemaphore(value: 0)
        Task {
            for await result in request { resultHandler(result) }
            done.signal()
        }
        if options.isSynchronous { done.wait() }
        return request.id
    }

    /// Cancels a request: its iteration ends with a ``LibraryError/Code/cancelled`` result.
    public func cancelImageRequest(_ requestID: ImageRequestID) {
        let task = requests.withLock { $0.removeValue(forKey: requestID) }
        task?.cancel()
    }

    /// The encoded bytes of the version asked for (no resizing), with their type and the
    /// orientation they need (`requestImageDataAndOrientation(for:options:resultHandler:)`).
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` for a movie; ``LibraryError/Code/notFound``.
    public func requestImageDataAndOrientation(
        for asset: Asset, options: ImageRequestOptions = ImageRequestOptions()
    ) async throws(LibraryError) -> ImageData {
        let current = try await resolve(asset, action: "imageData")
        guard current.mediaType == .image else {
            throw .invalidArgument("\(asset.localIdentifier) is a movie; use requestVideoURL(for:)")
        }
        let source = try await library.versionSource(of: current, original: options.version != .current)
        let url = try await source.file()
        let read = try? await BlockingPool.shared.run { () -> (Data, ImageOrientation) in
            let data = try Data(contentsOf: url)
            return (data, (try? Image(data: data).orientation) ?? .up)
        }
        guard let (data, orientation) = read else {
            throw .storage("cannot read \(url.path)")
        }
        return ImageData(data: data, uniformTypeIdentifier: source.uniformTypeIdentifier, orientation: orientation)
    }

    // MARK: Movies

    /// A file that plays `asset`'s movie in a browser: the version's own file when it is H.264 in
    /// MP4 or MOV with AAC or no audio, else an MP4 playback rendition (made once, then cached
    /// with the derivatives; browser recordings in WebM get theirs on import). For a Live Photo,
    /// its paired video (an iPhone's HEVC gets a rendition).
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` for a photo that is no Live Photo; ``LibraryError/Code/renderFailed``
    ///   when ffmpeg cannot make the rendition.
    public func requestVideoURL(for asset: Asset, version: ImageRequestOptions.Version = .current) async throws(LibraryError) -> URL {
        do {
            return try await DerivativeStore.$owner.withValue(renderOwner) { try await videoURL(for: asset, version: version) }
        } catch {
            throw Self.libraryError(error)
        }
    }

    /// Whose turn this manager's renders wait for: its library's client, or the user.
    var renderOwner: String { library.clientIdentifier ?? "user" }

    private func videoURL(for asset: Asset, version: ImageRequestOptions.Version) async throws(LibraryError) -> URL {
        let source = try await videoSource(of: asset, version: version)
        do {
            if try await playsInBrowsers(source) { return try await source.file() }
            return try await DerivativeRenderer.playbackRendition(of: source, in: store).url
        } catch {
            throw Self.libraryError(error)
        }
    }

    /// The movie version a request plays: a Live Photo's is its paired video, which is never
    /// edited.
    func videoSource(of asset: Asset, version: ImageRequestOptions.Version) async throws(LibraryError) -> VersionSource {
        let current = try await resolve(asset, action: "video")
        if let motion = library.motionSource(of: current) { return motion }
        guard current.mediaType == .video else {
            throw .invalidArgument("\(asset.localIdentifier) is a photo, not a movie (nor a Live Photo)")
        }
        return try await library.versionSource(of: current, original: version != .current)
    }

    /// Whether browsers play a movie version as it is: known in memory, or from the version's
    /// `plays` marker among its derivatives (shared through object storage, so no server
    /// downloads a movie to learn it twice), or probed now.
    func playsInBrowsers(_ source: VersionSource) async throws -> Bool {
        if let known = playable.withLock({ $0[source.hash] }) { return known }
        let plays = try await DerivativeRenderer.playability(of: source, in: store)
        playable.withLock { $0[source.hash] = plays }
        return plays
    }

    // MARK: The pipeline

    /// The asset's current row, if the library's client may read it; the read is logged.
    func resolve(_ asset: Asset, action: String = "image") async throws(LibraryError) -> Asset {
        try await library.authorizedAsset(asset.localIdentifier, action: action)
    }

    /// What a request will read and make.
    struct Plan: Sendable {
        let source: VersionSource
        /// `nil`: the full-size version.
        let spec: DerivativeRenderer.Spec?
        /// The size the final result will have.
        let needed: PixelSize
        var memoryKey: String? { spec.map { source.hash + "/" + $0.key } }
    }

    func plan(for asset: Asset, targetSize: PixelSize, contentMode: ImageContentMode, options: ImageRequestOptions) async throws(LibraryError) -> Plan {
        let wantsMaximum = targetSize == Self.maximumSize
        guard wantsMaximum || targetSize.isPositive else {
            throw .invalidArgument("target size \(targetSize) must be positive on both sides (or ImageManager.maximumSize)")
        }
        let current = try await resolve(asset)
        let source = try await library.versionSource(of: current, original: options.version != .current)
        var crop: NormalizedRect?
        var base = source.pixelSize
        if options.resizeMode == .exact, let rect = options.normalizedCropRect, rect != .unit {
            do {
                base = try rect.pixelRect(in: source.pixelSize).size
            } catch {
                throw .invalidArgument("normalizedCropRect: \(error.message)")
            }
            crop = rect
        }
        if options.resizeMode == .none || wantsMaximum {
            return Plan(source: source, spec: crop.map { DerivativeRenderer.Spec(mode: .aspectFit, target: base, crop: $0) }, needed: base)
        }
        let spec = DerivativeRenderer.Spec(mode: contentMode, target: targetSize, crop: crop)
        return Plan(source: source, spec: spec, needed: DerivativeRenderer.outputSize(for: base, target: targetSize, mode: contentMode))
    }

    func deliver(
        _ asset: Asset, targetSize: PixelSize, contentMode: ImageContentMode, options: ImageRequestOptions,
        requestID: ImageRequestID, yield: (ImageResult) -> Void
    ) async {
        do {
            let plan = try await plan(for: asset, targetSize: targetSize, contentMode: contentMode, options: options)
            if let key = plan.memoryKey, let hit = memory.value(forKey: key) {
                yield(ImageResult(image: hit.image, isDegraded: false, requestID: requestID, error: nil))
                return
            }
            if options.deliveryMode == .fastFormat {
                let (image, size) = try await fastestImage(plan)
                yield(ImageResult(image: image, isDegraded: !Self.covers(size, plan.needed), requestID: requestID, error: nil))
                return
            }
            if options.resizeMode == .fast, let covering = coveringDerivative(plan) {
                yield(ImageResult(image: try await load(covering, memoryKey: plan.memoryKey), isDegraded: false, requestID: requestID, error: nil))
                return
            }
            if options.deliveryMode == .opportunistic, let spec = plan.spec, store.cached(spec.key, source: plan.source.hash) == nil,
                let smaller = smallerDerivative(plan)
            {
                yield(ImageResult(image: try await load(smaller, memoryKey: nil), isDegraded: true, requestID: requestID, error: nil))
            }
            let image = try await finalImage(plan, progress: options.progressHandler)
            try Task.checkCancellation()
            yield(ImageResult(image: image, isDegraded: false, requestID: requestID, error: nil))
        } catch {
            yield(ImageResult(image: nil, isDegraded: false, requestID: requestID, error: Self.libraryError(error)))
        }
    }

    /// The final image of a plan: cached, or rendered now (and cached).
    func finalImage(_ plan: Plan, progress: (@Sendable (Double) -> Void)?) async throws -> Image {
        guard let spec = plan.spec else {
            // Full size, uncropped: the version itself (photos decode lazily from the file).
            switch plan.source.mediaType {
            case .image:
                let path = try await plan.source.file().path
                return try await BlockingPool.shared.run { try Image(contentsOfFile: path) }
            case .video: return try await load(try await DerivativeRenderer.poster(of: plan.source, in: store), memoryKey: nil)
            }
        }
        let file = try await DerivativeRenderer.derivative(spec, of: plan.source, in: store, progress: progress)
        return try await load(file, memoryKey: plan.memoryKey)
    }

    /// `.fastFormat`: the nearest cached derivative, else the grid thumbnail made now.
    private func fastestImage(_ plan: Plan) async throws -> (Image, PixelSize) {
        let cached = store.sizedDerivatives(forSource: plan.source.hash)
        let nearest = cached.min { abs(Self.area($0.size) - Self.area(plan.needed)) < abs(Self.area($1.size) - Self.area(plan.needed)) }?.file
        let file: CachedDerivative
        if let nearest {
            file = nearest
        } else {
            file = try await DerivativeRenderer.derivative(DerivativeRenderer.grid, of: plan.source, in: store)
        }
        DerivativeStore.touch(file.url)
        return (try await load(file, memoryKey: nil), file.pixelSize ?? plan.needed)
    }

    /// `.fast` resizing: a cached derivative covering the needed size, at most twice as big.
    func coveringDerivative(_ plan: Plan) -> CachedDerivative? {
        guard let spec = plan.spec, spec.crop == nil else { return nil }
        if let exact = store.cached(spec.key, source: plan.source.hash) { return exact }
        let best = store.sizedDerivatives(forSource: plan.source.hash)
            .filter { Self.covers($0.size, plan.needed) && $0.size.width <= plan.needed.width * 2 && $0.size.height <= plan.needed.height * 2 }
            .min { Self.area($0.size) < Self.area($1.size) }?.file
        guard let best else { return nil }
        DerivativeStore.touch(best.url)
        return best
    }

    /// `.opportunistic`: the largest cached derivative smaller than needed.
    private func smallerDerivative(_ plan: Plan) -> CachedDerivative? {
        store.sizedDerivatives(forSource: plan.source.hash)
            .filter { !Self.covers($0.size, plan.needed) }
            .max { Self.area($0.size) < Self.area($1.size) }?.file
    }

    /// Reads a derivative into memory (so eviction cannot pull it from under the caller), on
    /// the blocking pool.
    func load(_ file: CachedDerivative, memoryKey: String?) async throws -> Image {
        let url = file.url
        let (data, image) = try await BlockingPool.shared.run { () -> (Data, Image) in
            let data = try Data(contentsOf: url)
            return (data, try Image(data: data))
        }
        if let memoryKey {
            memory.insert((image, file.pixelSize ?? image.pixelSize), cost: data.count, forKey: memoryKey)
        }
        return image
    }

    /// Whether `size` is at least `needed` (one pixel of rounding allowed).
    static func covers(_ size: PixelSize, _ needed: PixelSize) -> Bool {
        size.width + 1 >= needed.width && size.height + 1 >= needed.height
    }

    static func area(_ size: PixelSize) -> Int { size.width * size.height }

    static func libraryError(_ error: any Error) -> LibraryError {
        switch error {
        case let error as LibraryError: error
        case is CancellationError: .cancelled
        case let error as ImageError: .renderFailed(error.message)
        default: Task.isCancelled ? .cancelled : .renderFailed("\(error)", underlying: error)
        }
    }
}
