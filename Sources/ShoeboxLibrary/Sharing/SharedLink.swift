import Foundation

/// A link that shows an album or a selection to anyone who has it, read-only and without signing
/// in, as a shared album's web page does: an unguessable token in its URL (kept by the library
/// only as a hash), an optional expiry and password, downloads allowed or not, and — unless the
/// user says otherwise — without the place photos were taken or the camera that took them.
/// Revocable at once; every view is logged. ``PhotoLibrary/createSharedLink(title:album:assets:options:)``
/// makes one.
public struct SharedLink: Sendable, Hashable, Identifiable {
    /// How a link is made.
    public struct Options: Sendable, Hashable {
        /// When it stops opening (`nil`: never).
        public var expiresDate: Date?
        /// What a viewer must type first (`nil`: nothing).
        public var password: String?
        /// Whether viewers may download the photos (full size; without metadata unless
        /// ``includesMetadata``).
        public var allowsDownload: Bool
        /// Whether the photos keep their place and camera details (off by default).
        public var includesMetadata: Bool

        /// Options from their parts; the defaults make a link that never expires, asks for no password,
        /// allows no downloads and keeps no place or camera details.
        public init(expiresDate: Date? = nil, password: String? = nil, allowsDownload: Bool = false, includesMetadata: Bool = false) {
            self.expiresDate = expiresDate
            self.password = password
            self.allowsDownload = allowsDownload
            self.includesMetadata = includesMetadata
        }
    }

    /// The link's name for the user (not a secret; the token is).
    public let id: String
    /// What the gallery page shows as its heading: the album's title or the user's.
    public let title: String
    /// The album it shows (its photos as they are now), or `nil` for a fixed selection.
    public let albumIdentifier: String?
    /// The selection it shows (empty for an album).
    public let assetIdentifiers: [String]
    /// When the link was made.
    public let createdDate: Date
    /// When it stops opening, or `nil` for never (see ``isOpen(at:)``).
    public let expiresDate: Date?
    /// Whether a viewer must type a password first (the password itself is kept only as a hash).
    public let hasPassword: Bool
    /// Whether viewers may download the photos at full size.
    public let allowsDownload: Bool
    /// Whether the photos keep their place and camera details.
    public let includesMetadata: Bool
    /// When it was revoked; it opens no more.
    public let revokedDate: Date?
    /// How many visits it had: looks from one address count once per half hour, among the
    /// latest 10,000 entries of its log.
    public let viewCount: Int

    /// How many entries a link's log keeps (the oldest go first).
    package static let maximumLoggedViews = 10_000
    /// Wrong passwords one address may type for a link in ``passwordWindow`` before it must wait.
    package static let passwordAttemptsPerAddress = 5
    /// Wrong passwords all addresses together may type for a link in ``passwordWindow``.
    package static let passwordAttemptsPerLink = 50
    /// The window password attempts are counted in (15 minutes).
    package static let passwordWindow: TimeInterval = 15 * 60

    /// Whether it opens at `date`.
    public func isOpen(at date: Date = Date()) -> Bool {
        revokedDate == nil && (expiresDate.map { $0 > date } ?? true)
    }

    /// One look at a link: when, from where, at what.
    public struct View: Sendable, Hashable {
        /// When the look happened.
        public let date: Date
        /// The viewer's address as the server saw it.
        public let address: String
        /// `visit` (the first look from an address in half an hour: the page, the list or a
        /// photo), `download 3`, `password`, `wrong password`.
        public let what: String

        /// What a visit is logged as.
        package static let visit = "visit"
        /// What a wrong password is logged as.
        package static let wrongPassword = "wrong password"

        /// A look from its parts, as the server logs it or a ``CatalogStore`` reads it back.
        package init(date: Date, address: String, what: String) {
            self.date = date
            self.address = address
            self.what = what
        }
    }
}

/// The row of a ``SharedLink`` in the catalog.
package struct SharedLinkRecord: Sendable, Hashable {
    /// The link's name (``SharedLink/id``): 16 hex digits, not a secret.
    package var id: String
    /// SHA-256 (hex) of the link's token: the token itself is never stored.
    package var tokenHash: String
    /// The heading its page shows (``SharedLink/title``).
    package var title: String
    /// The local identifier of the album it shows, or `nil` for a fixed selection.
    package var album: String?
    /// The local identifiers of the selection it shows, in order (empty for an album).
    package var assets: [String]
    /// When the link was made.
    package var createdDate: Date
    /// When it stops opening, or `nil` for never.
    package var expiresDate: Date?
    /// `salt$hash` (hex) of the password, iterated SHA-256, or `nil`.
    package var password: String?
    /// Whether viewers may download the photos at full size.
    package var allowsDownload: Bool
    /// Whether the photos keep their place and camera details.
    package var includesMetadata: Bool
    /// When the user revoked it, or `nil` while it is not revoked.
    package var revokedDate: Date?
    /// How many looks were logged (pages, photos and downloads).
    package var viewCount: Int
    /// The row id of the person who made it: its page shows their photos (``Person/rowID``).
    package var ownerID: Int64 = Person.adminRowID

    /// A row from its fields, as the library makes it or a ``CatalogStore`` reads it.
    package init(
        id: String, tokenHash: String, title: String, album: String?, assets: [String], createdDate: Date, expiresDate: Date?,
        password: String?, allowsDownload: Bool, includesMetadata: Bool, revokedDate: Date? = nil, viewCount: Int = 0
    ) {
        (self.id, self.tokenHash, self.title, self.album, self.assets) = (id, tokenHash, title, album, assets)
        (self.createdDate, self.expiresDate, self.password) = (createdDate, expiresDate, password)
        (self.allowsDownload, self.includesMetadata, self.revokedDate, self.viewCount) = (allowsDownload, includesMetadata, revokedDate, viewCount)
    }

    var link: SharedLink {
        SharedLink(
            id: id, title: title, albumIdentifier: album, assetIdentifiers: assets, createdDate: createdDate, expiresDate: expiresDate,
            hasPassword: password != nil, allowsDownload: allowsDownload, includesMetadata: includesMetadata, revokedDate: revokedDate,
            viewCount: viewCount)
    }
}
