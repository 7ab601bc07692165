import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer
import ShoeboxTesting
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The world the authorization matrix runs in: a server on a library with the user's photos and
/// movies (shared with limited clients, or with nobody), the user's albums, registered clients in
/// each grant state with what each made while it could (a photo, an album, a fetch snapshot, an
/// upload, picker sessions, a picked file), a question waiting for the user, and every secret an
/// identity must never receive.
final class MatrixFixture: @unchecked Sendable {
    // @unchecked: the fixed objects are set while `start` runs, before any other task sees the
    // fixture; what changes later is behind `mutable`.

    /// Who made an object.
    enum Owner: Hashable, Sendable {
        case user
        case client(MatrixIdentity)
    }

    /// What an owner made while it could.
    struct Owned: Sendable {
        var asset: String?
        var album: String?
        var fetch: String?
        var upload: String?
        var sessions: [MatrixEndpoint.SessionKind: String] = [:]
        /// A session of the owner's in which the user picked the shared photo, and its file's name.
        var pick: (session: String, file: String)?
    }

    /// Something only some identities may ever receive: strings (identifiers, names, titles,
    /// hashes, figures) and bytes (a photo's).
    struct Secret: Sendable {
        let label: String
        let strings: [String]
        let bytes: [Data]
        let visibleTo: @Sendable (MatrixIdentity) -> Bool
    }

    private struct Mutable {
        var secrets: [Secret] = []
        var titles: [String: String] = [:]
        var uploadBytes: [String: Data] = [:]
        var seed: UInt64 = 10_000
        var counter = 0
        var askers: [Task<Void, Never>] = []
    }

