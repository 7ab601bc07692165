import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// A library each: what one person's library object reads and changes is theirs alone, while
/// the bytes of a file two people import are stored once.
@Suite struct PeopleLibraryTests {
    /// A temporary library with its admin (`ann`) and a member (`bob`).
    struct Household {
        let temporary: TemporaryLibrary
        let ann: PhotoLibrary
        let bob: PhotoLibrary
        let bobPerson: Person

        init() async throws {
            temporary = try await TemporaryLibrary()
            ann = temporary.library
            bobPerson = try await ann.addPerson(name: "Bob", displayName: "Bob B.", password: "correct horse")
            bob = ann.forPerson(bobPerson)
        }

        func importing(_ urls: [URL], into library: PhotoLibrary) async throws -> [String] {
            var identifiers: [String] = []
            for url in urls {
                let result = try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }
                identifiers.append(result.created[0].localIdentifier)
            }
            return identifiers
        }

        func remove() { temporary.remove() }
    }

    static let everything = FetchOptions(includeHiddenAssets: true, includeTrashedAssets: true, includeAllBurstAssets: true)

    @Test("Two people importing the same file get an asset each, one copy of the bytes, and their own edits, favorites and deletions")
    func sameFileTwoPeople() async throws {
        let household = try await Household()
        defer { household.remove() }
        let photo = try household.temporary.photo("beach-party.jpg", seed: 7)
        let annIDs = try await household.importing([photo], into: household.ann)
        let bobIDs = try await household.importing([photo], into: household.bob)
        #expect(annIDs != bobIDs, "each person has an asset of their own")
        // The second import by the same person is a duplicate of theirs, not a third asset.
        let again = try await household.bob.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: photo) }
        #expect(again.created.map(\.localIdentifier) == bobIDs && again.created[0].isDuplicate)
        if !household.temporary.isS3 {
            #expect(household.temporary.files(in: "originals").count == 1, "the bytes are stored once")
        }
        let annAsset = try #require(try await household.ann.fetchAssets(withLocalIdentifiers: annIDs).firstObject)
        let bobAsset = try #require(try await household.bob.fetchAssets(withLocalIdentifiers: bobIDs).firstObject)
        #expect(annAsset.contentHash == bobAsset.contentHash)
        // Each edits and favorites their own.
        let annEdited = try await household.ann.applyAdjustments(Adjustments(rotation: 90), to: annAsset)
        let bobEdited = try await household.bob.applyAdjustments(Adjustments(rotation: 180), to: bobAsset)
        try await household.bob.performChanges { AssetChangeRequest(for: bobEdited).isFavorite = true }
        let annNow = try #require(try await household.ann.fetchAssets(withLocalIdentifiers: annIDs).firstObject)
        let bobNow = try #require(try await household.bob.fetchAssets(withLocalIdentifiers: bobIDs).firstObject)
        #expect(!annNow.isFavorite && bobNow.isFavorite)
        #expect(annNow.pixelWidth == annEdited.pixelWidth && annEdited.pixelWidth == 80, "Ann's is turned a quarter")
        #expect(bobNow.pixelWidth == bobEdited.pixelWidth && bobEdited.pixelWidth == 120, "Bob's is turned upside down")
        #expect(try await household.ann.contentEdit(for: annNow)?.adjustmentData != household.bob.contentEdit(for: bobNow)?.adjustmentData)
        // Bob deletes his for good: Ann's and its bytes stay.
        try await household.bob.performChanges { AssetChangeRequest.deleteAssets([bobNow]) }
        let trashed = try #require(try await household.bob.fetchAssets(withLocalIdentifiers: bobIDs).firstObject)
        try await household.bob.performChanges { AssetChangeRequest.purgeAssets([trashed]) }
        #expect(try await household.bob.fetchAssets(with: Self.everything).count == 0)
        let annAfter = try #require(try await household.ann.fetchAssets(withLocalIdentifiers: annIDs).firstObject)
        let original = try #require(annAfter.resources.first { $0.type == .photo })
        let copy = household.temporary.folder.appendingPathComponent("ann-copy.jpg")
        try await AssetResourceManager(library: household.ann).writeData(for: original, toFile: copy)
        #expect(try Data(contentsOf: copy) == (try Data(contentsOf: photo)), "Ann's original is whole")
        let report = try await household.ann.doctor()
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test("A person's fetches, counts, albums, search, places, memories and changes hold nothing of another's")
    func isolation() async throws {
        let household = try await Household()
        defer { household.remove() }
        let annIDs = try await household.importing(
            [try household.temporary.photo("ann-secret-zanzibar.jpg", seed: 11), try household.temporary.photo("ann-two.jpg", seed: 12)],
            into: household.ann)
        let annAssets = try await household.ann.fetchAssets(withLocalIdentifiers: annIDs).allObjects()
        let album = try await household.ann.performChanges {
            let request = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Ann's Surprise Party")
            request.addAssets(annAssets)
        }
        let albumID = try #require(album.createdCollections.first)
        try await household.ann.performChanges { AssetChangeRequest(for: annAssets[0]).isFavorite = true }

        let bob = household.bob
        let changes = try await bob.changes(since: PersistentChangeToken(sequence: 0))
        #expect(try await bob.fetchAssets(with: Self.everything).count == 0)
        #expect(try await bob.fetchAssets(withLocalIdentifiers: annIDs).count == 0, "another's ids find nothing")
        #expect(try await bob.fetchAssets(with: FetchOptions(predicate: .text("zanzibar"))).count == 0)
        #expect(try await bob.fetchAssets(with: FetchOptions(predicate: .text("surprise"))).count == 0, "no oracle for another's album titles")
        #expect(try await bob.fetchAssets(with: FetchOptions(predicate: .inAlbum(albumID))).count == 0)
        #expect(try await bob.fetchAssetCollections(with: .album).count == 0)
        let smart = try await bob.fetchAssetCollections(with: .smartAlbum).allObjects()
        #expect(smart.allSatisfy { $0.estimatedAssetCount == 0 }, "\(smart.map { ($0.localizedTitle, $0.estimatedAssetCount) })")
        #expect(try await bob.fetchPlaces().isEmpty)
        #expect(try await bob.fetchMemories().isEmpty)
        #expect(try await bob.fetchMonthSections().isEmpty)
        // Changing another's asset or album by its identifier finds nothing and changes nothing.
        await #expect(throws: (any Error).self) {
            try await bob.performChanges { AssetChangeRequest(for: annAssets[0]).isFavorite = false }
        }
        let annAlbum = try #require(try await household.ann.fetchAssetCollections(with: .album).allObjects().first { $0.localIdentifier == albumID })
        await #expect(throws: (any Error).self) {
            try await bob.performChanges { AssetCollectionChangeRequest(for: annAlbum).title = "mine now" }
        }
        #expect(try await household.ann.fetchAssets(withLocalIdentifiers: [annIDs[0]]).firstObject?.isFavorite == true)
        #expect(try await household.ann.fetchAssetCollections(with: .album).allObjects().map(\.localizedTitle) == ["Ann's Surprise Party"])
        // Ann's library sees all of hers.
        #expect(try await household.ann.fetchAssets(with: FetchOptions(predicate: .text("zanzibar"))).count == 1)
        #expect(try await household.ann.fetchAssets(with: FetchOptions(predicate: .text("surprise"))).count == 2)
        // Bob's change log told him of nothing of Ann's, but of his own import.
        let bobIDs = try await household.importing([try household.temporary.photo("bob.jpg", seed: 13)], into: bob)
        var seen: Set<String> = []
        for try await change in changes {
            seen.formUnion(change.insertedAssetIdentifiers.union(change.changedAssetIdentifiers).union(change.changedCollectionIdentifiers))
            if seen.contains(bobIDs[0]) { break }
        }
        #expect(seen == Set(bobIDs), "\(seen)")
        // Hidden memories are each person's.
        try await household.ann.hideMemory("year-2020")
        #expect(try await bob.hiddenMemories().isEmpty)
        #expect(try await household.ann.hiddenMemories() == ["year-2020"])
    }

    @Test("An import past a person's quota is refused whole, and nothing of it is kept")
    func quota() async throws {
        let household = try await Household()
        defer { household.remove() }
        let first = try household.temporary.photo("first.jpg", seed: 21)
        let size = Int64(try Data(contentsOf: first).count)
        let person = try await household.ann.updatePerson(household.bobPerson, quota: .some(size + size / 2))
        #expect(person.quota == size + size / 2)
        _ = try await household.importing([first], into: household.bob)
        let second = try household.temporary.photo("second.jpg", seed: 22, width: 200, height: 150)
        do {
            _ = try await household.importing([second], into: household.bob)
            Issue.record("the import past the quota was kept")
        } catch let error as LibraryError {
            #expect(error.code == .quotaExceeded, "\(error)")
            #expect(error.message.contains("quota"))
        }
        #expect(try await household.bob.fetchAssets(with: Self.everything).count == 1)
        if !household.temporary.isS3 {
            // Settled as a failed import settles: the refused bytes do not stay.
            try await household.ann.sweep(olderThan: 0)
            #expect(household.temporary.files(in: "originals").count == 1)
        }
        // Ann has no quota; usage counts each person's bytes.
        _ = try await household.importing([second], into: household.ann)
        let usage = try await household.ann.usage()
        #expect(usage[household.bobPerson.id]?.assetCount == 1 && usage[household.bobPerson.id]?.byteCount == size)
        #expect(usage[household.bobPerson.id]?.albumCount == 0)
        // No limit again: the import goes in.
        try await household.ann.updatePerson(household.bobPerson, quota: .some(nil))
        _ = try await household.importing([second], into: household.bob)
        #expect(try await household.bob.fetchAssets().count == 2)
    }

    @Test("People: names, roles, the last admin, disabling, passwords and removal")
    func people() async throws {
        let household = try await Household()
        defer { household.remove() }
        let library = household.ann
        let everyone = try await library.people()
        #expect(everyone.map(\.name) == ["admin", "bob"] && everyone[0].role == .admin && everyone[1].role == .member)
        #expect(everyone[1].displayName == "Bob B." && everyone[1].hasPassword && everyone[0].hasPassword == false)
        #expect(try await library.person()?.name == "admin", "the library opened without a person is the admin's")
        #expect(try await household.bob.person()?.name == "bob")
        await #expect(throws: LibraryError.self) { try await library.addPerson(name: "BOB") }
        await #expect(throws: LibraryError.self) { try await library.addPerson(name: "no spaces") }
        await #expect(throws: LibraryError.self) { try await library.addPerson(name: "eve", password: "short") }
        await #expect(throws: LibraryError.self) { try await library.addPerson(name: "eve", quota: 0) }
        // The first admin owns the library: never disabled, made a member or removed, even when
        // another admin could stand in; the other admins can be.
        let admin = everyone[0]
        let carol = try await library.addPerson(name: "carol", role: .admin)
        for attempt in [
            { _ = try await library.setState(.disabled, of: admin) }, { _ = try await library.updatePerson(admin, role: .member) },
            { try await library.removePerson(admin) },
        ] as [@Sendable () async throws -> Void] {
            let refusal = await #expect(throws: LibraryError.self) { try await attempt() }
            #expect(refusal?.message.contains("the library's owner") == true, "\(String(describing: refusal))")
        }
        let carolOff = try await library.setState(.disabled, of: carol)
        #expect(carolOff.state == .disabled)
        try await library.removePerson(carolOff)
        // Passwords: the right one signs in; a wrong one, a disabled person, a stranger do not.
        #expect(try await library.authenticate(name: "bob", password: "correct horse")?.name == "bob")
        #expect(try await library.authenticate(name: "BOB", password: "correct horse")?.name == "bob")
        #expect(try await library.authenticate(name: "bob", password: "correct horsE") == nil)
        #expect(try await library.authenticate(name: "mallory", password: "correct horse") == nil)
        let epoch = try await library.sessionEpoch(of: household.bobPerson)
        let disabled = try await library.setState(.disabled, of: household.bobPerson)
        let disabledEpoch = try await library.sessionEpoch(of: disabled)
        #expect(disabled.state == .disabled && disabledEpoch > epoch, "disabling ends sessions")
        #expect(try await library.authenticate(name: "bob", password: "correct horse") == nil)
        try await library.setState(.active, of: disabled)
        let changed = try await library.setPassword("battery staple", of: disabled)
        #expect(try await library.sessionEpoch(of: changed) > epoch + 1, "a new password ends sessions")
        #expect(try await library.authenticate(name: "bob", password: "battery staple") != nil)
        // A person with photos is removed only with their library.
        let photo = try household.temporary.photo("shared.jpg", seed: 31)
        _ = try await household.importing([photo], into: household.bob)
        let annIDs = try await household.importing([photo], into: library)
        await #expect(throws: LibraryError.self) { try await library.removePerson(changed) }
        try await library.removePerson(changed, deletingTheirLibrary: true)
        #expect(try await library.people().map(\.name) == ["admin"])
        // A number is never given twice: Bob (2) and Carol (3) are gone, and Dave is 4, so no
        // upload, link or setting left under their numbers can become his.
        let dave = try await library.addPerson(name: "dave")
        #expect(dave.rowID == 4, "\(dave.rowID)")
        #expect(try await library.fetchAssets(withLocalIdentifiers: annIDs).count == 1)
        let report = try await library.doctor()
        #expect(report.problems.isEmpty, "the admin's copy of the shared bytes is whole: \(report.problems)")
        await #expect(throws: LibraryError.self) { _ = try await PhotoLibrary.open(at: library.url, as: "bob") }
    }

    @Test("A password hash of a lower cost is made again at today's when its password is given")
    func rehash() async throws {
        let household = try await Household()
        defer { household.remove() }
        let weak = try await PasswordHash.make("old and weak", cost: .init(rounds: 1 << 10, blockSize: 8, parallelism: 1))
        #expect(PasswordHash.needsRehash(weak))
        #expect(await PasswordHash.verify("old and weak", against: weak))
        #expect(!(await PasswordHash.verify("old and weaK", against: weak)))
        #expect(!(await PasswordHash.verify("old and weak", against: "scrypt$garbage")))
        let catalog = household.ann.catalog
        _ = try await catalog.updatePerson(
            rowID: household.bobPerson.rowID, name: nil, displayName: nil, role: nil, state: nil, quota: nil, passwordHash: weak)
        #expect(try await household.ann.authenticate(name: "bob", password: "old and weak") != nil)
        let upgraded = try #require(try await catalog.passwordHash(of: household.bobPerson.rowID))
        #expect(upgraded != weak && !PasswordHash.needsRehash(upgraded) && upgraded.hasPrefix("scrypt$32768$8$1$"))
        #expect(try await household.ann.authenticate(name: "bob", password: "old and weak") != nil)
    }

    @Test("Background jobs reach every person's assets")
    func jobsForEveryone() async throws {
        let temporary = try await TemporaryLibrary(backgroundWork: .queued)
        defer { temporary.remove() }
        let bobPerson = try await temporary.library.addPerson(name: "bob")
        let bob = temporary.library.forPerson(bobPerson)
        let result = try await bob.performChanges {
            _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: try! temporary.photo("queued.jpg", seed: 41))
        }
        let id = result.created[0].localIdentifier
        #expect(try await temporary.library.assetsAwaitingDerivatives(among: [id]) == [id])
        let worker = JobWorker(library: temporary.library, options: .init(concurrency: 1, pollInterval: .milliseconds(100)))
        let running = Task { await worker.run() }
        try await JobQueueTests.drain(temporary.library, worker: worker, kinds: [.derivatives])
        worker.stop()
        await running.value
        #expect(try await temporary.library.assetsAwaitingDerivatives(among: [id]).isEmpty, "the admin's worker made Bob's thumbnails")
        #expect(try await temporary.library.forEveryone().jobs(in: [.failed]).isEmpty)
        #expect(try await temporary.library.jobCounts().isEmpty, "the admin's own jobs hold none of Bob's")
    }
}
