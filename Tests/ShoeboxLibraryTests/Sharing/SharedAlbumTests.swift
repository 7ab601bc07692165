import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Shared albums (issue 42, part 1): an owner shares an album with viewers and contributors;
/// contributors add their own photos; everyone likes and comments; photos stay their owners'.
@Suite struct SharedAlbumTests {
    /// Ann (the admin) owns the album; Bob contributes, Cat views, Dan is a stranger.
    struct Household {
        let temporary: TemporaryLibrary
        let ann: PhotoLibrary
        let bob: PhotoLibrary
        let cat: PhotoLibrary
        let dan: PhotoLibrary
        let catPerson: Person
        let album: AssetCollection

        init() async throws {
            temporary = try await TemporaryLibrary()
            ann = temporary.library
            bob = ann.forPerson(try await ann.addPerson(name: "bob", displayName: "Bob"))
            catPerson = try await ann.addPerson(name: "cat", displayName: "Cat")
            cat = ann.forPerson(catPerson)
            dan = ann.forPerson(try await ann.addPerson(name: "dan", displayName: "Dan"))
            let made = try await ann.performChanges { _ = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Lisbon") }
            album = try #require(try await ann.assetCollection(withLocalIdentifier: made.createdCollections[0]))
        }

        func add(_ name: String, seed: UInt64, to library: PhotoLibrary) async throws -> String {
            let url = try temporary.photo(name, seed: seed)
            return try await library.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }.created[0].localIdentifier
        }
    }

    @Test("Viewers and contributors see the album; contributors add their own photos; a stranger learns nothing")
    func rolesAndPhotos() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        let annPhoto = try await house.add("ann.jpg", seed: 1, to: house.ann)
        let bobPhoto = try await house.add("bob.jpg", seed: 2, to: house.bob)
        let annAssets = try await house.ann.fetchAssets(withLocalIdentifiers: [annPhoto]).allObjects()
        try await house.ann.performChanges { AssetCollectionChangeRequest(for: house.album).addAssets(annAssets) }
        try await house.ann.shareAlbum(house.album, with: "bob", as: .contributor)
        let shared = try await house.ann.shareAlbum(house.album, with: "cat", as: .viewer)
        #expect(shared.members.map(\.name) == ["bob", "cat"] && shared.members.map(\.role) == [.contributor, .viewer])
        #expect(try await house.bob.sharedAlbums().map(\.role) == [.contributor])
        #expect(try await house.cat.sharedAlbums().map(\.title) == ["Lisbon"])
        #expect(try await house.ann.sharedAlbums().map(\.role) == [.owner], "the owner's shared album is listed too")
        #expect(try await house.dan.sharedAlbums().isEmpty)

        // Bob adds his own photo, not Ann's; Cat, a viewer, adds nothing.
        #expect(try await house.bob.addToSharedAlbum(house.album.localIdentifier, assets: [bobPhoto]) == 1)
        #expect(try await house.bob.addToSharedAlbum(house.album.localIdentifier, assets: [bobPhoto]) == 0, "once is enough")
        await #expect(throws: LibraryError.self) { try await house.bob.addToSharedAlbum(house.album.localIdentifier, assets: [annPhoto]) }
        let catsOwn = try await house.add("cat.jpg", seed: 3, to: house.cat)
        let refused = await #expect(throws: LibraryError.self) { try await house.cat.addToSharedAlbum(house.album.localIdentifier, assets: [catsOwn]) }
        #expect(refused?.code == .notPermitted)
        for library in [house.ann, house.bob, house.cat] {
            let items = try await library.sharedAlbumItems(house.album.localIdentifier)
            #expect(items.map(\.asset.localIdentifier) == [annPhoto, bobPhoto])
            #expect(items.map(\.addedBy.name) == ["admin", "bob"])
        }
        #expect(try await house.ann.sharedAlbum(withLocalIdentifier: house.album.localIdentifier)?.count == 2)
        // The photos stay their owners': Bob's is not in Ann's library, nor Ann's in Bob's.
        #expect(try await house.ann.fetchAssets(withLocalIdentifiers: [bobPhoto]).count == 0)
        #expect(try await house.bob.fetchAssets(withLocalIdentifiers: [annPhoto]).count == 0)
        #expect(try await house.cat.sharedAlbumAsset(house.album.localIdentifier, asset: bobPhoto)?.localIdentifier == bobPhoto)
        #expect(try await house.cat.sharedAlbumAsset(house.album.localIdentifier, asset: catsOwn) == nil, "only what the album shows")

