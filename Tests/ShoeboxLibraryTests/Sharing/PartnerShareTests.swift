import Foundation
import ShoeboxTesting
import Testing

@testable import ShoeboxLibrary

/// Partner sharing (issue 42, item 3): a person shares their whole library, or photos from a
/// date on, with one person, read-only; the partner sees them apart or in their own timeline.
@Suite struct PartnerShareTests {
    /// Ann (the admin) shares with Bob; Cat is a stranger to it.
    struct Household {
        let temporary: TemporaryLibrary
        let ann: PhotoLibrary
        let bob: PhotoLibrary
        let cat: PhotoLibrary

        init() async throws {
            temporary = try await TemporaryLibrary()
            ann = temporary.library
            bob = ann.forPerson(try await ann.addPerson(name: "bob", displayName: "Bob"))
            cat = ann.forPerson(try await ann.addPerson(name: "cat", displayName: "Cat"))
        }

        /// A photo of `library`'s taken on `day` (days after 2020-01-01, noon UTC).
        func add(_ name: String, seed: UInt64, day: Int, to library: PhotoLibrary) async throws -> String {
            let url = try temporary.photo(name, seed: seed)
            let date = Date(timeIntervalSince1970: 1_577_880_000 + Double(day) * 86_400)
            return try await library.performChanges {
                let request = AssetChangeRequest.creationRequestForAsset(fromFileAt: url)
                request.creationDate = date
            }.created[0].localIdentifier
        }

        static let day10 = Date(timeIntervalSince1970: 1_577_836_800 + 10 * 86_400)  // 2020-01-11 00:00 UTC
    }

    static func identifiers(_ result: FetchResult<Asset>) async throws -> Set<String> {
        Set(try await result.allObjects().map(\.localIdentifier))
    }

    @Test("A partner sees the sharer's photos from the start date on, never hidden or deleted ones, apart or in their timeline; nobody else does")
    func sharingAndSeeing() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        let old = try await house.add("old.jpg", seed: 1, day: 2, to: house.ann)
        let new = try await house.add("new.jpg", seed: 2, day: 20, to: house.ann)
        let hidden = try await house.add("hidden.jpg", seed: 3, day: 21, to: house.ann)
        let deleted = try await house.add("deleted.jpg", seed: 4, day: 22, to: house.ann)
        let bobs = try await house.add("bob.jpg", seed: 5, day: 15, to: house.bob)
        let annAssets = try await house.ann.fetchAssets(withLocalIdentifiers: [hidden, deleted]).allObjects()
        try await house.ann.performChanges {
            AssetChangeRequest(for: annAssets.first { $0.localIdentifier == hidden }!).isHidden = true
            AssetChangeRequest.deleteAssets([annAssets.first { $0.localIdentifier == deleted }!])
        }

        // Before sharing: nothing of Ann's anywhere for Bob.
        await #expect(throws: LibraryError.self) { _ = try await house.bob.fetchPartnerAssets(from: "admin") }
        #expect(try await house.bob.partnerAsset(withLocalIdentifier: new) == nil)

        let share = try await house.ann.sharePartnerLibrary(with: "bob", from: Household.day10)
        #expect(share.sharer.name == "admin" && share.partner.name == "bob" && share.startDate == Household.day10 && !share.isShownInTimeline)
        #expect(try await house.bob.partnerShares().map(\.sharer.name) == ["admin"])
        #expect(try await house.cat.partnerShares().isEmpty)

        // Apart: from the date on, without the hidden or deleted ones.
        #expect(try await Self.identifiers(try await house.bob.fetchPartnerAssets(from: "admin")) == [new])
        #expect(try await house.bob.partnerAsset(withLocalIdentifier: new)?.localIdentifier == new)
        for refused in [old, hidden, deleted, bobs] {
            #expect(try await house.bob.partnerAsset(withLocalIdentifier: refused) == nil, "\(refused) is not shared")
        }
        #expect(try await house.cat.partnerAsset(withLocalIdentifier: new) == nil, "a stranger sees nothing")
        await #expect(throws: LibraryError.self) { _ = try await house.cat.fetchPartnerAssets(from: "admin") }

