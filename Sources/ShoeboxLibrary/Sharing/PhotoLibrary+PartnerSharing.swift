import Foundation

extension PhotoLibrary {
    /// Shares the person's whole library, or the photos and movies taken from `startDate` on,
    /// with another person of the household, read-only (``PartnerShare``); sharing again with
    /// the same person changes the date. Hidden photos and those in Recently Deleted are never
    /// shared. Only the person shares: a library opened for an app throws.
    ///
    /// ```swift
    /// try await library.sharePartnerLibrary(with: "sam", from: nil)
    /// ```
    ///
    /// - Throws: ``LibraryError/Code/noSuchPerson`` for nobody of that name, or a disabled
    ///   person; ``LibraryError/Code/invalidArgument`` for the person themself or more than
    ///   ``PartnerShare/maximumPartners``; ``LibraryError/Code/notPermitted`` for an app.
    @discardableResult
    public func sharePartnerLibrary(with person: String, from startDate: Date?, now: Date = Date()) async throws(LibraryError) -> PartnerShare {
        let me = try partnerSharingPerson()
        let other = try await activePerson(person)
        guard other.rowID != me else { throw LibraryError.invalidArgument("one's library is one's own already: share it with someone else") }
        return try await catalog.setPartnerShare(partner: other.rowID, startDate: startDate, now: now)
    }

    /// Stops sharing the person's library with `person`: at once, their timeline and every
    /// picture route stop showing it.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` when the person's library is not shared with them.
    public func stopPartnerSharing(with person: String, now: Date = Date()) async throws(LibraryError) {
        _ = try partnerSharingPerson()
        let other = try await anyPerson(person)
        guard try await catalog.removePartnerShare(partner: other.rowID, sharer: nil, now: now) else {
            throw LibraryError(.notFound, "your library is not shared with \(person)")
        }
    }

    /// Stops seeing what `person` shares with the person (the partner's side of
    /// ``stopPartnerSharing(with:now:)``; they may share again later).
    ///
    /// - Throws: ``LibraryError/Code/notFound`` when `person` shares nothing with them.
    public func leavePartnerShare(from person: String, now: Date = Date()) async throws(LibraryError) {
        _ = try partnerSharingPerson()
        let other = try await anyPerson(person)
        guard try await catalog.removePartnerShare(partner: nil, sharer: other.rowID, now: now) else {
            throw LibraryError(.notFound, "\(person) shares no photos with you")
        }
    }

    /// The partner shares the person is on either side of: their own library's and those shared
    /// with them, oldest first.
    public func partnerShares() async throws(LibraryError) -> [PartnerShare] {
        _ = try partnerSharingPerson()
        return try await catalog.partnerShares()
    }

    /// Shows (or stops showing) in the person's own timeline the photos `person` shares with them
    /// (``FetchOptions/includePartnerAssets``). They stay readable apart either way.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` when `person` shares nothing with them.
    public func showPartnerAssetsInTimeline(_ shown: Bool, from person: String, now: Date = Date()) async throws(LibraryError) {
        _ = try partnerSharingPerson()
        let other = try await anyPerson(person)
        guard try await catalog.setPartnerShareInTimeline(sharer: other.rowID, shown: shown, now: now) else {
            throw LibraryError(.notFound, "\(person) shares no photos with you")
        }
    }

    /// The photos and movies `person` shares with the person, alone (their own are left out),
    /// as `options` filter and order them.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` when `person` shares nothing with them.
    public func fetchPartnerAssets(from person: String, options: FetchOptions = FetchOptions()) async throws(LibraryError) -> FetchResult<Asset> {
        try await fetchAssets(with: try await partnerFetchOptions(from: person, base: options))
    }

    /// One photo or movie a partner shares with the person now, if any (`nil` for their own,
    /// for one not shared, and for an app).
    public func partnerAsset(withLocalIdentifier identifier: String) async throws(LibraryError) -> Asset? {
        guard clientIdentifier == nil, catalog.owner != nil else { return nil }
        return try await catalog.partnerAsset(localIdentifier: identifier)
    }

