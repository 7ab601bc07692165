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
}
