import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxPicker
import Synchronization
import UnixSignals

/// `shoebox serve`: the library, the picker, the camera, the editor and the privacy settings in
/// a browser, and a JSON API for other programs, served by Hummingbird on loopback.
///
/// ```swift
/// let library = try await PhotoLibrary.open(at: URL(fileURLWithPath: "Photos.shoebox"))
/// let server = PhotoLibraryServer(library: library, configuration: .init(port: 8080))
/// try await server.run { url in print("open \(url)") }
/// ```
///
/// The server runs as a group of services (swift-service-lifecycle): the Hummingbird
/// application, the change hub that wakes event streams, and as its ``Configuration`` asks, a
/// job worker (``Configuration/worker``) and the library's `server.json`
/// (``Configuration/writesDiscoveryFile``). `shoebox serve` is this with every part on, its
/// library opened with its background work queued:
///
/// ```swift
/// let queued = try await PhotoLibrary.open(at: URL(fileURLWithPath: "Photos.shoebox"), backgroundWork: .queued)
/// var configuration = PhotoLibraryServer.Configuration(port: 8080)
/// configuration.worker = JobWorker.Options(name: "serve")
/// configuration.writesDiscoveryFile = true
/// try await PhotoLibraryServer(library: queued, configuration: configuration).run(handlesSignals: true)
/// ```
///
/// Who may do what:
/// - **The user** — the person at the browser — holds the server's key: the URL `run` reports
///   carries it once (`/?key=…`), and the browser keeps it as an HTTP-only, same-site cookie.
///   Every state-changing request from the web app also carries a CSRF token from the page.
///   Shoebox's own tools may present the key as a bearer token instead.
/// - **Clients** register a ``ShoeboxLibrary/ClientManifest`` (`POST /api/clients`) and get a
///   bearer token; every read and write then goes through their grants. The picker needs none:
///   a client gets only what the user picks.
/// - Requests whose `Host` is not this server's (DNS rebinding) are refused, there is no CORS
///   unless ``Configuration/corsAllowedOrigins`` says so, pages carry a Content-Security-Policy,
///   and no path from a request reaches the filesystem: files are found by asset identifiers and
///   content hashes only.
public final class PhotoLibraryServer: Sendable {
    /// Where and how to serve.
    public struct Configuration: Sendable {
        /// The address to listen on (loopback by default).
        public var host: String
        /// The port; 0 picks a free one.
        public var port: Int
        /// More host names the `Host` header may carry (besides localhost, 127.0.0.1, ::1 and
        /// ``host``), for a server reached by name.
        public var allowedHostNames: [String]
        /// Origins allowed to call the API from other sites (none by default: no CORS).
        public var corsAllowedOrigins: [String]
        /// The largest upload accepted, in bytes (4 GiB by default).
        public var uploadByteLimit: Int
        /// The user's key; random for each run when `nil`.
        public var userKey: String?
        /// Whether picker sessions that clients create open in the user's browser (`xdg-open`).
        public var opensPickerInBrowser: Bool
        /// How long an authorization prompt waits for the user before the request fails.
        public var promptTimeout: Duration
        /// How browsers get bytes that live in object storage (ignored for a library of files).
        public var blobDelivery: BlobDelivery
        /// How long a connection may go without a whole request head or request part arriving
        /// before it is closed (30 s by default): a connection that trickles a request's headers
        /// (slowloris), stalls an upload, or idles between requests is let go. A response being
        /// sent (an event stream, a download) is never cut.
        public var idleTimeout: Duration = .seconds(30)
        /// How many connections stay open (1,000 by default): over it, the connections idle the
        /// longest (keep-alives between requests, headers trickled and never finished) are closed
        /// to make room, so a flood of connections never keeps the user's requests out. A
        /// connection whose response is under way is never closed for it.
        public var maximumConnections = 1_000
        /// The memory, in bytes, that decodes of photos may hold at once in this process —
        /// uploads' checks, thumbnails, previews, background jobs, edit renders (the
        /// ``ShoeboxLibrary/DecodeMemoryBudget/shared`` budget, which `run` sets to it). `nil`
        /// leaves the budget as it is: 256 MiB unless the program set it. A decode larger than the
        /// budget runs alone.
        public var decodeMemory: Int?
        /// How many renders (thumbnails, images, playback renditions) shared links' visitors may
        /// have under way at once, all links together (half the processors by default, at least
        /// one), and how many more may wait (16): a link request beyond them is `503 busy` with
        /// `Retry-After`, so a link's audience never queues in front of the user's own work.
        public var sharedLinkRenders = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
        /// How many shared-link renders may wait for ``sharedLinkRenders`` (16 by default).
        public var sharedLinkQueue = 16
        /// A job worker the server runs while it serves (a service of its own that stops claiming
        /// when the server stops and hands what it holds back to the queue), for the jobs of the
        /// library's queue; `nil` (the default) for none, when `shoebox worker` processes do
        /// them. A library opened with ``ShoeboxLibrary/PhotoLibrary/BackgroundWork/queued``
        /// also has its repeating jobs (emptying Recently Deleted, sweeping what crashes left;
        /// ``ShoeboxLibrary/PhotoLibrary/scheduleRepeatingJobs()``) scheduled as the server starts.
        public var worker: JobWorker.Options?
        /// Whether the server writes the library's `server.json` (``ServerDiscovery``) once it
        /// listens and removes it when it stops, so `shoebox pick` and a second server find it
        /// (off by default; `shoebox serve` sets it).
        public var writesDiscoveryFile = false
        /// Whether browsers reach the server over HTTPS, through a proxy that ends TLS (off by
        /// default): its cookies (sessions, the key's, the sign-in form's, shared links') are
        /// `Secure`, so a browser never sends them over plain HTTP, and pages whose origin is
        /// `https://` and one of the hosts it answers may change the library.
        public var servedOverHTTPS = false
        /// The OpenID Connect provider people may sign in with (`nil`: none), besides their
        /// passwords and passkeys.
        public var openID: OpenIDConfiguration?

