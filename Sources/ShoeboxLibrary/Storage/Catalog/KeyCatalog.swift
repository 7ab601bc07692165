import Foundation

/// People's keys for tools (``PersonKey``).
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol KeyCatalog: Sendable {
    /// Keeps a new key under the SHA-256 of its token.
    func addKey(_ key: PersonKey, tokenHash: String) async throws(LibraryError)
    /// The key whose token hashes to `tokenHash`, with its person.
    func key(tokenHash: String) async throws(LibraryError) -> (key: PersonKey, person: Person)?
    /// Notes a key's use.
    func touchKey(id: String, lastUsed: Date) async throws(LibraryError)
    /// A person's keys, the newest first.
    func keys(of personID: Int64) async throws(LibraryError) -> [PersonKey]
    /// Revokes one of a person's keys; `false` when they have none with `id`.
    func removeKey(id: String, of personID: Int64) async throws(LibraryError) -> Bool
}
