import Foundation
import ShoeboxImaging
import ShoeboxMedia
import Synchronization

/// A photo library on disk: `PHPhotoLibrary` (and the Assets Library) for Linux.
///
/// ```
/// NAME.shoebox/
///   catalog.sqlite     the catalog (SQLite, WAL)
///   originals/ab/…     content-addressed by SHA-256, written once
///   renders/           current versions of edited assets
///   derivatives/       thumbnails: a cache
///   staging/           imports in flight
/// ```
///
/// ```swift
/// let library = try PhotoLibrary.open(at: URL(fileURLWithPath: "Photos.shoebox"))
/// let result = try await library.performChanges {
///     _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: URL(fileURLWithPath: "IMG_0001.HEIC"))
/// }
/// let asset = try library.fetchAssets(withLocalIdentifiers: [result.created[0].localIdentifier]).firstObject
/// ```
///
/// Several processes may open the same library: the catalog is SQLite in WAL mode and writes
/// wait for each other.
public final class PhotoLibrary: Sendable {
    /// The library folder.
    public let url: URL
    /// The client using the library through this object (`nil`: Shoebox's own tools, acting for
    /// the user). Assets it creates carry it as ``Asset/creatorClient``, and it decides what it
    /// may edit in place (``Asset/canPerform(_:client:)``).
    public let clientIdentifier: String?
    let catalog: any CatalogStore
    let blobs: any BlobStore
    let derivatives: DerivativeStore
    let faults: FaultInjector
    private let backgroundDerivatives = Mutex(true)
    let accessLogBuffer = Mutex(AccessLogBuffer())
    /// What ``recover()`` settled since this object opened the library (`doctor` reports it).
    let recoveries = Mutex<[DoctorReport.Problem]>([])

    private init(url: URL, clientIdentifier: String?, catalog: any CatalogStore, blobs: any BlobStore, faults: FaultInjector) {
        self.url = url
        self.clientIdentifier = clientIdentifier
        self.catalog = catalog
        self.blobs = blobs
        self.faults = faults
        derivatives = DerivativeStore(root: url.appendingPathComponent("derivatives"))
    }

    deinit {
        flushAccessLog()
    }

    /// Whether changes make the standard derivatives of new and edited assets in the background
    /// (the 1024-pixel preview, the 256-pixel grid thumbnail, WebM movies' playback rendition),
    /// at most one per core. On by default; ``waitForBackgroundWork()`` waits for them.
    public var generatesDerivativesInBackground: Bool {
        get { backgroundDerivatives.withLock { $0 } }
        set { backgroundDerivatives.withLock { $0 = newValue } }
    }

    /// The most bytes `derivatives/` may hold before the least recently used files go (2 GiB by
    /// default). The cache is always rebuildable: nothing is lost by eviction.
    public var derivativeCacheByteLimit: Int {
        get { derivatives.byteLimit }
        set { derivatives.byteLimit = newValue }
    }

    /// Returns once the background work this object started (derivatives) is done.
    public func waitForBackgroundWork() async {
        await derivatives.waitUntilIdle()
    }

