import Foundation

extension AssetRecord {
    /// The `asset` table's columns, in the order ``insertStatement`` binds them.
    static let columns = [
        "localIdentifier", "mediaType", "mediaSubtypes", "pixelWidth", "pixelHeight", "creationDate", "modificationDate",
        "addedDate", "latitude", "longitude", "altitude", "duration", "isFavorite", "isHidden", "trashedDate",
        "originalFilename", "contentHash", "uniformTypeIdentifier", "fileSize", "creatorClient", "renderHash",
        "renderUniformTypeIdentifier", "renderFileSize", "contentRevision", "originalAssetIdentifier", "userEditedFields",
        "timeZoneOffset", "timeZoneIdentifier", "pairingIdentifier", "companionType", "companionHash",
        "companionUniformTypeIdentifier", "companionFilename", "companionFileSize", "cameraMake", "cameraModel",
        "cameraSerialNumber", "burstIdentifier", "representsBurst", "burstSelectionTypes", "lensModel", "searchText",
        "placeName", "placeCountry", "continuousDrive",
    ]

    init(row: SQLRow) {
        self.init(
            id: row["id"], localIdentifier: row["localIdentifier"], mediaType: row["mediaType"], mediaSubtypes: row["mediaSubtypes"],
            pixelWidth: row["pixelWidth"], pixelHeight: row["pixelHeight"], creationDate: row["creationDate"],
            modificationDate: row["modificationDate"], addedDate: row["addedDate"], latitude: row["latitude"],
            longitude: row["longitude"], altitude: row["altitude"], duration: row["duration"], isFavorite: row["isFavorite"],
            isHidden: row["isHidden"], trashedDate: row["trashedDate"], originalFilename: row["originalFilename"],
            contentHash: row["contentHash"], uniformTypeIdentifier: row["uniformTypeIdentifier"], fileSize: row["fileSize"],
            creatorClient: row["creatorClient"], renderHash: row["renderHash"], renderUniformTypeIdentifier: row["renderUniformTypeIdentifier"],
            renderFileSize: row["renderFileSize"], contentRevision: row["contentRevision"],
            originalAssetIdentifier: row["originalAssetIdentifier"], userEditedFields: row["userEditedFields"],
            timeZoneOffset: row["timeZoneOffset"], timeZoneIdentifier: row["timeZoneIdentifier"],
            pairingIdentifier: row["pairingIdentifier"], companionType: row["companionType"], companionHash: row["companionHash"],
            companionUniformTypeIdentifier: row["companionUniformTypeIdentifier"], companionFilename: row["companionFilename"],
            companionFileSize: row["companionFileSize"], cameraMake: row["cameraMake"], cameraModel: row["cameraModel"],
            cameraSerialNumber: row["cameraSerialNumber"], burstIdentifier: row["burstIdentifier"],
            representsBurst: row["representsBurst"], burstSelectionTypes: row["burstSelectionTypes"], lensModel: row["lensModel"],
            searchText: row["searchText"], placeName: row["placeName"], placeCountry: row["placeCountry"],
            continuousDrive: row["continuousDrive"])
    }

    /// The values of ``columns``, in order.
    var values: [SQLValue] {
        [
            localIdentifier.sqlValue, mediaType.sqlValue, mediaSubtypes.sqlValue, pixelWidth.sqlValue, pixelHeight.sqlValue,
            creationDate.sqlValue, modificationDate.sqlValue, addedDate.sqlValue, latitude.sqlValue, longitude.sqlValue,
            altitude.sqlValue, duration.sqlValue, isFavorite.sqlValue, isHidden.sqlValue, trashedDate.sqlValue,
            originalFilename.sqlValue, contentHash.sqlValue, uniformTypeIdentifier.sqlValue, fileSize.sqlValue,
            creatorClient.sqlValue, renderHash.sqlValue, renderUniformTypeIdentifier.sqlValue, renderFileSize.sqlValue,
            contentRevision.sqlValue, originalAssetIdentifier.sqlValue, userEditedFields.sqlValue, timeZoneOffset.sqlValue,
            timeZoneIdentifier.sqlValue, pairingIdentifier.sqlValue, companionType.sqlValue, companionHash.sqlValue,
            companionUniformTypeIdentifier.sqlValue, companionFilename.sqlValue, companionFileSize.sqlValue, cameraMake.sqlValue,
            cameraModel.sqlValue, cameraSerialNumber.sqlValue, burstIdentifier.sqlValue, representsBurst.sqlValue,
            burstSelectionTypes.sqlValue, lensModel.sqlValue, searchText.sqlValue, placeName.sqlValue, placeCountry.sqlValue,
            continuousDrive.sqlValue,
        ]
    }

    /// `INSERT … RETURNING id`.
    var insertStatement: SQLStatement {
        SQLStatement(
            "INSERT INTO asset (\(Self.columns.joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: Self.columns.count).joined(separator: ", ") + ") RETURNING id",
            arguments: values)
    }

    /// `UPDATE asset SET … WHERE id = ?`.
    var updateStatement: SQLStatement {
        SQLStatement(
            "UPDATE asset SET " + Self.columns.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE id = ?",
            arguments: values + [(id ?? 0).sqlValue])
    }
}
