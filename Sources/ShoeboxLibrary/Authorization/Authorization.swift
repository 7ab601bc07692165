internal import Crypto
import Foundation
import ShoeboxImaging
import Synchronization

/// Who may use the camera, the microphone and the library: `AVCaptureDevice.authorizationStatus`
/// / `requestAccess` and `PHPhotoLibrary.authorizationStatus(for:)` for Shoebox's clients.
///
/// ```swift
/// let authorization = Authorization(library: library, prompter: TerminalPrompter())
/// try await authorization.register(manifest)
/// switch try await authorization.requestAccess(for: .photoLibrary(.readWrite), client: manifest.identifier) {
/// case .authorized, .limited: let photos = library.forClient(manifest.identifier)
/// default: break
/// }
/// ```
///
/// Decisions are stored in the library per client and service, asked once and remembered;
/// ``setStatus(_:for:client:)`` changes them later (Settings › Privacy; `shoebox privacy`), and a
/// change takes effect at once for clients that already hold a library, because every read and
/// write checks the stored decision. `restricted` comes from the administrator's policy file
/// (see ``policyURL``), which Shoebox never writes.
public final class Authorization: Sendable {
    /// What a client asks to use.
    public enum Service: Sendable, Hashable, CustomStringConvertible {
        /// The photo library's access levels.
        public enum AccessLevel: String, Sendable, Hashable, Codable {
            /// Add assets only: no reading, not even what the client added.
            case addOnly
            /// Read and write.
            case readWrite
        }

        /// The camera (`AVCaptureDevice.authorizationStatus(for: .video)`).
        case camera
        /// The microphone (`AVCaptureDevice.authorizationStatus(for: .audio)`).
        case microphone
        /// The photo library at an access level (`PHPhotoLibrary.authorizationStatus(for:)`); a
        /// read-write grant in force also lets the client add.
        case photoLibrary(AccessLevel)

        /// Every service.
        public static let all: [Service] = [.camera, .microphone, .photoLibrary(.readWrite), .photoLibrary(.addOnly)]

        /// The manifest key a prompt for this service needs.
        public var usageDescriptionKey: ClientManifest.UsageDescriptionKey {
            switch self {
            case .camera: .camera
            case .microphone: .microphone
            case .photoLibrary(.readWrite): .photoLibrary
            case .photoLibrary(.addOnly): .photoLibraryAdd
            }
        }

        /// `camera`, `microphone`, `photoLibrary`, `photoLibraryAdd`: the stored and policy name.
        public var policyName: String {
            switch self {
            case .camera: "camera"
            case .microphone: "microphone"
            case .photoLibrary(.readWrite): "photoLibrary"
            case .photoLibrary(.addOnly): "photoLibraryAdd"
            }
        }

        /// The service with this ``policyName``.
        public init?(policyName: String) {
            guard let service = Self.all.first(where: { $0.policyName == policyName }) else { return nil }
            self = service
        }

        /// The service's ``policyName``.
        public var description: String { policyName }

        var promptPhrase: String {
            switch self {
            case .camera: "to access the camera"
            case .microphone: "to access the microphone"
            case .photoLibrary(.readWrite): "to access your photos"
            case .photoLibrary(.addOnly): "to add photos to your library"
            }
        }
    }