    let test: TestServer
    let answerer: PromptAnswerer
    private let mutable = Mutex(Mutable())
    private(set) var tokens: [MatrixIdentity: String] = [:]
    private(set) var cookie = ""
    private(set) var csrf = ""
    /// The member's session cookie and CSRF token; the disabled person's cookie.
    private(set) var memberCookie = ""
    private(set) var memberCSRF = ""
    private(set) var disabledCookie = ""
    let forgedToken = String((0..<43).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".randomElement()! })
    private(set) var owned: [Owner: Owned] = [:]
    private(set) var granted = ""
    private(set) var grantedMovie = ""
    private(set) var secret = ""
    private(set) var secretMovie = ""
    private(set) var userAlbum = ""
    private(set) var userFolder = ""
    private(set) var prompt = ""
    private(set) var recents = ""
    /// The token of a shared link to the granted photo and movie (downloads allowed).
    private(set) var shareToken = ""
    /// Another link's id, which the user's calls turn off (again and again) and read the views of.
    private(set) var shareID = ""
    /// The administrator's policy file beside the library.
    var policyURL: URL { test.library.url.deletingLastPathComponent().appendingPathComponent(test.library.url.lastPathComponent + ".policy.json") }
    /// Each asset's `version` (thumbnail URLs carry it as `v=`).
    private(set) var versions: [String: String] = [:]

    /// The photos limited clients see besides their own.
    var limitedSelection: [String] { [granted, grantedMovie] }
    var secrets: [Secret] { mutable.withLock { $0.secrets } }
    var origin: String { "http://127.0.0.1:\(test.port)" }

    /// A person of the library besides its first admin (the matrix's user), who signs in.
    static let memberName = "matrix-member"
    static let memberPassword = "matrix-member-password"

    private init(test: TestServer) {
        self.test = test
        answerer = PromptAnswerer(test: test, answering: "com.matrix.", except: "com.matrix.asker")
    }

    func stop() {
        answerer.stop()
        for task in mutable.withLock({ $0.askers }) { task.cancel() }
        test.stop()
    }

    // MARK: Setting up

    /// A server, the user's things, and every client with what it made.
    static func start() async throws -> MatrixFixture {
        // Long enough for the standing question to outlive the matrix, however loaded the machine
        // (the matrix took 914 s on two cores shared with four builds, and the question expired at
        // 600); the answerer answers the rest at once.
        let test = try await TestServer.start(photos: 0, configuration: .init(promptTimeout: .seconds(3_600)))
        let fixture = MatrixFixture(test: test)
        do {
            try await fixture.setUp()
        } catch {
            fixture.stop()
            throw error
        }
        return fixture
    }

    private func setUp() async throws {
        (cookie, csrf) = try await test.browserSession()
        let key = test.server.userKey
        let csrf = csrf
        addSecret("the user's key and the page's CSRF token", strings: [key, csrf]) { $0.isUser }

        // The user's photos and movies: shared with limited clients, or with nobody.
        let folder = test.folder
        granted = try await importAsUser(try SyntheticPhoto(width: 320, height: 240, seed: 1).image().encoded(as: .jpeg), filename: "SHARED-PHOTO.jpg")
        var place = ImageMetadata()
        place.make = "Shoebox"
        place.model = "Matrix"
        place.latitude = 47.6205063
        place.longitude = -122.3492774
        place.dateTimeOriginal = ImageMetadata.DateTime(Date().addingTimeInterval(-86_400), timeZone: TimeZone(identifier: "UTC")!)
        let secretName = "SECRET-PHOTO-\(UUID().uuidString).jpg"
        // Its place is the catalog's (from the metadata given with the bytes).
        let secretData = try SyntheticPhoto(width: 320, height: 240, seed: 2).image().encoded(as: .jpeg)
        let imported = try await test.library.performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(from: secretData, metadata: place, filename: secretName)
        }
        secret = try imported.created.first.orThrow("the secret photo was not imported").localIdentifier
        let secretBytes = try await test.user("GET", "/api/assets/\(TestServer.escaped(secret))/original").body
        let movieURL = try SyntheticMovie(duration: 1, width: 160, height: 120, hasAudio: false).write(to: folder.appendingPathComponent("movie.mp4"))
        grantedMovie = try await importAsUser(try Data(contentsOf: movieURL), filename: "SHARED-MOVIE.mp4")
        let shared = try await test.library.fetchAssets(withLocalIdentifiers: [granted, grantedMovie]).allObjects()
        shareToken = try await test.library.createSharedLink(title: "Matrix link", assets: shared, options: .init(allowsDownload: true)).token
        _ = try await test.library.addPerson(name: Self.memberName, password: Self.memberPassword)
        (memberCookie, memberCSRF) = try await test.personSession(name: Self.memberName, password: Self.memberPassword)
        _ = try await test.library.addPerson(name: "matrix-spare")
        let disabled = try await test.library.addPerson(name: "matrix-disabled", password: Self.memberPassword)
        disabledCookie = try await test.personSession(name: "matrix-disabled", password: Self.memberPassword).cookie
        try await test.library.setState(.disabled, of: disabled)
        let (memberCookie, memberCSRF, disabledCookie) = (memberCookie, memberCSRF, disabledCookie)
        addSecret("the member's session and CSRF token", strings: [memberCookie, memberCSRF]) { $0 == .member }
        addSecret("the disabled person's session", strings: [disabledCookie]) { $0 == .disabledMember }
        shareID = try await test.library.createSharedLink(assets: Array(shared.prefix(1))).link.id
        let secretMovieName = "SECRET-MOVIE-\(UUID().uuidString).mp4"
        let secretMovieURL = try SyntheticMovie(duration: 1, width: 128, height: 96, hasAudio: false)
            .write(to: folder.appendingPathComponent(secretMovieName))
        let secretMovieBytes = try Data(contentsOf: secretMovieURL)
        secretMovie = try await importAsUser(secretMovieBytes, filename: secretMovieName)

        // The secret photo as the user sees it: its hash, its place as the API writes it, its bytes.
        let detail = try await test.user("GET", "/api/assets/\(TestServer.escaped(secret))")
        let asset = try (try detail.object()["asset"] as? [String: Any]).orThrow("no asset in \(detail.text)")
        let hash = try (asset["contentHash"] as? String).orThrow("no contentHash")
        let latitude = try Self.figure("latitude", in: detail.text).orThrow("the secret photo has no latitude: \(detail.text)")
        let longitude = try Self.figure("longitude", in: detail.text).orThrow("the secret photo has no longitude")
        let thumbnail = try await test.user("GET", "/api/assets/\(TestServer.escaped(secret))/thumbnail?size=64").body
        addSecret(
            "the secret photo",
            strings: Self.needles(secret) + [secretName, hash, String(hash.prefix(20)), String(latitude.prefix(7)), String(longitude.prefix(8))],
            bytes: [Self.slice(secretBytes), Self.slice(thumbnail)]
        ) { $0.isUser || $0.readScope == .all }
        let movieHash =
            try await (test.user("GET", "/api/assets/\(TestServer.escaped(secretMovie))").object()["asset"] as? [String: Any])?["contentHash"] as? String ?? ""
        addSecret("the secret movie", strings: Self.needles(secretMovie) + [secretMovieName, movieHash], bytes: [Self.slice(secretMovieBytes)]) {
            $0.isUser || $0.readScope == .all
        }
        // Every shared object is a favorite: the matrix's favorite calls change nothing.
        for id in [granted, secret, grantedMovie, secretMovie] {
            try await asUser("PATCH", "/api/assets/\(TestServer.escaped(id))", json: ["isFavorite": true])
        }

        // The user's album (holding the secret photo) and folder.
        userAlbum = try await makeUserAlbum(holding: [secret])
        userFolder = try await makeUserFolder()

        // The clients: registered by the user (so the rate limit for strangers is the matrix's),
        // each able to do everything while it makes its objects, then given its grants.
        for identity in MatrixIdentity.allCases where identity.clientIdentifier != nil {
            tokens[identity] = try await registerAsUser(identity.clientIdentifier!, displayName: "Matrix \(identity.rawValue)")
            addSecret("\(identity.rawValue)'s token", strings: [tokens[identity]!]) { $0 == identity }
            addSecret("\(identity.rawValue)'s identifier", strings: [identity.clientIdentifier!]) { $0 == identity || $0.isUser || $0.readScope == .all }
            try await setGrants(identity.clientIdentifier!, photoLibrary: "authorized", add: "authorized", camera: "authorized")
        }
        addSecret("the forged token", strings: [forgedToken]) { $0 == .forged }
        for identity in MatrixIdentity.allCases where identity.clientIdentifier != nil {
            owned[.client(identity)] = try await makeOwned(by: identity)
        }
        owned[.user] = try await makeOwned(by: .user)
        versions = try await currentVersions()

        // The administrator restricts one client; the others get their grants; two lose their tokens.
        let rules = ["photoLibrary", "camera", "microphone"].map { ["client": MatrixIdentity.restricted.clientIdentifier!, "service": $0] }
        try JSONSerialization.data(withJSONObject: ["restricted": rules]).write(to: policyURL)
        for identity in MatrixIdentity.allCases where identity.clientIdentifier != nil {
            try await asUser("PUT", "/api/clients/\(identity.clientIdentifier!)/limited", json: ["assets": limitedSelection])
            try await applyGrants(identity)
        }
        try await asUser("DELETE", "/api/clients/\(MatrixIdentity.revoked.clientIdentifier!)/tokens")
        try await asUser("DELETE", "/api/clients/\(MatrixIdentity.removed.clientIdentifier!)")

        // A question that waits for the user throughout.
        prompt = try await makePrompt()
        try await answerer.start()
    }

