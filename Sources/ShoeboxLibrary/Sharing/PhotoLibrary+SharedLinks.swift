internal import Crypto
import Foundation

extension PhotoLibrary {
    /// At most this many photos in a selection link.
    public static let sharedLinkMaximumAssets = 10_000
    /// Rounds of SHA-256 over a link's password and salt.
    static let sharedLinkPasswordRounds = 50_000

    /// Makes a link that shows `album` (its photos as they are when the link is opened) or the
    /// `assets` chosen, to anyone who has the link, read-only: ``SharedLink``. Any person shares
    /// what is theirs to share: their own albums and photos, and the Shared Library's photos
    /// while they are in it (an app does not make links). A link to a shared album shows it as
    /// its maker sees it: ``createSharedLink(title:sharedAlbum:options:now:)``. The token — the
    /// secret part of the URL, `/s/TOKEN` — is returned once; the library keeps only its hash.
    ///
    /// ```swift
    /// let (link, token) = try await library.createSharedLink(album: trip, options: .init(expiresDate: nextWeek))
    /// print("http://127.0.0.1:8123/s/\(token)", link.id)
    /// ```
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` without an album or assets, for a title
    ///   over 200 characters, an expiry already past, an empty password or more than
    ///   ``sharedLinkMaximumAssets``; ``LibraryError/Code/notFound`` for an asset
    ///   or album that is not there; ``LibraryError/Code/notPermitted`` for a photo a partner
    ///   shares with the person (shared for them to see, not to pass on).
    public func createSharedLink(
        title: String? = nil, album: AssetCollection? = nil, assets: [Asset] = [],
        options: SharedLink.Options = .init(), now: Date = Date()
    ) async throws(LibraryError) -> (link: SharedLink, token: String) {
        guard clientIdentifier == nil else { throw LibraryError.invalidArgument("only the user shares links") }
        guard (album == nil) != assets.isEmpty else { throw LibraryError.invalidArgument("a link shows an album or chosen photos, one of the two") }
        guard assets.count <= Self.sharedLinkMaximumAssets else {
            throw LibraryError.invalidArgument("a link shows at most 10,000 chosen photos, not \(assets.count): share an album of them instead")
        }
        if let album, album.assetCollectionType != .album { throw LibraryError.invalidArgument("only an album (not a folder or a smart album) can be shared") }
        try Self.checkSharedLink(title: title, options: options, now: now)
        var identifiers: [String] = []
        if !assets.isEmpty {
            let found = try await fetchAssets(withLocalIdentifiers: assets.map(\.localIdentifier)).allObjects()
            let known = Set(found.map(\.localIdentifier))
            if let missing = assets.first(where: { !known.contains($0.localIdentifier) }) {
                throw try await sharedLinkRefusal(missing: missing.localIdentifier)
            }
            var seen: Set<String> = []
            identifiers = assets.map(\.localIdentifier).filter { seen.insert($0).inserted }
        }
        if let album, try await assetCollection(withLocalIdentifier: album.localIdentifier) == nil {
            throw LibraryError.notFound(localIdentifier: album.localIdentifier)
        }
        return try await addSharedLink(
            title: title, album: album.map { ($0.localIdentifier, $0.localizedTitle) }, assets: identifiers, options: options, now: now)
    }

    /// Makes a link that shows a shared album — one of the person's that they share, or one
    /// shared with them as a contributor — as the person sees it when the link is opened:
    /// everyone's photos in it, and nothing once the person is no longer in it or only views it.
    ///
    /// ```swift
    /// let lisbon = try await library.sharedAlbums().first { $0.title == "Lisbon" }!
    /// let (_, token) = try await library.createSharedLink(sharedAlbum: lisbon.id)
    /// ```
    ///
    /// - Throws: ``LibraryError/Code/notFound`` for a shared album the person is not in;
    ///   ``LibraryError/Code/notPermitted`` for a viewer (its owner or a contributor shares it);
    ///   ``LibraryError/Code/invalidArgument`` as ``createSharedLink(title:album:assets:options:now:)`` does.
    public func createSharedLink(
        title: String? = nil, sharedAlbum identifier: String, options: SharedLink.Options = .init(), now: Date = Date()
    ) async throws(LibraryError) -> (link: SharedLink, token: String) {
        guard clientIdentifier == nil else { throw LibraryError.invalidArgument("only the user shares links") }
        guard let album = try await sharedAlbum(withLocalIdentifier: identifier) else { throw LibraryError(.notFound, "there is no such shared album") }
        guard album.role.addsPhotos else {
            throw LibraryError.notPermitted("a viewer of \(album.title) does not make links to it: its owner or a contributor does")
        }
        try Self.checkSharedLink(title: title, options: options, now: now)
        return try await addSharedLink(title: title, album: (album.id, album.title), assets: [], options: options, now: now)
    }

