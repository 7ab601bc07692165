import Foundation

/// One person of a library's household: someone who signs in and has a library of their own in
/// it (their assets, albums, edits, favorites and trash), as each member of a family has their
/// own library in Apple's Photos.
///
/// Every library has at least one: its admin, person 1, whose library a library made before
/// people existed became. ``PhotoLibrary/open(at:clientIdentifier:backgroundWork:)`` opens the
/// admin's library; ``PhotoLibrary/open(at:as:backgroundWork:)`` another person's.
public struct Person: Sendable, Hashable, Codable, Identifiable {
    /// What a person may do beyond their own library.
    public enum Role: String, Sendable, Codable, CaseIterable {
        /// Adds, disables and removes people, sets quotas, and holds the server's key.
        case admin
        /// Has a library of their own and nothing more.
        case member
    }

    /// Whether a person may sign in.
    public enum State: String, Sendable, Codable, CaseIterable {
        /// Signs in and uses their library.
        case active
        /// Cannot sign in; their library is kept as it was.
        case disabled
    }

    /// The catalog's row id of the admin every library has.
    package static let adminRowID: Int64 = 1

    /// The catalog's row id (1 for the first admin).
    package let rowID: Int64
    /// A stable identifier, unique in the library, that never changes (a random hex string).
    public let id: String
    /// The name a person signs in with: lower-case letters, digits, `.`, `-` and `_`, 1–64 long;
    /// unique in the library.
    public internal(set) var name: String
    /// The name shown to people (any text, 1–100 characters).
    public internal(set) var displayName: String
    /// Admin or member.
    public internal(set) var role: Role
    /// Active or disabled.
    public internal(set) var state: State
    /// The most bytes their assets may hold (originals, paired files and edited versions, counted
    /// in full for each person even when someone else holds the same bytes); `nil`: no limit.
    public internal(set) var quota: Int64?
    /// When they were added.
    public let createdDate: Date
    /// Whether they have a password (a person without one signs in another way, or not at all).
    public let hasPassword: Bool

    package init(
        rowID: Int64, id: String, name: String, displayName: String, role: Role, state: State, quota: Int64?, createdDate: Date,
        hasPassword: Bool
    ) {
        self.rowID = rowID
        self.id = id
        self.name = name
        self.displayName = displayName
        self.role = role
        self.state = state
        self.quota = quota
        self.createdDate = createdDate
        self.hasPassword = hasPassword
    }

    /// Whether `name` may be a person's sign-in name (see ``name``).
    public static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x5F }
    }
}