    /// An asset the library's caller may look at: one of their own (as
    /// ``readableAsset(withLocalIdentifier:action:)`` reads it) or, for the person themself,
    /// one a partner shares with them now. Logs the read as `action`. Not a gate for changes: a
    /// partner's photo is never changed through this library.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` for any other.
    public func viewableAsset(withLocalIdentifier identifier: String, action: String) async throws(LibraryError) -> Asset {
        do {
            return try await readableAsset(withLocalIdentifier: identifier, action: action)
        } catch  where error.code == .notFound {
            guard let shared = try await partnerAsset(withLocalIdentifier: identifier) else { throw error }
            return shared
        }
    }

    /// Whether `asset` is someone else's (a partner's photo, a shared album's); the Shared
    /// Library's photos are every participant's own.
    public func isSomeoneElses(_ asset: Asset) -> Bool {
        guard let me = catalog.owner else { return false }
        return asset.ownerRowID != me && !asset.isInSharedLibrary
    }

    /// Whose each of `assets` is, for those that are someone else's (a partner's), by
    /// ``Asset/localIdentifier``; the person's own are not in it.
    public func owners(ofSomeoneElses assets: [Asset]) async throws(LibraryError) -> [String: PartnerShare.Party] {
        let others = assets.filter(isSomeoneElses)
        guard !others.isEmpty else { return [:] }
        let people = try await catalog.sharedAlbumPeople(others.map(\.ownerRowID))
        var owners: [String: PartnerShare.Party] = [:]
        for asset in others {
            guard let person = people[asset.ownerRowID] else { continue }
            owners[asset.localIdentifier] = PartnerShare.Party(id: person.id, name: person.name, displayName: person.displayName, rowID: person.rowID)
        }
        return owners
    }

    /// `base` narrowed to the photos and movies `person` shares with the person now (their own
    /// left out), for ``fetchAssets(with:)``, ``fetchAssetPage(with:after:limit:)`` and
    /// ``fetchMonthSections(with:)``; each page is read again as the share is then.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` when `person` shares nothing with them.
    public func partnerFetchOptions(from person: String, base: FetchOptions = FetchOptions()) async throws(LibraryError) -> FetchOptions {
        let me = try partnerSharingPerson()
        let other = try await anyPerson(person)
        guard let share = try await catalog.partnerShares().first(where: { $0.sharer.rowID == other.rowID && $0.partner.rowID == me }) else {
            throw LibraryError(.notFound, "\(person) shares no photos with you")
        }
        var only = base
        only.includePartnerAssets = false
        only.includesOwnAssets = false
        only.partnerWindows = [share.window]
        return only
    }

    /// The partner shares the person shows in their timeline, as windows for a fetch: empty for
    /// an app (it never sees partners' photos) and for the library's upkeep.
    func partnerWindowsInTimeline() async throws(LibraryError) -> [PartnerShare.Window] {
        guard clientIdentifier == nil, let me = catalog.owner else { return [] }
        return try await catalog.partnerShares().filter { $0.partner.rowID == me && $0.isShownInTimeline }.map(\.window)
    }

    /// The partner shares the person sees now, whether in their timeline or not.
    func partnerWindows() async throws(LibraryError) -> [PartnerShare.Window] {
        guard clientIdentifier == nil, let me = catalog.owner else { return [] }
        return try await catalog.partnerShares().filter { $0.partner.rowID == me }.map(\.window)
    }

    private func partnerSharingPerson() throws(LibraryError) -> Int64 {
        guard clientIdentifier == nil else { throw LibraryError.notPermitted("apps do not see partner sharing") }
        guard let me = catalog.owner else { throw LibraryError.invalidArgument("partner sharing is a person's") }
        return me
    }

    private func anyPerson(_ name: String) async throws(LibraryError) -> Person {
        guard let other = try await catalog.person(named: name) else {
            throw LibraryError(.noSuchPerson, "no person of this library is named \(name)")
        }
        return other
    }

    private func activePerson(_ name: String) async throws(LibraryError) -> Person {
        let other = try await anyPerson(name)
        guard other.state == .active else { throw LibraryError(.noSuchPerson, "\(name) is disabled: enable them first") }
        return other
    }
}
