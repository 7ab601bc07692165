import Foundation

extension PhotoLibrary {
    /// Shares one of the person's albums with another person of the household, as a viewer or a
    /// contributor, or changes the role of someone it is shared with. Only the person shares: a
    /// library opened for an app throws.
    ///
    /// ```swift
    /// let trip = try await library.createAlbum(title: "Lisbon")
    /// try await library.shareAlbum(trip, with: "sam", as: .contributor)
    /// ```
    ///
    /// - Throws: ``LibraryError/Code/notFound`` for an album that is not the person's;
    ///   ``LibraryError/Code/noSuchPerson`` for nobody of that name; ``LibraryError/Code/invalidArgument``
    ///   for a folder, the person themself, the role `owner`, or more than ``SharedAlbum/maximumMembers``.
    @discardableResult
    public func shareAlbum(_ album: AssetCollection, with person: String, as role: SharedAlbum.Role, now: Date = Date()) async throws(LibraryError)
        -> SharedAlbum
    {
        let (row, me) = try await ownedSharedAlbum(album.localIdentifier)
        guard role != .owner else { throw LibraryError.invalidArgument("an album has one owner: share it as a viewer or a contributor") }
        guard let other = try await catalog.person(named: person) else {
            throw LibraryError(.noSuchPerson, "no person of this library is named \(person)")
        }
        guard other.rowID != me else { throw LibraryError.invalidArgument("\(album.localizedTitle) is yours already") }
        let members = try await catalog.sharedAlbumMembers([row.collectionID])[row.collectionID] ?? []
        if !members.contains(where: { $0.rowID == other.rowID }), members.count >= SharedAlbum.maximumMembers {
            throw LibraryError.invalidArgument("an album is shared with at most \(SharedAlbum.maximumMembers) people")
        }
        _ = try await catalog.setAlbumShare(collectionID: row.collectionID, person: other.rowID, role: role, now: now)
        return try await sharedAlbum(withLocalIdentifier: row.localIdentifier)!
    }

    /// Takes a person out of a shared album: its owner takes anyone out; anyone in it leaves by
    /// naming themself (or with ``leaveSharedAlbum(_:)``). Their photos leave the album with them
    /// (they stay in their library); their likes and comments stay.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` for an album the person is not in, or a person
    ///   not in it; ``LibraryError/Code/authorization`` for someone else taking a third person out.
    public func unshareAlbum(_ identifier: String, with person: String, now: Date = Date()) async throws(LibraryError) {
        let (row, me) = try await sharedAlbumAccess(identifier)
        guard let other = try await catalog.person(named: person) else {
            throw LibraryError(.noSuchPerson, "no person of this library is named \(person)")
        }
        guard row.role == .owner || other.rowID == me else {
            throw LibraryError.notPermitted("only the album's owner takes other people out of it")
        }
        guard other.rowID != row.ownerID else { throw LibraryError.invalidArgument("the owner cannot leave their own album: delete it instead") }
        let theirs = try await catalog.sharedAlbumItems(collectionID: row.collectionID).filter { $0.addedByID == other.rowID }.map(\.localIdentifier)
        if !theirs.isEmpty {
            _ = try await catalog.removeFromSharedAlbum(collectionID: row.collectionID, assets: theirs, addedBy: other.rowID, now: now)
        }
        guard try await catalog.setAlbumShare(collectionID: row.collectionID, person: other.rowID, role: nil, now: now) else {
            throw LibraryError.notFound(localIdentifier: other.id)
        }
    }

    /// Leaves an album someone shared with the person (see ``unshareAlbum(_:with:now:)``).
    public func leaveSharedAlbum(_ identifier: String, now: Date = Date()) async throws(LibraryError) {
        guard let me = try await person() else { throw LibraryError.invalidArgument("only a person leaves a shared album") }
        try await unshareAlbum(identifier, with: me.name, now: now)
    }

    /// The albums others share with the person, and the person's own that they share, the newest first.
    public func sharedAlbums() async throws(LibraryError) -> [SharedAlbum] {
        _ = try personOnly()
        return try await describe(try await catalog.sharedAlbumRows(localIdentifier: nil))
    }

    /// One shared album as the person sees it: one shared with them, or one of theirs (shared
    /// or not yet); `nil` for any other.
    public func sharedAlbum(withLocalIdentifier identifier: String) async throws(LibraryError) -> SharedAlbum? {
        _ = try personOnly()
        return try await describe(try await catalog.sharedAlbumRows(localIdentifier: identifier)).first
    }