        // Not in Bob's timeline until he chooses; then with his own, in date order, and the months count both.
        var timeline = FetchOptions()
        timeline.includePartnerAssets = true
        #expect(try await Self.identifiers(try await house.bob.fetchAssets(with: timeline)) == [bobs])
        try await house.bob.showPartnerAssetsInTimeline(true, from: "admin")
        let both = try await house.bob.fetchAssets(with: timeline).allObjects()
        #expect(both.map(\.localIdentifier) == [bobs, new])
        #expect(house.bob.isSomeoneElses(both[1]) && !house.bob.isSomeoneElses(both[0]))
        #expect(try await house.bob.owners(ofSomeoneElses: both).mapValues(\.name) == [new: "admin"])
        #expect(try await house.bob.fetchMonthSections(with: timeline).map(\.count).reduce(0, +) == 2)
        var page = try await house.bob.fetchAssetPage(with: timeline, after: nil, limit: 1)
        #expect(page.assets.map(\.localIdentifier) == [bobs] && page.hasMore)
        page = try await house.bob.fetchAssetPage(with: timeline, after: page.assets.last, limit: 1)
        #expect(page.assets.map(\.localIdentifier) == [new] && !page.hasMore)
        // Without asking, a fetch is Bob's alone; Ann's timeline never holds Bob's.
        #expect(try await Self.identifiers(try await house.bob.fetchAssets()) == [bobs])
        #expect(try await Self.identifiers(try await house.ann.fetchAssets(with: timeline)) == [old, new])

        // The whole library: the old photo too (still not the hidden or the deleted one).
        try await house.ann.sharePartnerLibrary(with: "bob", from: nil)
        #expect(try await Self.identifiers(try await house.bob.fetchAssets(with: timeline)) == [bobs, old, new])
        #expect(try await house.bob.partnerShares().first?.isShownInTimeline == true, "a new date keeps Bob's choice")
        #expect(try await house.bob.fetchMonthSections(with: timeline).map(\.count).reduce(0, +) == 3)