    /// What `owner` makes while it may do everything: a photo and an album (clients), an upload,
    /// picker sessions of each kind, a session the user picked from, and a fetch snapshot.
    private func makeOwned(by identity: MatrixIdentity) async throws -> Owned {
        var made = Owned()
        if !identity.isUser {
            made.asset = try await makeAsset(by: identity, filename: "OWN-\(identity.rawValue)-\(UUID().uuidString).jpg")
            made.album = try await makeAlbum(by: identity, title: "ALBUM-\(identity.rawValue)-\(UUID().uuidString)")
        }
        made.upload = try await makeUpload(by: identity)
        for kind in [MatrixEndpoint.SessionKind.library, .camera, .customControls] {
            made.sessions[kind] = try await makeSession(kind, by: identity)
        }
        made.pick = try await makePick(by: identity)
        made.fetch = try await makeFetch(by: identity)
        return made
    }

    // MARK: Objects

    /// The JPEG of a photo nobody has imported yet.
    func uniquePhoto() -> Data {
        let seed = mutable.withLock { state -> UInt64 in
            state.seed += 1
            return state.seed
        }
        return (try? SyntheticPhoto(width: 96, height: 72, seed: seed).image().encoded(as: .jpeg)) ?? Data()
    }

    private func nextNumber() -> Int {
        mutable.withLock { state in
            state.counter += 1
            return state.counter
        }
    }

    private func importAsUser(_ bytes: Data, filename: String) async throws -> String {
        let response = try await test.user("POST", "/api/assets?filename=\(filename)", body: bytes)
        guard response.status == 201 else { throw RawHTTP.Failure(description: "importing \(filename): \(response.status) \(response.text)") }
        return try (try response.object()["localIdentifier"] as? String).orThrow("no localIdentifier")
    }

    /// A photo `identity` uploads (the user's: shared with nobody).
    func makeAsset(by identity: MatrixIdentity, filename: String) async throws -> String {
        let bytes = uniquePhoto()
        let response = try await withAbilities(of: identity, needing: .add) {
            try await self.call(identity, "POST", "/api/assets?filename=\(filename)", body: .bytes(bytes))
        }
        guard response.status == 201, let id = try response.object()["localIdentifier"] as? String else {
            throw RawHTTP.Failure(description: "\(identity) uploading \(filename): \(response.status) \(response.text)")
        }
        let hash = try response.object()["sha256"] as? String ?? ""
        addSecret("\(identity.rawValue)'s photo \(filename)", strings: Self.needles(id) + [filename, hash], bytes: [Self.slice(bytes)]) {
            $0 == identity || $0.isUser || $0.readScope == .all
        }
        return id
    }