        /// How browsers get the bytes of a library whose blobs are in object storage.
        public enum BlobDelivery: String, Sendable, CaseIterable {
            /// Answer `302 Found` with a presigned URL into the bucket (thumbnails once they are
            /// in the bucket, originals, renders, movies): the bytes never pass through the server.
            case redirect
            /// Stream the bytes through the server (with byte ranges), for buckets browsers
            /// cannot reach.
            case proxy
        }

        /// A configuration with these values: by default 127.0.0.1:8080, uploads up to 4 GiB, a random
        /// key for each run, pickers not opened in the browser, prompts that wait 300 seconds and
        /// ``BlobDelivery/redirect``. ``idleTimeout``, ``maximumConnections`` and ``decodeMemory``
        /// are not parameters: set them on the value.
        public init(
            host: String = "127.0.0.1", port: Int = 8080, allowedHostNames: [String] = [], corsAllowedOrigins: [String] = [],
            uploadByteLimit: Int = 4 << 30, userKey: String? = nil, opensPickerInBrowser: Bool = false,
            promptTimeout: Duration = .seconds(300), blobDelivery: BlobDelivery = .redirect
        ) {
            self.host = host
            self.port = port
            self.allowedHostNames = allowedHostNames
            self.corsAllowedOrigins = corsAllowedOrigins
            self.uploadByteLimit = uploadByteLimit
            self.userKey = userKey
            self.opensPickerInBrowser = opensPickerInBrowser
            self.promptTimeout = promptTimeout
            self.blobDelivery = blobDelivery
        }
    }

    /// Where and how the server serves, as given to ``init(library:configuration:)``.
    public let configuration: Configuration
    /// The library, acting for the user.
    public var library: PhotoLibrary { state.library }
    /// The user's key (see the type's discussion).
    public let userKey: String
    let state: ServerState
    private let boundPort = Mutex<Int?>(nil)
    /// The service group of the run in progress: ``stop()`` asks it to shut down gracefully.
    private let serving = Mutex<ServiceGroup?>(nil)

    /// Prepares a server for `library` (a handle opened for a client is reopened for the user).
    ///
    public init(library: PhotoLibrary, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        userKey = configuration.userKey ?? RandomToken.base64URL()
        state = ServerState(library: library.forClient(nil), configuration: configuration, userKey: userKey)
    }

    /// The port listened on, once running.
    public var port: Int? { boundPort.withLock { $0 } }

    /// The server's address, once running: `http://127.0.0.1:PORT`.
    public var baseURL: URL? {
        port.map { URL(string: "http://\(Self.urlHost(configuration.host)):\($0)")! }
    }

    /// A URL of this server that signs the browser in as the user: `…/PATH?key=KEY`.
    public func userURL(_ path: String = "/") -> URL? {
        guard let base = baseURL, var components = URLComponents(url: base.appendingPathComponent(path), resolvingAgainstBaseURL: false) else { return nil }
        components.queryItems = [URLQueryItem(name: "key", value: userKey)]
        return components.url
    }

