import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// The Shared Library (issue 42, item 2): one per household; everyone in it adds, edits,
/// favorites and deletes alike; each photo says who added it; leaving keeps everything or one's
/// own, and those who stay lose nothing.
@Suite struct SharedLibraryTests {
    /// Ann (the admin) makes it and invites Bob; Cat is a stranger to it (the partner suite's household).
    typealias Household = PartnerShareTests.Household

    static func identifiers(_ library: PhotoLibrary, _ scope: FetchOptions.LibraryScope, trashed: Bool = false, partners: Bool = false) async throws
        -> Set<String>
    {
        var options = FetchOptions()
        options.library = scope
        options.includePartnerAssets = partners
        if trashed { options.predicate = .isTrashed(true) }
        options.includeTrashedAssets = trashed
        return Set(try await library.fetchAssets(with: options).allObjects().map(\.localIdentifier))
    }

    static func asset(_ identifier: String, of library: PhotoLibrary) async throws -> Asset {
        try #require(try await library.fetchAssets(withLocalIdentifiers: [identifier]).allObjects().first)
    }

    /// Ann and Bob in the Shared Library with a photo each moved in: Ann's and Bob's identifiers.
    static func oneEachInTheSharedLibrary(_ house: Household) async throws -> (ann: String, bob: String) {
        let annPhoto = try await house.add("ann.jpg", seed: 1, day: 2, to: house.ann)
        let bobPhoto = try await house.add("bob.jpg", seed: 2, day: 3, to: house.bob)
        try await house.ann.inviteToSharedLibrary("bob")
        try await house.bob.joinSharedLibrary(moving: .chosen([bobPhoto]))
        try await house.ann.moveToSharedLibrary(.chosen([annPhoto]))
        return (annPhoto, bobPhoto)
    }

    @Test("Two people move photos in (everything, from a day); both see and change them alike, each shows who added it; a stranger sees none")
    func movingInAndSharingRights() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        let annOld = try await house.add("ann-old.jpg", seed: 1, day: 2, to: house.ann)
        let annHidden = try await house.add("ann-hidden.jpg", seed: 2, day: 3, to: house.ann)
        let bobOld = try await house.add("bob-old.jpg", seed: 3, day: 4, to: house.bob)
        let bobNew = try await house.add("bob-new.jpg", seed: 4, day: 20, to: house.bob)
        let hiddenAsset = try await Self.asset(annHidden, of: house.ann)
        try await house.ann.performChanges { AssetChangeRequest(for: hiddenAsset).isHidden = true }

        // Nobody is in one yet; the first invitation makes it, Ann in it.
        #expect(try await house.ann.sharedLibrary() == nil)
        let made = try await house.ann.inviteToSharedLibrary("bob")
        #expect(made.participants.map(\.person.name) == ["admin", "bob"])
        #expect(made.participants.map(\.hasJoined) == [true, false])
        #expect(try await house.cat.sharedLibrary() == nil, "a stranger does not see who is in it")
        #expect(try await house.ann.moveToSharedLibrary(.everything) == 1, "the hidden photo stays personal")

        // Bob joins, moving what he took from day 10 on, and sends new imports there.
        #expect(try await house.bob.joinSharedLibrary(moving: .takenFrom(Household.day10), movesNewAssets: true) == 1)
        let bobImport = try await house.add("bob-import.jpg", seed: 5, day: 30, to: house.bob)

        for person in [house.ann, house.bob] {
            #expect(try await Self.identifiers(person, .shared) == [annOld, bobNew, bobImport])
        }
        #expect(try await Self.identifiers(house.ann, .personal) == [])
        #expect(try await Self.identifiers(house.bob, .personal) == [bobOld])
        #expect(try await Self.identifiers(house.bob, .both) == [annOld, bobOld, bobNew, bobImport])
        #expect(try await house.bob.fetchMonthSections().map(\.count).reduce(0, +) == 4, "the month counts hold both libraries")
        var sharedOnly = FetchOptions()
        sharedOnly.library = .shared
        #expect(try await house.bob.fetchMonthSections(with: sharedOnly).map(\.count).reduce(0, +) == 3)
        #expect(try await Self.identifiers(house.cat, .both) == [])
        #expect(try await house.cat.fetchAssets(withLocalIdentifiers: [annOld, bobNew]).count == 0)