    /// A client's standing for a service (`AVAuthorizationStatus`, `PHAuthorizationStatus`).
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Never asked.
        case notDetermined
        /// The administrator's policy forbids it; the user cannot change that from Shoebox.
        case restricted
        /// The user said no.
        case denied
        /// The user said yes.
        case authorized
        /// The user shared some photos only (library read-write only).
        case limited
    }

    /// What to do when a client asks for a service its manifest has no usage description for.
    public enum MissingUsageDescription: Sendable {
        /// Stop the process with a message naming the key, as iOS terminates the app (in-process
        /// clients: it is a programmer error).
        case terminate
        /// Throw ``AuthorizationError/Code/missingUsageDescription`` (the server refuses the
        /// HTTP request with it).
        case `throw`
    }

    /// The library the decisions are stored in.
    public let library: PhotoLibrary
    /// Who asks the user.
    public let prompter: any AuthorizationPrompter
    /// The prompt open for each client and service, and how many requests share it.
    private typealias OpenPrompts = [String: (task: Task<Status, any Error>, sharing: Int)]
    private let inFlight = Mutex<OpenPrompts>([:])
    /// Who listens to ``sharingUpdates``; told under the `inFlight` lock, so in order.
    private let sharingListeners = EventFanOut<Int>()

    /// Decisions stored in `library`, asked through `prompter`; the default prompter never asks, so
    /// requests for undecided services throw ``AuthorizationError/Code/cannotPrompt``.
    public init(library: PhotoLibrary, prompter: any AuthorizationPrompter = NonInteractivePrompter()) {
        self.library = library
        self.prompter = prompter
    }

    /// The administrator's policy file: `NAME.shoebox.policy.json` beside the library folder.
    public var policyURL: URL { AdminPolicy.url(forLibraryAt: library.url) }

    // MARK: Clients

    /// Stores (or updates) a client's manifest in the library.
    public func register(_ manifest: ClientManifest) async throws(LibraryError) {
        try manifest.validate()
        try await library.catalog.register(manifest)
    }

    /// The registered client with this identifier.
    public func client(_ identifier: String) async throws(LibraryError) -> ClientManifest? {
        try await library.catalog.client(identifier)
    }

    /// Every registered client, by identifier.
    public func clients() async throws(LibraryError) -> [ClientManifest] {
        try await library.catalog.clients()
    }

    // MARK: Status

    /// The client's status for a service, without ever prompting.
    public func status(for service: Service, client: String) async throws(LibraryError) -> Status {
        try await Self.status(for: service, client: client, in: library)
    }

    static func status(for service: Service, client: String, in library: PhotoLibrary) async throws(LibraryError) -> Status {
        if AdminPolicy.load(forLibraryAt: library.url).restricts(service, client: client) { return .restricted }
        let stored = try await library.catalog.grant(client: client, service: service.policyName).flatMap(Status.init(rawValue:)) ?? .notDetermined
        if service == .photoLibrary(.addOnly), stored == .notDetermined || stored == .denied {
            // Read-write access includes adding, while it is in force: a read-write grant the
            // administrator's policy restricts grants nothing, adding included.
            let readWrite = try await status(for: .photoLibrary(.readWrite), client: client, in: library)
            if readWrite == .authorized || readWrite == .limited { return .authorized }
        }
        return stored
    }

    /// Asks the user through the ``prompter`` if the status is `notDetermined`, remembers the
    /// answer, and returns the status; otherwise returns the status at once. Concurrent requests
    /// for one client and service share one prompt.
    ///
    /// - Throws: ``AuthorizationError/Code/unknownClient``; ``AuthorizationError/Code/cannotPrompt``
    ///   when the prompter cannot ask (the status stays `notDetermined`); with `.throw`,
    ///   ``AuthorizationError/Code/missingUsageDescription``. With `.terminate` (the
    ///   default), a missing usage description stops the process with a message naming the key.
    public func requestAccess(
        for service: Service, client identifier: String,
        missingUsageDescription: MissingUsageDescription = .terminate
    ) async throws -> Status {
        guard let manifest = try await client(identifier) else { throw AuthorizationError.unknownClient(identifier) }
        guard let usage = manifest.usageDescription(for: service) else {
            let key = service.usageDescriptionKey
            switch missingUsageDescription {
            case .terminate:
                fatalError("\(identifier) asked for \(service) but its manifest has no \(key.rawValue): add a usage description for \(key.rawValue)")
            case .throw:
                throw AuthorizationError.missingUsageDescription(client: identifier, key: key)
            }
        }
        let current = try await status(for: service, client: identifier)
        guard current == .notDetermined else { return current }
        let key = identifier + "\u{0}" + service.policyName
        let task = inFlight.withLock { running -> Task<Status, any Error> in
            defer { reportSharing(running) }
            if let open = running[key] {
                running[key]?.sharing += 1
                return open.task
            }
            let task = Task<Status, any Error> { [self] in
                defer {
                    inFlight.withLock { running in
                        running.removeValue(forKey: key)
                        reportSharing(running)
                    }
                }
                // Another process may have decided meanwhile.
                let again = try await status(for: service, client: identifier)
                guard again == .notDetermined else { return again }
                let answer = try await prompter.prompt(AuthorizationPrompt(client: manifest, service: service, usageDescription: usage))
                try await Self.record(answer, for: service, client: identifier, in: library)
                return try await status(for: service, client: identifier)
            }
            running[key] = (task, 1)
            return task
        }
        return try await task.value
    }

    /// How many requests wait on an open prompt now (all clients and services), then again at
    /// each change, until the stream is dropped: for a test to know requests share a prompt.
    var sharingUpdates: AsyncStream<Int> {
        inFlight.withLock { running in sharingListeners.subscribe(replaying: [Self.sharing(running)]) }
    }

    /// How many requests share the prompts in `running`.
    private static func sharing(_ running: OpenPrompts) -> Int {
        running.values.map(\.sharing).reduce(0, +)
    }

    /// Tells ``sharingUpdates``' listeners, if there are any, the count in `running` (under the
    /// `inFlight` lock).
    private func reportSharing(_ running: OpenPrompts) {
        if sharingListeners.hasSubscribers { _ = sharingListeners.yield(Self.sharing(running)) }
    }

    /// Records the user's answer to a prompt as the client's decision (Select Photos… for a
    /// service other than the library's read-write access counts as Allow).
    static func record(_ answer: AuthorizationAnswer, for service: Service, client: String, in library: PhotoLibrary) async throws(LibraryError) {
        let authorization = Authorization(library: library, prompter: NonInteractivePrompter())
        let decided = decision(answer, for: service)
        if let selection = decided.selection { try await authorization.setLimitedSelection(selection, client: client) }
        try await authorization.setStatus(decided.status, for: service, client: client)
    }

    /// The status an answer gives a service, and for Select Photos… on the library's read-write
    /// access the selection; Select Photos… for another service counts as Allow.
    static func decision(_ answer: AuthorizationAnswer, for service: Service) -> (status: Status, selection: [String]?) {
        switch answer {
        case .allow: (.authorized, nil)
        case .deny: (.denied, nil)
        case .selectPhotos(let assets): service == .photoLibrary(.readWrite) ? (.limited, assets) : (.authorized, nil)
        }
    }

    // MARK: Settings › Privacy

    /// Records a decision (`nil` resets it to `notDetermined`, so the next request prompts).
    /// `limited` is for the library's read-write access only. Takes effect at once, also for
    /// clients that already hold a library.
    ///
    /// - Throws: ``AuthorizationError/Code/unknownClient`` for a client that is not registered: a
    ///   decision recorded for a name would pre-authorize whoever registers under it later.
    public func setStatus(_ status: Status?, for service: Service, client: String) async throws(LibraryError) {
        try await requireRegistered(client)
        switch status {
        case .restricted?:
            throw .invalidArgument("restricted comes from the administrator's policy file (\(policyURL.path)), not from Shoebox")
        case .notDetermined?:
            try await library.catalog.setGrant(client: client, service: service.policyName, status: nil)
        case .limited? where service != .photoLibrary(.readWrite):
            throw .invalidArgument("limited access is for the photo library's read-write access, not \(service)")
        default:
            try await library.catalog.setGrant(client: client, service: service.policyName, status: status?.rawValue)
        }
    }

    /// The assets a client with `limited` access may see (besides those it created).
    public func limitedSelection(client: String) async throws(LibraryError) -> [String] {
        try await library.catalog.limitedSelection(client: client)
    }

    /// Replaces the assets a client with `limited` access may see.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` for an unknown asset;
    ///   ``AuthorizationError/Code/unknownClient`` for a client that is not registered.
    public func setLimitedSelection(_ assets: [String], client: String) async throws(LibraryError) {
        try await requireRegistered(client)
        try await library.catalog.setLimitedSelection(assets, client: client)
    }

    private func requireRegistered(_ client: String) async throws(LibraryError) {
        guard try await self.client(client) != nil else { throw .authorization(.unknownClient(client)) }
    }

    /// Forgets a client ("Remove App"): its registration, decisions, limited selection and
    /// tokens. Its access log stays. Registering again starts it over, undecided.
    ///
    /// - Throws: ``AuthorizationError/Code/unknownClient`` for a client that is not registered.
    public func removeClient(_ identifier: String) async throws(LibraryError) {
        try await requireRegistered(identifier)
        try await library.catalog.removeClient(identifier)
    }

    /// Yields whenever a decision about `client` changes — a grant set or reset, its limited
    /// selection replaced, the client removed — through this library at once, through another
    /// handle or process sharing a SQLite catalog within `interval` (the change log's end is read that often: one
    /// indexed query), by another server of a PostgreSQL catalog on its `NOTIFY`. It says *that* something changed; ask
    /// ``status(for:client:)`` what. Changes to the administrator's policy file are not
    /// observed: they count from the next check. The first element comes as soon as it watches,
    /// so a status read then misses no change. The sequence ends when the task iterating it is
    /// cancelled, or if the catalog cannot be read.
    public func decisionChanges(client: String, pollingEvery interval: Duration = .milliseconds(200)) -> AsyncStream<Void> {
        let catalog = library.catalog
        return AsyncStream { continuation in
            let task = Task {
                guard var last = try? await catalog.latestChangeSequence() else { return continuation.finish() }
                continuation.yield()
                while !Task.isCancelled {
                    await catalog.waitForChanges(after: last, timeout: interval)
                    guard let entries = try? await catalog.changes(after: last) else { break }
                    last = entries.last?.sequence ?? last
                    if entries.contains(where: { $0.kind == "grant" && $0.localIdentifier == client }) {
                        continuation.yield()
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// What a client read and changed, newest first (the privacy report): it answers "what did
    /// this app see, and what did it do?".
    ///
    /// - A fetch leaves one `fetch` entry with an empty ``AccessLogEntry/localIdentifier`` and
    ///   the count it matched (`"2 assets"`) — a count only, however large the fetch.
    /// - Each asset the fetch actually hands the client leaves a `fetch` entry with that asset's
    ///   identifier: when a ``FetchResult`` page (``FetchResult/pageSize`` assets) loads, or a
    ///   keyset page is returned, and only the first time the client's library object hands that
    ///   asset out. A client that fetches a million assets and shows one screen of them is
    ///   recorded with one screen's identifiers, never a million rows; one that scrolls through
    ///   everything is recorded with everything, in batched background writes.
    /// - Reading pixels, data or files leaves `image`, `imageData`, `video`, `editingInput` (and
    ///   over HTTP `thumbnail`, `original`, `render`, `detail`) per asset; changes leave
    ///   `create`, `update`, `delete` (purged for good) and `album`; the picker leaves `picked`
    ///   for what the user handed over.
    ///
    /// A client's entries are buffered in its process and written within half a second (and when
    /// its library object goes away); this reads what has been written, after writing what this
    /// object's own library buffers.
    public func accessLog(client: String, limit: Int = 1_000) async throws(LibraryError) -> [AccessLogEntry] {
        await library.flushAccessLog()
        return try await library.catalog.accessLog(client: client, limit: limit)
    }

    // MARK: Tokens

    /// Issues a new token a registered client presents over HTTP (`Authorization: Bearer …`):
    /// 256 random bits, base64url. Only its SHA-256 is stored; the token is shown once.
    ///
    /// - Throws: ``AuthorizationError/Code/unknownClient`` for a client never registered.
    package func issueToken(for client: String) async throws -> String {
        guard try await self.client(client) != nil else { throw AuthorizationError.unknownClient(client) }
        let token = RandomToken.base64URL()
        try await library.catalog.addClientToken(hash: Self.tokenHash(token), client: client)
        return token
    }

    /// The client a token belongs to, or `nil` for an unknown (or revoked) token, or one that
    /// acts for another person than this library's.
    package func client(forToken token: String) async throws(LibraryError) -> ClientManifest? {
        guard !token.isEmpty, let (identifier, person) = try await library.catalog.client(forTokenHash: Self.tokenHash(token)),
            person == library.catalog.owner ?? Person.adminRowID
        else { return nil }
        return try await client(identifier)
    }

    /// Revokes every token of a client (it must register again for a new one).
    package func revokeTokens(for client: String) async throws(LibraryError) {
        try await library.catalog.removeClientTokens(client: client)
    }

    /// Whether a client holds a token: one without (revoked, or registered by the user's own
    /// tools) may register again over HTTP, undecided.
    package func hasTokens(_ client: String) async throws(LibraryError) -> Bool {
        try await library.catalog.clientTokenCount(client: client) > 0
    }

    static func tokenHash(_ token: String) -> String {
        Hex.sha256(Data(token.utf8))
    }
}

/// One thing a client did with the library (see ``Authorization/accessLog(client:limit:)``).
public struct AccessLogEntry: Sendable, Hashable, Codable {
    /// When the client did it (entries logged together share one date).
    public let date: Date
    /// The identifier of the client that did it (``ClientManifest/identifier``).
    public let client: String
    /// `fetch`, `image`, `imageData`, `video`, `editingInput`, `create`, `update`, `delete`,
    /// `album`, `picked` (and over HTTP `thumbnail`, `original`, `render`, `detail`).
    public let action: String
    /// The asset (or album) concerned. For `fetch`: the asset the client received, or empty for
    /// the entry that records the fetch itself and its count.
    public let localIdentifier: String
    /// More about it: for a fetch's own entry, how many assets the result held (`"2 assets"`).
    public let detail: String?

    /// An entry from its fields, as a ``CatalogStore`` reads it back or the library logs it.
    package init(date: Date, client: String, action: String, localIdentifier: String, detail: String?) {
        self.date = date
        self.client = client
        self.action = action
        self.localIdentifier = localIdentifier
        self.detail = detail
    }
}
