import Foundation

/// An edit of an asset's content, as the catalog keeps it.
public struct ContentEdit: Sendable, Hashable {
    /// SHA-256 of the render's bytes (lowercase hex), filed in `renders/`.
    public let renderHash: String
    /// The render's Uniform Type Identifier, which need not be the original's.
    public let renderUniformTypeIdentifier: String
    /// The render's size in bytes.
    public let renderFileSize: Int
    /// The render's upright size and length.
    public let pixelWidth: Int
    /// The render's height as displayed (upright), in pixels.
    public let pixelHeight: Int
    /// The render's length in seconds (0 for photos).
    public let duration: Double
    /// What the edit did, for its editor to read back and continue (`PHAdjustmentData`).
    public let adjustmentData: AdjustmentData
    /// The client that made the edit; `nil` for the user with Shoebox's own tools.
    public let editorClient: String?
    /// When the edit was made.
    public let date: Date
    /// The original's upright size and length, as they were when the edit was made (0 when not
    /// known).
    public let originalPixelWidth: Int
    /// The original's height as displayed (upright), in pixels (0 when not known).
    public let originalPixelHeight: Int
    /// The original's length in seconds (0 for photos, or when not known).
    public let originalDuration: Double

    /// An edit to record, or one read back. The `original…` values matter only when read: applying
    /// an edit keeps the original's size and length the catalog already has, else the asset's own.
    package init(
        renderHash: String, renderUniformTypeIdentifier: String, renderFileSize: Int, pixelWidth: Int, pixelHeight: Int,
        duration: Double, adjustmentData: AdjustmentData, editorClient: String?, date: Date,
        originalPixelWidth: Int = 0, originalPixelHeight: Int = 0, originalDuration: Double = 0
    ) {
        self.originalPixelWidth = originalPixelWidth
        self.originalPixelHeight = originalPixelHeight
        self.originalDuration = originalDuration
        self.renderHash = renderHash
        self.renderUniformTypeIdentifier = renderUniformTypeIdentifier
        self.renderFileSize = renderFileSize
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.duration = duration
        self.adjustmentData = adjustmentData
        self.editorClient = editorClient
        self.date = date
    }
}
