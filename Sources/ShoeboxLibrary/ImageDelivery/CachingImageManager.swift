import Foundation
import ShoeboxImaging
import Synchronization

/// An ``ImageManager`` that prepares images ahead of need (`PHCachingImageManager`): a grid
/// starts caching the assets about to scroll into view and stops caching those that left, so
/// that their requests are answered from memory.
///
/// ```swift
/// let manager = CachingImageManager(library: library)
/// manager.startCachingImages(for: upcoming, targetSize: PixelSize(square: 256), contentMode: .aspectFill)
/// manager.stopCachingImages(for: gone, targetSize: PixelSize(square: 256), contentMode: .aspectFill)
/// ```
///
/// Cached images live in memory under ``cacheByteLimit`` (least recently used out first) and
/// their files in the library's derivative cache. Caching uses the same keys as
/// ``requestImage(for:targetSize:contentMode:options:)`` with the same target, content mode and
/// options, so those requests hit.
public final class CachingImageManager: ImageManager, @unchecked Sendable {
    // @unchecked: as ImageManager; the added state is in Mutexes.

    private struct CachingKey: Hashable {
        let asset: String
        let target: PixelSize
        let mode: ImageContentMode
        let crop: NormalizedRect?
        let version: ImageRequestOptions.Version
    }

    private struct Entry {
        let task: Task<Void, Never>
        var memoryKey: String?
    }

    private let caching = Mutex<[CachingKey: Entry]>([:])
    private let highQuality = Mutex(true)

    /// A manager whose memory cache holds up to `cacheByteLimit` bytes (256 MiB by default).
    public init(library: PhotoLibrary, cacheByteLimit: Int = 256 << 20) {
        super.init(library: library, memoryByteLimit: cacheByteLimit)
    }

    /// The memory cache's budget in bytes.
    public var cacheByteLimit: Int {
        get { memory.byteLimit }
        set { memory.byteLimit = newValue }
    }

    /// Whether caching renders images at the exact size asked for (the default) or settles for
    /// the cached derivative nearest to it, which is quicker and lighter
    /// (`allowsCachingHighQualityImages`).
    public var allowsCachingHighQualityImages: Bool {
        get { highQuality.withLock { $0 } }
        set { highQuality.withLock { $0 = newValue } }
    }

    /// How many (asset, size) pairs are being cached or held now.
    public var cachedImageCount: Int { caching.withLock { $0.count } }

    /// Starts preparing images of `assets` in the background, at most one render per core.
    public func startCachingImages(
        for assets: [Asset], targetSize: PixelSize, contentMode: ImageContentMode,
        options: ImageRequestOptions = ImageRequestOptions()
    ) {
        let highQuality = allowsCachingHighQualityImages
        for asset in assets {
            let key = Self.key(asset, targetSize, contentMode, options)
            let task: Task<Void, Never>? = caching.withLock { entries in
                guard entries[key] == nil else { return nil }
                let owner = renderOwner
                let task = Task { [self] in
                    await DerivativeStore.$owner.withValue(owner) { await prepare() }
                }
                @Sendable func prepare() async {
                    do {
                        let plan = try await plan(for: asset, targetSize: targetSize, contentMode: contentMode, options: options)
                        guard let memoryKey = plan.memoryKey else { return }  // full size is not held in memory
                        caching.withLock { $0[key]?.memoryKey = memoryKey }
                        if memory.value(forKey: memoryKey) != nil { return }
                        if highQuality {
                            _ = try await finalImage(plan, progress: nil)
                        } else if let nearest = store.derivatives(forSource: plan.source.hash).first(where: { $0.key == DerivativeRenderer.grid.key }) {
                            let image = try await load(nearest, memoryKey: nil)
                            memory.insert((image, nearest.pixelSize ?? image.pixelSize), cost: DerivativeStore.fileSize(nearest.url), forKey: memoryKey)
                        } else {
                            _ = try await finalImage(plan, progress: nil)
                        }
                    } catch {
                        // A failed prefetch costs nothing: the request itself reports the error.
                    }
                }
                entries[key] = Entry(task: task, memoryKey: nil)
                return task
            }
            _ = task
        }
    }

    /// Stops preparing these images and lets go of the ones prepared.
    public func stopCachingImages(
        for assets: [Asset], targetSize: PixelSize, contentMode: ImageContentMode,
        options: ImageRequestOptions = ImageRequestOptions()
    ) {
        let keys = assets.map { Self.key($0, targetSize, contentMode, options) }
        let stopped = caching.withLock { entries in keys.compactMap { entries.removeValue(forKey: $0) } }
        for entry in stopped { entry.task.cancel() }
        memory.remove(keys: stopped.compactMap(\.memoryKey))
    }

    /// Stops all caching and empties the memory cache.
    public func stopCachingImagesForAllAssets() {
        let stopped = caching.withLock { entries in
            defer { entries.removeAll() }
            return Array(entries.values)
        }
        for entry in stopped { entry.task.cancel() }
        memory.removeAll()
    }

    /// Waits until every image asked for so far is prepared (for tests and benchmarks).
    public func waitForCaching() async {
        let tasks = caching.withLock { $0.values.map(\.task) }
        for task in tasks { await task.value }
    }

    private static func key(_ asset: Asset, _ target: PixelSize, _ mode: ImageContentMode, _ options: ImageRequestOptions) -> CachingKey {
        CachingKey(
            asset: asset.localIdentifier, target: target, mode: mode,
            crop: options.resizeMode == .exact ? options.normalizedCropRect : nil, version: options.version)
    }
}
