import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Synchronization
import Testing

@testable import ShoeboxLibrary

/// Answers prompts from a script, counting them; a user who thinks answers once told to.
final class ScriptedPrompter: AuthorizationPrompter {
    let answer: AuthorizationAnswer
    /// Set for a user who thinks: each answer waits for it to end.
    let thinking: AsyncStream<Void>?
    private let asked = Mutex<[AuthorizationPrompt]>([])

    init(_ answer: AuthorizationAnswer, thinking: AsyncStream<Void>? = nil) {
        self.answer = answer
        self.thinking = thinking
    }

    var prompts: [AuthorizationPrompt] { asked.withLock { $0 } }

    func prompt(_ prompt: AuthorizationPrompt) async throws(AuthorizationError) -> AuthorizationAnswer {
        asked.withLock { $0.append(prompt) }
        if let thinking { for await _ in thinking {} }
        return answer
    }
}

@Suite struct AuthorizationTests {
    static let full = ClientManifest(
        identifier: "com.example.app", displayName: "Example",
        usageDescriptions: [
            .camera: "Takes pictures.", .microphone: "Records sound.", .photoLibrary: "Shows your photos.", .photoLibraryAdd: "Saves pictures.",
        ])

    /// A library with two photos made by the user and one made by the client; returns them.
    func fixture() async throws -> (TemporaryLibrary, Authorization, user: [Asset]) {
        let fixture = try await TemporaryLibrary()
        let authorization = Authorization(library: fixture.library)
        try await authorization.register(Self.full)
        let ids = try await fixture.importFiles([try fixture.photo("a.jpg", seed: 1), try fixture.photo("b.jpg", seed: 2)])
        return (fixture, authorization, try await fixture.library.fetchAssets(withLocalIdentifiers: ids).allObjects())
    }

    enum Outcome: Equatable, CustomStringConvertible {
        case allowed, refused, hidden
        var description: String { "\(self)" }
    }

