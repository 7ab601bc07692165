import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Shared links in the library: what is kept (a hash of the token, a salted hash of the
/// password), expiry, revocation and who may make one.
@Suite struct SharedLinkTests {
    @Test("The token opens the link; the catalog holds only hashes; expiry and revocation close it")
    func tokens() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let ids = try await temporary.importFiles((0..<3).map { try temporary.photo("shared-\($0).jpg", seed: UInt64(50 + $0)) })
        let assets = try await library.fetchAssets(withLocalIdentifiers: ids).allObjects()
        let now = Date()
        let (link, token) = try await library.createSharedLink(
            assets: assets, options: .init(expiresDate: now.addingTimeInterval(3_600), password: "hunter2"),
            now: now)
        #expect(link.title == "3 photos" && link.hasPassword && !link.allowsDownload && !link.includesMetadata)
        #expect(token.count == 43, "256 bits in base64url")
        let record = try #require(try await library.sharedLinkRecord(forToken: token))
        #expect(record.tokenHash != token && !record.tokenHash.contains(token) && record.password?.contains("hunter2") == false)
        #expect(PhotoLibrary.sharedLinkPasswordMatches("hunter2", record: record))
        #expect(!PhotoLibrary.sharedLinkPasswordMatches("hunter3", record: record))
        #expect(!PhotoLibrary.sharedLinkPasswordMatches("", record: record))
        #expect(record.link.isOpen(at: now.addingTimeInterval(60)) && !record.link.isOpen(at: now.addingTimeInterval(7_200)))
        #expect(try await library.sharedLinkAssets(record).map(\.localIdentifier) == ids)
        // A photo deleted leaves the link.
        try await library.performChanges { AssetChangeRequest.deleteAssets([assets[1]]) }
        #expect(try await library.sharedLinkAssets(record).map(\.localIdentifier) == [ids[0], ids[2]])
        #expect(try await library.sharedLinkRecord(forToken: token + "x") == nil)
        try await library.revokeSharedLink(link.id)
        #expect(try await library.sharedLinkRecord(forToken: token) == nil)
        #expect(try await library.sharedLinks().first?.revokedDate != nil)
        await #expect(throws: LibraryError.self) { try await library.revokeSharedLink("nope") }
    }

    @Test("What cannot be shared is refused, and only the user shares")
    func refusals() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let ids = try await temporary.importFiles([try temporary.photo("one.jpg", seed: 60)])
        let assets = try await library.fetchAssets(withLocalIdentifiers: ids).allObjects()
        await #expect(throws: LibraryError.self) { _ = try await library.createSharedLink() }
        await #expect(throws: LibraryError.self) {
            _ = try await library.createSharedLink(assets: assets, options: .init(expiresDate: Date().addingTimeInterval(-1)))
        }
        await #expect(throws: LibraryError.self) { _ = try await library.createSharedLink(assets: assets, options: .init(password: "")) }
        await #expect(throws: LibraryError.self) { _ = try await library.createSharedLink(title: String(repeating: "x", count: 201), assets: assets) }
        let client = library.forClient("com.example.app")
        await #expect(throws: LibraryError.self) { _ = try await client.createSharedLink(assets: assets) }
    }

    @Test("Wrong passwords from many addresses close a link to every address; the view log keeps its latest entries")
    func guessingAndTheLogAreBounded() async throws {
        let temporary = try await TemporaryLibrary()
        defer { temporary.remove() }
        let library = temporary.library
        let ids = try await temporary.importFiles([try temporary.photo("guessed.jpg", seed: 90)])
        let assets = try await library.fetchAssets(withLocalIdentifiers: ids).allObjects()
        let (link, token) = try await library.createSharedLink(assets: assets, options: .init(password: "hunter2"))
        let record = try #require(try await library.sharedLinkRecord(forToken: token))

        // Each address stays under its own bound; together they reach the link's.
        var guesses = 0
        var address = 0
        while guesses < SharedLink.passwordAttemptsPerLink {
            address += 1
            for _ in 0..<min(SharedLink.passwordAttemptsPerAddress - 1, SharedLink.passwordAttemptsPerLink - guesses) {
                let wait = try await library.sharedLinkPasswordWait(record, address: "10.0.0.\(address)")
                #expect(wait == nil, "guess \(guesses + 1) from 10.0.0.\(address) was refused before any bound")
                await library.logSharedLinkView(record, address: "10.0.0.\(address)", what: SharedLink.View.wrongPassword)
                guesses += 1
            }
        }
        #expect(address > 1, "the guesses came from several addresses")
        #expect(
            try await library.sharedLinkPasswordWait(record, address: "10.0.1.1") != nil, "an address never seen guesses on after \(guesses) wrong passwords")
        let later = Date().addingTimeInterval(SharedLink.passwordWindow + 60)
        #expect(try await library.sharedLinkPasswordWait(record, address: "10.0.1.1", now: later) == nil, "the bound outlived its window")

        // A log already full (written straight into the catalog, older than any look) loses its
        // oldest entry to each new look, and keeps the new one.
        let store = try #require(library.catalog as? SQLCatalogStore)
        let old = Date().addingTimeInterval(-86_400)
        _ = try await store.write { db in
            for index in 0..<SharedLink.maximumLoggedViews {
                try await db.execute(
                    "INSERT INTO sharedLinkView (link, date, address, what) VALUES (\(record.id), \(old.addingTimeInterval(Double(index))), \("10.1.0.1"), \("visit"))"
                )
            }
        }
        await library.logSharedLinkView(record, address: "10.2.0.1", what: "visit")
        let views = try await library.sharedLinkViews(link.id, limit: SharedLink.maximumLoggedViews * 2)
        #expect(views.count == SharedLink.maximumLoggedViews, "\(views.count) entries logged")
        #expect(views.first?.address == "10.2.0.1", "the newest look is kept")
        // The 10,000 + 1 + `guesses` entries lose their oldest `guesses + 1`: the old rows at
        // old + 0 … old + guesses seconds (the catalog keeps dates to the millisecond: half a
        // second tells the rows apart).
        let kept = views.filter { $0.date < old.addingTimeInterval(Double(SharedLink.maximumLoggedViews)) }
        #expect(kept.count == SharedLink.maximumLoggedViews - 1 - guesses, "\(kept.count) old entries kept")
        #expect(!kept.contains { $0.date < old.addingTimeInterval(Double(guesses) + 0.5) }, "the oldest entries go first")
    }
}
