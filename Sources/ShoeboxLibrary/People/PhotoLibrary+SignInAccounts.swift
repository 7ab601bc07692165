import Foundation

/// Accounts of an OpenID Connect provider that sign people in: a person links theirs once
/// (signed in some other way), and then signs in with it. The provider's `iss` and `sub` name the
/// account; its email is kept only to show which account is linked.
extension PhotoLibrary {
    /// Links the provider account (`issuer`, `subject`) to `person`, replacing the person's
    /// earlier account of that provider.
    ///
    /// - Throws: ``LibraryError/Code/constraint`` when the account signs in another person.
    public func linkSignIn(issuer: String, subject: String, email: String? = nil, to person: Person, now: Date = Date()) async throws(LibraryError) {
        guard !issuer.isEmpty, !subject.isEmpty, subject.utf8.count <= 255 else {
            throw .invalidArgument("an account is an issuer and a subject of 1 to 255 bytes")
        }
        try await catalog.linkIdentity(issuer: issuer, subject: subject, email: email.map { String($0.prefix(320)) }, to: person.rowID, date: now)
    }

    /// The person the provider account (`issuer`, `subject`) signs in, or `nil` when it is linked
    /// to nobody; the use is noted.
    public func person(signingInAs subject: String, issuer: String, now: Date = Date()) async throws(LibraryError) -> Person? {
        try await catalog.person(issuer: issuer, subject: subject, date: now)
    }

    /// The account of `issuer` linked to `person`, if any: its subject and the email it had.
    public func signInAccount(of person: Person, issuer: String) async throws(LibraryError) -> (subject: String, email: String?)? {
        try await catalog.identity(of: person.rowID, issuer: issuer)
    }

    /// Unlinks `person`'s account of `issuer`; `false` when none was linked.
    @discardableResult
    public func unlinkSignIn(of person: Person, issuer: String) async throws(LibraryError) -> Bool {
        try await catalog.unlinkIdentity(of: person.rowID, issuer: issuer)
    }
}