    /// Why a photo the person does not hold cannot go in their link: one a partner shares with
    /// them is theirs to see, not to pass on (`notPermitted`); any other is not there (`notFound`).
    package func sharedLinkRefusal(missing identifier: String) async throws(LibraryError) -> LibraryError {
        guard try await partnerAsset(withLocalIdentifier: identifier) == nil else {
            return LibraryError.notPermitted("a photo a partner shares with you is yours to see, not to put in a link")
        }
        return LibraryError.notFound(localIdentifier: identifier)
    }

    private static func checkSharedLink(title: String?, options: SharedLink.Options, now: Date) throws(LibraryError) {
        let trimmed = title?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (trimmed?.count ?? 0) <= 200, !(trimmed ?? "").contains(where: \.isNewline) else {
            throw LibraryError.invalidArgument("a link's title is one line of at most 200 characters")
        }
        if let expires = options.expiresDate, expires <= now { throw LibraryError.invalidArgument("the expiry \(expires) has passed") }
        if let password = options.password, password.isEmpty || password.count > 200 {
            throw LibraryError.invalidArgument("a password is 1 to 200 characters")
        }
    }

    private func addSharedLink(
        title: String?, album: (identifier: String, title: String)?, assets identifiers: [String], options: SharedLink.Options, now: Date
    ) async throws(LibraryError) -> (link: SharedLink, token: String) {
        let trimmed = title?.trimmingCharacters(in: .whitespacesAndNewlines)
        let token = RandomToken.base64URL(bytes: 32)
        let name = (trimmed?.isEmpty == false ? trimmed : nil) ?? album?.title ?? (identifiers.count == 1 ? "1 photo" : "\(identifiers.count) photos")
        let record = SharedLinkRecord(
            id: RandomToken.hex(words: 1), tokenHash: Hex.sha256(Data(token.utf8)), title: name, album: album?.identifier,
            assets: identifiers, createdDate: now, expiresDate: options.expiresDate,
            password: options.password.map { Self.sharedLinkPasswordHash($0, salt: Array(RandomToken.hex(words: 2).utf8)) },
            allowsDownload: options.allowsDownload, includesMetadata: options.includesMetadata)
        try await catalog.addSharedLink(record)
        return (record.link, token)
    }

    /// Every link the user made, the newest first (revoked ones too).
    public func sharedLinks() async throws(LibraryError) -> [SharedLink] {
        try await catalog.sharedLinks().map(\.link)
    }

    /// Turns a link off at once: it opens no more.
    /// - Throws: ``LibraryError/Code/notFound`` for no link with `id`.
    public func revokeSharedLink(_ id: String, now: Date = Date()) async throws(LibraryError) {
        guard try await catalog.revokeSharedLink(id: id, at: now) else { throw LibraryError.notFound(localIdentifier: id) }
    }

    /// The latest looks at a link, the newest first.
    public func sharedLinkViews(_ id: String, limit: Int = 500) async throws(LibraryError) -> [SharedLink.View] {
        try await catalog.sharedLinkViews(link: id, limit: limit)
    }

    // MARK: Opening a link (the server's public routes)

    /// What a token opens now: the link's record when it is there and not revoked (an expired
    /// one too: ``SharedLink/isOpen(at:)`` tells), else `nil`.
    package func sharedLinkRecord(forToken token: String) async throws(LibraryError) -> SharedLinkRecord? {
        guard !token.isEmpty, token.count <= 100 else { return nil }
        guard let record = try await catalog.sharedLink(tokenHash: Hex.sha256(Data(token.utf8))), record.revokedDate == nil else { return nil }
        return record
    }