    static func outcome(_ body: () async throws -> Void) async -> Outcome {
        do {
            try await body()
            return .allowed
        } catch let error as LibraryError {
            switch error.code {
            case .authorization: return .refused
            case .notFound: return .hidden
            default: return .refused
            }
        } catch {
            return .refused
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let readWrite: Authorization.Status?
        let addOnly: Authorization.Status?
        let restrictedByPolicy: Bool
        // Expected: fetch sees N assets (nil: refused), image of a user photo, create, edit own, delete user photo.
        let fetchCount: Int?
        let image: Outcome
        let create: Outcome
        let editOwn: Outcome
        let deleteUsers: Outcome
        /// A request for the user's asset the client's limited selection holds.
        let imageOfSelected: Outcome
        /// The service the policy restricts, when `restrictedByPolicy`.
        var restrictedService = "*"
        var testDescription: String { name }
    }

    static let cases = [
        Case(
            name: "read-write authorized", readWrite: .authorized, addOnly: nil, restrictedByPolicy: false,
            fetchCount: 2, image: .allowed, create: .allowed, editOwn: .allowed, deleteUsers: .allowed, imageOfSelected: .allowed),
        Case(
            name: "read-write limited to one", readWrite: .limited, addOnly: nil, restrictedByPolicy: false,
            fetchCount: 1, image: .hidden, create: .allowed, editOwn: .allowed, deleteUsers: .refused, imageOfSelected: .allowed),
        Case(
            name: "add-only authorized", readWrite: nil, addOnly: .authorized, restrictedByPolicy: false,
            fetchCount: nil, image: .refused, create: .allowed, editOwn: .refused, deleteUsers: .refused, imageOfSelected: .refused),
        Case(
            name: "add-only denied", readWrite: nil, addOnly: .denied, restrictedByPolicy: false,
            fetchCount: nil, image: .refused, create: .refused, editOwn: .refused, deleteUsers: .refused, imageOfSelected: .refused),
        Case(
            name: "read-write denied", readWrite: .denied, addOnly: nil, restrictedByPolicy: false,
            fetchCount: nil, image: .refused, create: .refused, editOwn: .refused, deleteUsers: .refused, imageOfSelected: .refused),
        Case(
            name: "not determined", readWrite: nil, addOnly: nil, restrictedByPolicy: false,
            fetchCount: nil, image: .refused, create: .refused, editOwn: .refused, deleteUsers: .refused, imageOfSelected: .refused),
        Case(
            name: "restricted by policy", readWrite: .authorized, addOnly: .authorized, restrictedByPolicy: true,
            fetchCount: nil, image: .refused, create: .refused, editOwn: .refused, deleteUsers: .refused, imageOfSelected: .refused),
        // A read-write grant the policy restricts does not stand for add-only access either.
        Case(
            name: "read-write restricted by policy, adding never asked", readWrite: .authorized, addOnly: nil, restrictedByPolicy: true,
            fetchCount: nil, image: .refused, create: .refused, editOwn: .refused, deleteUsers: .refused, imageOfSelected: .refused,
            restrictedService: "photoLibrary"),
    ]

    @Test("What each status allows", arguments: cases)
    func matrix(_ expected: Case) async throws {
        let (fixture, authorization, user) = try await fixture()
        defer { fixture.remove() }
        let client = Self.full.identifier
        if let status = expected.readWrite { try await authorization.setStatus(status, for: .photoLibrary(.readWrite), client: client) }
        if let status = expected.addOnly { try await authorization.setStatus(status, for: .photoLibrary(.addOnly), client: client) }
        if expected.readWrite == .limited { try await authorization.setLimitedSelection([user[1].localIdentifier], client: client) }
        if expected.restrictedByPolicy {
            try Data(#"{"restricted": [{"client": "com.example.app", "service": "\#(expected.restrictedService)"}]}"#.utf8).write(to: authorization.policyURL)
            await #expect(try authorization.status(for: .photoLibrary(.readWrite), client: client) == .restricted)
        }
        let app = try await PhotoLibrary.open(at: fixture.library.url, clientIdentifier: client, backgroundWork: .onDemand)
        let manager = ImageManager(library: app)

        var fetched: Int?
        do { fetched = try await app.fetchAssets().count } catch {}
        #expect(fetched == expected.fetchCount)
        #expect(
            await Self.outcome {
                let result = await manager.requestImage(for: user[0], targetSize: PixelSize(square: 32)).finalResult()
                if let error = result?.error { throw error }
            } == expected.image)
        #expect(
            await Self.outcome {
                let result = await manager.requestImage(for: user[1], targetSize: PixelSize(square: 32)).finalResult()
                if let error = result?.error { throw error }
            } == expected.imageOfSelected)
        var created: Asset?
        #expect(
            await Self.outcome {
                let id = try await app.saveImage(try SyntheticPhoto(width: 40, height: 30, seed: 77).image(), filename: "mine.jpg")
                created = try await fixture.library.fetchAssets(withLocalIdentifiers: [id]).firstObject
            } == expected.create)
        if let created {
            #expect(created.creatorClient == client)
            #expect(await Self.outcome { _ = try await app.applyAdjustments(Adjustments(rotation: 90), to: created) } == expected.editOwn)
            if expected.readWrite == nil {
                // Add-only: it cannot read back even what it added.
                await #expect(throws: LibraryError.self) { _ = try await app.fetchAssets(withLocalIdentifiers: [created.localIdentifier]) }
            }
            // Another client with limited access and nothing selected sees none of it.
            let other = ClientManifest(identifier: "com.example.other", displayName: "Other", usageDescriptions: [.photoLibrary: "Others."])
            try await authorization.register(other)
            try await authorization.setStatus(.limited, for: .photoLibrary(.readWrite), client: other.identifier)
            let otherApp = try await PhotoLibrary.open(at: fixture.library.url, clientIdentifier: other.identifier)
            await #expect(try otherApp.fetchAssets().isEmpty, "one client's creations are not another's")
            await #expect(try otherApp.fetchAssets(withLocalIdentifiers: [created.localIdentifier]).isEmpty)
        }
        #expect(await Self.outcome { try await app.performChanges { AssetChangeRequest.deleteAssets([user[0]]) } } == expected.deleteUsers)
        if expected.deleteUsers != .allowed {
            await #expect(try fixture.library.fetchAssets().count >= 2, "a refused change changed nothing")
        }
    }

    @Test func decisionsPersistAndPromptOnceForConcurrentRequests() async throws {
        let (fixture, _, _) = try await fixture()
        defer { fixture.remove() }
        // The user answers once all ten requests wait on the prompt.
        let (thinking, decided) = AsyncStream<Void>.makeStream()
        let prompter = ScriptedPrompter(.allow, thinking: thinking)
        let authorization = Authorization(library: fixture.library, prompter: prompter)
        let sharing = authorization.sharingUpdates
        let statuses = try await withThrowingTaskGroup(of: Authorization.Status.self) { group in
            for _ in 0..<10 { group.addTask { try await authorization.requestAccess(for: .camera, client: Self.full.identifier) } }
            let all = try await withTimeLimit(.seconds(30)) {
                for await count in sharing where count == 10 { return true }
                return false
            }
            #expect(all, "ten requests never shared one prompt")
            decided.finish()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: .authorized, count: 10))
        #expect(prompter.prompts.count == 1)
        #expect(prompter.prompts.first?.usageDescription == "Takes pictures.")
        #expect(prompter.prompts.first?.offersLimitedAccess == false)
        // Remembered: no second prompt, and a reopened library knows.
        #expect(try await authorization.requestAccess(for: .camera, client: Self.full.identifier) == .authorized)
        #expect(prompter.prompts.count == 1)
        let reopened = Authorization(library: try await PhotoLibrary.open(at: fixture.library.url))
        await #expect(try reopened.status(for: .camera, client: Self.full.identifier) == .authorized)
        await #expect(try reopened.status(for: .microphone, client: Self.full.identifier) == .notDetermined)
        // Reset: asked again next time.
        try await reopened.setStatus(nil, for: .camera, client: Self.full.identifier)
        await #expect(try authorization.status(for: .camera, client: Self.full.identifier) == .notDetermined)
    }

    @Test func selectPhotosGivesLimitedAccessThatFollowsTheSelection() async throws {
        let (fixture, _, user) = try await fixture()
        defer { fixture.remove() }
        let authorization = Authorization(library: fixture.library, prompter: ScriptedPrompter(.selectPhotos([user[0].localIdentifier])))
        #expect(try await authorization.requestAccess(for: .photoLibrary(.readWrite), client: Self.full.identifier) == .limited)
        await #expect(try authorization.status(for: .photoLibrary(.addOnly), client: Self.full.identifier) == .authorized, "read-write includes adding")
        let app = try await PhotoLibrary.open(at: fixture.library.url, clientIdentifier: Self.full.identifier)
        await #expect(try app.fetchAssets().allObjects().map(\.localIdentifier) == [user[0].localIdentifier])
        try await authorization.setLimitedSelection([user[1].localIdentifier], client: Self.full.identifier)
        await #expect(try app.fetchAssets().allObjects().map(\.localIdentifier) == [user[1].localIdentifier])
        let recents = try await #require(try app.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumUserLibrary).firstObject)
        #expect(recents.estimatedAssetCount == 1, "counts show only what the client may see")
        await #expect(throws: LibraryError.self) { try await authorization.setLimitedSelection(["nope"], client: Self.full.identifier) }
    }

    @Test func revokingTakesEffectForAClientThatHoldsTheLibrary() async throws {
        let (fixture, authorization, user) = try await fixture()
        defer { fixture.remove() }
        try await authorization.setStatus(.authorized, for: .photoLibrary(.readWrite), client: Self.full.identifier)
        let app = try await PhotoLibrary.open(at: fixture.library.url, clientIdentifier: Self.full.identifier)
        await #expect(try app.fetchAssets().count == 2)
        _ = await ImageManager(library: app).requestImage(for: user[0], targetSize: PixelSize(square: 16)).finalResult()
        try await Authorization(library: try await PhotoLibrary.open(at: fixture.library.url)).setStatus(
            .denied, for: .photoLibrary(.readWrite), client: Self.full.identifier)
        do {
            _ = try await app.fetchAssets()
            Issue.record("a revoked client still fetched")
        } catch {
            #expect(error.authorizationError?.code == .notAuthorized)
        }
        let result = await ImageManager(library: app).requestImage(for: user[0], targetSize: PixelSize(square: 16)).finalResult()
        #expect(result?.image == nil && result?.error?.authorizationError?.code == .notAuthorized)
        // The privacy report says what it saw before (the client's buffered log written now).
        await app.flushAccessLog()
        let log = try await authorization.accessLog(client: Self.full.identifier)
        #expect(log.contains { $0.action == "image" && $0.localIdentifier == user[0].localIdentifier })
        #expect(log.contains { $0.action == "fetch" && $0.detail == "2 assets" })
    }

    /// A client cannot take a name people are known by beside clients (an upload's uploader is
    /// a client identifier or `person:N`): registered as `person:2`, it would count as person 2.
    @Test("Client identifiers that name people or Shoebox are refused", arguments: ["person:2", "Person:1", "user:1", "shoebox.cli", "shoebox"])
    func reservedIdentifiers(_ identifier: String) {
        #expect(throws: LibraryError.self) { try ClientManifest(identifier: identifier, displayName: "Sly").validate() }
    }

    @Test func policyNonInteractiveAndMissingDescriptions() async throws {
        let (fixture, authorization, _) = try await fixture()
        defer { fixture.remove() }
        let client = Self.full.identifier
        // Nobody to ask: a clear error, still notDetermined.
        do {
            _ = try await authorization.requestAccess(for: .microphone, client: client)
            Issue.record("a non-interactive request was answered")
        } catch let error as AuthorizationError {
            #expect(error.code == .cannotPrompt)
        }
        await #expect(try authorization.status(for: .microphone, client: client) == .notDetermined)
        // A service without a usage description, asked the HTTP way.
        try await authorization.register(ClientManifest(identifier: "com.example.bare", displayName: "Bare"))
        do {
            _ = try await authorization.requestAccess(for: .camera, client: "com.example.bare", missingUsageDescription: .throw)
            Issue.record("no usage description, yet no error")
        } catch let error as AuthorizationError {
            #expect(error == .missingUsageDescription(client: "com.example.bare", key: .camera))
            #expect(error.message.contains("NSCameraUsageDescription"))
        }
        await #expect(throws: AuthorizationError.unknownClient("com.nobody")) {
            _ = try await authorization.requestAccess(for: .camera, client: "com.nobody")
        }
        // The administrator's policy: restricted, never prompted, not changeable here.
        try Data(#"{"restricted": [{"client": "*", "service": "microphone"}]}"#.utf8).write(to: authorization.policyURL)
        let prompter = ScriptedPrompter(.allow)
        let asking = Authorization(library: fixture.library, prompter: prompter)
        #expect(try await asking.requestAccess(for: .microphone, client: client) == .restricted)
        #expect(try await asking.requestAccess(for: .camera, client: client) == .authorized)
        #expect(prompter.prompts.map(\.service) == [.camera])
        await #expect(throws: LibraryError.self) { try await authorization.setStatus(.restricted, for: .camera, client: client) }
        try await authorization.setStatus(.authorized, for: .microphone, client: client)
        await #expect(try authorization.status(for: .microphone, client: client) == .restricted, "the policy wins")
        // A malformed policy fails closed.
        try Data("{not json".utf8).write(to: authorization.policyURL)
        await #expect(try authorization.status(for: .camera, client: client) == .restricted)
    }

    /// A fetch result made while the client could see everything reads no more than its grant
    /// once the grant is narrowed or taken away: every page checks it.
    @Test func aSnapshotIsHeldToTheGrantAsItIsNow() async throws {
        let (fixture, authorization, user) = try await fixture()
        defer { fixture.remove() }
        try await authorization.setStatus(.authorized, for: .photoLibrary(.readWrite), client: Self.full.identifier)
        let client = fixture.library.forClient(Self.full.identifier)
        let snapshot = try await client.fetchAssets(with: FetchOptions())
        #expect(snapshot.count == 2)
        #expect(try await snapshot.objects(in: 0..<2).count == 2, "read once while allowed (the pages are now in memory)")

        try await authorization.setLimitedSelection([user[0].localIdentifier], client: Self.full.identifier)
        try await authorization.setStatus(.limited, for: .photoLibrary(.readWrite), client: Self.full.identifier)
        let narrowed = try await snapshot.objects(in: 0..<2)
        #expect(narrowed.map(\.localIdentifier) == [user[0].localIdentifier], "the snapshot still shows what the grant no longer allows")
        var iterated: [String] = []
        for try await asset in snapshot { iterated.append(asset.localIdentifier) }
        #expect(iterated == [user[0].localIdentifier])

        try await authorization.setStatus(.denied, for: .photoLibrary(.readWrite), client: Self.full.identifier)
        await #expect(throws: LibraryError.self) { _ = try await snapshot.objects(in: 0..<2) }
        await #expect(throws: LibraryError.self) { _ = try await snapshot.object(at: 0) }
        // The user's own results are not affected.
        #expect(try await fixture.library.fetchAssets(with: FetchOptions()).objects(in: 0..<2).count == 2)
    }
}