    /// A shared album's photos and movies, everyone's, in album order, with who added each and
    /// their likes and comments.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` for an album the person is not in.
    public func sharedAlbumItems(_ identifier: String) async throws(LibraryError) -> [SharedAlbumItem] {
        let (row, _) = try await sharedAlbumAccess(identifier)
        let rows = try await catalog.sharedAlbumItems(collectionID: row.collectionID)
        let assets = try await scoped(to: nil).catalog.assets(localIdentifiers: rows.map(\.localIdentifier))
        let people = try await catalog.sharedAlbumPeople(rows.map(\.addedByID))
        return rows.compactMap { item in
            guard let asset = assets[item.localIdentifier], let by = people[item.addedByID] else { return nil }
            return SharedAlbumItem(asset: asset, addedBy: by, likeCount: item.likeCount, isLikedByMe: item.isLikedByMe, commentCount: item.commentCount)
        }
    }

    /// One photo or movie of a shared album, if the person is in the album and it shows there.
    public func sharedAlbumAsset(_ identifier: String, asset: String) async throws(LibraryError) -> Asset? {
        let (row, _) = try await sharedAlbumAccess(identifier)
        guard try await catalog.sharedAlbumShows(collectionID: row.collectionID, asset: asset) else { return nil }
        return try await scoped(to: nil).catalog.assets(localIdentifiers: [asset])[asset]
    }

    /// Adds the person's photos and movies to a shared album: its owner and contributors do.
    /// Their own stay theirs; the Shared Library's (while they are in it) stay the Shared
    /// Library's, and the album shows them as added by the person, who may take them out again.
    ///
    /// - Returns: How many were not in it yet.
    /// - Throws: ``LibraryError/Code/authorization`` for a viewer; ``LibraryError/Code/notFound``
    ///   for an album the person is not in or a photo that is not theirs (then nothing is added).
    @discardableResult
    public func addToSharedAlbum(_ identifier: String, assets: [String], now: Date = Date()) async throws(LibraryError) -> Int {
        let (row, _) = try await sharedAlbumAccess(identifier)
        guard row.role.addsPhotos else { throw LibraryError.notPermitted("a viewer of \(row.title) does not add photos to it") }
        guard assets.count <= PhotoLibrary.sharedLinkMaximumAssets else {
            throw LibraryError.invalidArgument("at most \(PhotoLibrary.sharedLinkMaximumAssets) photos at a time")
        }
        return try await catalog.addToSharedAlbum(collectionID: row.collectionID, assets: assets, now: now)
    }

    /// Takes photos out of a shared album (never out of anyone's library): its owner any, a
    /// contributor those they added.
    ///
    /// - Returns: How many were taken out.
    @discardableResult
    public func removeFromSharedAlbum(_ identifier: String, assets: [String], now: Date = Date()) async throws(LibraryError) -> Int {
        let (row, me) = try await sharedAlbumAccess(identifier)
        guard row.role.addsPhotos else { throw LibraryError.notPermitted("a viewer of \(row.title) does not take photos out of it") }
        return try await catalog.removeFromSharedAlbum(collectionID: row.collectionID, assets: assets, addedBy: row.role == .owner ? nil : me, now: now)
    }

    /// Likes a photo of a shared album (once: a second like changes nothing), or takes the like back.
    public func setLike(_ liked: Bool, asset: String, inSharedAlbum identifier: String, now: Date = Date()) async throws(LibraryError) {
        let (row, _) = try await sharedAlbumAccess(identifier)
        if liked {
            _ = try await catalog.addAlbumActivity(collectionID: row.collectionID, asset: asset, kind: .like, text: nil, now: now)
        } else {
            _ = try await catalog.removeAlbumLike(collectionID: row.collectionID, asset: asset, now: now)
        }
    }

    /// Comments on a photo of a shared album.
    ///
    /// - Returns: The comment's identifier.
    /// - Throws: ``LibraryError/Code/invalidArgument`` for an empty comment or one over ``SharedAlbumActivity/maximumCommentLength``.
    @discardableResult
    public func comment(_ text: String, on asset: String, inSharedAlbum identifier: String, now: Date = Date()) async throws(LibraryError) -> String {
        let words = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !words.isEmpty, words.count <= SharedAlbumActivity.maximumCommentLength else {
            throw LibraryError.invalidArgument("a comment is 1 to \(SharedAlbumActivity.maximumCommentLength) characters")
        }
        let (row, _) = try await sharedAlbumAccess(identifier)
        guard let id = try await catalog.addAlbumActivity(collectionID: row.collectionID, asset: asset, kind: .comment, text: words, now: now) else {
            throw LibraryError.storage("the comment was not kept")
        }
        return id
    }

    /// Deletes a comment: one's own, or (the album's owner) anyone's.
    public func deleteComment(_ id: String, inSharedAlbum identifier: String, now: Date = Date()) async throws(LibraryError) {
        let (row, _) = try await sharedAlbumAccess(identifier)
        guard try await catalog.removeAlbumComment(collectionID: row.collectionID, id: id, anyone: row.role == .owner, now: now) else {
            throw LibraryError.notFound(localIdentifier: id)
        }
    }

