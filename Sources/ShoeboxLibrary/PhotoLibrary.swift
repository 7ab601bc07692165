import Foundation
import ShoeboxImaging
import ShoeboxMedia
import Synchronization

/// A photo library: `PHPhotoLibrary` (and the Assets Library) for Linux.
///
/// ```
/// NAME.shoebox/
///   library.json       where the catalog and the bytes are, when not the embedded default
///   catalog.sqlite     the catalog (SQLite, WAL) — or a PostgreSQL database
///   originals/ab/…     content-addressed by SHA-256, written once
///   renders/           current versions of edited assets
///   derivatives/       thumbnails: a cache
///   staging/           imports in flight
/// ```
///
/// ```swift
/// let library = try await PhotoLibrary.open(at: URL(fileURLWithPath: "Photos.shoebox"))
/// let result = try await library.performChanges {
///     _ = AssetChangeRequest.creationRequestForAsset(fromImageAt: URL(fileURLWithPath: "IMG_0001.HEIC"))
/// }
/// let asset = try await library.fetchAssets(withLocalIdentifiers: [result.created[0].localIdentifier]).firstObject
/// ```
///
/// Several processes, and with a PostgreSQL catalog several machines, may open the same library:
/// every commit is a transaction in the catalog, and writes never wait on this process's locks
/// alone. Nothing here blocks a cooperative or event-loop thread: the catalog is asynchronous,
/// and decoding, encoding and file copies run on a thread pool.
public final class PhotoLibrary: Sendable {
    /// The library folder.
    public let url: URL
    /// The client using the library through this object (`nil`: Shoebox's own tools, acting for
    /// the user). Assets it creates carry it as ``Asset/creatorClient``, and it decides what it
    /// may edit in place (``Asset/canPerform(_:client:)``).
    public let clientIdentifier: String?
    /// Who asks the user when this library's client saves (``saveImage(_:metadata:format:filename:)``,
    /// ``saveVideo(at:)``) while its add-only access is `notDetermined`, as iOS asks on
    /// `UIImageWriteToSavedPhotosAlbum` (`nil`: nobody can be asked, and such a save fails with
    /// ``AuthorizationError/Code/cannotPrompt``). Set with ``forClient(_:prompter:)``.
    public let prompter: (any AuthorizationPrompter)?
    /// Where the catalog and bytes are.
    public let configuration: Configuration
    package let catalog: any CatalogStore
    package let blobs: any BlobStore
    let staging: Staging
    let derivatives: DerivativeStore
    let faults: FaultInjector
    let accessLogBuffer = Mutex(AccessLogBuffer())
    /// One access-log flush at a time: a flush waits for the one writing, so that when it returns
    /// every entry logged before it is in the catalog (the privacy report reads right after).
    let accessLogFlushes = AsyncGate()
    /// What ``recover()`` settled since this object opened the library (`doctor` reports it).
    let recoveries = Mutex<[DoctorReport.Problem]>([])

    private init(
        url: URL, clientIdentifier: String?, prompter: (any AuthorizationPrompter)? = nil, configuration: Configuration,
        catalog: any CatalogStore, blobs: any BlobStore, derivatives: DerivativeStore, faults: FaultInjector
    ) {
        self.url = url
        self.clientIdentifier = clientIdentifier
        self.prompter = prompter
        self.configuration = configuration
        self.catalog = catalog
        self.blobs = blobs
        self.staging = Staging(folder: url.appendingPathComponent("staging"), faults: faults)
        self.derivatives = derivatives
        self.faults = faults
    }

    deinit {
        let entries = accessLogBuffer.withLock { buffer in
            defer { buffer.entries.removeAll() }
            return buffer.entries
        }
        if !entries.isEmpty {
            let catalog = self.catalog
            Task { try? await catalog.logAccess(entries) }
        }
    }

    /// How this object does the work its changes call for after they commit
    /// (``Configuration/backgroundWork``, chosen when the library is opened).
    public var backgroundWork: BackgroundWork { configuration.backgroundWork }

    /// Whether changes make the standard derivatives of new and edited assets after they commit,
    /// in this process or through the queue.
    var generatesDerivativesInBackground: Bool { backgroundWork != .onDemand }

    /// Whether changes queue their background work as jobs in the catalog.
    var queuesBackgroundWork: Bool { backgroundWork == .queued }

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