    /// Opens the library at `url`, creating it (and its layout) if it does not exist.
    ///
    /// - Parameter clientIdentifier: The client using it (see ``clientIdentifier``).
    /// - Throws: ``LibraryError/cannotOpen(path:reason:)`` when the folder cannot be made or the
    ///   catalog read; ``LibraryError/newerSchema(path:unknownMigrations:)`` when a newer Shoebox
    ///   wrote the catalog.
    public static func open(at url: URL, clientIdentifier: String? = nil) throws(LibraryError) -> PhotoLibrary {
        let root = url.standardizedFileURL
        let faults = FaultInjector()
        let blobs = FileBlobStore(root: root, faults: faults)
        do {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw LibraryError.cannotOpen(path: root.path, reason: "it is a file, not a folder")
            }
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try blobs.prepare()
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .cannotOpen(path: root.path, reason: "\(error)")
        }
        let catalog = try SQLiteCatalogStore(path: root.appendingPathComponent("catalog.sqlite").path)
        let library = PhotoLibrary(url: root, clientIdentifier: clientIdentifier, catalog: catalog, blobs: blobs, faults: faults)
        // As SQLite rolls back a hot journal: what crashed processes left is settled before use.
        _ = try library.recover()
        return library
    }

    // MARK: Fetching

    /// The assets matching `options`, in order.
    ///
    /// - Throws: ``LibraryError/authorization(_:)`` when the library's client may not read.
    public func fetchAssets(with options: FetchOptions = FetchOptions()) throws(LibraryError) -> FetchResult<Asset> {
        let ids = try catalog.assetRowIDs(matching: try scoped(options))
        logFetch(count: ids.count)
        return makeResult(ids) { [self] () throws(LibraryError) in try fetchAssets(with: options) }
    }

    /// The assets with these identifiers, in the order given (unknown ones, and for a client with
    /// limited access ones it may not see, left out).
    public func fetchAssets(withLocalIdentifiers identifiers: [String]) throws(LibraryError) -> FetchResult<Asset> {
        let scope = try readScope()
        var ids: [Int64] = []
        for identifier in identifiers {
            if let asset = try catalog.asset(localIdentifier: identifier), try isVisible(asset, in: scope) { ids.append(asset.rowID) }
        }
        logFetch(count: ids.count)
        return makeResult(ids)
    }

    func makeAssetResult(_ ids: [Int64], refetch: (@Sendable () throws(LibraryError) -> FetchResult<Asset>)? = nil) -> FetchResult<Asset> {
        makeResult(ids, refetch: refetch)
    }

    private func makeResult(_ ids: [Int64], refetch: (@Sendable () throws(LibraryError) -> FetchResult<Asset>)? = nil) -> FetchResult<Asset> {
        // The result keeps its library (as `refetch` does): every page a client loads is logged,
        // even after the caller dropped its own reference to the library.
        return FetchResult(rowIDs: ids, identity: \.rowID, refetch: refetch) { [self] rowIDs in
            let page = try catalog.assets(rowIDs: rowIDs)
            // The client sees a page's assets when it loads, not when the fetch runs: the access log
            // records them here (see `logRevealed`).
            logRevealed(rowIDs.lazy.compactMap { page[$0] })
            return page
        }
    }

    /// The original file of `asset` (never modified; do not write to it).
    public func originalURL(for asset: Asset) -> URL {
        blobs.fileURL(forHash: asset.contentHash, kind: .original)
    }

    /// The file of `asset`'s current version: its edit's render, or the original when it has
    /// no adjustments. Read only.
    public func currentURL(for asset: Asset) -> URL {
        guard let render = asset.render else { return originalURL(for: asset) }
        return blobs.fileURL(forHash: render.hash, kind: .render)
    }

    /// The file holding one of an asset's ``Asset/resources``. Read only.
    public func fileURL(for resource: AssetResource) -> URL {
        switch resource.type {
        case .photo, .video: blobs.fileURL(forHash: resource.contentHash, kind: .original)
        case .fullSizePhoto, .fullSizeVideo: blobs.fileURL(forHash: resource.contentHash, kind: .render)
        }
    }

    /// The asset a modified version was made from (ALAsset's `originalAsset`), or `nil` when
    /// `asset` is not a modified version or its original has been purged.
    public func originalAsset(of asset: Asset) throws(LibraryError) -> Asset? {
        guard let identifier = asset.originalAssetIdentifier else { return nil }
        return try catalog.asset(localIdentifier: identifier)
    }

    // MARK: Changing

    /// Runs `changes`, which makes ``AssetChangeRequest``s, then applies them all or none.
    ///
    /// New files are copied into `staging/` while hashed, probed (images with libvips, movies
    /// with ffprobe), flushed to disk, renamed into `originals/`, and only then entered in the
    /// catalog, in one transaction with every other request. Bytes already in the library are
    /// not stored again: that creation reports the existing asset as a duplicate.
    ///
    /// - Returns: What each creation request made.
    /// - Throws: ``LibraryError/authorization(_:)`` when the library's client may not make these
    ///   changes (creating needs read-write or add-only access; anything else read-write, and with
    ///   limited access only on assets the client may see);
    ///   ``LibraryError/importFailed(path:code:message:)`` when a file cannot be imported
    ///   (nothing of the change is kept); ``LibraryError/notFound(localIdentifier:)`` when a
    ///   request names an asset that is not in the library; ``LibraryError/storage(_:)``.
    @discardableResult
    public func performChanges(_ changes: () throws -> Void) async throws -> ChangeResult {
        let transaction = ChangeTransaction()
        try ChangeTransaction.$current.withValue(transaction) {
            try changes()
        }
        try authorizeChanges(transaction.recorded)
        return try await apply(transaction.recorded)
    }

    /// `UIVideoAtPathIsCompatibleWithSavedPhotosAlbum`: whether ``performChanges(_:)`` will take
    /// the movie, and if not, why.
    public static func isVideoCompatibleWithSavedPhotosAlbum(at url: URL) async -> VideoCompatibility {
        await Movie.isVideoCompatibleWithSavedPhotosAlbum(at: url)
    }
}