        // A stranger: not found, whatever they try.
        for attempt in [
            { _ = try await house.dan.sharedAlbumItems(house.album.localIdentifier) },
            { _ = try await house.dan.sharedAlbumAsset(house.album.localIdentifier, asset: annPhoto) },
            { try await house.dan.setLike(true, asset: annPhoto, inSharedAlbum: house.album.localIdentifier) },
            { _ = try await house.dan.comment("hi", on: annPhoto, inSharedAlbum: house.album.localIdentifier) },
            { _ = try await house.dan.addSharedAssetToLibrary(annPhoto, fromSharedAlbum: house.album.localIdentifier) },
            { try await house.dan.leaveSharedAlbum(house.album.localIdentifier) },
        ] as [@Sendable () async throws -> Void] {
            let error = await #expect(throws: LibraryError.self) { try await attempt() }
            #expect(error?.code == .notFound)
        }
        // Only the owner shares it.
        let notBobs = await #expect(throws: LibraryError.self) { try await house.bob.shareAlbum(house.album, with: "dan", as: .viewer) }
        #expect(notBobs?.code == .notPermitted)
        let apps = await #expect(throws: LibraryError.self) { try await house.bob.forClient("com.example.app").sharedAlbums() }
        #expect(apps?.code == .notPermitted, "apps do not see shared albums")