    func makeAlbum(by identity: MatrixIdentity, title: String, holding assets: [String] = []) async throws -> String {
        let response = try await withAbilities(of: identity, needing: .read) {
            try await self.call(identity, "POST", "/api/albums", body: .object(["title": title, "assets": assets]))
        }
        guard response.status == 201, let id = try response.object()["localIdentifier"] as? String else {
            throw RawHTTP.Failure(description: "\(identity) making album \(title): \(response.status) \(response.text)")
        }
        mutable.withLock { $0.titles[id] = title }
        addSecret("\(identity.rawValue)'s album \(title)", strings: Self.needles(id) + [title]) { $0 == identity || $0.isUser || $0.readScope == .all }
        return id
    }

    private func makeUserAlbum(holding assets: [String] = []) async throws -> String {
        try await makeAlbum(by: .user, title: "SECRET-ALBUM-\(UUID().uuidString)", holding: assets)
    }

    private func makeUserFolder() async throws -> String {
        let title = "SECRET-FOLDER-\(UUID().uuidString)"
        var placeholder: String?
        try await test.library.performChanges {
            placeholder = AssetCollectionChangeRequest.creationRequestForFolder(withTitle: title).placeholderForCreatedAssetCollection?.localIdentifier
        }
        let id = try placeholder.orThrow("no folder made")
        mutable.withLock { $0.titles[id] = title }
        addSecret("the user's folder \(title)", strings: Self.needles(id) + [title]) { $0.isUser || $0.readScope == .all }
        return id
    }

    func title(ofAlbum id: String) -> String {
        mutable.withLock { $0.titles[id] } ?? "Untitled"
    }

    private func makeUpload(by identity: MatrixIdentity) async throws -> String {
        let bytes = uniquePhoto()
        let response = try await withAbilities(of: identity, needing: .add) {
            try await self.call(identity, "POST", "/api/uploads", body: .object(["filename": "UPLOAD-\(UUID().uuidString).jpg", "size": bytes.count]))
        }
        guard response.status == 201, let id = try response.object()["id"] as? String else {
            throw RawHTTP.Failure(description: "\(identity) beginning an upload: \(response.status) \(response.text)")
        }
        mutable.withLock { $0.uploadBytes[id] = bytes }
        addSecret("\(identity.rawValue)'s upload", strings: [id]) { $0 == identity || $0.isUser }
        return id
    }

    func bytes(ofUpload id: String) -> Data {
        mutable.withLock { $0.uploadBytes[id] } ?? Data()
    }

    /// A picker request of each kind, as `POST /api/picker/sessions` takes it.
    static func request(for kind: MatrixEndpoint.SessionKind) -> [String: Any] {
        let both = ["public.image", "public.movie"]
        switch kind {
        case .library: return ["mediaTypes": both, "allowsEditing": true, "configuration": ["selectionLimit": 0]]
        case .camera: return ["sourceType": "camera", "mediaTypes": both, "camera": ["source": "captureDevice"]]
        case .customControls: return ["sourceType": "camera", "mediaTypes": both, "camera": ["source": "captureDevice", "showsControls": false]]
        }
    }

    func makeSession(_ kind: MatrixEndpoint.SessionKind, by identity: MatrixIdentity) async throws -> String {
        let response = try await withAbilities(of: identity, needing: kind == .library ? .nothing : .camera) {
            try await self.call(identity, "POST", "/api/picker/sessions", body: .object(Self.request(for: kind)))
        }
        guard response.status == 201, let id = try response.object()["id"] as? String else {
            throw RawHTTP.Failure(description: "\(identity) making a \(kind) picker: \(response.status) \(response.text)")
        }
        addSecret("\(identity.rawValue)'s picker session", strings: [id]) { $0 == identity || $0.isUser }
        return id
    }

    /// A session of `identity`'s in which the user picked the shared photo; its file's name.
    private func makePick(by identity: MatrixIdentity) async throws -> (session: String, file: String) {
        let session = try await makeSession(.library, by: identity)
        let ui = "/api/picker/sessions/\(session)/ui"
        if recents.isEmpty {
            let albums = try await test.user("GET", "\(ui)/albums").array()
            recents = try (albums.first { $0["title"] as? String == "Recents" }?["id"] as? String).orThrow("no Recents in \(albums)")
        }
        try await asUser("POST", "\(ui)/album", json: ["id": recents])
        try await asUser("POST", "\(ui)/select", json: ["id": granted])
        try await asUser("POST", "\(ui)/confirm")
        let result = try await call(identity, "GET", "/api/picker/sessions/\(session)?wait=30").object()
        let files = try ((result["results"] as? [[String: Any]])?.first?["files"] as? [String: String]).orThrow("no files in \(result)")
        let image = try files["image"].orThrow("no image in \(files)")
        return (session, String(image.split(separator: "/").last ?? ""))
    }

