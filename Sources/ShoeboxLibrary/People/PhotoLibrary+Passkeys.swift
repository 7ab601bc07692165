import Foundation

extension PhotoLibrary {
    /// This library's person's passkeys, the oldest first.
    public func passkeys() async throws(LibraryError) -> [Passkey] {
        try await catalog.passkeys(of: try await personActedFor().rowID)
    }

    /// Removes one of this library's person's passkeys: it signs in no more. Returns `false`
    /// when they have no passkey `id`.
    @discardableResult
    public func removePasskey(_ id: String) async throws(LibraryError) -> Bool {
        try await catalog.removePasskey(id: id, of: try await personActedFor().rowID)
    }

    /// Keeps a passkey the server verified at registration, for this library's person.
    ///
    /// - Throws: ``LibraryError/Code/invalidArgument`` for a bad name or when the person has
    ///   ``Passkey/maximumPerPerson`` already; ``LibraryError/Code/constraint`` when the
    ///   credential is registered already.
    package func addPasskey(id: String, name: String, publicKey: Data, algorithm: Int, signCount: UInt32, now: Date = Date()) async throws(LibraryError)
        -> Passkey
    {
        let person = try await personActedFor()
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(trimmed.count), !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidArgument("a passkey's name has 1 to 100 characters and no control characters")
        }
        guard try await catalog.passkeys(of: person.rowID).count < Passkey.maximumPerPerson else {
            throw .invalidArgument("a person has at most \(Passkey.maximumPerPerson) passkeys: remove one first")
        }
        let passkey = Passkey(
            id: id, personID: person.rowID, name: trimmed, createdDate: now, lastUsedDate: nil, publicKey: publicKey, algorithm: algorithm,
            signCount: signCount)
        try await catalog.addPasskey(passkey)
        return passkey
    }

    /// The passkey with credential id `id` and its person, whoever this library acts for.
    package func passkey(id: String) async throws(LibraryError) -> (Passkey, Person)? {
        try await catalog.passkey(id: id)
    }

    /// Notes a sign-in with passkey `id` and the signature count it reported.
    package func notePasskeyUse(_ id: String, signCount: UInt32, now: Date = Date()) async throws(LibraryError) {
        try await catalog.notePasskeyUse(id: id, signCount: signCount, date: now)
    }
}

extension PhotoLibrary {
    /// How long sign-ins with a passkey from `address` must wait, or `nil` when they may go on:
    /// failures are counted per address, as password failures are
    /// (``signInFailuresPerAddress`` in ``signInWindow``).
    package func passkeySignInWait(address: String, now: Date = Date()) async throws(LibraryError) -> TimeInterval? {
        // A name no person can have ("" is none), so the failures count for the address alone.
        let failures = try await catalog.signInFailures(name: "", address: address, since: now.addingTimeInterval(-Self.signInWindow))
        return failures.fromAddress >= Self.signInFailuresPerAddress ? Self.signInWindow : nil
    }

    /// Notes a failed sign-in with a passkey from `address`.
    package func notePasskeyFailure(address: String, now: Date = Date()) async throws(LibraryError) {
        try await catalog.logSignInFailure(name: "", address: address, date: now)
    }
}