        // Bob deletes his photo: it leaves the album, and nobody else's library loses anything.
        let bobAsset = try #require(try await house.bob.fetchAssets(withLocalIdentifiers: [bobPhoto]).firstObject)
        try await house.bob.performChanges { AssetChangeRequest.deleteAssets([bobAsset]) }
        #expect(try await house.cat.sharedAlbumItems(house.album.localIdentifier).map(\.asset.localIdentifier) == [annPhoto])
        #expect(try await house.ann.fetchAssets(with: FetchOptions()).count == 1)
        // The owner takes Ann's own photo out of the album: it stays in her library.
        #expect(try await house.ann.removeFromSharedAlbum(house.album.localIdentifier, assets: [annPhoto]) == 1)
        #expect(try await house.ann.fetchAssets(withLocalIdentifiers: [annPhoto]).count == 1)
        #expect(try await house.bob.sharedAlbumItems(house.album.localIdentifier).isEmpty)
    }

    @Test("Likes (one a person), comments and additions are the album's activity, newest first; comments are deleted by their author or the owner")
    func likesAndComments() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        try await house.ann.shareAlbum(house.album, with: "bob", as: .contributor)
        try await house.ann.shareAlbum(house.album, with: "cat", as: .viewer)
        let bobPhoto = try await house.add("bob.jpg", seed: 2, to: house.bob)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        try await house.bob.addToSharedAlbum(house.album.localIdentifier, assets: [bobPhoto], now: start)
        try await house.cat.setLike(true, asset: bobPhoto, inSharedAlbum: house.album.localIdentifier, now: start + 1)
        try await house.cat.setLike(true, asset: bobPhoto, inSharedAlbum: house.album.localIdentifier, now: start + 2)
        try await house.ann.setLike(true, asset: bobPhoto, inSharedAlbum: house.album.localIdentifier, now: start + 3)
        let comment = try await house.cat.comment("  What a view!  ", on: bobPhoto, inSharedAlbum: house.album.localIdentifier, now: start + 4)
        let empty = await #expect(throws: LibraryError.self) { try await house.cat.comment(" \n", on: bobPhoto, inSharedAlbum: house.album.localIdentifier) }
        #expect(empty?.code == .invalidArgument)
        let long = String(repeating: "x", count: SharedAlbumActivity.maximumCommentLength + 1)
        await #expect(throws: LibraryError.self) { try await house.cat.comment(long, on: bobPhoto, inSharedAlbum: house.album.localIdentifier) }
        let activity = try await house.bob.sharedAlbumActivity(house.album.localIdentifier)
        #expect(activity.map(\.kind) == [.comment, .like, .like, .added])
        #expect(activity.map(\.personDisplayName) == ["Cat", "Admin", "Cat", "Bob"])
        #expect(activity[0].text == "What a view!" && activity[3].count == 1)
        let item = try #require(try await house.cat.sharedAlbumItems(house.album.localIdentifier).first)
        #expect(item.likeCount == 2 && item.isLikedByMe && item.commentCount == 1)
        try await house.cat.setLike(false, asset: bobPhoto, inSharedAlbum: house.album.localIdentifier)
        #expect(try await house.cat.sharedAlbumItems(house.album.localIdentifier).first?.likeCount == 1)
        // Bob may not delete Cat's comment; Ann, the owner, may.
        await #expect(throws: LibraryError.self) { try await house.bob.deleteComment(comment, inSharedAlbum: house.album.localIdentifier) }
        try await house.ann.deleteComment(comment, inSharedAlbum: house.album.localIdentifier)
        #expect(try await house.bob.sharedAlbumActivity(house.album.localIdentifier).map(\.kind) == [.like, .added])
    }

    @Test("Add to my library makes an asset of one's own on the same bytes; it outlives the owner's deletion")
    func addToMyLibrary() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        try await house.ann.shareAlbum(house.album, with: "bob", as: .contributor)
        try await house.ann.shareAlbum(house.album, with: "cat", as: .viewer)
        let url = try house.temporary.photo("bob.jpg", seed: 9)
        let bobPhoto = try await house.bob.performChanges { _ = AssetChangeRequest.creationRequestForAsset(fromFileAt: url) }.created[0].localIdentifier
        try await house.bob.addToSharedAlbum(house.album.localIdentifier, assets: [bobPhoto])
        let copy = try await house.cat.addSharedAssetToLibrary(bobPhoto, fromSharedAlbum: house.album.localIdentifier)
        #expect(copy.localIdentifier != bobPhoto && !copy.isFavorite)
        #expect(try await house.cat.fetchAssets(with: FetchOptions()).allObjects().map(\.localIdentifier) == [copy.localIdentifier])
        let again = try await house.cat.addSharedAssetToLibrary(bobPhoto, fromSharedAlbum: house.album.localIdentifier)
        #expect(again.localIdentifier == copy.localIdentifier, "the same bytes twice are one asset")
        if !house.temporary.isS3 { #expect(house.temporary.files(in: "originals").count == 1, "the bytes are not copied") }
        // Bob deletes his for good: Cat's copy and its bytes stay.
        let bobAsset = try #require(try await house.bob.fetchAssets(withLocalIdentifiers: [bobPhoto]).firstObject)
        try await house.bob.performChanges { AssetChangeRequest.deleteAssets([bobAsset]) }
        let trashed = try #require(try await house.bob.fetchAssets(withLocalIdentifiers: [bobPhoto]).firstObject)
        try await house.bob.performChanges { AssetChangeRequest.purgeAssets([trashed]) }
        let original = try #require(copy.resources.first { $0.type == .photo })
        let out = house.temporary.folder.appendingPathComponent("cat-copy.jpg")
        try await AssetResourceManager(library: house.cat).writeData(for: original, toFile: out)
        #expect(try Data(contentsOf: out) == (try Data(contentsOf: url)))
        let report = try await house.ann.doctor()
        #expect(report.problems.isEmpty, "\(report.problems)")
    }

    @Test("Leaving, being taken out and the album's deletion end the sharing; each change is an event for exactly the people concerned")
    func leavingAndEvents() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        try await house.ann.shareAlbum(house.album, with: "bob", as: .contributor)
        try await house.ann.shareAlbum(house.album, with: "cat", as: .viewer)
        let bobPhoto = try await house.add("bob.jpg", seed: 2, to: house.bob)
        try await house.bob.addToSharedAlbum(house.album.localIdentifier, assets: [bobPhoto])
        // Cat comments: Ann and Bob hear of it; Dan does not.
        let tokens = (bob: try await house.bob.currentChangeToken, dan: try await house.dan.currentChangeToken)
        _ = try await house.cat.comment("Lovely", on: bobPhoto, inSharedAlbum: house.album.localIdentifier)
        let heard = try await Self.firstChange(of: house.bob, after: tokens.bob)
        #expect(heard?.changedSharedAlbumIdentifiers == [house.album.localIdentifier])
        #expect(try await Self.firstChange(of: house.dan, after: tokens.dan, within: .milliseconds(600)) == nil, "a stranger hears nothing")
        // Cat leaves: she sees it no more, and is told.
        let catToken = try await house.cat.currentChangeToken
        try await house.cat.leaveSharedAlbum(house.album.localIdentifier)
        #expect(try await Self.firstChange(of: house.cat, after: catToken)?.changedSharedAlbumIdentifiers == [house.album.localIdentifier])
        #expect(try await house.cat.sharedAlbums().isEmpty)
        await #expect(throws: LibraryError.self) { try await house.cat.sharedAlbumItems(house.album.localIdentifier) }
        // Her comment stays for those who stay.
        #expect(try await house.bob.sharedAlbumActivity(house.album.localIdentifier).first?.personDisplayName == "Cat")
        // Ann takes Bob out: his photo leaves the album with him, and stays his.
        try await house.ann.unshareAlbum(house.album.localIdentifier, with: "bob")
        #expect(try await house.ann.sharedAlbumItems(house.album.localIdentifier).isEmpty)
        #expect(try await house.bob.fetchAssets(withLocalIdentifiers: [bobPhoto]).count == 1)
        #expect(try await house.ann.sharedAlbums().isEmpty, "an album shared with nobody is no longer listed as shared")
        // Shared again, then deleted: nobody sees it any more.
        try await house.ann.shareAlbum(house.album, with: "dan", as: .viewer)
        #expect(try await house.dan.sharedAlbums().count == 1)
        try await house.ann.performChanges { AssetCollectionChangeRequest.deleteAssetCollections([house.album]) }
        #expect(try await house.dan.sharedAlbums().isEmpty)
        // A person removed from the library leaves every album.
        let again = try await house.ann.performChanges { _ = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Again") }
        let second = try #require(try await house.ann.assetCollection(withLocalIdentifier: again.createdCollections[0]))
        try await house.ann.shareAlbum(second, with: "cat", as: .viewer)
        try await house.ann.removePerson(house.catPerson, deletingTheirLibrary: true)
        #expect(try await house.ann.sharedAlbum(withLocalIdentifier: second.localIdentifier)?.members.isEmpty == true)
    }

    @Test("A link to a shared album shows it as its maker sees it, and nothing once they only view it or left; a partner's photo goes in no link")
    func publicLinks() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        let annPhoto = try await house.add("ann.jpg", seed: 1, to: house.ann)
        let bobPhoto = try await house.add("bob.jpg", seed: 2, to: house.bob)
        let annAssets = try await house.ann.fetchAssets(withLocalIdentifiers: [annPhoto]).allObjects()
        try await house.ann.performChanges { AssetCollectionChangeRequest(for: house.album).addAssets(annAssets) }
        try await house.ann.shareAlbum(house.album, with: "bob", as: .contributor)
        try await house.ann.shareAlbum(house.album, with: "cat", as: .viewer)
        try await house.bob.addToSharedAlbum(house.album.localIdentifier, assets: [bobPhoto])

        func shown(_ token: String) async throws -> [String] {
            let record = try #require(try await house.ann.sharedLinkRecord(forToken: token))
            let all = try await house.ann.sharedLinkAssets(record).map(\.localIdentifier)
            var one: [String] = []
            while let asset = try await house.cat.sharedLinkAsset(record, at: one.count) { one.append(asset.localIdentifier) }
            #expect(one == all, "a gallery's photo by photo reads what its list does")
            return all
        }
        let (bobsLink, bobsToken) = try await house.bob.createSharedLink(sharedAlbum: house.album.localIdentifier)
        #expect(bobsLink.title == "Lisbon" && bobsLink.albumIdentifier == house.album.localIdentifier)
        let (_, annsToken) = try await house.ann.createSharedLink(album: house.album)
        #expect(try await shown(bobsToken) == [annPhoto, bobPhoto], "a contributor's link shows everyone's photos, as they see them")
        #expect(try await shown(annsToken) == [annPhoto, bobPhoto], "so does the owner's: the album as she sees it, not only her photos")
        let viewer = await #expect(throws: LibraryError.self) { _ = try await house.cat.createSharedLink(sharedAlbum: house.album.localIdentifier) }
        #expect(viewer?.code == .notPermitted)
        let stranger = await #expect(throws: LibraryError.self) { _ = try await house.dan.createSharedLink(sharedAlbum: house.album.localIdentifier) }
        #expect(stranger?.code == .notFound)

        // A photo its owner hides leaves every link; Bob made a viewer shows nothing more in his.
        let bobAssets = try await house.bob.fetchAssets(withLocalIdentifiers: [bobPhoto]).allObjects()
        try await house.bob.performChanges { AssetChangeRequest(for: bobAssets[0]).isHidden = true }
        #expect(try await shown(bobsToken) == [annPhoto])
        #expect(try await shown(annsToken) == [annPhoto])
        try await house.bob.performChanges { AssetChangeRequest(for: bobAssets[0]).isHidden = false }
        try await house.ann.shareAlbum(house.album, with: "bob", as: .viewer)
        #expect(try await shown(bobsToken).isEmpty, "a viewer passes nothing on")
        try await house.ann.shareAlbum(house.album, with: "bob", as: .contributor)
        #expect(try await shown(bobsToken) == [annPhoto, bobPhoto])
        try await house.bob.leaveSharedAlbum(house.album.localIdentifier)
        #expect(try await shown(bobsToken).isEmpty, "once he left, his link shows nothing")
        #expect(try await shown(annsToken) == [annPhoto], "his photos left with him")

        // A partner's photo is Bob's to see, not to pass on; a stranger does not learn it exists.
        try await house.ann.sharePartnerLibrary(with: "bob", from: nil)
        let partners = try #require(try await house.bob.partnerAsset(withLocalIdentifier: annPhoto))
        let passedOn = await #expect(throws: LibraryError.self) { _ = try await house.bob.createSharedLink(assets: [partners]) }
        #expect(passedOn?.code == .notPermitted)
        let unknown = await #expect(throws: LibraryError.self) { _ = try await house.dan.createSharedLink(assets: [partners]) }
        #expect(unknown?.code == .notFound)
        let (_, ownToken) = try await house.bob.createSharedLink(assets: bobAssets)
        #expect(try await shown(ownToken) == [bobPhoto])
    }

    /// The first change `library` hears after `token`, or `nil` within `within`.
    static func firstChange(of library: PhotoLibrary, after token: PersistentChangeToken, within: Duration = .seconds(10)) async throws -> PhotoLibraryChange? {
        let stream = try await library.changes(since: token, pollingEvery: .milliseconds(50))
        return try await withThrowingTaskGroup(of: PhotoLibraryChange?.self) { group in
            group.addTask {
                for try await change in stream { return change }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: within)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
