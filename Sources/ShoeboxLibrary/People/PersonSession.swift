import Foundation

/// A browser signed in as a person: a server keeps its token in an HttpOnly cookie and only the
/// token's SHA-256 in the catalog, so that every server of the library knows it and a person can
/// list and end their sessions (one, or all: "sign out everywhere").
public struct PersonSession: Sendable, Hashable, Codable, Identifiable {
    /// A random identifier for listing and ending it (not the token).
    public let id: String
    /// The person's ``Person/rowID``.
    package let personID: Int64
    /// The person's session epoch when it began: when theirs grows (disabled, new password, sign
    /// out everywhere), the session ends.
    package let epoch: Int64
    /// When it began.
    public let createdDate: Date
    /// When it was last used (to the hour).
    public let lastSeenDate: Date
    /// When it ends unless used again (thirty days after its last use).
    public let expiresDate: Date
    /// The address it signed in from.
    public let address: String
    /// The browser's `User-Agent` when it signed in (up to 200 characters).
    public let userAgent: String

    /// How long a session lasts after its last use: 30 days.
    package static let lifetime: TimeInterval = 30 * 86_400

    package init(
        id: String, personID: Int64, epoch: Int64, createdDate: Date, lastSeenDate: Date, expiresDate: Date, address: String, userAgent: String
    ) {
        self.id = id
        self.personID = personID
        self.epoch = epoch
        self.createdDate = createdDate
        self.lastSeenDate = lastSeenDate
        self.expiresDate = expiresDate
        self.address = address
        self.userAgent = userAgent
    }
}
