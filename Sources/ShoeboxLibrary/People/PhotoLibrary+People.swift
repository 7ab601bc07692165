import Foundation

extension PhotoLibrary {
    /// Opens the library of one person of the library at `url`: their assets, albums, edits,
    /// trash and change history, as ``open(at:clientIdentifier:backgroundWork:)`` opens the
    /// admin's.
    ///
    /// ```swift
    /// let mine = try await PhotoLibrary.open(at: URL(fileURLWithPath: "Photos.shoebox"), as: "ann")
    /// let photos = try await mine.fetchAssets()  // Ann's photos, nobody else's
    /// ```
    ///
    /// - Parameter person: The person's sign-in name or identifier (``Person/name``, ``Person/id``).
    /// - Throws: ``LibraryError/Code/noSuchPerson`` when no person has it.
    public static func open(
        at url: URL, as person: String, clientIdentifier: String? = nil, backgroundWork: BackgroundWork = .inProcess
    ) async throws(LibraryError) -> PhotoLibrary {
        let library = try await open(at: url, clientIdentifier: clientIdentifier, backgroundWork: backgroundWork)
        do throws(LibraryError) {
            return try await library.forPerson(named: person)
        } catch {
            await library.close()
            throw error
        }
    }

    /// The person whose library this object reads and writes (`nil` for the library's own upkeep,
    /// which sees everyone's).
    public func person() async throws(LibraryError) -> Person? {
        guard let owner = catalog.owner else { return nil }
        return try await catalog.person(rowID: owner)
    }

    /// The same library acting for `person` (sharing this object's connections and caches).
    public func forPerson(_ person: Person) -> PhotoLibrary {
        scoped(to: person.rowID)
    }

    /// The same library acting for the person named `name` (sign-in name or identifier).
    ///
    /// - Throws: ``LibraryError/Code/noSuchPerson`` when no person has it.
    public func forPerson(named name: String) async throws(LibraryError) -> PhotoLibrary {
        guard let person = try await catalog.person(named: name) else {
            throw LibraryError(.noSuchPerson, "no person of this library is named \(name)")
        }
        return forPerson(person)
    }

    /// The same library for its own upkeep: every person's assets (jobs and the doctor use it).
    package func forEveryone() -> PhotoLibrary { scoped(to: nil) }

    // MARK: The household

    /// Everyone who has a library here, in the order they were added (the first admin first).
    public func people() async throws(LibraryError) -> [Person] {
        try await catalog.people()
    }

    /// The person with sign-in name or identifier `name`, if any.
    public func person(named name: String) async throws(LibraryError) -> Person? {
        try await catalog.person(named: name)
    }

    /// Adds a person with an empty library of their own.
    ///
    /// - Parameters:
    ///   - name: Their sign-in name (``Person/isValidName(_:)``; upper-case letters are lowered).
    ///   - displayName: The name shown (the sign-in name when `nil`).
    ///   - password: Their password (8 to 1,024 characters), kept only as a scrypt hash; `nil`:
    ///     none yet.
    ///   - quota: The most bytes their assets may hold; `nil`: no limit.
    /// - Throws: ``LibraryError/Code/invalidArgument`` for a bad name, display name, password
    ///   or quota; ``LibraryError/Code/constraint`` when the name is taken.
    @discardableResult
    public func addPerson(
        name: String, displayName: String? = nil, role: Person.Role = .member, password: String? = nil, quota: Int64? = nil
    ) async throws(LibraryError) -> Person {
        let name = try Self.checkedName(name)
        let shown = try Self.checkedDisplayName(displayName ?? name)
        if let quota { try Self.checkQuota(quota) }
        if try await catalog.person(named: name) != nil {
            throw LibraryError(.constraint, "a person named \(name) is already in this library")
        }
        let hash: String?
        if let password { hash = try await PasswordHash.make(password) } else { hash = nil }
        return try await catalog.addPerson(name: name, displayName: shown, role: role, passwordHash: hash, quota: quota)
    }

    /// Changes a person's sign-in name, display name, role or quota (`nil` leaves each as it is;
    /// a quota of `.some(nil)` removes the limit).
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` for a bad value, or when the change would
    ///   leave the library without an active admin; ``LibraryError/Code/constraint`` when the
    ///   name is taken.
    @discardableResult
    public func updatePerson(
        _ person: Person, name: String? = nil, displayName: String? = nil, role: Person.Role? = nil, quota: Int64?? = nil
    ) async throws(LibraryError) -> Person {
        let name = try name.map(Self.checkedName)
        if let name {
            if let other = try await catalog.person(named: name), other.rowID != person.rowID {
                throw LibraryError(.constraint, "a person named \(name) is already in this library")
            }
        }
        let shown = try displayName.map(Self.checkedDisplayName)
        if let limit = quota, let limit { try Self.checkQuota(limit) }
        if role == .member { try await checkAnotherAdmin(than: person) }
        return try await catalog.updatePerson(
            rowID: person.rowID, name: name, displayName: shown, role: role, state: nil, quota: quota, passwordHash: nil)
    }

    /// Lets a person sign in again, or stops them: a disabled person's sessions end at once
    /// (on every server) and their library is kept as it was.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` when disabling the last active admin.
    @discardableResult
    public func setState(_ state: Person.State, of person: Person) async throws(LibraryError) -> Person {
        if state == .disabled { try await checkAnotherAdmin(than: person) }
        return try await catalog.updatePerson(rowID: person.rowID, name: nil, displayName: nil, role: nil, state: state, quota: nil, passwordHash: nil)
    }

