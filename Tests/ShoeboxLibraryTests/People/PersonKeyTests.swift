import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// People's keys for tools, in the catalog: each person's own, found by token while the person
/// is active, kept only as a hash, gone when revoked or with their person.
@Suite struct PersonKeyTests {
    @Test("A key is its person's: listed and revoked by them alone, found by its token while they are active, gone with them")
    func keysArePerPerson() async throws {
        let household = try await PeopleLibraryTests.Household()
        defer { household.remove() }
        let (annKey, annToken) = try await household.ann.makeKey(named: "  nightly backup  ", scope: .read)
        #expect(annKey.name == "nightly backup" && annKey.scope == .read && annKey.lastUsedDate == nil)
        #expect(annToken.hasPrefix(PersonKey.tokenPrefix) && annKey.prefix == String(annToken.prefix(8)))
        let (bobKey, bobToken) = try await household.bob.makeKey(named: "phone", scope: .upload)
        #expect(try await household.ann.keys().map(\.id) == [annKey.id])
        #expect(try await household.bob.keys().map(\.id) == [bobKey.id])

        // Found by token, for its person; a use notes the time.
        let found = try #require(try await household.ann.person(forKeyToken: bobToken))
        #expect(found.0.rowID == household.bobPerson.rowID && found.1.id == bobKey.id && found.1.scope == .upload)
        #expect(try await household.bob.keys().first?.lastUsedDate != nil)
        #expect(try await household.ann.person(forKeyToken: bobToken + "x") == nil)
        #expect(try await household.ann.person(forKeyToken: "not-a-key") == nil)

        // Only the hash is in the catalog.
        let everyone = household.ann.forEveryone()
        #expect(try await everyone.catalog.key(tokenHash: Hex.sha256(Data(annToken.utf8)))?.key.id == annKey.id)

        // Another person's key cannot be revoked by its id.
        #expect(try await household.ann.revokeKey(bobKey.id) == false)
        #expect(try await household.ann.person(forKeyToken: bobToken) != nil)

        // Disabled: no key of theirs works; enabled, they work again.
        try await household.ann.setState(.disabled, of: household.bobPerson)
        #expect(try await household.ann.person(forKeyToken: bobToken) == nil)
        try await household.ann.setState(.active, of: household.bobPerson)
        #expect(try await household.ann.person(forKeyToken: bobToken) != nil)

        // Revoked by its person.
        #expect(try await household.ann.revokeKey(annKey.id))
        #expect(try await household.ann.person(forKeyToken: annToken) == nil)
        #expect(try await household.ann.keys().isEmpty)

        // Removed with their person.
        try await household.ann.removePerson(household.bobPerson, deletingTheirLibrary: true)
        #expect(try await everyone.catalog.key(tokenHash: Hex.sha256(Data(bobToken.utf8))) == nil)
    }

    @Test("A key needs a name of 1 to 100 characters without control characters, and a person to act for")
    func badKeysAreRefused() async throws {
        let household = try await PeopleLibraryTests.Household()
        defer { household.remove() }
        for name in ["", "   ", String(repeating: "k", count: 101), "tab\there"] {
            await #expect(throws: LibraryError.self, "\(name.debugDescription)") { try await household.ann.makeKey(named: name, scope: .write) }
        }
        let refused = await #expect(throws: LibraryError.self) { try await household.ann.forEveryone().makeKey(named: "upkeep", scope: .read) }
        #expect(refused?.code == .invalidArgument)
        #expect(try await household.ann.keys().isEmpty)
    }
}
