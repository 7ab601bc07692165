import Foundation

/// An asset as the catalog stores it: every column of its row. ``Asset`` is what the library
/// hands out; a ``CatalogStore`` reads and writes these.
package struct AssetRecord: Codable, Sendable, Hashable {
    /// The row id (`nil` before insertion); the order assets were added in.
    package var id: Int64?
    /// The asset's stable identifier, unique in the library (``Asset/localIdentifier``).
    package var localIdentifier: String
    /// ``Asset/MediaType`` raw value.
    package var mediaType: Int
    /// ``Asset/MediaSubtypes`` raw value.
    package var mediaSubtypes: Int
    /// Width of the current version (the render, once edited) as displayed (upright), in pixels.
    package var pixelWidth: Int
    /// Height of the current version (the render, once edited) as displayed (upright), in pixels.
    package var pixelHeight: Int
    /// When it was taken (``Asset/creationDate``); with ``timeZoneOffset``, the ``captureTime``.
    package var creationDate: Date
    /// When the row last changed: every update of the asset sets it.
    package var modificationDate: Date
    /// When it was imported into the library.
    package var addedDate: Date
    /// Degrees north (negative: south) of where it was taken; `nil` without a location.
    package var latitude: Double?
    /// Degrees east (negative: west) of where it was taken; `nil` without a location.
    package var longitude: Double?
    /// Metres above sea level (negative: below) of where it was taken, if known.
    package var altitude: Double?
    /// Length of the current version in seconds (0 for photos).
    package var duration: Double
    /// Whether the user marked it as a favourite (`PHAsset.isFavorite`).
    package var isFavorite: Bool
    /// Whether it is hidden: fetches leave it out unless ``FetchOptions/includeHiddenAssets``.
    package var isHidden: Bool
    /// When it was moved to Recently Deleted, or `nil` when it is not there.
    package var trashedDate: Date?
    /// The file name the original was imported from.
    package var originalFilename: String
    /// SHA-256 of the original's bytes (lowercase hex): its blob in `originals/`, and unique
    /// among assets.
    package var contentHash: String
    /// The original's Uniform Type Identifier (`package.jpeg`, `package.heic`, `com.apple.quicktime-movie`, …).
    package var uniformTypeIdentifier: String
    /// The original's size in bytes.
    package var fileSize: Int
    /// The client that created it (`nil`: the user); only that client may edit its content in
    /// place (``Asset/canPerform(_:client:)``).
    package var creatorClient: String?
    /// SHA-256 of the render that is its current version (lowercase hex, filed in `renders/`),
    /// or `nil` when it is not edited.
    package var renderHash: String?
    /// The render's Uniform Type Identifier; `nil` reads as the original's.
    package var renderUniformTypeIdentifier: String?
    /// The render's size in bytes, or `nil` when it is not edited.
    package var renderFileSize: Int?
    /// Counts the edits and reverts of its content (derivative caches key on it).
    package var contentRevision: Int
    /// For a modified version saved as a new asset, the identifier of the asset it was made
    /// from (``Asset/originalAssetIdentifier``).
    package var originalAssetIdentifier: String?
    /// The metadata the user set (``EditedFields`` raw value; `nil` for none), which reading the
    /// file again (the `metadata` job) leaves as it is.
    package var userEditedFields: Int?
    /// Seconds east of UTC of the clock where it was taken (``CaptureTime``), or `nil`.
    package var timeZoneOffset: Int?
    /// The IANA zone ``timeZoneOffset`` came from, when it came from the place.
    package var timeZoneIdentifier: String?
    /// What pairs the files of one shot: the Apple content identifier of a Live Photo's halves
    /// (``ImageMetadata/contentIdentifier``, ``MovieInfo/contentIdentifier``), else a photo's
    /// name stem and time taken (`shot:img_0042@2024:05:01 10:11:12`, for RAW+JPEG).
    package var pairingIdentifier: String?
    /// The asset's second original, kept with it: a Live Photo's paired video or a RAW+JPEG
    /// pair's raw (``AssetResource/ResourceType`` raw value), `nil` for none.
    package var companionType: String?
    /// SHA-256 of the second original (filed in `originals/` like the first).
    package var companionHash: String?
    /// The second original's Uniform Type Identifier (`nil` reads as `package.data`).
    package var companionUniformTypeIdentifier: String?
    /// The file name the second original was imported from (`nil` reads as its hash).
    package var companionFilename: String?
    /// The second original's size in bytes.
    package var companionFileSize: Int?
    /// The camera that took it (EXIF `Make`, `Model`, `BodySerialNumber`): a burst's frames are
    /// one camera's.
    package var cameraMake: String?
    /// The camera's EXIF `Model`.
    package var cameraModel: String?
    /// The camera's EXIF `BodySerialNumber` (else its maker note's), when the file has one.
    package var cameraSerialNumber: String?
    /// Whether the camera's drive was set to shoot continuously (``ImageMetadata/continuousDrive``;
    /// `nil` when the file does not say): evidence that a run of frames is one body's burst.
    package var continuousDrive: Bool?
    /// The burst it is a frame of (``Asset/burstIdentifier``): Apple's `BurstUUID`, or
    /// `run:` and a UUID for a run of one camera's frames under a second apart.
    package var burstIdentifier: String?
    /// Whether it is the frame of its burst that default fetches show (``Asset/representsBurst``).
    package var representsBurst: Bool
    /// ``Asset/BurstSelectionTypes`` raw value.
    package var burstSelectionTypes: Int
    /// The lens it was taken with (EXIF `LensModel`), for search.
    package var lensModel: String?
    /// The words search finds it by (``AssetSearchText``): its file names, camera, lens and
    /// place; written by the catalog with every change of the row, `nil` until then.
    package var searchText: String?
    /// The place it was taken, from its GPS and the offline place table (``AssetSearchText/place(for:places:)``):
    /// the city people name it by, and the country's ISO 3166 code; written with ``searchText``.
    package var placeName: String?
    /// The ISO 3166 code of the country it was taken in; it may be set while ``placeName`` is
    /// `nil` (far from any named place).
    package var placeCountry: String?
    /// Its title (``Asset/title``), from a sidecar or set by the person.
    package var title: String?
    /// Its caption (``Asset/caption``).
    package var caption: String?
    /// Its keywords (``Asset/keywords``), one a line; a hierarchical keyword as a path (`Places/Italy/Rome`).
    package var keywords: String?
    /// Its rating from 1 to 5 (``Asset/rating``); `nil` for none.
    package var rating: Int?
    /// Its colour label (``Asset/label``), as the app that set it names it (`Red`, `Approved`).
    package var label: String?
    /// What the file said of the fields the person set (``FileValues``, as JSON), kept when they
    /// first set one so that reverting gives the file's values back; `nil` when they set none.
    package var fileValues: String?
    /// The row id of the person whose asset it is (``Person/rowID``); 1, the admin, for every
    /// asset of a library made before people existed.
    package var ownerID: Int64 = 1

    /// Metadata the user set by hand, rather than read from the file.
    package struct EditedFields: OptionSet, Sendable, Hashable {
        /// The bits, as ``AssetRecord/userEditedFields`` stores them.
        package let rawValue: Int
        /// The fields these bits name.
        package init(rawValue: Int) { self.rawValue = rawValue }
        /// The user set when it was taken.
        package static let creationDate = EditedFields(rawValue: 1)
        /// The user set or removed where it was taken.
        package static let location = EditedFields(rawValue: 2)
    }

    /// What the file (or the import) said of the date and place the person replaced: kept in
    /// ``AssetRecord/fileValues`` from the first time they set one, and brought back by a revert.
    package struct FileValues: Codable, Sendable, Hashable {
        /// The instant, zone offset and zone name it had, when the person set the date.
        package var date: Date?
        package var timeZoneOffset: Int?
        package var timeZoneIdentifier: String?
        /// Whether ``date`` was kept (the person set the date).
        package var keepsDate = false
        /// The location it had (`nil`: none), when the person set the place.
        package var latitude: Double?
        package var longitude: Double?
        package var altitude: Double?
        /// Whether the location was kept (the person set or removed the place).
        package var keepsLocation = false

        package init() {}

        var captureTime: CaptureTime? {
            date.map { CaptureTime(date: $0, timeZoneOffset: timeZoneOffset, timeZoneIdentifier: timeZoneIdentifier) }
        }

        var location: Asset.Location? {
            latitude.flatMap { latitude in longitude.map { Asset.Location(latitude: latitude, longitude: $0, altitude: altitude) } }
        }

        mutating func keep(_ time: CaptureTime) {
            (date, timeZoneOffset, timeZoneIdentifier, keepsDate) = (time.date, time.timeZoneOffset, time.timeZoneIdentifier, true)
        }

        mutating func keep(_ location: Asset.Location?) {
            (latitude, longitude, altitude, keepsLocation) = (location?.latitude, location?.longitude, location?.altitude, true)
        }
    }

    /// ``fileValues`` read (an empty set when there are none, or they cannot be read).
    package var savedFileValues: FileValues {
        get {
            guard let text = fileValues, let values = try? JSONDecoder().decode(FileValues.self, from: Data(text.utf8)) else { return FileValues() }
            return values
        }
        set {
            guard newValue.keepsDate || newValue.keepsLocation, let data = try? JSONEncoder().encode(newValue) else {
                fileValues = nil
                return
            }
            fileValues = String(decoding: data, as: UTF8.self)
        }
    }

    /// A record with every column given; `id` is `nil` for a row not inserted yet. The defaulted
    /// columns describe an unedited asset with no user-set metadata, zone, companion, burst, camera or place.
    package init(
        id: Int64?, localIdentifier: String, mediaType: Int, mediaSubtypes: Int, pixelWidth: Int, pixelHeight: Int,
        creationDate: Date, modificationDate: Date, addedDate: Date, latitude: Double?, longitude: Double?, altitude: Double?,
        duration: Double, isFavorite: Bool, isHidden: Bool, trashedDate: Date?, originalFilename: String, contentHash: String,
        uniformTypeIdentifier: String, fileSize: Int, creatorClient: String?, renderHash: String? = nil,
        renderUniformTypeIdentifier: String? = nil, renderFileSize: Int? = nil, contentRevision: Int = 0,
        originalAssetIdentifier: String? = nil, userEditedFields: Int? = nil, timeZoneOffset: Int? = nil,
        timeZoneIdentifier: String? = nil, pairingIdentifier: String? = nil, companionType: String? = nil,
        companionHash: String? = nil, companionUniformTypeIdentifier: String? = nil, companionFilename: String? = nil,
        companionFileSize: Int? = nil, cameraMake: String? = nil, cameraModel: String? = nil,
        cameraSerialNumber: String? = nil, burstIdentifier: String? = nil, representsBurst: Bool = false,
        burstSelectionTypes: Int = 0, lensModel: String? = nil, searchText: String? = nil,
        placeName: String? = nil, placeCountry: String? = nil, continuousDrive: Bool? = nil, ownerID: Int64 = 1
    ) {
        self.id = id
        self.localIdentifier = localIdentifier
        self.mediaType = mediaType
        self.mediaSubtypes = mediaSubtypes
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.addedDate = addedDate
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.duration = duration
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.trashedDate = trashedDate
        self.originalFilename = originalFilename
        self.contentHash = contentHash
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.fileSize = fileSize
        self.creatorClient = creatorClient
        self.renderHash = renderHash
        self.renderUniformTypeIdentifier = renderUniformTypeIdentifier
        self.renderFileSize = renderFileSize
        self.contentRevision = contentRevision
        self.originalAssetIdentifier = originalAssetIdentifier
        self.userEditedFields = userEditedFields
        self.timeZoneOffset = timeZoneOffset
        self.timeZoneIdentifier = timeZoneIdentifier
        self.pairingIdentifier = pairingIdentifier
        self.companionType = companionType
        self.companionHash = companionHash
        self.companionUniformTypeIdentifier = companionUniformTypeIdentifier
        self.companionFilename = companionFilename
        self.companionFileSize = companionFileSize
        self.cameraMake = cameraMake
        self.cameraModel = cameraModel
        self.cameraSerialNumber = cameraSerialNumber
        self.burstIdentifier = burstIdentifier
        self.representsBurst = representsBurst
        self.burstSelectionTypes = burstSelectionTypes
        self.lensModel = lensModel
        self.searchText = searchText
        self.placeName = placeName
        self.placeCountry = placeCountry
        self.continuousDrive = continuousDrive
        self.ownerID = ownerID
    }

    /// When it was taken, with the zone it was taken in.
    package var captureTime: CaptureTime {
        get { CaptureTime(date: creationDate, timeZoneOffset: timeZoneOffset, timeZoneIdentifier: timeZoneIdentifier) }
        set {
            creationDate = newValue.date
            timeZoneOffset = newValue.timeZoneOffset
            timeZoneIdentifier = newValue.timeZoneIdentifier
        }
    }

    /// Sets the fields `update` carries; the others keep their values. A date or location the
    /// user sets is marked as theirs; what the file says (``AssetUpdate/fileMetadata``) replaces
    /// neither, and sizes only of an unedited asset (an edit's render has its own).
    package mutating func apply(_ update: AssetUpdate) {
        var edited = EditedFields(rawValue: userEditedFields ?? 0)
        var saved = savedFileValues
        if let value = update.isFavorite { isFavorite = value }
        if let value = update.isHidden { isHidden = value }
        if update.captureTime != nil || update.creationDate != nil, !edited.contains(.creationDate) { saved.keep(captureTime) }
        if let value = update.creationDate {
            // The user moves the time; the place's zone stays.
            captureTime = captureTime.moved(to: value)
            edited.insert(.creationDate)
        }
        if let value = update.captureTime {
            captureTime = value
            edited.insert(.creationDate)
        }
        if let value = update.trashedDate { trashedDate = value }
        if update.makesBurstKeyPhoto, burstIdentifier != nil { burstSelectionTypes |= Asset.BurstSelectionTypes.userPick.rawValue }
        if let value = update.location {
            if !edited.contains(.location) { saved.keep(currentLocation) }
            setLocation(value)
            edited.insert(.location)
        }
        if update.revertsFields.contains(.creationDate), edited.contains(.creationDate) {
            if saved.keepsDate, let time = saved.captureTime { captureTime = time }
            saved.keepsDate = false
            (saved.date, saved.timeZoneOffset, saved.timeZoneIdentifier) = (nil, nil, nil)
            edited.remove(.creationDate)
        }
        if update.revertsFields.contains(.location), edited.contains(.location) {
            if saved.keepsLocation { setLocation(saved.location) }
            saved.keepsLocation = false
            (saved.latitude, saved.longitude, saved.altitude) = (nil, nil, nil)
            edited.remove(.location)
        }
        if let details = update.details { apply(details) }
        if let file = update.fileMetadata {
            if renderHash == nil {
                pixelWidth = file.pixelWidth
                pixelHeight = file.pixelHeight
                duration = file.duration
            }
            mediaSubtypes = file.mediaSubtypes | companionSubtypes
            (cameraMake, cameraModel, cameraSerialNumber) = (file.camera?.make, file.camera?.model, file.camera?.serialNumber)
            continuousDrive = file.camera?.continuousDrive
            lensModel = file.lensModel
            // Apple's burst identifier is the camera's word; a run found by time stays as it is.
            if let burst = file.burstIdentifier { burstIdentifier = burst }
            // What the person set stays; the file's reading is what a revert brings back.
            if let time = file.captureTime {
                if edited.contains(.creationDate) { saved.keep(time) } else { captureTime = time }
            }
            if let location = file.location {
                if edited.contains(.location) { saved.keep(location) } else { setLocation(location) }
            }
        }
        userEditedFields = edited.isEmpty ? nil : edited.rawValue
        savedFileValues = saved
    }

    /// Where it was taken, as the row says now.
    var currentLocation: Asset.Location? {
        latitude.flatMap { latitude in longitude.map { Asset.Location(latitude: latitude, longitude: $0, altitude: altitude) } }
    }

    /// Sets what `details` gives, trimmed; an empty value clears its field, a rating is kept
    /// from 1 to 5 and keywords each once, in order.
    private mutating func apply(_ details: AssetUpdate.Details) {
        func cleaned(_ text: String) -> String? {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        if let value = details.title { title = cleaned(value) }
        if let value = details.caption { caption = cleaned(value) }
        if let value = details.label { label = cleaned(value) }
        if let value = details.rating { rating = value > 0 ? min(5, value) : nil }
        if let value = details.keywords {
            var seen: Set<String> = []
            // A keyword is one line: a line break inside one would split it in two.
            let kept = value.compactMap { cleaned($0.replacingOccurrences(of: "\n", with: " ")) }.filter { seen.insert($0).inserted }
            keywords = kept.isEmpty ? nil : kept.joined(separator: "\n")
        }
    }

    /// The subtypes the companion gives, which no file says: `.photoLive` for a paired video.
    var companionSubtypes: Int {
        companionType == AssetResource.ResourceType.pairedVideo.rawValue ? Asset.MediaSubtypes.photoLive.rawValue : 0
    }

    private mutating func setLocation(_ location: Asset.Location?) {
        latitude = location?.latitude
        longitude = location?.longitude
        altitude = location?.altitude
    }

    /// The asset this record describes.
    package var asset: Asset { Asset(record: self) }
}

extension Asset {
    /// The asset a catalog record describes.
    package init(record: AssetRecord) {
        self.init(
            rowID: record.id ?? 0, ownerRowID: record.ownerID, localIdentifier: record.localIdentifier,
            mediaType: Asset.MediaType(rawValue: record.mediaType) ?? .image,
            mediaSubtypes: Asset.MediaSubtypes(rawValue: record.mediaSubtypes),
            pixelWidth: record.pixelWidth, pixelHeight: record.pixelHeight,
            creationDate: record.creationDate, timeZoneOffset: record.timeZoneOffset, timeZoneIdentifier: record.timeZoneIdentifier,
            modificationDate: record.modificationDate, addedDate: record.addedDate,
            location: record.currentLocation,
            duration: record.duration, isFavorite: record.isFavorite, isHidden: record.isHidden, trashedDate: record.trashedDate,
            originalFilename: record.originalFilename, contentHash: record.contentHash, uniformTypeIdentifier: record.uniformTypeIdentifier,
            fileSize: record.fileSize, creatorClient: record.creatorClient,
            render: record.renderHash.map {
                Render(
                    hash: $0, uniformTypeIdentifier: record.renderUniformTypeIdentifier ?? record.uniformTypeIdentifier, fileSize: record.renderFileSize ?? 0)
            },
            companion: record.companionHash.flatMap { hash in
                record.companionType.flatMap(AssetResource.ResourceType.init(rawValue:)).map {
                    Companion(
                        type: $0, hash: hash, uniformTypeIdentifier: record.companionUniformTypeIdentifier ?? "package.data",
                        filename: record.companionFilename ?? hash, fileSize: record.companionFileSize ?? 0)
                }
            },
            burstIdentifier: record.burstIdentifier, representsBurst: record.representsBurst,
            burstSelectionTypes: BurstSelectionTypes(rawValue: record.burstSelectionTypes),
            contentRevision: record.contentRevision, originalAssetIdentifier: record.originalAssetIdentifier,
            title: record.title, caption: record.caption,
            keywords: record.keywords.map { $0.split(separator: "\n").map(String.init) } ?? [], rating: record.rating ?? 0, label: record.label,
            userSetFields: Asset.MetadataFields(rawValue: record.userEditedFields ?? 0))
    }
}
