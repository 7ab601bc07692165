import Foundation

/// Signed-in browsers (``PersonSession``) and failed sign-ins.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol SessionCatalog: Sendable {
    /// Keeps a new session under the SHA-256 of its token.
    func addSession(_ session: PersonSession, tokenHash: String) async throws(LibraryError)
    /// The session whose token hashes to `tokenHash`, with its person and their current epoch.
    func session(tokenHash: String) async throws(LibraryError) -> (session: PersonSession, person: Person, epoch: Int64)?
    /// Moves a session's last use and expiry.
    func touchSession(id: String, lastSeen: Date, expires: Date) async throws(LibraryError)
    /// A person's sessions, the most recently used first (expired ones are removed first).
    func sessions(of personID: Int64, now: Date) async throws(LibraryError) -> [PersonSession]
    /// Ends one of a person's sessions; `false` when they have none with `id`.
    func removeSession(id: String, of personID: Int64) async throws(LibraryError) -> Bool
    /// Notes a failed sign-in (failures older than a day are dropped on the way).
    func logSignInFailure(name: String, address: String, date: Date) async throws(LibraryError)
    /// How many sign-ins failed since `since` for `name`, and from `address`.
    func signInFailures(name: String, address: String, since: Date) async throws(LibraryError) -> (forName: Int, fromAddress: Int)
    /// Links a provider's account to a person, replacing the person's earlier account of that
    /// provider; ``LibraryError/Code/constraint`` when the account signs in another person.
    func linkIdentity(issuer: String, subject: String, email: String?, to personID: Int64, date: Date) async throws(LibraryError)
    /// The person a provider's account signs in, noting the use; `nil` when it is linked to none.
    func person(issuer: String, subject: String, date: Date) async throws(LibraryError) -> Person?
    /// The person's account of the provider `issuer`, if linked: its subject and email.
    func identity(of personID: Int64, issuer: String) async throws(LibraryError) -> (subject: String, email: String?)?
    /// Forgets the person's account of `issuer`; `false` when there was none.
    func unlinkIdentity(of personID: Int64, issuer: String) async throws(LibraryError) -> Bool
}
