/// A place in the library's change log (`PHPersistentChangeToken`): take one with
/// ``PhotoLibrary/currentChangeToken``, and ask later for every change after it with
/// ``PhotoLibrary/changes(since:pollingEvery:)``, so nothing committed in between is missed.
///
/// Tokens are ordered (a later change has a greater token) and survive a round trip through text
/// (``description`` and ``init(_:)``), for a client to hand back, as a browser does with an event
/// stream's `Last-Event-ID`.
///
/// ```swift
/// let token = try await library.currentChangeToken
/// let recents = try await library.fetchAssets(with: FetchOptions())
/// for try await change in try await library.changes(since: token) {
///     // Every change committed after `token`, including any made while the fetch ran.
/// }
/// ```
public struct PersistentChangeToken: Sendable, Hashable, Comparable, CustomStringConvertible, LosslessStringConvertible {
    /// The change log's sequence number: every change up to and including it is before the token.
    public let sequence: Int64

    /// The token after the change numbered `sequence`.
    public init(sequence: Int64) {
        self.sequence = sequence
    }

    /// A token from its ``description``; `nil` for text that is not one.
    public init?(_ description: String) {
        guard let sequence = Int64(description), sequence >= 0 else { return nil }
        self.sequence = sequence
    }

    /// The ``sequence`` as decimal text, which ``init(_:)`` reads back.
    public var description: String { String(sequence) }

    /// Whether `lhs` is an earlier place in the change log than `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sequence < rhs.sequence }
}