    /// Opens the library at `url`, creating it (and its layout) if it does not exist, with the
    /// catalog and blob store its `library.json` names (the embedded default when it has none).
    ///
    /// Opening settles what crashed processes left (see ``DoctorReport``), as SQLite rolls back
    /// a hot journal.
    ///
    /// - Parameter clientIdentifier: The client using it (see ``clientIdentifier``).
    /// - Throws: ``LibraryError/Code/cannotOpen`` when the folder cannot be made or the
    ///   catalog reached; ``LibraryError/Code/newerSchema`` when a newer
    ///   Shoebox wrote the catalog.
    /// - Parameter backgroundWork: How changes made through it do their work after they commit
    ///   (``Configuration/backgroundWork``): in this process by default.
    public static func open(
        at url: URL, clientIdentifier: String? = nil, backgroundWork: BackgroundWork = .inProcess
    ) async throws(LibraryError) -> PhotoLibrary {
        let root = url.standardizedFileURL
        var configuration = try Configuration.load(fromLibraryAt: root)
        configuration.backgroundWork = backgroundWork
        return try await open(at: root, configuration: configuration, clientIdentifier: clientIdentifier)
    }

    /// Opens the library folder at `url` with an explicit configuration (creating the folder if
    /// needed, but not writing `library.json`: ``create(at:configuration:)`` does).
    public static func open(at url: URL, configuration: Configuration, clientIdentifier: String? = nil) async throws(LibraryError) -> PhotoLibrary {
        let root = url.standardizedFileURL
        let faults = FaultInjector()
        try prepareFolder(root, files: configuration.blobs == .files ? FileBlobStore(root: root) : nil)
        let blobs = try await openBlobs(configuration.blobs, root: root, faults: faults)
        let catalog = try await openCatalog(configuration.catalog, root: root, places: configuration.places)
        let library = PhotoLibrary(
            url: root, clientIdentifier: clientIdentifier, configuration: configuration, catalog: catalog, blobs: blobs,
            derivatives: DerivativeStore(
                root: root.appendingPathComponent("derivatives"),
                mirror: blobs.directAccess?.derivativeMirror()),
            faults: faults)
        // As SQLite rolls back a hot journal: what crashed processes left is settled before use.
        try await library.recover()
        await library.recordPlaceTableOfNewLibrary()
        return library
    }

    /// Makes a new library at `url` with `configuration`, written to its `library.json`, and
    /// opens it. A PostgreSQL catalog's tables are created (in an empty database) on the way.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` when `url` already holds a library.
    public static func create(at url: URL, configuration: Configuration) async throws(LibraryError) -> PhotoLibrary {
        let root = url.standardizedFileURL
        let existing = ["catalog.sqlite", Configuration.fileName].filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
        guard existing.isEmpty else {
            throw .invalidArgument("\(root.path) already holds a library (\(existing.joined(separator: ", ")))")
        }
        let existed = FileManager.default.fileExists(atPath: root.path)
        do throws(LibraryError) {
            // Opened first (the bucket checked, the catalog made), written only once that worked:
            // a refused bucket or database leaves no library behind.
            let library = try await open(at: root, configuration: configuration)
            do {
                try configuration.write(toLibraryAt: root)
            } catch {
                await library.close()
                throw error
            }
            return library
        } catch {
            if !existed { try? FileManager.default.removeItem(at: root) }
            throw error
        }
    }

    /// The same library for another client (or for the user, with `nil`), sharing this object's
    /// catalog connections and caches.
    ///
    /// - Parameter prompter: Who asks the user when the client saves while undecided (see
    ///   ``prompter``); `nil` keeps this object's.
    public func forClient(_ clientIdentifier: String?, prompter: (any AuthorizationPrompter)? = nil) -> PhotoLibrary {
        guard clientIdentifier != self.clientIdentifier || prompter != nil else { return self }
        let library = PhotoLibrary(
            url: url, clientIdentifier: clientIdentifier, prompter: prompter ?? self.prompter, configuration: configuration,
            catalog: catalog, blobs: blobs, derivatives: derivatives, faults: faults)
        return library
    }

    /// The same library acting for another person, or (`nil`) for everyone: the library's own
    /// upkeep (jobs, the doctor) sees every person's assets. Shares this object's connections.
    package func scoped(to owner: Int64?) -> PhotoLibrary {
        guard owner != catalog.owner else { return self }
        return PhotoLibrary(
            url: url, clientIdentifier: clientIdentifier, prompter: prompter, configuration: configuration,
            catalog: catalog.scoped(to: owner), blobs: blobs, derivatives: derivatives, faults: faults)
    }

    /// Writes buffered access-log entries and closes the catalog's connections. The library
    /// (and every object from ``forClient(_:)``) is not used afterwards.
    public func close() async {
        await flushAccessLog()
        await catalog.close()
    }