        // Who added each.
        let shared = try await house.bob.fetchAssets(withLocalIdentifiers: [annOld, bobNew, bobImport]).allObjects()
        #expect(shared.allSatisfy { $0.isInSharedLibrary })
        #expect(shared.allSatisfy { !house.bob.isSomeoneElses($0) }, "the Shared Library's photos are each participant's own")
        let added = try await house.bob.sharedLibraryAttributions(of: shared)
        #expect(added[annOld]?.addedBy?.name == "admin")
        #expect(added[bobNew]?.addedBy?.name == "bob")
        #expect(added[bobImport]?.addedBy?.name == "bob")

        // Same rights: Bob favorites and deletes Ann's photo; Recently Deleted says who deleted.
        let annOldForBob = try await Self.asset(annOld, of: house.bob)
        try await house.bob.performChanges { AssetChangeRequest(for: annOldForBob).isFavorite = true }
        #expect(try await Self.asset(annOld, of: house.ann).isFavorite)
        try await house.bob.performChanges { AssetChangeRequest.deleteAssets([annOldForBob]) }
        let bobImportAsset = try await Self.asset(bobImport, of: house.bob)
        try await house.bob.performChanges { AssetChangeRequest.deleteAssets([bobImportAsset]) }
        #expect(try await Self.identifiers(house.ann, .shared, trashed: true) == [annOld, bobImport])
        let deleted = try await house.ann.sharedLibraryAttributions(
            of: try await house.ann.fetchAssets(withLocalIdentifiers: [annOld, bobImport]).allObjects())
        #expect(deleted[annOld]?.deletedBy?.name == "bob")