    /// What people did in a shared album, the newest first.
    public func sharedAlbumActivity(_ identifier: String, limit: Int = 200) async throws(LibraryError) -> [SharedAlbumActivity] {
        let (row, _) = try await sharedAlbumAccess(identifier)
        return try await catalog.albumActivity(collectionID: row.collectionID, limit: min(max(limit, 1), 1_000))
    }

    /// Copies a photo of a shared album into the person's own library: an asset of their own
    /// (its own favorite, albums and edits; the owner's edit comes along as its look), the bytes
    /// not copied. A photo whose bytes the person has already is that asset.
    ///
    /// - Returns: The person's asset.
    public func addSharedAssetToLibrary(_ asset: String, fromSharedAlbum identifier: String, now: Date = Date()) async throws(LibraryError) -> Asset {
        let (row, me) = try await sharedAlbumAccess(identifier)
        guard try await catalog.sharedAlbumShows(collectionID: row.collectionID, asset: asset),
            let source = try await catalog.assetRecord(localIdentifier: asset)
        else {
            throw LibraryError.notFound(localIdentifier: asset)
        }
        // One's own, or the Shared Library's while one is in it: the person has it already.
        if let own = try await catalog.assets(localIdentifiers: [asset])[asset] { return own }
        var copy = source
        copy.id = nil
        copy.localIdentifier = UUID().uuidString + "/L0/001"
        copy.ownerID = me
        copy.isFavorite = false
        copy.isHidden = false
        copy.trashedDate = nil
        copy.addedDate = now
        copy.creatorClient = nil
        copy.burstIdentifier = nil
        copy.representsBurst = false
        copy.burstSelectionTypes = 0
        copy.pairingIdentifier = nil
        // The bytes are claimed while the row is written, so the owner's purge meanwhile cannot take them.
        var keys = [BlobKey(kind: .original, hash: source.contentHash)]
        if let render = source.renderHash { keys.append(BlobKey(kind: .render, hash: render)) }
        if let companion = source.companionHash { keys.append(BlobKey(kind: .original, hash: companion)) }
        let claimID = UUID().uuidString
        try await claim(keys.map { BlobClaim(key: $0, pendingRecord: nil) }, claimID: claimID)
        var changes = CatalogChanges()
        changes.claimID = claimID
        changes.claimCount = keys.count
        changes.insertions = [copy]
        let commit: CatalogCommit
        do {
            commit = try await catalog.apply(changes) {}
        } catch {
            _ = try? await catalog.releaseClaims(claimID, candidates: [])
            throw error
        }
        let made = commit.duplicates[copy.localIdentifier] ?? commit.restored[copy.localIdentifier] ?? copy.localIdentifier
        guard let mine = try await catalog.assets(localIdentifiers: [made])[made] else { throw LibraryError.notFound(localIdentifier: made) }
        return mine
    }

    // MARK: Whose

    /// The person this library acts for; apps do not see shared albums.
    private func personOnly() throws(LibraryError) -> Int64 {
        guard clientIdentifier == nil else { throw LibraryError.notPermitted("apps do not see shared albums") }
        guard let me = catalog.owner else { throw LibraryError.invalidArgument("shared albums are a person's") }
        return me
    }

    /// The album, when the person owns it or is in it (else `notFound`: nobody learns it exists).
    private func sharedAlbumAccess(_ identifier: String) async throws(LibraryError) -> (SharedAlbumRow, Int64) {
        let me = try personOnly()
        guard let row = try await catalog.sharedAlbumRows(localIdentifier: identifier).first else {
            // Not repeated: an error shown to someone outside must not read as the album's.
            throw LibraryError(.notFound, "there is no such shared album")
        }
        return (row, me)
    }

    /// The album, when the person owns it.
    private func ownedSharedAlbum(_ identifier: String) async throws(LibraryError) -> (SharedAlbumRow, Int64) {
        let (row, me) = try await sharedAlbumAccess(identifier)
        guard row.role == .owner else {
            throw row.role == .viewer || row.role == .contributor
                ? LibraryError.notPermitted("only the album's owner shares it") : LibraryError.notFound(localIdentifier: identifier)
        }
        return (row, me)
    }

    private func describe(_ rows: [SharedAlbumRow]) async throws(LibraryError) -> [SharedAlbum] {
        let ids = rows.map(\.collectionID)
        let members = try await catalog.sharedAlbumMembers(ids)
        let counts = try await catalog.sharedAlbumCounts(ids)
        let owners = try await catalog.sharedAlbumPeople(rows.map(\.ownerID))
        return rows.compactMap { row in
            guard let owner = owners[row.ownerID] else { return nil }
            return SharedAlbum(
                id: row.localIdentifier, title: row.title, creationDate: row.creationDate,
                owner: SharedAlbum.Member(
                    id: owner.id, name: owner.name, displayName: owner.displayName, role: .owner, addedDate: row.creationDate, rowID: owner.rowID),
                role: row.role, members: members[row.collectionID] ?? [], count: counts[row.collectionID] ?? 0)
        }
    }
}
