import Foundation

/// The household's Shared Library, as Apple's iCloud Shared Photo Library: one per server, made
/// by a person who invites up to five others. Photos and movies in it belong to it, not to the
/// person who added them: every participant adds, edits, favorites and deletes them alike, and
/// each shows who added it (``PhotoLibrary/sharedLibraryAttributions(of:)``). A person's
/// timeline shows both libraries, or one of them (``FetchOptions/library``).
///
/// ```swift
/// let ann = try await library.forPerson(named: "ann")
/// try await ann.inviteToSharedLibrary("bob")                       // makes it, Ann in it
/// try await ann.moveToSharedLibrary(.everything)
/// let bob = try await library.forPerson(named: "bob")
/// try await bob.joinSharedLibrary(moving: .takenFrom(Date(timeIntervalSince1970: 1_600_000_000)), movesNewAssets: true)
/// var options = FetchOptions()
/// options.library = .shared
/// let shared = try await bob.fetchAssets(with: options)              // Ann's and Bob's, moved in
/// try await bob.leaveSharedLibrary(keeping: .ownContributions)       // Ann keeps all of it
/// ```
public struct SharedLibrary: Sendable, Hashable {
    /// A person in the Shared Library, or invited to it.
    public struct Participant: Sendable, Hashable {
        /// Who.
        public let person: PartnerShare.Party
        /// Whether they joined (`false`: invited, not yet answered).
        public let hasJoined: Bool
        /// Whether their new imports and captures go to the Shared Library (their choice).
        public let movesNewAssets: Bool
        /// When they were invited (or made it).
        public let invitedDate: Date
        /// When they joined.
        public let joinedDate: Date?
    }

    /// Everyone in it and invited to it, in the order they were invited (its maker first).
    public let participants: [Participant]

    /// Most people in one Shared Library, its maker and those invited included (Apple's six).
    public static let maximumParticipants = 6

    /// What a person moves in from their own library: on joining, or later.
    public enum Contribution: Sendable, Hashable {
        /// Every photo and movie of theirs that is neither hidden nor in Recently Deleted.
        case everything
        /// Those taken from this day on.
        case takenFrom(Date)
        /// These (by ``Asset/localIdentifier``; a burst's key photo brings its frames).
        case chosen([String])
        /// Nothing for now.
        case nothing
    }

    /// What a person leaving takes into their own library (copies: the bytes are not copied, and
    /// the Shared Library keeps every photo for those who stay).
    public enum Departure: String, Sendable, Hashable, CaseIterable {
        /// A copy of everything in the Shared Library.
        case everything
        /// A copy of what they added.
        case ownContributions
    }

    /// Who added a photo of the Shared Library, and who moved it to Recently Deleted.
    public struct Attribution: Sendable, Hashable {
        /// Who added it (`nil`: a person since removed from the server).
        public let addedBy: PartnerShare.Party?
        /// Who deleted it, while it is in Recently Deleted.
        public let deletedBy: PartnerShare.Party?
    }

    /// The participant who is `rowID`, if any.
    func participant(_ rowID: Int64) -> Participant? { participants.first { $0.person.rowID == rowID } }

    /// The owner row id of the Shared Library's assets (no person has it).
    package static let ownerRowID: Int64 = -1

    /// The change-log kind of a change to the Shared Library itself (someone invited, joined,
    /// declined, left, their default changed): an entry for each person concerned, naming whom
    /// the change was about (``Person/id``).
    package static let changeKind = "sharedLibrary"
}
