import Foundation

extension PhotoLibrary {
    /// Makes a key for a tool that acts as this library's person within `scope`, and returns it
    /// with its token: the only time the token is known, since the catalog keeps its SHA-256.
    ///
    /// ```swift
    /// let ann = try await PhotoLibrary.open(at: libraryURL, as: "ann")
    /// let (key, token) = try await ann.makeKey(named: "nightly backup", scope: .read)
    /// print(key.prefix, token)  // sbk_AbCd  sbk_AbCd…  (send as "Authorization: Bearer TOKEN")
    /// ```
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` for a name that is empty, longer than
    ///   ``PersonKey/maximumNameLength`` or holds control characters, or when the library acts
    ///   for nobody (``forEveryone()``).
    public func makeKey(named name: String, scope: PersonKey.Scope, now: Date = Date()) async throws(LibraryError) -> (key: PersonKey, token: String) {
        let person = try await personActedFor()
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...PersonKey.maximumNameLength).contains(trimmed.count),
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .invalidArgument("a key's name has 1 to \(PersonKey.maximumNameLength) characters and no control characters") }
        let token = PersonKey.tokenPrefix + RandomToken.base64URL()
        let key = PersonKey(
            id: RandomToken.hex(words: 1), personID: person.rowID, name: trimmed, scope: scope, prefix: String(token.prefix(8)),
            createdDate: now, lastUsedDate: nil)
        try await catalog.addKey(key, tokenHash: Hex.sha256(Data(token.utf8)))
        return (key, token)
    }

    /// This library's person's keys, the newest first.
    public func keys() async throws(LibraryError) -> [PersonKey] {
        try await catalog.keys(of: try await personActedFor().rowID)
    }

    /// Revokes one of this library's person's keys: the next request with it is refused (on
    /// every server within a second). Returns `false` when they have no key `id`.
    @discardableResult
    public func revokeKey(_ id: String) async throws(LibraryError) -> Bool {
        try await catalog.removeKey(id: id, of: try await personActedFor().rowID)
    }

    /// The person and key a key's token stands for, while the person is active. A key used more
    /// than an hour after its last recorded use notes the use.
    package func person(forKeyToken token: String, now: Date = Date()) async throws(LibraryError) -> (Person, PersonKey)? {
        guard token.hasPrefix(PersonKey.tokenPrefix), let (key, person) = try await catalog.key(tokenHash: Hex.sha256(Data(token.utf8))),
            person.state == .active
        else { return nil }
        if key.lastUsedDate.map({ now.timeIntervalSince($0) > 3_600 }) ?? true {
            try await catalog.touchKey(id: key.id, lastUsed: now)
        }
        return (person, key)
    }

    /// The person this library acts for, or an error for the library's upkeep object.
    package func personActedFor() async throws(LibraryError) -> Person {
        guard let person = try await person() else {
            throw .invalidArgument("this library object acts for everyone's upkeep, not for a person: open it for one (forPerson)")
        }
        return person
    }
}
