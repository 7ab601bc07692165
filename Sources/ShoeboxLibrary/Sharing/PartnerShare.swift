import Foundation

/// One person's library shared with another, read-only, as Google Photos' partner sharing and
/// Immich's partners: every photo and movie of the sharer's, or those taken from
/// ``startDate`` on, neither hidden nor in Recently Deleted. The partner sees them apart
/// (``PhotoLibrary/fetchPartnerAssets(from:options:)``) or, when they choose
/// (``PhotoLibrary/showPartnerAssetsInTimeline(_:from:)``), in their own timeline
/// (``FetchOptions/includePartnerAssets``); they never change them. Either side ends it.
///
/// ```swift
/// let ann = try await library.forPerson(named: "ann")
/// try await ann.sharePartnerLibrary(with: "bob", from: nil)          // all of Ann's photos
/// let bob = try await library.forPerson(named: "bob")
/// try await bob.showPartnerAssetsInTimeline(true, from: "ann")
/// var options = FetchOptions()
/// options.includePartnerAssets = true
/// let both = try await bob.fetchAssets(with: options)                // Bob's and Ann's
/// ```
public struct PartnerShare: Sendable, Hashable {
    /// A person on either side of a partner share.
    public struct Party: Sendable, Hashable, Identifiable {
        /// Their stable identifier (``Person/id``).
        public let id: String
        /// Their sign-in name.
        public let name: String
        /// The name shown.
        public let displayName: String
        let rowID: Int64
    }

    /// Whose library this lets someone see; the library's own caller or not.
    public let sharer: Party
    /// Who sees it.
    public let partner: Party
    /// The earliest capture date shared (`nil`: the whole library, however old).
    public let startDate: Date?
    /// Whether the partner shows these photos in their own timeline (their choice; `false`
    /// until they make it): otherwise only apart, under the sharer's name.
    public let isShownInTimeline: Bool
    /// When the sharer started sharing.
    public let creationDate: Date

    /// Most partners one person shares their library with.
    public static let maximumPartners = 20

    /// The change-log kind of a change to a partner share (started, its date changed, shown in
    /// the timeline or not, ended): the entry names the other side (``Person/id``).
    package static let changeKind = "partner"

    /// Which of a sharer's assets a fetch reads (a share as the catalog applies it).
    package struct Window: Sendable, Hashable {
        package let owner: Int64
        package let startDate: Date?
    }

    var window: Window { Window(owner: sharer.rowID, startDate: startDate) }
}
