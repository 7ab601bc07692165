import Foundation

/// How many items the user may pick, which ones, in what order, and in which representation
/// (`PHPickerConfiguration`, plus a minimum count and richer filters).
///
/// ```swift
/// var configuration = PickerConfiguration()
/// configuration.selectionLimit = 5
/// configuration.minimumSelectionCount = 2
/// configuration.selection = .ordered
/// configuration.filter = .all(of: [.images, .not(.screenshots)])
/// configuration.preferredAssetRepresentationMode = .compatible   // HEIC arrives as JPEG
/// picker.configuration = configuration
/// ```
public struct PickerConfiguration: Sendable, Hashable, Codable {
    /// How selecting behaves (`PHPickerConfiguration.Selection`).
    public enum Selection: String, Sendable, Hashable, Codable, CaseIterable {
        /// Results come in the order the grid shows them.
        case `default`
        /// Selected items show their number; results come in the order they were selected.
        case ordered
        /// Every change of the selection is delivered at once (the delegate's
        /// `didFinishPicking` is called on each change); the picker stays until dismissed.
        case continuous
    }

    /// Which file a pick delivers (`PHPickerConfiguration.AssetRepresentationMode`). Originals in
    /// the library are never changed: conversions are copies.
    public enum AssetRepresentationMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Photos as stored (current version); movies as the browser plays them: the stored
        /// file when it is H.264 in MP4/MOV, else its MP4 playback rendition.
        case automatic
        /// The current version's file exactly as stored, whatever its format.
        case current
        /// The most widely readable form: HEIC, HEIF, AVIF, TIFF, WebP and raw photos as JPEG;
        /// movies that are not H.264 + AAC in MP4/MOV (WebM recordings, HEVC) as H.264 MP4.
        case compatible
    }

    /// The most items the user may pick; 0 means no limit. Default 1 (a single pick).
    public var selectionLimit: Int
    /// The fewest items Choose accepts. Default 1.
    public var minimumSelectionCount: Int
    /// Extra conditions on what is offered, on top of the picker's media types.
    public var filter: PickerFilter?
    /// How selecting behaves and the order results come in (`PHPickerConfiguration.selection`).
    /// Default `.default`.
    public var selection: Selection
    /// Items selected when the picker opens (those the filter or limit exclude are skipped).
    public var preselectedAssetIdentifiers: [String]
    /// Which file a pick delivers: as stored, or converted to a widely readable form
    /// (`PHPickerConfiguration.preferredAssetRepresentationMode`). Default `.automatic`.
    public var preferredAssetRepresentationMode: AssetRepresentationMode

    /// A configuration; the defaults pick exactly one item, with no filter or preselection, in the
    /// `.automatic` representation. The numbers are checked by ``validate()``, not here.
    public init(
        selectionLimit: Int = 1, minimumSelectionCount: Int = 1, filter: PickerFilter? = nil,
        selection: Selection = .default, preselectedAssetIdentifiers: [String] = [],
        preferredAssetRepresentationMode: AssetRepresentationMode = .automatic
    ) {
        self.selectionLimit = selectionLimit
        self.minimumSelectionCount = minimumSelectionCount
        self.filter = filter
        self.selection = selection
        self.preselectedAssetIdentifiers = preselectedAssetIdentifiers
        self.preferredAssetRepresentationMode = preferredAssetRepresentationMode
    }

    /// Decodes JSON in which every key is optional (missing ones take the defaults).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        selectionLimit = try container.decodeIfPresent(Int.self, forKey: .selectionLimit) ?? selectionLimit
        minimumSelectionCount = try container.decodeIfPresent(Int.self, forKey: .minimumSelectionCount) ?? minimumSelectionCount
        filter = try container.decodeIfPresent(PickerFilter.self, forKey: .filter)
        selection = try container.decodeIfPresent(Selection.self, forKey: .selection) ?? selection
        preselectedAssetIdentifiers = try container.decodeIfPresent([String].self, forKey: .preselectedAssetIdentifiers) ?? []
        preferredAssetRepresentationMode =
            try container.decodeIfPresent(AssetRepresentationMode.self, forKey: .preferredAssetRepresentationMode)
            ?? preferredAssetRepresentationMode
    }

    /// Checks that the numbers hold together.
    ///
    /// - Throws: ``PickerError/Code/invalidArgument`` for a negative limit, a minimum above the
    ///   limit, or a filter with a non-positive size or duration.
    public func validate() throws(PickerError) {
        guard selectionLimit >= 0 else {
            throw PickerError(.invalidArgument, "selectionLimit must be 0 (no limit) or more, not \(selectionLimit)")
        }
        guard minimumSelectionCount >= 0 else {
            throw PickerError(.invalidArgument, "minimumSelectionCount must not be negative, not \(minimumSelectionCount)")
        }
        if selectionLimit > 0, minimumSelectionCount > selectionLimit {
            throw PickerError(.invalidArgument, "minimumSelectionCount \(minimumSelectionCount) is above selectionLimit \(selectionLimit)")
        }
        try filter?.validate()
    }
}