    private static func prepareFolder(_ root: URL, files: FileBlobStore?) throws(LibraryError) {
        do {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw LibraryError.cannotOpen(path: root.path, reason: "it is a file, not a folder")
            }
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // A library made by an older version (or copied with open modes) becomes private too:
            // everything in it is the user's photos.
            if let mode = try FileManager.default.attributesOfItem(atPath: root.path)[.posixPermissions] as? Int, mode & 0o077 != 0 {
                try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: root.path)
            }
            for folder in ["staging", "derivatives"] {
                try FileManager.default.createDirectory(
                    at: root.appendingPathComponent(folder), withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            }
            try files?.prepare()
        } catch let error as LibraryError {
            throw error
        } catch {
            throw .cannotOpen(path: root.path, reason: "\(error)")
        }
    }

    /// The blob store a configuration names; an S3 bucket is checked (it exists, and the
    /// credentials may use it) before the library opens.
    static func openBlobs(_ blobs: Configuration.Blobs, root: URL, faults: FaultInjector) async throws(LibraryError) -> any BlobStore {
        switch blobs {
        case .files:
            return FileBlobStore(root: root)
        case .s3(let url):
            let client = S3Client(url: url, credentials: try AWSCredentials.find())
            try await client.checkBucket()
            return S3BlobStore.forLibrary(client: client, cache: BlobCache(root: root.appendingPathComponent("cache/blobs")), faults: faults)
        }
    }

    static func openCatalog(_ catalog: Configuration.Catalog, root: URL, places: Gazetteer? = nil) async throws(LibraryError) -> any CatalogStore {
        switch catalog {
        case .sqlite:
            let path = root.appendingPathComponent("catalog.sqlite").path
            let driver = try await SQLiteDriver.open(path: path, migrator: CatalogSchema.migrator)
            return SQLCatalogStore(driver: driver, location: "SQLite at \(path)", places: places)
        case .postgres(let postgres):
            let driver = try await PostgresDriver.connect(postgres)
            try await PostgresSchema.migrate(driver)
            return SQLCatalogStore(driver: driver, location: "PostgreSQL at \(postgres)", places: places)
        }
    }

    // MARK: Fetching

    /// The assets matching `options`, in order.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not read.
    public func fetchAssets(with options: FetchOptions = FetchOptions()) async throws(LibraryError) -> FetchResult<Asset> {
        let scoped = try await scoped(options)
        let ids = try await catalog.assetRowIDs(matching: scoped)
        logFetch(count: ids.count)
        return makeResult(ids, throughPartners: !scoped.partnerWindows.isEmpty) { [self] () async throws(LibraryError) in
            try await fetchAssets(with: options)
        }
    }

    /// ``fetchAssets(with:)`` and ``fetchMonthSections(with:)`` of the same options, from one
    /// read of the catalog where the months cannot come from its grid summary (a search): what
    /// a grid with date headers opens with.
    ///
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not read.
    package func fetchAssetsWithMonthSections(with options: FetchOptions) async throws(LibraryError) -> (
        assets: FetchResult<Asset>, sections: [MonthSection]
    ) {
        let scoped = try await scoped(options)
        let (ids, months) = try await catalog.assetRowIDsAndMonthCounts(matching: scoped)
        logFetch(count: ids.count)
        let result = makeResult(ids, throughPartners: !scoped.partnerWindows.isEmpty) { [self] () async throws(LibraryError) in
            try await fetchAssets(with: options)
        }
        return (result, MonthSection.sections(months))
    }

    /// Every frame of a burst, in the order they were taken (`PHAsset.fetchAssets(withBurstIdentifier:options:)`).
    ///
    /// Unlike PhotoKit, which without ``FetchOptions/includeAllBurstAssets`` returns only the
    /// frames the user marked, this returns every frame: Shoebox keeps one choice per burst, its
    /// key photo (``Asset/representsBurst``). `options`' other filters apply (hidden and
    /// trashed frames are left out unless asked for).
    ///
    /// ```swift
    /// if let burst = asset.burstIdentifier {
    ///     let frames = try await library.fetchAssets(withBurstIdentifier: burst).allObjects()
    ///     print("\(frames.count) frames; key photo", frames.first(where: \.representsBurst)?.localIdentifier ?? "none")
    /// }
    /// ```
    public func fetchAssets(withBurstIdentifier burstIdentifier: String, options: FetchOptions? = nil) async throws(LibraryError) -> FetchResult<Asset> {
        var options = options ?? FetchOptions()
        let burst = FetchOptions.Predicate.burstIdentifier(burstIdentifier)
        options.predicate = options.predicate.map { .all([$0, burst]) } ?? burst
        options.includeAllBurstAssets = true
        return try await fetchAssets(with: options)
    }

    /// How many frames each burst has: those a fetch with `options` (and
    /// ``FetchOptions/includeAllBurstAssets``) returns, so by default neither hidden nor in
    /// Recently Deleted. A grid shows a burst's key photo with this count.
    public func burstFrameCounts(_ burstIdentifiers: [String], options: FetchOptions = FetchOptions()) async throws(LibraryError) -> [String: Int] {
        try await catalog.burstFrameCounts(burstIdentifiers, matching: try await scoped(options))
    }

    /// The assets with these identifiers, in the order given (unknown ones, and for a client with
    /// limited access ones it may not see, left out).
    public func fetchAssets(withLocalIdentifiers identifiers: [String]) async throws(LibraryError) -> FetchResult<Asset> {
        let scope = try await readScope()
        let found = try await catalog.assets(localIdentifiers: identifiers)
        let selection = try await visibleSelection(in: scope)
        var ids: [Int64] = []
        for identifier in identifiers {
            if let asset = found[identifier], isVisible(asset, in: scope, selection: selection) { ids.append(asset.rowID) }
        }
        logFetch(count: ids.count)
        return makeResult(ids)
    }

    func makeAssetResult(_ ids: [Int64], refetch: (@Sendable () async throws(LibraryError) -> FetchResult<Asset>)? = nil) -> FetchResult<Asset> {
        makeResult(ids, refetch: refetch)
    }

    /// `throughPartners`: some assets may be partners' (each page is read as the shares are then).
    private func makeResult(
        _ ids: [Int64], throughPartners: Bool = false, refetch: (@Sendable () async throws(LibraryError) -> FetchResult<Asset>)? = nil
    ) -> FetchResult<Asset> {
        // The result keeps its library (as `refetch` does): every page a client loads is logged,
        // even after the caller dropped its own reference to the library.
        var access: (@Sendable () async throws(LibraryError) -> (@Sendable (Asset) -> Bool)?)?
        if clientIdentifier != nil {
            access = { [self] () async throws(LibraryError) -> (@Sendable (Asset) -> Bool)? in try await currentVisibility() }
        }
        return FetchResult(rowIDs: ids, identity: \.rowID, refetch: refetch, access: access) { [self] rowIDs async throws(LibraryError) in
            let page =
                throughPartners
                ? try await catalog.assets(rowIDs: rowIDs, sharedThrough: try await partnerWindows())
                : try await catalog.assets(rowIDs: rowIDs)
            // The client sees a page's assets when it loads, not when the fetch runs: the access log
            // records them here (see `logRevealed`).
            logRevealed(rowIDs.lazy.compactMap { page[$0] })
            return page
        }
    }

    /// A local file holding `asset`'s original (never modified; do not write to it).
    ///
    /// - Throws: ``LibraryError/Code/storage`` when the blob store cannot provide it.
    public func originalURL(for asset: Asset) async throws(LibraryError) -> URL {
        try await blobs.localFile(for: BlobKey(kind: .original, hash: asset.contentHash))
    }

    /// A local file holding `asset`'s current version: its edit's render, or the original when
    /// it has no adjustments. Read only.
    public func currentURL(for asset: Asset) async throws(LibraryError) -> URL {
        guard let render = asset.render else { return try await originalURL(for: asset) }
        return try await blobs.localFile(for: BlobKey(kind: .render, hash: render.hash))
    }

    /// A local file holding one of an asset's ``Asset/resources``. Read only.
    public func fileURL(for resource: AssetResource) async throws(LibraryError) -> URL {
        try await blobs.localFile(for: resource.blobKey)
    }

    /// The asset a modified version was made from (ALAsset's `originalAsset`), or `nil` when
    /// `asset` is not a modified version or its original has been purged.
    public func originalAsset(of asset: Asset) async throws(LibraryError) -> Asset? {
        guard let identifier = asset.originalAssetIdentifier else { return nil }
        return try await catalog.assets(localIdentifiers: [identifier])[identifier]
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
    /// - Throws: ``LibraryError/Code/authorization`` when the library's client may not make these
    ///   changes (creating needs read-write or add-only access; anything else read-write, and with
    ///   limited access only on assets the client may see);
    ///   an import failure (``LibraryError/Code/unsupportedFormat``, ``LibraryError/Code/corrupt`` and the like, with ``LibraryError/path`` set) when a file cannot be imported
    ///   (nothing of the change is kept); ``LibraryError/Code/notFound`` when a
    ///   request names an asset that is not in the library; ``LibraryError/Code/storage``.
    @discardableResult
    public func performChanges(_ changes: () throws -> Void) async throws -> ChangeResult {
        let transaction = ChangeTransaction()
        try ChangeTransaction.$current.withValue(transaction) {
            try changes()
        }
        try await authorizeChanges(transaction.recorded)
        return try await apply(transaction.recorded)
    }

    /// `UIVideoAtPathIsCompatibleWithSavedPhotosAlbum`: whether ``performChanges(_:)`` will take
    /// the movie, and if not, why.
    public static func isVideoCompatibleWithSavedPhotosAlbum(at url: URL) async -> VideoCompatibility {
        await Movie.isVideoCompatibleWithSavedPhotosAlbum(at: url)
    }
}