        // Ann added annOld: she recovers it. Bob added and deleted bobImport: Ann may not.
        let annOldDeleted = try await Self.asset(annOld, of: house.ann)
        try await house.ann.performChanges { AssetChangeRequest.restoreAssets([annOldDeleted]) }
        #expect(try await Self.identifiers(house.bob, .shared).contains(annOld))
        let bobImportDeleted = try await Self.asset(bobImport, of: house.ann)
        let refused = await #expect(throws: LibraryError.self) {
            try await house.ann.performChanges { AssetChangeRequest.restoreAssets([bobImportDeleted]) }
        }
        #expect(refused?.code == .notPermitted)
        try await house.bob.performChanges { AssetChangeRequest.restoreAssets([bobImportDeleted]) }

        // The same bytes again, in either library, are a duplicate.
        let sameBytes = try house.temporary.photo("ann-old.jpg", seed: 1)
        let again = try await house.ann.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: sameBytes) }
        #expect(again.created.map(\.localIdentifier) == [annOld])

        // Only who added a photo moves it out; a stranger's changes find nothing.
        let notTheirs = await #expect(throws: LibraryError.self) { try await house.bob.moveToPersonalLibrary([annOld]) }
        #expect(notTheirs?.code == .notPermitted)
        #expect(try await house.bob.moveToPersonalLibrary([bobNew]) == 1)
        #expect(try await Self.identifiers(house.ann, .shared) == [annOld, bobImport])
        #expect(try await Self.identifiers(house.bob, .personal) == [bobOld, bobNew])
        let annOldNow = try await Self.asset(annOld, of: house.ann)
        let strangers = await #expect(throws: LibraryError.self) {
            try await house.cat.performChanges { AssetChangeRequest(for: annOldNow).isFavorite = false }
        }
        #expect(strangers?.code == .notFound)
    }

    @Test("Leaving keeps a copy of one's own or of everything; those who stay keep all; the last one takes everything; albums follow")
    func leaving() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        let (annPhoto, bobPhoto) = try await Self.oneEachInTheSharedLibrary(house)
        // Bob's album holds Ann's photo of the Shared Library.
        let trip = [try await Self.asset(annPhoto, of: house.bob), try await Self.asset(bobPhoto, of: house.bob)]
        try await house.bob.performChanges { AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip").addAssets(trip) }
        let result = try await house.bob.fetchAssets()
        #expect(result.count == 2)
        // His links: the two photos chosen, and the album; they show what he sees.
        let (_, chosenToken) = try await house.bob.createSharedLink(assets: trip)
        let tripAlbum = try #require(try await house.bob.fetchAssetCollections(with: .album).allObjects().first { $0.localizedTitle == "Trip" })
        let (_, albumToken) = try await house.bob.createSharedLink(album: tripAlbum)
        func linked(_ token: String) async throws -> [String] {
            try await house.ann.sharedLinkAssets(try #require(try await house.ann.sharedLinkRecord(forToken: token))).map(\.localIdentifier)
        }
        #expect(try await linked(chosenToken) == [annPhoto, bobPhoto])
        #expect(try await linked(albumToken) == [annPhoto, bobPhoto])

        #expect(try await house.bob.leaveSharedLibrary(keeping: .ownContributions) == 1)
        let bobs = try await house.bob.fetchAssets().allObjects()
        let bobsInShared = try await Self.asset(bobPhoto, of: house.ann)
        #expect(bobs.count == 1 && bobs[0].contentHash == bobsInShared.contentHash)
        #expect(!bobs[0].isInSharedLibrary && bobs[0].localIdentifier != bobPhoto)
        #expect(try await result.allObjects().isEmpty, "a fetch made inside reads nothing of the Shared Library once he left")
        let album = try #require(try await house.bob.fetchAssetCollections(with: .album).allObjects().first { $0.localizedTitle == "Trip" })
        #expect(try await house.bob.fetchAssets(in: album).allObjects().map(\.localIdentifier) == [bobs[0].localIdentifier])
        #expect(try await Self.identifiers(house.ann, .shared) == [annPhoto, bobPhoto], "Ann keeps everything")
        #expect(try await linked(chosenToken).isEmpty, "his link of the Shared Library's photos shows nothing once he left")
        #expect(try await linked(albumToken) == [bobs[0].localIdentifier], "his album's link shows his copy, not Ann's photo")
        #expect(try await house.bob.sharedLibrary() == nil)

        // Bob again, leaving with everything: a copy of each.
        try await house.ann.inviteToSharedLibrary("bob")
        try await house.bob.joinSharedLibrary(moving: .nothing)
        #expect(try await house.bob.leaveSharedLibrary(keeping: .everything) == 1, "his own bytes he has already")
        #expect(try await house.bob.fetchAssets().count == 2)

        // Ann, the last: the photos become hers, and it ends.
        #expect(try await house.ann.leaveSharedLibrary(keeping: .ownContributions) == 2)
        let anns = try await house.ann.fetchAssets().allObjects()
        #expect(Set(anns.map(\.localIdentifier)) == [annPhoto, bobPhoto] && anns.allSatisfy { !$0.isInSharedLibrary })
        #expect(try await house.ann.sharedLibrary() == nil)
    }

    @Test("A participant adds the Shared Library's photos to a shared album as his; he or the owner takes them out; outsiders add none")
    func sharedAlbums() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        let (annPhoto, bobPhoto) = try await Self.oneEachInTheSharedLibrary(house)
        let made = try await house.ann.performChanges { _ = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Beach") }
        let album = try #require(try await house.ann.assetCollection(withLocalIdentifier: made.createdCollections[0]))
        try await house.ann.shareAlbum(album, with: "bob", as: .contributor)
        try await house.ann.shareAlbum(album, with: "cat", as: .contributor)
        let beach = album.localIdentifier

        // Bob adds Ann's photo of the Shared Library: the album shows it as his, to Cat too.
        #expect(try await house.bob.addToSharedAlbum(beach, assets: [annPhoto]) == 1)
        for person in [house.ann, house.bob, house.cat] {
            let items = try await person.sharedAlbumItems(beach)
            #expect(items.map(\.asset.localIdentifier) == [annPhoto] && items.map(\.addedBy.name) == ["bob"])
        }
        #expect(try await house.bob.sharedAlbumActivity(beach).first.map { [$0.kind.rawValue, $0.personDisplayName] } == ["added", "Bob"])
        // Cat, outside the Shared Library, adds none of its photos; her copy is her own.
        #expect(try await Self.code { try await house.cat.addToSharedAlbum(beach, assets: [bobPhoto]) } == .notFound)
        let catsCopy = try await house.cat.addSharedAssetToLibrary(annPhoto, fromSharedAlbum: beach)
        #expect(catsCopy.localIdentifier != annPhoto && !catsCopy.isInSharedLibrary)
        // Bob has it already: Add to my library gives him the Shared Library's photo, no copy.
        #expect(try await house.bob.addSharedAssetToLibrary(annPhoto, fromSharedAlbum: beach).localIdentifier == annPhoto)
        #expect(try await Self.identifiers(house.bob, .both) == [annPhoto, bobPhoto])

        // Cat takes out only what she added; Bob takes out his addition; the Shared Library keeps it.
        #expect(try await house.cat.removeFromSharedAlbum(beach, assets: [annPhoto]) == 0)
        #expect(try await house.bob.removeFromSharedAlbum(beach, assets: [annPhoto]) == 1)
        #expect(try await Self.identifiers(house.ann, .shared) == [annPhoto, bobPhoto])
        // Again, with his own: the owner taking him out takes out all he added.
        #expect(try await house.bob.addToSharedAlbum(beach, assets: [annPhoto, bobPhoto]) == 2)
        try await house.ann.unshareAlbum(beach, with: "bob")
        #expect(try await house.cat.sharedAlbumItems(beach).isEmpty)

        // Once Bob has left the Shared Library, its photos are no longer his to add; what he added stays.
        try await house.ann.shareAlbum(album, with: "bob", as: .contributor)
        #expect(try await house.bob.addToSharedAlbum(beach, assets: [annPhoto]) == 1)
        try await house.bob.leaveSharedLibrary(keeping: .ownContributions)
        #expect(try await Self.code { try await house.bob.addToSharedAlbum(beach, assets: [bobPhoto]) } == .notFound)
        #expect(try await house.cat.sharedAlbumItems(beach).map(\.asset.localIdentifier) == [annPhoto])
    }

    @Test("A person removed from the server with their library leaves the Shared Library first: its photos stay, theirs too, for those in it")
    func removingAParticipant() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        let annPhoto = try await house.add("ann.jpg", seed: 1, day: 2, to: house.ann)
        let bobShared = try await house.add("bob-shared.jpg", seed: 2, day: 3, to: house.bob)
        let bobOwn = try await house.add("bob-own.jpg", seed: 3, day: 4, to: house.bob)
        try await house.ann.inviteToSharedLibrary("bob")
        try await house.bob.joinSharedLibrary(moving: .chosen([bobShared]))
        try await house.ann.moveToSharedLibrary(.chosen([annPhoto]))
        try await house.ann.inviteToSharedLibrary("cat")
        try await house.cat.joinSharedLibrary(moving: .nothing)
        let bob = try #require(try await house.ann.people().first { $0.name == "bob" })
        let bobsBytes = try await Self.asset(bobShared, of: house.ann).contentHash

        try await house.ann.removePerson(bob, deletingTheirLibrary: true)
        for person in [house.ann, house.cat] {
            #expect(try await Self.identifiers(person, .shared) == [annPhoto, bobShared], "the Shared Library keeps what Bob added")
        }
        #expect(try await Self.identifiers(house.ann, .shared, trashed: true).isEmpty, "nothing of it went to Recently Deleted")
        #expect(try await house.ann.sharedLibrary()?.participants.map(\.person.name) == ["admin", "cat"])
        #expect(try await house.ann.fetchAssets(withLocalIdentifiers: [bobOwn]).count == 0)
        let blob = try await house.ann.scoped(to: nil).fetchAssets(withLocalIdentifiers: [bobShared]).firstObject
        #expect(blob?.contentHash == bobsBytes, "its bytes stay")

        // Cat removed too: Ann, alone in it, keeps it all.
        let cat = try #require(try await house.ann.people().first { $0.name == "cat" })
        try await house.ann.removePerson(cat, deletingTheirLibrary: true)
        #expect(try await house.ann.sharedLibrary()?.participants.map(\.person.name) == ["admin"])
        #expect(try await Self.identifiers(house.ann, .shared) == [annPhoto, bobShared])
    }

    @Test("A participant's app sees shared photos as its grant allows: limited picks among them; never a partner's; none once its person left")
    func apps() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        let annShared = try await house.add("ann.jpg", seed: 1, day: 2, to: house.ann)
        let annPersonal = try await house.add("ann2.jpg", seed: 2, day: 3, to: house.ann)
        let bobPersonal = try await house.add("bob.jpg", seed: 3, day: 4, to: house.bob)
        let catPhoto = try await house.add("cat.jpg", seed: 4, day: 5, to: house.cat)
        try await house.ann.inviteToSharedLibrary("bob")
        try await house.bob.joinSharedLibrary(moving: .nothing)
        try await house.ann.moveToSharedLibrary(.chosen([annShared]))
        try await house.cat.sharePartnerLibrary(with: "bob", from: nil)
        try await house.bob.showPartnerAssetsInTimeline(true, from: "cat")
        #expect(try await Self.identifiers(house.bob, .both, partners: true) == [annShared, bobPersonal, catPhoto], "Bob sees all three")

        // Bob's app, limited to the Shared Library's photo he picked.
        let authorization = Authorization(library: house.bob)
        let client = ClientManifest(identifier: "com.example.frames", displayName: "Frames", usageDescriptions: [.photoLibrary: "To show your photos."])
        try await authorization.register(client)
        try await authorization.setLimitedSelection([annShared], client: client.identifier)
        try await authorization.setStatus(.limited, for: .photoLibrary(.readWrite), client: client.identifier)
        let app = house.bob.forClient(client.identifier)
        #expect(try await Self.identifiers(app, .both, partners: true) == [annShared], "limited: what Bob picked, not his other photo nor Cat's")
        let picked = try await Self.asset(annShared, of: app)
        #expect(picked.isInSharedLibrary)
        await #expect(throws: LibraryError.self) { _ = try await authorization.setLimitedSelection([annPersonal], client: client.identifier) }
        await #expect(throws: LibraryError.self) { _ = try await authorization.setLimitedSelection([catPhoto], client: client.identifier) }
        // Full access: Bob's photos and the Shared Library's, never a partner's.
        try await authorization.setStatus(.authorized, for: .photoLibrary(.readWrite), client: client.identifier)
        #expect(try await Self.identifiers(app, .both, partners: true) == [annShared, bobPersonal])
        #expect(try await app.partnerAsset(withLocalIdentifier: catPhoto) == nil)

        // Once Bob leaves (keeping his own), his app sees what he does: none of the Shared Library.
        try await authorization.setStatus(.limited, for: .photoLibrary(.readWrite), client: client.identifier)
        try await house.bob.leaveSharedLibrary(keeping: .ownContributions)
        #expect(try await Self.identifiers(app, .both).isEmpty, "the photo he picked is no longer his to pass on")
        #expect(try await app.fetchAssets(withLocalIdentifiers: [annShared]).count == 0)
    }

    @Test("Keyset pages over one's own, the Shared Library's and a partner's photos list each once, in the fetch's order, ties too")
    func pagesAcrossOwners() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        var seed: UInt64 = 10
        func add(_ library: PhotoLibrary, days: [Int]) async throws -> [String] {
            var made: [String] = []
            for day in days {
                seed += 1
                made.append(try await house.add("p\(seed).jpg", seed: seed, day: day, to: library))
            }
            return made
        }
        // Days shared between owners: the same creation date, ordered by row id.
        let shared = try await add(house.ann, days: [1, 3, 3, 5, 8])
        _ = try await add(house.ann, days: [2, 3])  // Ann's own, which Bob does not see
        _ = try await add(house.bob, days: [3, 4, 5, 9])
        _ = try await add(house.cat, days: [1, 3, 6, 7, 9])
        try await house.ann.inviteToSharedLibrary("bob")
        try await house.bob.joinSharedLibrary(moving: .nothing)
        try await house.ann.moveToSharedLibrary(.chosen(shared))
        try await house.cat.sharePartnerLibrary(with: "bob", from: Household.day10.addingTimeInterval(-7 * 86_400))  // from day 3 on
        try await house.bob.showPartnerAssetsInTimeline(true, from: "cat")
        for ascending in [false, true] {
            var options = FetchOptions(sortDescriptors: [.init(key: .creationDate, ascending: ascending)])
            options.includePartnerAssets = true
            let whole = try await house.bob.fetchAssets(with: options).allObjects().map(\.localIdentifier)
            #expect(whole.count == 5 + 4 + 4, "his 4, the Shared Library's 5, Cat's 4 from day 3 on: \(whole.count)")
            var paged: [String] = []
            var last: Asset?
            while true {
                let page = try await house.bob.fetchAssetPage(with: options, after: last, limit: 2)
                paged += page.assets.map(\.localIdentifier)
                guard page.hasMore, let next = page.assets.last else { break }
                last = next
            }
            #expect(paged == whole, "pages of 2 (\(ascending ? "oldest" : "newest") first) read the fetch's order")
        }
    }

    @Test("Wrong people and wrong moves get typed errors; invitations can be declined or withdrawn; changes reach exactly the people in it")
    func errorsAndEvents() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        let catToken = try await house.cat.currentChangeToken
        let bobToken = try await house.bob.currentChangeToken
        #expect(try await Self.code { try await house.ann.inviteToSharedLibrary("admin") } == .invalidArgument)
        #expect(try await Self.code { try await house.ann.inviteToSharedLibrary("zed") } == .noSuchPerson)
        #expect(try await Self.code { try await house.bob.joinSharedLibrary(moving: .everything) } == .notFound)
        #expect(try await Self.code { try await house.bob.moveToSharedLibrary(.everything) } == .notPermitted)
        try await house.ann.inviteToSharedLibrary("bob")
        #expect(try await Self.code { try await house.ann.inviteToSharedLibrary("bob") } == .invalidArgument)
        #expect(try await Self.code { try await house.cat.inviteToSharedLibrary("bob") } == .notPermitted, "only those in it invite")
        try await house.bob.declineSharedLibraryInvitation()
        #expect(try await house.ann.sharedLibrary()?.participants.map(\.person.name) == ["admin"])
        try await house.ann.inviteToSharedLibrary("cat")
        try await house.ann.withdrawSharedLibraryInvitation("cat")
        #expect(try await house.cat.sharedLibrary() == nil)
        for index in 1...5 {
            _ = try await house.ann.addPerson(name: "p\(index)", displayName: "P\(index)")
            try await house.ann.inviteToSharedLibrary("p\(index)")
        }
        #expect(try await Self.code { try await house.ann.inviteToSharedLibrary("bob") } == .invalidArgument, "six at most")
        try await house.ann.withdrawSharedLibraryInvitation("p5")
        try await house.ann.inviteToSharedLibrary("bob")
        try await house.bob.joinSharedLibrary(moving: .nothing)
        let chosen = try await house.add("x.jpg", seed: 9, day: 1, to: house.cat)
        #expect(try await Self.code { try await house.bob.moveToSharedLibrary(.chosen([chosen])) } == .notFound, "Cat's photo is not Bob's")

        // Ann adds to it: Bob hears the photo (and the people change); Cat hears nothing of it.
        let photo = try await house.add("a.jpg", seed: 1, day: 2, to: house.ann)
        try await house.ann.moveToSharedLibrary(.chosen([photo]))
        let bobHeard = try await Self.heard(by: house.bob, after: bobToken, until: [photo])
        #expect(bobHeard.contains(photo))
        let catHeard = try await Self.heard(by: house.cat, after: catToken, until: ["never"], within: .milliseconds(600))
        #expect(!catHeard.contains(photo))
    }

    static func code(_ body: () async throws -> some Any) async throws -> LibraryError.Code? {
        do {
            _ = try await body()
            return nil
        } catch let error as LibraryError {
            return error.code
        }
    }

    /// The asset identifiers of the library's changes after `token`, once they hold `until`
    /// (or when `within` passed).
    static func heard(
        by library: PhotoLibrary, after token: PersistentChangeToken, until wanted: Set<String>, within: Duration = .seconds(10)
    ) async throws -> Set<String> {
        let stream = try await library.changes(since: token, pollingEvery: .milliseconds(50))
        let heard = PartnerShareTests.Heard()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await change in stream {
                    let assets = change.insertedAssetIdentifiers.union(change.changedAssetIdentifiers)
                    if await heard.add(assets).isSuperset(of: wanted) { return }
                }
            }
            group.addTask { try await Task.sleep(for: within) }
            try await group.next()
            group.cancelAll()
        }
        return await heard.all
    }
}