    /// Whether `password` is the link's.
    package static func sharedLinkPasswordMatches(_ password: String, record: SharedLinkRecord) -> Bool {
        guard let stored = record.password, let separator = stored.firstIndex(of: "$") else { return false }
        let salt = Array(stored[..<separator].utf8)
        let computed = sharedLinkPasswordHash(password, salt: salt)
        return computed.utf8.count == stored.utf8.count && zip(computed.utf8, stored.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The value of the cookie that says a browser typed the link's password: derived from the
    /// token's hash and the password's, so it changes with either and reveals neither.
    package static func sharedLinkUnlockValue(_ record: SharedLinkRecord) -> String {
        Hex.sha256(Data("unlock|\(record.tokenHash)|\(record.password ?? "")".utf8))
    }

    /// The photos a link shows now, in order: the album's (or the selection's) that are neither
    /// hidden nor in Recently Deleted, as its maker sees them now.
    package func sharedLinkAssets(_ record: SharedLinkRecord) async throws(LibraryError) -> [Asset] {
        // A link shows its maker's photos, whoever's library object reads it.
        guard catalog.owner == record.ownerID else { return try await scoped(to: record.ownerID).sharedLinkAssets(record) }
        if let album = record.album, let shared = try await linkedSharedAlbum(album) {
            guard let shared else { return [] }
            return try await sharedAlbumItems(shared.localIdentifier).map(\.asset)
        }
        if let album = record.album {
            // An album's fetch leaves hidden and deleted photos out already.
            guard let collection = try await assetCollection(withLocalIdentifier: album) else { return [] }
            return try await fetchAssets(in: collection).allObjects()
        }
        let found = try await fetchAssets(withLocalIdentifiers: record.assets).allObjects()
        let byIdentifier = Dictionary(found.map { ($0.localIdentifier, $0) }) { first, _ in first }
        return record.assets.compactMap { byIdentifier[$0] }.filter { !$0.isHidden && $0.trashedDate == nil }
    }

    /// The photo at `index` of ``sharedLinkAssets(_:)``, read alone for an album (a gallery asks
    /// for each of its photos: not a read of the whole album each time).
    package func sharedLinkAsset(_ record: SharedLinkRecord, at index: Int) async throws(LibraryError) -> Asset? {
        guard index >= 0 else { return nil }
        guard catalog.owner == record.ownerID else { return try await scoped(to: record.ownerID).sharedLinkAsset(record, at: index) }
        if let album = record.album, let shared = try await linkedSharedAlbum(album) {
            guard let shared, let identifier = try await catalog.sharedAlbumItem(collectionID: shared.collectionID, at: index) else { return nil }
            return try await scoped(to: nil).catalog.assets(localIdentifiers: [identifier])[identifier]
        }
        if let album = record.album {
            guard let collection = try await assetCollection(withLocalIdentifier: album) else { return nil }
            let result = try await fetchAssets(in: collection)
            return index < result.count ? try await result.object(at: index) : nil
        }
        let assets = try await sharedLinkAssets(record)
        return index < assets.count ? assets[index] : nil
    }

    /// How a link's album reads for its maker (the library's person): `nil` for an album of
    /// theirs shared with nobody, or one they are not in (read as an album of theirs: it is there
    /// or not); `.some(nil)` for a shared album they may no longer pass on (they only view it);
    /// else the shared album, read with everyone's photos.
    private func linkedSharedAlbum(_ identifier: String) async throws(LibraryError) -> SharedAlbumRow?? {
        guard clientIdentifier == nil, catalog.owner != nil, let row = try await catalog.sharedAlbumRows(localIdentifier: identifier).first else {
            return nil
        }
        switch row.role {
        case .viewer: return .some(nil)
        case .contributor: return row
        case .owner:
            let members = try await catalog.sharedAlbumMembers([row.collectionID])[row.collectionID] ?? []
            return members.isEmpty ? .none : .some(row)
        }
    }

    /// Logs a look at a link (never fails the look).
    package func logSharedLinkView(_ record: SharedLinkRecord, address: String, what: String) async {
        try? await catalog.logSharedLinkView(link: record.id, view: SharedLink.View(date: Date(), address: String(address.prefix(100)), what: what))
    }

    /// The seconds `address` must wait before it may type the link's password again, `nil` when
    /// it may now: ``SharedLink/passwordAttemptsPerAddress`` wrong passwords from one address, or
    /// ``SharedLink/passwordAttemptsPerLink`` from all, in ``SharedLink/passwordWindow``.
    package func sharedLinkPasswordWait(_ record: SharedLinkRecord, address: String, now: Date = Date()) async throws(LibraryError) -> Int? {
        let since = now.addingTimeInterval(-SharedLink.passwordWindow)
        let fromHere = try await catalog.sharedLinkViewCount(
            link: record.id, what: SharedLink.View.wrongPassword, address: String(address.prefix(100)), since: since)
        let fromAll =
            fromHere >= SharedLink.passwordAttemptsPerAddress
            ? fromHere : try await catalog.sharedLinkViewCount(link: record.id, what: SharedLink.View.wrongPassword, address: nil, since: since)
        guard fromHere >= SharedLink.passwordAttemptsPerAddress || fromAll >= SharedLink.passwordAttemptsPerLink else { return nil }
        return Int(SharedLink.passwordWindow / 15)
    }

    static func sharedLinkPasswordHash(_ password: String, salt: [UInt8]) -> String {
        var digest = Array(SHA256.hash(data: salt + Array(password.utf8)))
        for _ in 0..<sharedLinkPasswordRounds { digest = Array(SHA256.hash(data: digest + salt)) }
        return String(decoding: salt, as: UTF8.self) + "$" + Hex.encode(digest)
    }
}
