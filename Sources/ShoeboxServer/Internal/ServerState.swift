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
    /// Pictures of anyone's photos, for the shared albums' routes (which check first that the
    /// person asking is in the album and the album shows the photo) and partners' photos (whose
    /// routes check first that a share lets the person see it).
    let everyonesImages: ImageManager
    let fetches = FetchSnapshots()
    /// Thumbnails already sent, for the user's grid.
    let thumbnails: ThumbnailMemoryCache
    /// Requests ``ThumbnailFastPath`` answered itself (the tests read it).
    let fastPathAnswers = Atomic<Int>(0)
    let pickers: PickerRegistry
    /// The cameras each person's browser last reported (``BrowserCameras``), by the person's row
    /// id; a person's is missing until their browser reported (or it was read from the catalog).
    let browserCameras = Mutex<[Int64: BrowserCameras]>([:])
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
    /// Each signed-in person's view of the library (the first admin's is ``library``).
    private let personHandles = Mutex<[Int64: ClientHandle]>([:])
    /// Each person's change events (the first admin's hub is ``changeHub``), run as one of the
    /// server's services.
    let personHubs: PersonChangeHubs
    /// Signed-in browsers' sessions checked a moment ago.
    let sessions = SessionCache()
    /// What every cookie this server sets ends with: `; Secure` when it is reached over HTTPS
    /// (``PhotoLibraryServer/Configuration/servedOverHTTPS``), else nothing.
    var cookieSecurity: String { configuration.servedOverHTTPS ? "; Secure" : "" }
    /// The challenges of passkey registrations and sign-ins.
    let passkeyChallenges: PasskeyChallenge
    /// The OpenID Connect provider people sign in with, if the server has one.
    let openID: OpenIDProvider?
    /// The provider sign-ins this server took back (each `state` once).
    let openIDStates = OnceTokens()
    /// The first admin, whom the server's key signs in.
    private let firstAdminPerson = Mutex<Person?>(nil)
    /// Each person's apps but the first admin's (``prompter`` and ``authorization``).
    private let personApps = Mutex<[Int64: Apps]>([:])

    /// A person's apps: their clients' decisions, kept in their library, and the questions the
    /// clients ask them.
    struct Apps: Sendable {
        /// The person's library, which keeps their clients and decisions.
        let library: PhotoLibrary
        let authorization: Authorization
        /// Asks the person, through the catalog (every server lists and takes the answer).
        let prompter: CatalogPrompter
    }

    /// A client's view of the library.
    struct ClientHandle: Sendable {
        let library: PhotoLibrary
        let images: ImageManager
    }

    init(library: PhotoLibrary, configuration: PhotoLibraryServer.Configuration, userKey: String) {
        self.library = library
        csrfToken = Self.derive("csrf", from: userKey)
        credentials = UserCredentials(key: userKey)
        passkeyChallenges = PasskeyChallenge(serverKey: userKey)
        openID = configuration.openID.map { OpenIDProvider(configuration: $0) }
        self.configuration = configuration
        sharedLinks = SharedLinkBudget(renders: configuration.sharedLinkRenders, waiting: configuration.sharedLinkQueue)
        prompter = CatalogPrompter(library: library, timeout: configuration.promptTimeout)
        authorization = Authorization(library: library, prompter: prompter)
        images = ImageManager(library: library, memoryByteLimit: 64 << 20)
        everyonesImages = ImageManager(library: library.forEveryone(), memoryByteLimit: 16 << 20)
        changeHub = ChangeHub(library: library)
        personHubs = PersonChangeHubs(library: library)
        pickers = PickerRegistry(library: library)
        redirectsToObjectStorage = library.offersDirectURLs && configuration.blobDelivery == .redirect
        proxiesObjectStorage = library.offersDirectURLs && configuration.blobDelivery == .proxy
        fastPathHeaders = ThumbnailFastPath.fixedHeaders(
            policy: SecurityHeadersMiddleware.contentSecurityPolicy(mediaOrigin: redirectsToObjectStorage ? library.directURLOrigin : nil))
        thumbnails = ThumbnailMemoryCache(fixedHeaders: fastPathHeaders)
    }

    /// Everyone's library and pictures, for a photo the caller's own handle has checked they may
    /// see but that is someone else's (a partner's).
    var everyonesHandle: ClientHandle { ClientHandle(library: library.forEveryone(), images: everyonesImages) }

    /// The library as `caller` may use it: the user's, or the client's (whose grants the library
    /// checks on every read and write).
    func handle(for caller: Caller) throws(APIError) -> ClientHandle {
        switch caller {
        case .user(let person) where person.rowID == 1:
            return ClientHandle(library: library, images: images)
        case .user(let person):
            if let known = personHandles.withLock({ $0[person.rowID] }) { return known }
            let opened = library.forPerson(person)
            let handle = ClientHandle(library: opened, images: ImageManager(library: opened, memoryByteLimit: 16 << 20))
            return personHandles.withLock { handles in
                if let raced = handles[person.rowID] { return raced }
                handles[person.rowID] = handle
                return handle
            }
        case .client(let manifest, let person):
            // A client sees its person's library through its grants there.
            let key = "\(person.rowID)/\(manifest.identifier)"
            if let known = clientHandles.withLock({ $0[key] }) { return known }
            let opened = library.forPerson(person).forClient(manifest.identifier)
            let handle = ClientHandle(library: opened, images: ImageManager(library: opened, memoryByteLimit: 8 << 20))
            return clientHandles.withLock { handles in
                if let raced = handles[key] { return raced }
                handles[key] = handle
                return handle
            }
        case .anonymous:
            throw Caller.signInFirst
        }
    }

    /// The library as the person asking sees it, or the person a client acts for (the first
    /// admin's when nobody asks).
    func library(for caller: Caller) -> PhotoLibrary {
        guard let person = caller.actingFor, person.rowID != 1 else { return library }
        return (try? handle(for: caller).library) ?? library
    }

    /// The change events of the person asking, or of the person a client acts for: the first
    /// admin's hub, or one made for them when first listened to and run by ``personHubs`` while
    /// the server runs.
    func changeHub(for caller: Caller) -> ChangeHub {
        guard let person = caller.actingFor, person.rowID != 1 else { return changeHub }
        return personHubs.hub(for: person)
    }

    /// The apps of `person`: the first admin's are ``authorization`` and ``prompter``; another
    /// person's are made when first needed and kept.
    func apps(for person: Person) -> Apps {
        guard person.rowID != Person.adminRowID else { return Apps(library: library, authorization: authorization, prompter: prompter) }
        return personApps.withLock { all in
            if let known = all[person.rowID] { return known }
            let theirs = library.forPerson(person)
            let prompter = CatalogPrompter(library: theirs, timeout: configuration.promptTimeout)
            let made = Apps(library: theirs, authorization: Authorization(library: theirs, prompter: prompter), prompter: prompter)
            all[person.rowID] = made
            return made
        }
    }

    /// Ends every wait for an answer, on every person's prompter (the server is stopping: the
    /// questions stay open in the catalog for the clients to ask again elsewhere).
    func stopAsking() {
        prompter.stopAsking()
        for apps in personApps.withLock({ Array($0.values) }) { apps.prompter.stopAsking() }
    }

    /// The first admin (the server's key signs them in), read once.
    func firstAdmin() async throws(APIError) -> Person {
        if let known = firstAdminPerson.withLock({ $0 }) { return known }
        let person: Person?
        do { person = try await library.person() } catch { throw APIError(error) }
        guard let person else { throw APIError(.internalServerError, "noAdmin", "the library has no first admin") }
        firstAdminPerson.withLock { $0 = person }
        return person
    }

    /// Forgets what the server keeps of people (after one was changed here).
    func peopleChanged() {
        firstAdminPerson.withLock { $0 = nil }
        personHandles.withLock { $0.removeAll() }
        sessions.forgetAll()
    }

    /// Writes the access-log entries every client handle still buffers (before a report).
    func flushAccessLogs() async {
        await library.flushAccessLog()
        for handle in clientHandles.withLock({ Array($0.values) }) { await handle.library.flushAccessLog() }
    }

    /// The cameras the browsers of the person with row id `person` last reported to any server
    /// of this library: this server's memory, else the catalog (a restarted server, or another on
    /// the same catalog). Each person's browsers report their own; a picker for a person is
    /// offered theirs (an app's picker shows on the browser of the person it asks).
    func knownBrowserCameras(for person: Int64 = Person.adminRowID) async -> BrowserCameras? {
        if let known = browserCameras.withLock({ $0[person] }) { return known }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let text = try? await library.serverSetting(BrowserCameras.settingKey(for: person)),
            let stored = try? decoder.decode(BrowserCameras.self, from: Data(text.utf8))
        else { return nil }
        return browserCameras.withLock { current in
            if current[person] == nil { current[person] = stored }
            return current[person]
        }
    }

    /// Keeps the report of a browser of the person with row id `person`, here and in the catalog.
    func reportBrowserCameras(_ report: BrowserCameras, for person: Int64) async throws(LibraryError) {
        browserCameras.withLock { $0[person] = report }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let text = (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) }
        try await library.setServerSetting(BrowserCameras.settingKey(for: person), to: text)
    }

    /// A value derived from the user's key (hex HMAC-SHA256 of `purpose`): the same on every
    /// server given that key, useless for finding the key.
    static func derive(_ purpose: String, from key: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(purpose.utf8), using: SymmetricKey(data: Data(key.utf8)))
        return Hex.encode(code)
    }
}
