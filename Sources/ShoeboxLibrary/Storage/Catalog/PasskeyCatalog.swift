import Foundation

/// People's passkeys (``Passkey``).
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol PasskeyCatalog: Sendable {
    /// Keeps a new passkey; ``LibraryError/Code/constraint`` when its credential id is known.
    func addPasskey(_ passkey: Passkey) async throws(LibraryError)
    /// The passkey with credential id `id`, with its person.
    func passkey(id: String) async throws(LibraryError) -> (passkey: Passkey, person: Person)?
    /// Notes a sign-in with a passkey: its new signature count and when.
    func notePasskeyUse(id: String, signCount: UInt32, date: Date) async throws(LibraryError)
    /// A person's passkeys, the oldest first.
    func passkeys(of personID: Int64) async throws(LibraryError) -> [Passkey]
    /// Removes one of a person's passkeys; `false` when they have none with `id`.
    func removePasskey(id: String, of personID: Int64) async throws(LibraryError) -> Bool
}