        // Read-only: Bob's changes to Ann's photo find nothing, and it stays as it was.
        let annsNew = try #require(try await house.bob.partnerAsset(withLocalIdentifier: new))
        await #expect(throws: LibraryError.self) {
            try await house.bob.performChanges { AssetChangeRequest(for: annsNew).isFavorite = true }
        }
        await #expect(throws: LibraryError.self) {
            try await house.bob.performChanges { AssetChangeRequest.deleteAssets([annsNew]) }
        }
        let unchanged = try #require(try await house.ann.fetchAssets(withLocalIdentifiers: [new]).firstObject)
        #expect(!unchanged.isFavorite && unchanged.trashedDate == nil)

        // Apps never see a partner's photos, whatever they ask.
        let app = house.bob.forClient("com.example.viewer")
        #expect(try await app.partnerAsset(withLocalIdentifier: new) == nil)
        await #expect(throws: LibraryError.self) { _ = try await app.partnerShares() }
    }

    @Test("A fetch made while shared loses the partner's photos when the sharing stops; either side stops it; each change is an event for both")
    func stopping() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        let photo = try await house.add("ann.jpg", seed: 1, day: 30, to: house.ann)
        let bobs = try await house.add("bob.jpg", seed: 2, day: 31, to: house.bob)
        let annToken = try await house.ann.currentChangeToken
        let bobToken = try await house.bob.currentChangeToken
        let catToken = try await house.cat.currentChangeToken

        try await house.ann.sharePartnerLibrary(with: "bob", from: nil)
        try await house.bob.showPartnerAssetsInTimeline(true, from: "admin")
        var timeline = FetchOptions()
        timeline.includePartnerAssets = true
        let result = try await house.bob.fetchAssets(with: timeline)
        #expect(result.count == 2)

        try await house.ann.stopPartnerSharing(with: "bob")
        #expect(try await result.allObjects().map(\.localIdentifier) == [bobs], "a page read now holds only what Bob may see now")
        #expect(try await house.bob.partnerAsset(withLocalIdentifier: photo) == nil)
        await #expect(throws: LibraryError.self) { try await house.ann.stopPartnerSharing(with: "bob") }

        // The partner's side: Bob stops seeing it.
        try await house.ann.sharePartnerLibrary(with: "bob", from: nil)
        try await house.bob.leavePartnerShare(from: "admin")
        #expect(try await house.ann.partnerShares().isEmpty)

        // Wrong people: typed errors.
        let me = await #expect(throws: LibraryError.self) { try await house.ann.sharePartnerLibrary(with: "admin", from: nil) }
        #expect(me?.code == .invalidArgument)
        let nobody = await #expect(throws: LibraryError.self) { try await house.ann.sharePartnerLibrary(with: "zed", from: nil) }
        #expect(nobody?.code == .noSuchPerson)

        // Ann and Bob heard of every change (naming the other); Cat of none.
        let annID = try #require(try await house.ann.person()).id
        let bobID = try #require(try await house.bob.person()).id
        #expect(try await Self.partnerChanges(of: house.ann, after: annToken, until: [bobID]) == [bobID])
        #expect(try await Self.partnerChanges(of: house.bob, after: bobToken, until: [annID]) == [annID])
        #expect(try await Self.partnerChanges(of: house.cat, after: catToken, until: ["never"], within: .milliseconds(600)).isEmpty)
    }

    @Test(
        "A partner's new photo reaches an open timeline as a change whose details insert it; a hidden one, or one before the start date, names nothing and inserts nothing"
    )
    func livePartnerPhotos() async throws {
        let house = try await Household()
        defer { house.temporary.remove() }
        _ = try await house.add("bob.jpg", seed: 1, day: 12, to: house.bob)
        try await house.ann.sharePartnerLibrary(with: "bob", from: Household.day10)
        try await house.bob.showPartnerAssetsInTimeline(true, from: "admin")
        var timeline = FetchOptions()
        timeline.includePartnerAssets = true
        var open = try await house.bob.fetchAssets(with: timeline)
        #expect(open.count == 1)

        // Each of Ann's imports is one commit: Bob's stream hears each, naming none of her photos.
        let bobToken = try await house.bob.currentChangeToken
        let catToken = try await house.cat.currentChangeToken
        let before = try await house.add("before.jpg", seed: 2, day: 3, to: house.ann)
        let url = try house.temporary.photo("hidden.jpg", seed: 3)
        let hidden = try await house.ann.performChanges {
            let request = AssetChangeRequest.creationRequestForAsset(fromFileAt: url)
            request.creationDate = Date(timeIntervalSince1970: 1_577_880_000 + 20 * 86_400)
            request.isHidden = true
        }.created[0].localIdentifier
        let shown = try await house.add("shown.jpg", seed: 4, day: 21, to: house.ann)

        // Bob's stream, until his open timeline holds the shown photo (or 10 s pass).
        let stream = try await house.bob.changes(since: bobToken, pollingEvery: .milliseconds(50))
        let start = open
        let heard = try await withThrowingTaskGroup(of: (inserted: [String], named: Set<String>, partners: Bool, open: FetchResult<Asset>)?.self) {
            group in
            group.addTask {
                var result = start
                var inserted: [String] = []
                var named: Set<String> = []
                var partners = false
                for try await change in stream {
                    partners = partners || change.touchesPartnerAssets
                    named.formUnion(change.insertedAssetIdentifiers.union(change.changedAssetIdentifiers).union(change.removedAssetIdentifiers))
                    guard let details = try await change.details(for: result) else { continue }
                    result = details.fetchResultAfterChanges
                    for index in details.insertedIndexes { inserted.append(try #require(try await result.object(at: index)).localIdentifier) }
                    if result.count == 2 { return (inserted, named, partners, result) }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        let seen = try #require(heard, "the partner's photo did not reach Bob's open timeline")
        #expect(seen.partners, "the changes said a partner's photos changed")
        #expect(seen.inserted == [shown], "only the photo the share shows comes in")
        #expect(seen.named.isEmpty, "no identifier of Ann's reaches Bob's stream: \(seen.named) (\(before), \(hidden))")
        open = seen.open
        #expect(open.count == 2)
        // Cat shares nothing with anyone: she hears none of it.
        #expect(try await SharedAlbumTests.firstChange(of: house.cat, after: catToken, within: .milliseconds(600)) == nil)
    }

    /// The partner identifiers of the library's changes after `token`, once they hold `until`
    /// (or when `within` passed).
    static func partnerChanges(
        of library: PhotoLibrary, after token: PersistentChangeToken, until wanted: Set<String>, within: Duration = .seconds(10)
    ) async throws -> Set<String> {
        let stream = try await library.changes(since: token, pollingEvery: .milliseconds(50))
        let heard = Heard()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await change in stream where !change.changedPartnerIdentifiers.isEmpty {
                    if await heard.add(change.changedPartnerIdentifiers).isSuperset(of: wanted) { return }
                }
            }
            group.addTask { try await Task.sleep(for: within) }
            try await group.next()
            group.cancelAll()
        }
        return await heard.all
    }

    actor Heard {
        var all: Set<String> = []
        func add(_ more: Set<String>) -> Set<String> {
            all.formUnion(more)
            return all
        }
    }
}
