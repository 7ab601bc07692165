import Foundation

/// Clients, their grants and limited selections, their tokens and their access log: each
/// person's own (a store acting for a person reads and writes theirs; one acting for everyone,
/// the first admin's), but for ``client(forTokenHash:)``, which finds any person's.
///
/// One concern of ``CatalogStore``; every requirement is `async` and never blocks its caller.
package protocol ClientCatalog: Sendable {
    /// Stores a client's manifest, or replaces the one stored under its identifier (its
    /// decisions and tokens stay). The caller validates it.
    func register(_ manifest: ClientManifest) async throws(LibraryError)
    /// The registered client's manifest, or `nil` for an identifier never registered (or removed).
    func client(_ identifier: String) async throws(LibraryError) -> ClientManifest?
    /// Every registered client's manifest, by identifier.
    func clients() async throws(LibraryError) -> [ClientManifest]
    /// The stored status name for a client and service (`nil`: never decided).
    func grant(client: String, service: String) async throws(LibraryError) -> String?
    /// Stores the status name (an ``Authorization/Status`` raw value) for a client and service
    /// (``Authorization/Service/policyName``), or forgets it for `nil`; adds a `grant` change-log entry.
    func setGrant(client: String, service: String, status: String?) async throws(LibraryError)
    /// The identifiers of the assets the user shared with a limited client, in the order they
    /// were added to the library.
    func limitedSelection(client: String) async throws(LibraryError) -> [String]
    /// Replaces a client's limited selection and adds a `grant` change-log entry; throws
    /// ``LibraryError/Code/notFound`` for an unknown asset, changing nothing.
    func setLimitedSelection(_ assets: [String], client: String) async throws(LibraryError)
    /// Stores a new token for a client as its hash (SHA-256, lowercase hex): never the token.
    func addClientToken(hash: String, client: String) async throws(LibraryError)
    /// The client whose token hashes to `hash` and the row id of the person it acts for, or `nil`
    /// for an unknown or revoked token.
    func client(forTokenHash hash: String) async throws(LibraryError) -> (client: String, person: Int64)?
    /// Revokes every token of a client; its registration and decisions stay.
    func removeClientTokens(client: String) async throws(LibraryError)
    /// How many tokens a client holds (0 for a client unknown or without any).
    func clientTokenCount(client: String) async throws(LibraryError) -> Int
    /// Forgets a client: its registration, decisions, limited selection and tokens (its access
    /// log stays, the record of what it did).
    func removeClient(_ identifier: String) async throws(LibraryError)
    /// Appends entries to the access log, in order (an empty list writes nothing).
    func logAccess(_ entries: [AccessLogEntry]) async throws(LibraryError)
    /// A client's latest `limit` access-log entries, the newest first.
    func accessLog(client: String, limit: Int) async throws(LibraryError) -> [AccessLogEntry]
}
