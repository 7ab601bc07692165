import Foundation

/// A change to an asset's pixels.
package enum ContentChange: Sendable, Hashable {
    /// The edit becomes the asset's current version: its render replaces any earlier one
    /// (``AssetChangeRequest/contentEditingOutput``).
    case edit(ContentEdit)
    /// The edit is dropped and the original, at its own size and length, is the current version
    /// again; nothing for an asset never edited (``AssetChangeRequest/revertAssetContentToOriginal()``).
    case revert
}
