import Foundation
import ShoeboxImaging

/// What an editor starts from (`PHContentEditingInput`), from
/// ``PhotoLibrary/requestContentEditingInput(for:options:)``.
public struct ContentEditingInput: Sendable {
    /// The asset being edited, as it was when the input was made.
    public let asset: Asset
    /// Whether the asset is a photo or a movie (`PHContentEditingInput.mediaType`).
    public var mediaType: Asset.MediaType { asset.mediaType }
    /// The file to edit: the original when ``adjustmentData`` is set (re-apply it, then add to
    /// it), else the current version with every earlier edit in its pixels. Read only.
    public let fullSizeImageURL: URL?
    /// The movie to edit, on the same terms as ``fullSizeImageURL``.
    public let audiovisualAssetURL: URL?
    /// The edit that made the current version, when the editor said it can handle it.
    public let adjustmentData: AdjustmentData?
    /// The Uniform Type Identifier of the file given.
    public let uniformTypeIdentifier: String
    /// The EXIF orientation of ``fullSizeImageURL``'s pixels (1 when upright). ``ShoeboxImaging/Image``
    /// applies it when decoding.
    public let fullSizeImageOrientation: ImageOrientation
    /// When the asset was taken (`PHContentEditingInput.creationDate`).
    public var creationDate: Date { asset.creationDate }
    /// Where the asset was taken, or `nil` when unknown (`PHContentEditingInput.location`).
    public var location: Asset.Location? { asset.location }
    /// The client that will edit, as the library was opened.
    public let editorClient: String?
    /// The library's staging folder, where outputs keep their renders until they commit.
    var stagingFolder: URL? = nil
}

/// How to make a ``ContentEditingInput`` (`PHContentEditingInputRequestOptions`).
public struct ContentEditingInputRequestOptions: Sendable {
    /// Answers whether the editor can continue an edit described by this adjustment data. When it
    /// can, the input gives the original and the data; when it cannot (or the asset was never
    /// edited), the current version and no data. The default handles ``Adjustments``.
    public var canHandleAdjustmentData: @Sendable (AdjustmentData) -> Bool

    /// Options whose editor continues the edits `canHandleAdjustmentData` accepts; by default,
    /// Shoebox's own ``Adjustments``.
    public init(canHandleAdjustmentData: @escaping @Sendable (AdjustmentData) -> Bool = Adjustments.canHandle) {
        self.canHandleAdjustmentData = canHandleAdjustmentData
    }
}
