import Foundation

/// A key a person made for a tool: a script, a backup job, `shoebox pick` on another machine. A
/// tool sends it as a bearer token and acts as that person within the key's ``Scope``. The
/// catalog keeps only the token's SHA-256, so a key is shown once, when it is made; it lasts
/// until its person revokes it, and stops working while its person is disabled or once they are
/// removed. Signing out everywhere and a new password end browser sessions, not keys: a key is
/// revoked on its own (as GitHub's personal access tokens are).
public struct PersonKey: Sendable, Hashable, Codable, Identifiable {
    /// What a key may do.
    public enum Scope: String, Sendable, Hashable, Codable, CaseIterable {
        /// Read the person's library (`GET` and `HEAD` requests): list, search, download, listen
        /// for changes.
        case read
        /// Everything the person may do in their library (read, add, edit, delete), but never
        /// their sign-in: no key, session or password route answers a key.
        case write
        /// Add photos and movies only (`POST /api/assets`, the resumable uploads), and read
        /// nothing, like PhotoKit's add-only access.
        case upload
    }

    /// A random identifier for listing and revoking it (not the token).
    public let id: String
    /// The person's ``Person/rowID``.
    package let personID: Int64
    /// The name its person gave it ("backup script").
    public let name: String
    /// What it may do.
    public let scope: Scope
    /// The token's first characters (`sbk_` and four more), to tell keys apart in a list.
    public let prefix: String
    /// When it was made.
    public let createdDate: Date
    /// When it was last used (to the hour), `nil` before its first use.
    public let lastUsedDate: Date?

    /// What every key's token begins with, so that servers and secret scanners tell it from a
    /// client's token.
    public static let tokenPrefix = "sbk_"

    /// The longest name a key may have, in characters.
    public static let maximumNameLength = 100

    package init(id: String, personID: Int64, name: String, scope: Scope, prefix: String, createdDate: Date, lastUsedDate: Date?) {
        self.id = id
        self.personID = personID
        self.name = name
        self.scope = scope
        self.prefix = prefix
        self.createdDate = createdDate
        self.lastUsedDate = lastUsedDate
    }
}