    private func makeFetch(by identity: MatrixIdentity) async throws -> String {
        let response = try await withAbilities(of: identity, needing: .read) {
            try await self.call(identity, "POST", "/api/fetches", body: .object([String: Any]()))
        }
        guard response.status == 201, let id = try response.object()["id"] as? String else {
            throw RawHTTP.Failure(description: "\(identity) fetching: \(response.status) \(response.text)")
        }
        // Only its owner ever holds it (the user's is the user's, through the key or the cookie).
        addSecret("\(identity.rawValue)'s fetch", strings: [id]) { $0 == identity || (identity.isUser && $0.isUser) }
        return id
    }

    /// A question of a new client's (its camera), waiting for the user's answer.
    private func makePrompt() async throws -> String {
        let asker = "com.matrix.asker-\(nextNumber())"
        let token = try await registerAsUser(asker, displayName: "Asker", usage: ["NSCameraUsageDescription": "To ask."])
        let test = test
        let asking = Task { _ = try? await test.client(token, "POST", "/api/authorization/camera") }
        mutable.withLock { $0.askers.append(asking) }
        let question = try await test.awaitPrompt(from: asker)
        guard let id = question["id"] as? String else { throw RawHTTP.Failure(description: "\(asker)'s question has no id") }
        addSecret("a question for the user", strings: [id]) { $0.isUser }
        return id
    }

    private func currentVersions() async throws -> [String: String] {
        let listed = try await test.user("GET", "/api/assets?limit=1000").object()["assets"] as? [[String: Any]] ?? []
        var versions: [String: String] = [:]
        for asset in listed {
            if let id = asset["localIdentifier"] as? String, let version = asset["version"] as? String { versions[id] = version }
        }
        return versions
    }

    // MARK: Clients and grants

    func manifest(of identifier: String) -> [String: Any] {
        let identity = MatrixIdentity.allCases.first { $0.clientIdentifier == identifier }
        return [
            "identifier": identifier, "displayName": identity.map { "Matrix \($0.rawValue)" } ?? "Matrix new",
            "usageDescriptions": Self.usage,
        ]
    }

    static let usage = [
        "NSPhotoLibraryUsageDescription": "To show your photos", "NSPhotoLibraryAddUsageDescription": "To save photos",
        "NSCameraUsageDescription": "To take photos", "NSMicrophoneUsageDescription": "To record movies",
    ]

    private func registerAsUser(_ identifier: String, displayName: String, usage: [String: String] = MatrixFixture.usage) async throws -> String {
        let response = try await test.user("POST", "/api/clients", json: ["identifier": identifier, "displayName": displayName, "usageDescriptions": usage])
        guard response.status == 201 else { throw RawHTTP.Failure(description: "registering \(identifier): \(response.status) \(response.text)") }
        return try (try response.object()["token"] as? String).orThrow("no token")
    }

    /// The stored status of a service (what `PUT …/services/SERVICE` sets), `notDetermined` when none.
    func storedStatus(of identifier: String, service: String) -> String {
        let identity = MatrixIdentity.allCases.first { $0.clientIdentifier == identifier }
        let grants = identity?.grants
        return switch service {
        case "photoLibrary": grants?.photoLibrary ?? "notDetermined"
        case "photoLibraryAdd": grants?.photoLibraryAdd ?? "notDetermined"
        default: grants?.camera ?? "notDetermined"
        }
    }

    private func setGrants(_ identifier: String, photoLibrary: String, add: String, camera: String) async throws {
        for (service, status) in [("photoLibrary", photoLibrary), ("photoLibraryAdd", add), ("camera", camera), ("microphone", camera)] {
            try await asUser("PUT", "/api/clients/\(identifier)/services/\(service)", json: ["status": status])
        }
    }

    /// Sets the identity's grants to what the matrix says they are (after a question changed one).
    func applyGrants(_ identity: MatrixIdentity) async throws {
        guard let identifier = identity.clientIdentifier, !identity.hasBadToken else { return }
        try await setGrants(
            identifier, photoLibrary: storedStatus(of: identifier, service: "photoLibrary"),
            add: storedStatus(of: identifier, service: "photoLibraryAdd"), camera: storedStatus(of: identifier, service: "camera"))
    }

