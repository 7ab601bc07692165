internal import Crypto
import Foundation
import Hummingbird
import ShoeboxLibrary
import Synchronization

/// Everything the routes share: the user's library, the clients' libraries, caches, pickers,
/// prompts and change events.
final class ServerState: Sendable {
    let library: PhotoLibrary
    let configuration: PhotoLibraryServer.Configuration
    let prompter: CatalogPrompter
    /// How fast strangers may register clients.
    let registrations = RegistrationLimiter()
    /// What shared links' visitors may cost (renders, visits).
    let sharedLinks: SharedLinkBudget
    let authorization: Authorization
    /// The user's image manager: its memory cache serves the grid.
    let images: ImageManager
    let fetches = FetchSnapshots()
    /// Thumbnails already sent, for the user's grid.
    let thumbnails = ThumbnailMemoryCache()
    /// Requests ``ThumbnailFastPath`` answered itself (the tests read it).
    let fastPathAnswers = Atomic<Int>(0)
    let pickers: PickerRegistry
    /// The cameras the user's browser last reported (``BrowserCameras``); `nil` until one did.
    let browserCameras = Mutex<BrowserCameras?>(nil)
    let changeHub: ChangeHub
    /// The token the web app's pages carry for state-changing requests: derived from the user's
    /// key, so that servers started with the same `--key` behind one address accept each
    /// other's pages.
    let csrfToken: String
    /// How requests prove they are the user (the key, as a bearer token or a cookie).
    let credentials: UserCredentials
    /// `Host` header values accepted (set when the port is known).
    let allowedHosts = Mutex<Set<String>>([])
    let fileIO = FileIO()
    /// Whether bytes in object storage go to browsers as redirects to presigned URLs.
    let redirectsToObjectStorage: Bool
    /// Whether bytes in object storage are streamed through the server.
    let proxiesObjectStorage: Bool
    /// What every ``ThumbnailFastPath`` answer carries.
    let fastPathHeaders: String
    private let clientHandles = Mutex<[String: ClientHandle]>([:])

    /// A client's view of the library.
    struct ClientHandle: Sendable {
        let library: PhotoLibrary
        let images: ImageManager
    }

    init(library: PhotoLibrary, configuration: PhotoLibraryServer.Configuration, userKey: String) {
        self.library = library
        csrfToken = Self.derive("csrf", from: userKey)
        credentials = UserCredentials(key: userKey)
        self.configuration = configuration
        sharedLinks = SharedLinkBudget(renders: configuration.sharedLinkRenders, waiting: configuration.sharedLinkQueue)
        prompter = CatalogPrompter(library: library, timeout: configuration.promptTimeout)
        authorization = Authorization(library: library, prompter: prompter)
        images = ImageManager(library: library, memoryByteLimit: 64 << 20)
        changeHub = ChangeHub(library: library)
        pickers = PickerRegistry(library: library)
        redirectsToObjectStorage = library.offersDirectURLs && configuration.blobDelivery == .redirect
        proxiesObjectStorage = library.offersDirectURLs && configuration.blobDelivery == .proxy
        fastPathHeaders = ThumbnailFastPath.fixedHeaders(
            policy: SecurityHeadersMiddleware.contentSecurityPolicy(mediaOrigin: redirectsToObjectStorage ? library.directURLOrigin : nil))
    }

    /// The library as `caller` may use it: the user's, or the client's (whose grants the library
    /// checks on every read and write).
    func handle(for caller: Caller) throws(APIError) -> ClientHandle {
        switch caller {
        case .user:
            return ClientHandle(library: library, images: images)
        case .client(let manifest):
            if let known = clientHandles.withLock({ $0[manifest.identifier] }) { return known }
            let opened = library.forClient(manifest.identifier)
            let handle = ClientHandle(library: opened, images: ImageManager(library: opened, memoryByteLimit: 8 << 20))
            return clientHandles.withLock { handles in
                if let raced = handles[manifest.identifier] { return raced }
                handles[manifest.identifier] = handle
                return handle
            }
        case .anonymous:
            throw Caller.signInFirst
        }
    }

    /// Writes the access-log entries every client handle still buffers (before a report).
    func flushAccessLogs() async {
        await library.flushAccessLog()
        for handle in clientHandles.withLock({ Array($0.values) }) { await handle.library.flushAccessLog() }
    }

    /// The browser's cameras as last reported to any server of this library: this server's
    /// memory, else the catalog (a restarted server, or another on the same catalog).
    func knownBrowserCameras() async -> BrowserCameras? {
        if let known = browserCameras.withLock({ $0 }) { return known }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let text = try? await library.serverSetting(BrowserCameras.settingKey),
            let stored = try? decoder.decode(BrowserCameras.self, from: Data(text.utf8))
        else { return nil }
        return browserCameras.withLock { current in
            if current == nil { current = stored }
            return current
        }
    }

    /// Keeps the browser's report, here and in the catalog.
    func reportBrowserCameras(_ report: BrowserCameras) async throws(LibraryError) {
        browserCameras.withLock { $0 = report }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let text = (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) }
        try await library.setServerSetting(BrowserCameras.settingKey, to: text)
    }

    /// A value derived from the user's key (hex HMAC-SHA256 of `purpose`): the same on every
    /// server given that key, useless for finding the key.
    static func derive(_ purpose: String, from key: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(purpose.utf8), using: SymmetricKey(data: Data(key.utf8)))
        return Hex.encode(code)
    }
}