    static func urlHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::": "[::1]"
        default: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        }
    }

    /// Serves in a new task and returns once the server listens (``port`` is set): the task,
    /// which serves until ``stop()`` (or until it is cancelled). Awaited, not polled.
    ///
    /// ```swift
    /// let serving = try await server.start()
    /// print(server.port!)
    /// // … then:
    /// await server.stop()
    /// try await serving.value
    /// ```
    ///
    /// Prefer ``stop()`` to cancelling the task: besides answering what is in progress, it
    /// avoids a trap in SwiftNIO when a connection just accepted is still waiting to be served
    /// as the serving task is cancelled (apple/swift-nio#3481).
    ///
    /// - Throws: What ``run(handlesSignals:onReady:)`` threw when the server stopped before it
    ///   listened (the address taken, …).
    public func start() async throws -> Task<Void, any Error> {
        let (ready, readiness) = AsyncStream.makeStream(of: URL.self)
        let serving = Task {
            defer { readiness.finish() }
            try await run { url in readiness.yield(url) }
        }
        var listening = ready.makeAsyncIterator()
        if await listening.next() == nil {
            try await serving.value
            throw CancellationError()  // run returned without listening: it was cancelled
        }
        return serving
    }

    /// Serves until the task is cancelled (or, with `handlesSignals`, until SIGINT or SIGTERM).
    ///
    /// - Parameters:
    ///   - handlesSignals: Stop gracefully on SIGINT and SIGTERM (what `shoebox serve` wants).
    ///   - onReady: Called once listening, with the user's URL (``userURL(_:)``).
    /// - Throws: When the address cannot be bound.
    public func run(handlesSignals: Bool = false, onReady: @escaping @Sendable (URL) async -> Void = { _ in }) async throws {
        // The services, stopped in the reverse order: the application first (its requests
        // answered, its event streams ended), then the job worker, the people's change hubs, the
        // server's own, and last the discovery entry.
        var services: [any Service] = []
        let discovery = configuration.writesDiscoveryFile ? DiscoveryService(libraryURL: library.url) : nil
        if let discovery { services.append(discovery) }
        services.append(ChangeHubService(hub: state.changeHub))
        services.append(state.personHubs)
        if library.backgroundWork == .queued { try await library.scheduleRepeatingJobs() }
        if let worker = configuration.worker { services.append(JobWorkerService(worker: JobWorker(library: library, options: worker))) }
        let app = makeApplication(handlesSignals: handlesSignals) { [self] url in
            if let discovery, let port {
                await discovery.serverIsListening(url: baseURL?.absoluteString ?? "", port: port, key: userKey)
            }
            await onReady(url)
        }
        services.append(app)
        // Requests waiting for the user's answer end when the server stops (the question stays
        // open in the catalog for the client to ask again elsewhere).
        let state = self.state
        var groupConfiguration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: handlesSignals ? [.sigterm, .sigint] : [], logger: app.logger)
        // Requests still running this long after a stop began are cancelled.
        groupConfiguration.maximumGracefulShutdownDuration = Self.gracefulStopLimit
        let group = ServiceGroup(configuration: groupConfiguration)
        serving.withLock { $0 = group }
        defer { serving.withLock { if $0 === group { $0 = nil } } }
        do {
            if handlesSignals {
                try await group.run()
            } else {
                try await withTaskCancellationHandler {
                    try await group.run()
                } onCancel: {
                    state.stopAsking()
                }
            }
        } catch {
            // A server that stopped before its services were told to (its address taken):
            // its entry, if it wrote one, goes all the same.
            await discovery?.removeOwnEntry()
            throw error
        }
    }

    /// How long a graceful stop waits for requests in progress before it cancels them.
    public static let gracefulStopLimit = Duration.seconds(20)

    /// Stops serving gracefully, as SIGTERM stops `shoebox serve`: no new connections, event
    /// streams end, and requests in progress get their answers before ``run(handlesSignals:onReady:)``
    /// returns (and the task from ``start()`` ends). Cancelling that task instead stops at once.
    public func stop() async {
        let group = serving.withLock { $0 }
        await group?.triggerGracefulShutdown()
    }

    /// The Hummingbird application ``run(handlesSignals:onReady:)`` serves: the router with its
    /// middleware, the connection handlers (thumbnail fast path, connection cap), the address.
    /// For HummingbirdTesting (ShoeboxTesting's ``PhotoLibraryServer/test(_:_:)``); the change hub
    /// that wakes event streams runs beside it (``runChangeHub()``).
    package func makeApplication(
        handlesSignals: Bool = false, onReady: @escaping @Sendable (URL) async -> Void = { _ in }
    ) -> Application<RouterResponder<ServerRequestContext>> {
        var logger = Logger(label: "shoebox.server")
        // An embedded server (tests, `shoebox pick`) stops by cancellation, which Hummingbird reports
        // as an error: only `shoebox serve`, which stops by signal, shows warnings.
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? (handlesSignals ? .warning : .critical)
        ProcessLimits.raiseOpenFileLimit()
        if let decodeMemory = configuration.decodeMemory { DecodeMemoryBudget.shared.capacity = decodeMemory }
        // Read now, on the blocking pool, what requests would otherwise read on an event loop the
        // first time: the web app's files and the place table (place names in asset JSON). And
        // sweep what old servers left in the temporary folder.
        Task {
            await BlockingPool.shared.run {
                _ = WebAssets.shared.files.count
                _ = Gazetteer.standard.isAvailable
            }
            await UploadReceiver.removeLegacyLeftovers()
        }
        let connections = ConnectionCap(limit: configuration.maximumConnections)
        return Application(
            router: makeRouter(),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [
                        PipelinePlacement(AbsoluteFormTarget(), .afterRequestDecoder),
                        PipelinePlacement(ThumbnailFastPath(server: self), .beforeTypesConversion),
                        ConnectionCap.Handler(cap: connections),
                    ],
                    idleTimeout: TimeAmount(configuration.idleTimeout))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: Self.serverName),
            onServerRunning: { [self] channel in
                let port = channel.localAddress?.port ?? configuration.port
                boundPort.withLock { $0 = port }
                state.allowedHosts.withLock { $0.formUnion(Self.allowedHosts(configuration, port: port)) }
                // The cameras a browser last reported to a server of this library: a picker
                // presented right away (`shoebox pick --source camera`) offers them.
                _ = await state.knownBrowserCameras()
                if let url = userURL() { await onReady(url) }
            },
            logger: logger
        )
    }

    /// Tells the server's event streams about the library's commits until the task is cancelled.
    package func runChangeHub() async {
        let state = self.state
        await withDiscardingTaskGroup { group in
            group.addTask { await state.changeHub.run() }
            group.addTask { try? await state.personHubs.run() }
        }
    }

    /// Lets requests whose `Host` is `localhost` without a port in: what HummingbirdTesting's
    /// clients send, in process (`.router`) or on loopback (`.live`). Tests only.
    package func allowPortlessLocalhostForTesting() {
        _ = state.allowedHosts.withLock { $0.insert("localhost") }
    }

    /// The `Server` header's value.
    static let serverName = "Shoebox"

    /// The `Host` header values this server answers to.
    static func allowedHosts(_ configuration: Configuration, port: Int) -> Set<String> {
        var names: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        names.insert(urlHost(configuration.host))
        for name in configuration.allowedHostNames { names.insert(urlHost(name)) }
        return Set(names.map { "\($0):\(port)" })
    }

    // MARK: Picker

    /// Presents a picker session in the web app: what ``WebPresenter`` does for an
    /// ``ShoeboxPicker/ImagePickerController``, and the HTTP API for clients.
    ///
    /// - Parameters:
    ///   - request: What to pick.
    ///   - client: The client that asked (`nil`: the user, or Shoebox's own tools).
    ///   - person: Whose library the picker shows and who answers it: the person asking, or the
    ///     one the client acts for (`nil`: the first admin).
    /// - Returns: The session; its page is ``pickerURL(for:)``.
    /// - Throws: ``ShoeboxPicker/PickerError`` when the request does not fit (see
    ///   ``ShoeboxPicker/PickerRequest/validate(in:)``).
    public func makePickerSession(_ request: PickerRequest, client: ClientManifest? = nil, for person: Person? = nil) async throws(PickerError) -> PickerSession
    {
        // The picker shows the library of the person it is for (the first admin's by default).
        let library = person.map { self.library.forPerson($0) } ?? self.library
        var request = request
        request.clientIdentifier = client?.identifier
        request.clientDisplayName = client?.displayName ?? request.clientDisplayName
        // The picker shows in the browser of the person it is for, offering that browser's cameras
        // (another server, or this one before a restart, may have heard them).
        let viewer = person?.rowID ?? Person.adminRowID
        let presenter = WebPresenter(server: self, person: viewer)
        _ = await state.knownBrowserCameras(for: viewer)
        let session = try await PickerSession(
            request: request, library: library,
            availability: .current(library: library, presenter: presenter))
        do {
            try await state.pickers.add(session, owner: client?.identifier)
        } catch {
            await session.cancel()
            throw PickerError(.library, error.message, underlying: error)
        }
        return session
    }

    /// Opens `url` in the user's browser (`xdg-open`), without waiting for it.
    public static func openInBrowser(_ url: URL) {
        BrowserOpener.open(url)
    }

    /// The picker page of a session, signed in as the user.
    public func pickerURL(for session: PickerSession) -> URL? {
        userURL("/pick/\(session.id)")
    }

    /// The picker page without the key (for clients: the user's browser is signed in already).
    func publicPickerURL(for session: PickerSession) -> String {
        "/pick/\(session.id)"
    }
}
