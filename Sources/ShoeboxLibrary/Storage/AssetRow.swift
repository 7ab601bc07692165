import Foundation
import GRDB

/// The `asset` table's row.
struct AssetRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "asset"

    var id: Int64?
    var localIdentifier: String
    var mediaType: Int
    var mediaSubtypes: Int
    var pixelWidth: Int
    var pixelHeight: Int
    var creationDate: Date
    var modificationDate: Date
    var addedDate: Date
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var duration: Double
    var isFavorite: Bool
    var isHidden: Bool
    var trashedDate: Date?
    var originalFilename: String
    var contentHash: String
    var uniformTypeIdentifier: String
    var fileSize: Int
    var creatorClient: String?
    var renderHash: String? = nil
    var renderUniformTypeIdentifier: String? = nil
    var renderFileSize: Int? = nil
    var contentRevision: Int = 0
    var originalAssetIdentifier: String? = nil

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// Sets the fields `update` carries; the others keep their values.
    mutating func apply(_ update: AssetUpdate) {
        if let value = update.isFavorite { isFavorite = value }
        if let value = update.isHidden { isHidden = value }
        if let value = update.creationDate { creationDate = value }
        if let value = update.trashedDate { trashedDate = value }
        if let value = update.location {
            latitude = value?.latitude
            longitude = value?.longitude
            altitude = value?.altitude
        }
    }

    var asset: Asset {
        Asset(
            rowID: id ?? 0, localIdentifier: localIdentifier,
            mediaType: Asset.MediaType(rawValue: mediaType) ?? .image,
            mediaSubtypes: Asset.MediaSubtypes(rawValue: mediaSubtypes),
            pixelWidth: pixelWidth, pixelHeight: pixelHeight,
            creationDate: creationDate, modificationDate: modificationDate, addedDate: addedDate,
            location: latitude.flatMap { lat in longitude.map { Asset.Location(latitude: lat, longitude: $0, altitude: altitude) } },
            duration: duration, isFavorite: isFavorite, isHidden: isHidden, trashedDate: trashedDate,
            originalFilename: originalFilename, contentHash: contentHash, uniformTypeIdentifier: uniformTypeIdentifier,
            fileSize: fileSize, creatorClient: creatorClient,
            render: renderHash.map { Asset.Render(hash: $0, uniformTypeIdentifier: renderUniformTypeIdentifier ?? uniformTypeIdentifier, fileSize: renderFileSize ?? 0) },
            contentRevision: contentRevision, originalAssetIdentifier: originalAssetIdentifier)
    }
}