    /// Sets a person's password (their sessions end: they sign in again with the new one).
    @discardableResult
    public func setPassword(_ password: String, of person: Person) async throws(LibraryError) -> Person {
        let hash = try await PasswordHash.make(password)
        return try await catalog.updatePerson(rowID: person.rowID, name: nil, displayName: nil, role: nil, state: nil, quota: nil, passwordHash: hash)
    }

    /// The active person whose sign-in name (or identifier) and password these are, or `nil`
    /// (no such person, disabled, no password, or the wrong one: the caller cannot tell which).
    /// A password kept at a lower cost than today's is hashed again (``PasswordHash``).
    public func authenticate(name: String, password: String) async throws(LibraryError) -> Person? {
        guard let person = try await catalog.person(named: name), person.state == .active,
            let hash = try await catalog.passwordHash(of: person.rowID)
        else {
            // As long as a real check, so that timing does not tell who has a password.
            _ = await PasswordHash.verify(password, against: Self.decoyHash)
            return nil
        }
        guard await PasswordHash.verify(password, against: hash) else { return nil }
        if PasswordHash.needsRehash(hash), let upgraded = try? await PasswordHash.make(password) {
            _ = try? await catalog.updatePerson(
                rowID: person.rowID, name: nil, displayName: nil, role: nil, state: nil, quota: nil, passwordHash: upgraded)
        }
        return person
    }

    /// A number that grows whenever a person's sessions must end (``setState(_:of:)``,
    /// ``setPassword(_:of:)``, ``endSessions(of:)``): a server keeps it in each session and
    /// checks it.
    package func sessionEpoch(of person: Person) async throws(LibraryError) -> Int64 {
        try await catalog.sessionEpoch(of: person.rowID)
    }

    /// Ends every session a person has, on every server ("sign out everywhere").
    public func endSessions(of person: Person) async throws(LibraryError) {
        try await catalog.endSessions(of: person.rowID)
    }

    /// Removes a person. Their library must be empty, unless `deletingTheirLibrary`: then their
    /// photos, movies and albums are deleted for good first (the bytes stay while anyone else
    /// holds the same), after they left the Shared Library, whose photos stay for those in it.
    /// The last active admin cannot be removed.
    public func removePerson(_ person: Person, deletingTheirLibrary: Bool = false) async throws(LibraryError) {
        try await checkAnotherAdmin(than: person)
        if deletingTheirLibrary {
            let theirs = forPerson(person).forClient(nil)
            do {
                // In the Shared Library they leave it first, as they would themselves: those who
                // stay keep every photo of it (the last one in it takes them all, to go with
                // their library), and the others hear of it.
                if try await theirs.catalog.isInSharedLibrary() {
                    try await theirs.leaveSharedLibrary(keeping: .ownContributions)
                }
                try await theirs.deleteEverything()
            } catch let error as LibraryError {
                throw error
            } catch {
                throw .storage("could not delete \(person.name)'s library: \(error)", underlying: error)
            }
        }
        try await catalog.removePerson(rowID: person.rowID)
    }

    /// What each person's library holds, by ``Person/id``.
    public func usage() async throws(LibraryError) -> [String: PersonUsage] {
        Dictionary(uniqueKeysWithValues: try await catalog.usage().values.map { ($0.person, $0) })
    }

    /// Every asset and album of this object's person, gone for good (never the Shared
    /// Library's: its photos are everyone's in it).
    private func deleteEverything() async throws {
        var options = FetchOptions()
        options.library = .personal
        options.includeHiddenAssets = true
        options.includeTrashedAssets = true
        options.includeAllBurstAssets = true
        while true {
            let batch = try await fetchAssets(with: options, after: nil, limit: 500)
            guard !batch.isEmpty else { break }
            try await performChanges { AssetChangeRequest.deleteAssets(batch) }
            try await performChanges { AssetChangeRequest.purgeAssets(batch) }
        }
        let albums = try await catalog.albums()
        if !albums.isEmpty {
            try await performChanges { AssetCollectionChangeRequest.deleteAssetCollections(albums) }
        }
    }

    private func checkAnotherAdmin(than person: Person) async throws(LibraryError) {
        // The first admin owns the library: what it held before people existed, the apps and
        // their questions, the server's key. They stay an active admin, as a household's
        // owner does; the others may come and go.
        if person.rowID == Person.adminRowID {
            throw .invalidArgument("\(person.name) is the library's owner (its first admin): the owner stays an active admin")
        }
        guard person.role == .admin else { return }
        let others = try await catalog.people().filter { $0.role == .admin && $0.state == .active && $0.rowID != person.rowID }
        guard !others.isEmpty else {
            throw .invalidArgument("\(person.name) is the library's only active admin: make someone else an admin first")
        }
    }

    /// `name` lowered, when it may be a sign-in name (``Person/isValidName(_:)``).
    private static func checkedName(_ name: String) throws(LibraryError) -> String {
        let name = name.lowercased()
        guard Person.isValidName(name) else {
            throw .invalidArgument("“\(name)” is not a sign-in name: use 1 to 64 lower-case letters, digits, “.”, “-” or “_”")
        }
        return name
    }

    private static func checkedDisplayName(_ name: String) throws(LibraryError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(trimmed.count), !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidArgument("a display name has 1 to 100 characters and no control characters")
        }
        return trimmed
    }

    private static func checkQuota(_ quota: Int64) throws(LibraryError) {
        guard quota > 0 else { throw .invalidArgument("a quota is a positive number of bytes (\(quota) is not)") }
    }

    /// A hash of no one's password, checked when there is no real one.
    private static let decoyHash = "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
}
