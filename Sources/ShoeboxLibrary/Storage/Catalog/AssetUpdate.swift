import Foundation
import ShoeboxImaging

/// New values for one asset's editable fields (`nil`: unchanged).
package struct AssetUpdate: Sendable {
    /// The asset to change.
    package let localIdentifier: String
    /// Marks it as a favourite, or unmarks it.
    package var isFavorite: Bool?
    /// Hides it, or shows it again.
    package var isHidden: Bool?
    /// Moves when it was taken (its zone stays) and marks the date as the user's.
    package var creationDate: Date?
    /// Sets when it was taken and the zone it was taken in, and marks the date as the user's.
    package var captureTime: CaptureTime?
    /// Gives back what the file said of these fields (``AssetRecord/fileValues``); they are no
    /// longer the user's.
    package var revertsFields: AssetRecord.EditedFields = []
    /// `.some(nil)` restores from Recently Deleted.
    package var trashedDate: Date??
    /// A new location, or `.some(nil)` to remove it; either marks the location as the user's.
    package var location: Asset.Location??
    /// An edit of its pixels, or a revert to the original.
    package var content: ContentChange?
    /// What the asset's original file says, read again (the `metadata` job).
    package var fileMetadata: FileMetadata?
    /// Makes the asset its burst's key photo, chosen by the user (the other frames lose that
    /// choice).
    package var makesBurstKeyPhoto = false
    /// A new title, caption, keywords, rating or label.
    package var details: Details?

    /// What a sidecar or the person says of an asset; each `nil` leaves its field as it is, and
    /// an empty value (`""`, `[]`, a rating of 0) clears it.
    package struct Details: Sendable, Hashable {
        package var title: String?
        package var caption: String?
        package var keywords: [String]?
        package var rating: Int?
        package var label: String?

        package init(title: String? = nil, caption: String? = nil, keywords: [String]? = nil, rating: Int? = nil, label: String? = nil) {
            (self.title, self.caption, self.keywords, self.rating, self.label) = (title, caption, keywords, rating, label)
        }

        /// Whether it changes nothing.
        package var isEmpty: Bool { title == nil && caption == nil && keywords == nil && rating == nil && label == nil }
    }

    /// Flags set alike on many assets: a favorite mark, hiding, a move to or from Recently
    /// Deleted (the updates of the batch actions).
    package struct Flags: Sendable {
        package var isFavorite: Bool?
        package var isHidden: Bool?
        package var trashedDate: Date??

        /// What every one of `updates` does, when each sets only these flags, all the same,
        /// on assets named once each; `nil` otherwise (or for no update).
        package init?(common updates: [AssetUpdate]) {
            guard let first = updates.first else { return nil }
            var named = Set<String>()
            for update in updates {
                guard update.creationDate == nil, update.captureTime == nil, update.revertsFields.isEmpty, update.location == nil, update.content == nil,
                    update.fileMetadata == nil, update.details == nil,
                    !update.makesBurstKeyPhoto, update.isFavorite == first.isFavorite, update.isHidden == first.isHidden,
                    update.trashedDate == first.trashedDate, named.insert(update.localIdentifier).inserted
                else { return nil }
            }
            guard first.isFavorite != nil || first.isHidden != nil || first.trashedDate != nil else { return nil }
            (isFavorite, isHidden, trashedDate) = (first.isFavorite, first.isHidden, first.trashedDate)
        }
    }

    /// Whether the asset's search words and place may change: a new location, an edit, a title,
    /// caption, keywords or label, or what its file says read again (camera, lens, place). Flags
    /// and dates leave them.
    package var changesWords: Bool { location != nil || content != nil || fileMetadata != nil || details != nil || revertsFields.contains(.location) }

    /// What reading an original gives the catalog. A date or location the file lacks is `nil`
    /// (and changes nothing).
    package struct FileMetadata: Sendable, Hashable {
        /// Width as displayed (upright), in pixels; applied only to an unedited asset.
        package var pixelWidth: Int
        /// Height as displayed (upright), in pixels; applied only to an unedited asset.
        package var pixelHeight: Int
        /// Length in seconds (0 for photos); applied only to an unedited asset.
        package var duration: Double
        /// ``Asset/MediaSubtypes`` raw value the file gives (a Live Photo's comes from its
        /// companion and is kept).
        package var mediaSubtypes: Int
        /// When it was taken, with the zone it was taken in.
        package var captureTime: CaptureTime?
        /// Where it was taken; never replaces a location the user set.
        package var location: Asset.Location?
        /// The camera that took it (`nil` when the file does not say).
        package var camera: Camera?
        /// Apple's burst identifier, when the file has one.
        package var burstIdentifier: String?
        /// The lens (EXIF `LensModel`), when the file names it.
        package var lensModel: String?

        /// A camera as EXIF names it.
        package struct Camera: Sendable, Hashable {
            /// EXIF `Make`, if the file has it.
            package var make: String?
            /// EXIF `Model`.
            package var model: String
            /// EXIF `BodySerialNumber` (else the maker note's), if the file has it.
            package var serialNumber: String?
            /// Whether its drive was set to shoot continuously, if the maker note says.
            package var continuousDrive: Bool?

            /// The camera `metadata` names, if it names a model.
            package init?(_ metadata: ImageMetadata) {
                guard let model = metadata.model else { return nil }
                (make, self.model, serialNumber) = (metadata.make, model, metadata.bodySerialNumber)
                continuousDrive = metadata.continuousDrive
            }
        }

        /// What reading an original gave; the camera, burst identifier and lens default to none.
        package init(
            pixelWidth: Int, pixelHeight: Int, duration: Double, mediaSubtypes: Int, captureTime: CaptureTime?, location: Asset.Location?,
            camera: Camera? = nil, burstIdentifier: String? = nil, lensModel: String? = nil
        ) {
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
            self.duration = duration
            self.mediaSubtypes = mediaSubtypes
            self.captureTime = captureTime
            self.location = location
            self.camera = camera
            self.burstIdentifier = burstIdentifier
            self.lensModel = lensModel
        }
    }

    /// An update of the fields given; ``AssetUpdate/fileMetadata`` and
    /// ``AssetUpdate/makesBurstKeyPhoto`` are set afterwards.
    package init(
        localIdentifier: String, isFavorite: Bool? = nil, isHidden: Bool? = nil, creationDate: Date? = nil,
        trashedDate: Date?? = nil, location: Asset.Location?? = nil, content: ContentChange? = nil
    ) {
        self.localIdentifier = localIdentifier
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.creationDate = creationDate
        self.trashedDate = trashedDate
        self.location = location
        self.content = content
    }
}
