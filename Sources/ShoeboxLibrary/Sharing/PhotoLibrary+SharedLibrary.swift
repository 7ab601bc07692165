import Foundation

extension PhotoLibrary {
    /// The household's Shared Library as the person sees it: `nil` when there is none, or when
    /// they are neither in it nor invited.
    public func sharedLibrary() async throws(LibraryError) -> SharedLibrary? {
        _ = try sharedLibraryPerson()
        return try await catalog.sharedLibrary()
    }

    /// Invites `person` into the Shared Library; the first invitation makes it, with the caller
    /// in it (they move their photos in with ``moveToSharedLibrary(_:now:)``). The invited
    /// person answers with ``joinSharedLibrary(moving:movesNewAssets:now:)`` or
    /// ``declineSharedLibraryInvitation(now:)``.
    ///
    /// - Throws: ``LibraryError/Code/noSuchPerson`` for nobody of that name or a disabled
    ///   person; ``LibraryError/Code/invalidArgument`` for the caller, someone in it or invited
    ///   already, or past ``SharedLibrary/maximumParticipants``; ``LibraryError/Code/notPermitted``
    ///   when a Shared Library exists and the caller is not in it, and for an app.
    @discardableResult
    public func inviteToSharedLibrary(_ person: String, now: Date = Date()) async throws(LibraryError) -> SharedLibrary {
        let me = try sharedLibraryPerson()
        guard let other = try await catalog.person(named: person) else {
            throw LibraryError(.noSuchPerson, "no person of this library is named \(person)")
        }
        guard other.state == .active else { throw LibraryError(.noSuchPerson, "\(person) is disabled: enable them first") }
        guard other.rowID != me else { throw LibraryError.invalidArgument("invite someone else: you are in it once you invite") }
        return try await catalog.inviteToSharedLibrary(person: other.rowID, now: now)
    }

    /// Takes back an invitation not yet answered.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` when `person` has no open invitation.
    public func withdrawSharedLibraryInvitation(_ person: String, now: Date = Date()) async throws(LibraryError) {
        _ = try sharedLibraryPerson()
        guard let other = try await catalog.person(named: person),
            try await catalog.withdrawSharedLibraryInvitation(person: other.rowID, now: now)
        else {
            throw LibraryError(.notFound, "\(person) has no invitation to the Shared Library from it")
        }
    }

    /// Joins the Shared Library the person is invited to, moving in what `contribution` says,
    /// and sending their new imports and captures there from now on when `movesNewAssets`.
    ///
    /// - Returns: How many photos and movies moved in.
    /// - Throws: ``LibraryError/Code/notFound`` without an invitation.
    @discardableResult
    public func joinSharedLibrary(
        moving contribution: SharedLibrary.Contribution, movesNewAssets: Bool = false, now: Date = Date()
    ) async throws(LibraryError) -> Int {
        _ = try sharedLibraryPerson()
        guard try await catalog.answerSharedLibraryInvitation(join: true, movesNewAssets: movesNewAssets, now: now) else {
            throw LibraryError(.notFound, "you have no invitation to the Shared Library")
        }
        return try await catalog.moveToSharedLibrary(contribution, now: now)
    }

    /// Declines the invitation to the Shared Library.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` without an invitation.
    public func declineSharedLibraryInvitation(now: Date = Date()) async throws(LibraryError) {
        _ = try sharedLibraryPerson()
        guard try await catalog.answerSharedLibraryInvitation(join: false, movesNewAssets: false, now: now) else {
            throw LibraryError(.notFound, "you have no invitation to the Shared Library")
        }
    }

    /// Moves the person's photos and movies into the Shared Library: everything, those taken
    /// from a day on, or chosen ones (a burst's key photo brings its frames, a pair's half the
    /// other). Hidden ones and those in Recently Deleted stay unless chosen by name; those whose
    /// bytes the Shared Library holds already stay too.
    ///
    /// - Returns: How many moved.
    /// - Throws: ``LibraryError/Code/notPermitted`` when the person is not in it;
    ///   ``LibraryError/Code/notFound`` for a chosen asset that is not theirs (nothing moves).
    @discardableResult
    public func moveToSharedLibrary(_ contribution: SharedLibrary.Contribution, now: Date = Date()) async throws(LibraryError) -> Int {
        _ = try sharedLibraryPerson()
        return try await catalog.moveToSharedLibrary(contribution, now: now)
    }

    /// Moves photos the person added to the Shared Library back to their own library.
    ///
    /// - Returns: How many moved.
    /// - Throws: ``LibraryError/Code/notPermitted`` for one someone else added (nothing moves);
    ///   ``LibraryError/Code/notFound`` for one that is not in the Shared Library.
    @discardableResult
    public func moveToPersonalLibrary(_ localIdentifiers: [String], now: Date = Date()) async throws(LibraryError) -> Int {
        _ = try sharedLibraryPerson()
        return try await catalog.moveToPersonalLibrary(localIdentifiers, now: now)
    }

    /// Whether the person's new imports and captures go to the Shared Library by default.
    ///
    /// - Throws: ``LibraryError/Code/notFound`` when the person is not in it.
    public func setSharedLibraryMovesNewAssets(_ moves: Bool, now: Date = Date()) async throws(LibraryError) {
        _ = try sharedLibraryPerson()
        guard try await catalog.setSharedLibraryMovesNewAssets(moves, now: now) else {
            throw LibraryError(.notFound, "you are not in the Shared Library")
        }
    }

    /// Leaves the Shared Library, keeping a copy of everything in it or only of what the person
    /// added (as Photos asks); those who stay keep every photo. The last person to leave takes
    /// everything and it ends. Copies keep their edits and the person's albums; the bytes are
    /// not copied, and photos whose bytes the person has already are not copied again.
    ///
    /// - Returns: How many copies came into the person's library.
    /// - Throws: ``LibraryError/Code/notFound`` when the person is not in it.
    @discardableResult
    public func leaveSharedLibrary(keeping departure: SharedLibrary.Departure, now: Date = Date()) async throws(LibraryError) -> Int {
        _ = try sharedLibraryPerson()
        return try await catalog.leaveSharedLibrary(keeping: departure, now: now)
    }

    /// Who added and who deleted each of `assets` that is in the Shared Library, by
    /// ``Asset/localIdentifier`` (the others are not in it).
    public func sharedLibraryAttributions(of assets: [Asset]) async throws(LibraryError) -> [String: SharedLibrary.Attribution] {
        let shared = assets.filter(\.isInSharedLibrary)
        guard !shared.isEmpty else { return [:] }
        let found = try await catalog.sharedLibraryAttributions(shared.map(\.rowID))
        var attributions: [String: SharedLibrary.Attribution] = [:]
        for asset in shared { attributions[asset.localIdentifier] = found[asset.rowID] }
        return attributions
    }

    /// The person the Shared Library calls act for; apps neither see nor change it (they see
    /// its photos as their grant allows).
    private func sharedLibraryPerson() throws(LibraryError) -> Int64 {
        guard clientIdentifier == nil else { throw LibraryError.notPermitted("apps do not manage the Shared Library") }
        guard let me = catalog.owner else { throw LibraryError.invalidArgument("the Shared Library is a person's to join") }
        return me
    }
}
