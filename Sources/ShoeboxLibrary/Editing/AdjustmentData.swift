import Foundation

/// What an edit did, in a format its editor can read back to continue the edit later
/// (`PHAdjustmentData`). The library stores it with the edit and never interprets it, except
/// for Shoebox's own format, ``Adjustments``.
public struct AdjustmentData: Sendable, Hashable, Codable {
    /// Names the format, reverse-DNS style (`org.shoebox.adjustments` for ``Adjustments``).
    public let formatIdentifier: String
    /// The format's version.
    public let formatVersion: String
    /// The edit, in that format.
    public let data: Data

    /// The largest `data` the library stores (Photos has a similar limit): an edit is a recipe,
    /// not pixels.
    public static let maximumDataSize = 1 << 20

    /// Adjustment data from its parts (`PHAdjustmentData.init(formatIdentifier:formatVersion:data:)`).
    /// `data` is not checked here: committing an edit whose `data` is over ``maximumDataSize`` bytes fails.
    public init(formatIdentifier: String, formatVersion: String, data: Data) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
    }
}