extension AuthorizationTests {
    @Test("A client with limited access finds no word of the user's album titles, one prefix at a time or whole")
    func searchIsNoOracleForAlbumTitles() async throws {
        let (fixture, authorization, user) = try await fixture()
        defer { fixture.remove() }
        // The user's private album holds the photo the client was given.
        try await fixture.library.performChanges {
            let album = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "SECRET-ALBUM-Mixed")
            album.addAssets([user[0]])
        }
        try await authorization.setLimitedSelection([user[0].localIdentifier], client: Self.full.identifier)
        try await authorization.setStatus(.limited, for: .photoLibrary(.readWrite), client: Self.full.identifier)
        let app = try await PhotoLibrary.open(at: fixture.library.url, clientIdentifier: Self.full.identifier)
        #expect(try await app.fetchAssets().count == 1, "the client sees the photo")
        #expect(try await fixture.library.fetchAssets(with: FetchOptions(predicate: .text("secret"))).count == 1, "the user finds it by the title")
        for word in ["s", "se", "sec", "secret", "secret album", "album", "mixed", "secret-album-mixed"] {
            let found = try await app.fetchAssets(with: FetchOptions(predicate: .text(word)))
            #expect(found.count == 0, "the client found the photo by “\(word)”, a word of the user's album title")
        }
        // Its own album's title finds it, as the album itself does.
        try await app.performChanges {
            let album = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Booth Shots")
            album.addAssets([user[0]])
        }
        #expect(try await app.fetchAssets(with: FetchOptions(predicate: .text("booth"))).count == 1)
        #expect(try await app.fetchAssets(with: FetchOptions(predicate: .text("booth secret"))).count == 0)
    }
}