    /// What making an object takes.
    enum Ability { case nothing, read, add, camera }

    /// Runs `body` (making an object) with the client allowed to do what it takes (restrictions
    /// aside), then gives it back its grants; the user, and clients that may do it already (or
    /// are still being set up, allowed everything), run it as they are.
    private func withAbilities<T>(of identity: MatrixIdentity, needing ability: Ability, _ body: () async throws -> T) async throws -> T {
        let has =
            switch ability {
            case .nothing: true
            case .read: identity.readScope != nil
            case .add: identity.mayAdd
            case .camera: identity.status(of: "camera") == "authorized"
            }
        guard let identifier = identity.clientIdentifier, !identity.hasBadToken, owned[.client(identity)] != nil, !has else {
            return try await body()
        }
        // The restricted client made its objects before the administrator restricted it.
        let policy = identity == .restricted ? try Data(contentsOf: policyURL) : nil
        if policy != nil { try Data(#"{"restricted": []}"#.utf8).write(to: policyURL) }
        try await setGrants(identifier, photoLibrary: "authorized", add: "authorized", camera: "authorized")
        let result: Result<T, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        if let policy { try policy.write(to: policyURL) }
        try await applyGrants(identity)
        return try result.get()
    }

    // MARK: Cells

    /// The owner whose objects are the identity's own (`nil`: nobody's, for nobody and the forged token).
    func owner(of identity: MatrixIdentity) -> Owner? {
        if identity.isUser { return .user }
        return identity.clientIdentifier == nil ? nil : .client(identity)
    }

    /// Another client, whose objects the identity must not reach.
    func otherOwner(of identity: MatrixIdentity) -> MatrixIdentity {
        identity == .other ? .authorized : .other
    }

    /// What a cell fills its path and body with: `o` (escaped) and `oRaw`, and the fixed values;
    /// `nil` when the identity has no such object (nobody owns no album).
    func values(for identity: MatrixIdentity, object: MatrixObject, session kind: MatrixEndpoint.SessionKind) -> MatrixEndpoint.Values? {
        var values: MatrixEndpoint.Values = [
            "granted": TestServer.escaped(granted), "grantedRaw": granted, "movie": TestServer.escaped(grantedMovie), "movieRaw": grantedMovie,
            "secret": TestServer.escaped(secret), "recents": recents, "appFile": "app.css", "capture": "capture-1", "service": "photoLibrary",
            "memory": "year-1999", "share": shareToken, "shareID": shareID, "first": "0", "second": "1",
            "member": Self.memberName, "spare": "matrix-spare", "noPerson": "no-such-person", "noSession": "no-such-session", "noKey": "no-such-key",
            "noPasskey": "no-such-passkey", "noAlbum": "no-such-album", "noAsset": "no-such-asset", "noComment": "no-such-comment",
        ]
        let mine = owner(of: identity).flatMap { owned[$0] }
        let others = owned[.client(otherOwner(of: identity))]!
        let id: String?
        switch object {
        case .none: return values
        case .ownAsset: id = mine?.asset
        case .grantedAsset: id = granted
        case .secretAsset: id = secret
        case .otherAsset: id = others.asset
        case .grantedMovie: id = grantedMovie
        case .secretMovie: id = secretMovie
        case .ownAlbum: id = mine?.album
        case .userAlbum: id = userAlbum
        case .userFolder: id = userFolder
        case .otherAlbum: id = others.album
        case .ownFetch: id = mine?.fetch
        case .otherFetch: id = others.fetch
        case .ownUpload: id = mine?.upload
        case .otherUpload: id = others.upload
        case .ownSession: id = mine?.sessions[kind]
        case .otherSession: id = others.sessions[kind]
        case .ownPick:
            id = mine?.pick?.session
            values["file"] = mine?.pick?.file
        case .otherPick:
            id = others.pick?.session
            values["file"] = others.pick?.file
        case .prompt: id = prompt
        case .selfClient: id = identity.clientIdentifier
        case .otherClient: id = otherOwner(of: identity).clientIdentifier
        // Strangers may register 20 clients at once: new identifiers are for the user and nobody.
        case .newClient: id = identity.clientIdentifier == nil ? "com.matrix.new-\(nextNumber())" : nil
        case .photoLibrary, .photoLibraryAdd, .camera, .microphone: id = object.rawValue
        }
        guard let id else { return nil }
        values["o"] = TestServer.escaped(id)
        values["oRaw"] = id
        values["v"] = versions[id] ?? ""
        values["resource"] = object == .grantedMovie || object == .secretMovie ? "video" : "photo"  // its original's resource type
        return values
    }

    /// A new object in place of one a successful cell uses up (deletes, finishes, answers).
    func fresh(
        _ object: MatrixObject, for identity: MatrixIdentity, session kind: MatrixEndpoint.SessionKind,
        values: MatrixEndpoint.Values
    ) async throws -> MatrixEndpoint.Values {
        var values = values
        let maker = owner(of: identity) == .user ? MatrixIdentity.user : identity
        let id: String
        switch object {
        case .grantedAsset, .secretAsset, .ownAsset: id = try await makeAsset(by: maker, filename: "SECRET-FRESH-\(UUID().uuidString).jpg")
        case .otherAsset: id = try await makeAsset(by: otherOwner(of: identity), filename: "OTHER-FRESH-\(UUID().uuidString).jpg")
        case .ownAlbum: id = try await makeAlbum(by: maker, title: "ALBUM-\(maker.rawValue)-\(UUID().uuidString)")
        case .userAlbum: id = try await makeUserAlbum()
        case .userFolder: id = try await makeUserFolder()
        case .otherAlbum: id = try await makeAlbum(by: otherOwner(of: identity), title: "ALBUM-other-\(UUID().uuidString)")
        case .ownUpload: id = try await makeUpload(by: maker)
        case .otherUpload: id = try await makeUpload(by: otherOwner(of: identity))
        case .ownSession: id = try await makeSession(kind, by: maker)
        case .otherSession: id = try await makeSession(kind, by: otherOwner(of: identity))
        case .prompt: id = try await makePrompt()
        case .otherClient, .selfClient:
            id = "com.matrix.scratch-\(nextNumber())"
            _ = try await registerAsUser(id, displayName: "Scratch")
        default: throw RawHTTP.Failure(description: "no fresh \(object) for \(identity)")
        }
        values["o"] = TestServer.escaped(id)
        values["oRaw"] = id
        return values
    }

    // MARK: Calling

    /// The headers that make a request the identity's.
    func credentials(_ identity: MatrixIdentity, changing: Bool) -> [String: String] {
        switch identity {
        case .user: return ["Authorization": "Bearer \(test.server.userKey)"]
        case .browser: return changing ? ["Cookie": cookie, "X-Shoebox-CSRF": csrf, "Origin": origin] : ["Cookie": cookie]
        case .browserWithoutCSRF: return ["Cookie": cookie]
        case .member: return changing ? ["Cookie": memberCookie, "X-Shoebox-CSRF": memberCSRF, "Origin": origin] : ["Cookie": memberCookie]
        case .disabledMember: return ["Cookie": disabledCookie]
        case .anonymous: return [:]
        case .forged: return ["Authorization": "Bearer \(forgedToken)"]
        default: return ["Authorization": "Bearer \(tokens[identity] ?? "")"]
        }
    }

    /// Sends a request as `identity`. `GET` and `HEAD` go on a kept-alive connection (as a browser
    /// sends them, so the user's thumbnail fast path is in play); a stream is read until its
    /// first event (or part), then hung up.
    func call(
        _ identity: MatrixIdentity, _ method: String, _ path: String, body: MatrixEndpoint.Body = .none,
        streams: Bool = false
    ) async throws -> RawHTTP.Response {
        var headers = credentials(identity, changing: !["GET", "HEAD"].contains(method))
        var payload: Data?
        switch body {
        case .none: break
        case .json(let data):
            payload = data
            headers["Content-Type"] = "application/json"
        case .bytes(let data):
            payload = data
            headers["Content-Type"] = "application/octet-stream"
        }
        if streams { return try await readStream(path, headers: headers) }
        if ["GET", "HEAD"].contains(method), payload == nil {
            return try await test.http.pipeline([(method, path, headers)]).first.orThrow("no answer to \(method) \(path)")
        }
        return try await test.http.send(method, path, headers: headers, body: payload)
    }

    private func readStream(_ path: String, headers: [String: String]) async throws -> RawHTTP.Response {
        let stream = try test.http.open(path, headers: headers)
        let head = await stream.read(until: "\r\n\r\n", timeout: 15)
        guard head.contains("\r\n\r\n") else { throw RawHTTP.Failure(description: "no answer to GET \(path): \(head)") }
        if head.hasPrefix("HTTP/1.1 200") {
            if path.hasSuffix("/camera/preview") {
                _ = await stream.read(until: "image/jpeg", timeout: 10)
            } else {
                _ = await stream.read(until: ": shoebox\n\n", timeout: 10)
                // Events sent at once: the picker page's state, a reset for a fetch the caller does not hold.
                if path.hasSuffix("/ui/events") { _ = await stream.read(until: "}\n\n", timeout: 5) }
                if path.contains("fetch=") { _ = await stream.read(until: "}\n\n", timeout: 0.3) }
            }
        } else {
            _ = await stream.read(until: "}}", timeout: 5)
        }
        return try RawHTTP.parse(stream.received)
    }

    /// As the user, expecting success.
    @discardableResult
    func asUser(_ method: String, _ path: String, json: Any? = nil, body: Data? = nil) async throws -> RawHTTP.Response {
        let response = try await test.user(method, path, json: json, body: body)
        guard (200..<300).contains(response.status) else {
            throw RawHTTP.Failure(description: "the user's \(method) \(path): \(response.status) \(response.text.prefix(300))")
        }
        return response
    }

    // MARK: Secrets

    func addSecret(_ label: String, strings: [String], bytes: [Data] = [], visibleTo: @escaping @Sendable (MatrixIdentity) -> Bool) {
        let secret = Secret(label: label, strings: strings.filter { $0.count >= 6 }, bytes: bytes.filter { !$0.isEmpty }, visibleTo: visibleTo)
        mutable.withLock { $0.secrets.append(secret) }
    }

    /// A new asset or album a cell made, as a secret of its maker's.
    func madeByCell(_ id: String, by identity: MatrixIdentity) {
        addSecret("what \(identity.rawValue) made in a cell", strings: Self.needles(id)) { $0 == identity || $0.isUser || $0.readScope == .all }
    }

    /// The secrets in `body` and `headers` that `identity` may not see, leaving out what the
    /// request itself carried (`request`: an error naming the id it was given leaks nothing).
    func leaks(body: Data, headers: [String: String], for identity: MatrixIdentity, request: String) -> [String] {
        let headerBytes = Array(headers.map { "\($0.key): \($0.value)" }.joined(separator: "\n").utf8)
        let bodyBytes = [UInt8](body)
        var found: [String] = []
        for secret in forbidden(to: identity) {
            if let needle = secret.strings.first(where: { Self.contains(bodyBytes, $0.bytes) || Self.contains(headerBytes, $0.bytes) }),
                !request.contains(needle.text)
            {
                found.append("\(secret.label) (\(needle.text))")
            } else if secret.bytes.contains(where: { Self.contains(bodyBytes, $0) }) {
                found.append("\(secret.label) (its bytes)")
            }
        }
        return found
    }

    /// A secret as the scan looks for it.
    private struct Needles {
        let label: String
        let strings: [(text: String, bytes: [UInt8])]
        let bytes: [[UInt8]]
    }

    /// The secrets `identity` may not see, kept until a secret is added.
    private func forbidden(to identity: MatrixIdentity) -> [Needles] {
        let all = secrets
        return forbiddenCache.withLock { cache in
            if let cached = cache[identity], cached.count == all.count { return cached.needles }
            let needles = all.filter { !$0.visibleTo(identity) }.map { secret in
                Needles(label: secret.label, strings: secret.strings.map { ($0, Array($0.utf8)) }, bytes: secret.bytes.map { [UInt8]($0) })
            }
            cache[identity] = (all.count, needles)
            return needles
        }
    }

    private let forbiddenCache = Mutex<[MatrixIdentity: (count: Int, needles: [Needles])]>([:])

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        // memchr to each place the first byte is, memcmp there (memmem is not in Glibc's module).
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                let start = hay.baseAddress!
                let last = hay.count - pin.count
                var index = 0
                while index <= last {
                    guard let found = memchr(start + index, Int32(pin[0]), last - index + 1) else { return false }
                    index = UnsafeRawPointer(start).distance(to: UnsafeRawPointer(found))
                    if memcmp(start + index, pin.baseAddress!, pin.count) == 0 { return true }
                    index += 1
                }
                return false
            }
        }
    }

    /// An identifier and, for `UUID/L0/001` ones, its UUID (JSON may write the slashes as `\/`).
    static func needles(_ id: String) -> [String] {
        let head = id.split(separator: "/").first.map(String.init) ?? id
        return head.count >= 32 && head != id ? [id, head] : [id]
    }

    /// 32 bytes from the middle of a file: none of another file's.
    static func slice(_ data: Data) -> Data {
        guard data.count > 96 else { return data }
        let start = data.startIndex + data.count / 2
        return data[start..<start + 32]
    }

    /// A number as the JSON text writes it: `"latitude":47.62…`.
    static func figure(_ key: String, in text: String) -> String? {
        guard let range = text.range(of: "\"\(key)\":") else { return nil }
        let figure = text[range.upperBound...].prefix { "-0123456789.eE".contains($0) }
        return figure.isEmpty ? nil : String(figure)
    }
}
