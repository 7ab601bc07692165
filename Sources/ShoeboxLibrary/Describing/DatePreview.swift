import Foundation

/// What a ``MetadataAdjustment/DateChange`` would make of one asset's date: shown to the
/// person before they apply it (``PhotoLibrary/previewDates(_:of:)``).
public struct DatePreview: Sendable, Hashable {
    /// The asset.
    public let asset: Asset
    /// When it was taken now.
    public let before: CaptureTime
    /// When it would be taken after the change.
    public let after: CaptureTime
}
