import Foundation

extension AssetRecord {
    /// One column of the `asset` table and the field of the record it holds: how the field is
    /// bound into a statement and read back from a row.
    package struct Column: Sendable {
        /// The column's name, as the schemas spell it.
        package let name: String
        /// ``name`` lower-cased, as rows name their columns.
        let rowName: String
        /// The field's value as a statement binds it.
        let value: @Sendable (AssetRecord) -> SQLValue
        /// Sets the field from a row's value (a mismatch of types is a programmer error and traps).
        let read: @Sendable (SQLValue, inout AssetRecord) -> Void

        init<Value: SQLBindable & SQLReadable>(_ name: String, _ keyPath: WritableKeyPath<AssetRecord, Value>) {
            // A key path literal is immutable: sharing it between threads is safe.
            nonisolated(unsafe) let field = keyPath
            self.name = name
            rowName = name.lowercased()
            value = { $0[keyPath: field].sqlValue }
            read = { raw, record in
                guard let value = Value(sqlValue: raw) else {
                    preconditionFailure("the catalog column \(name) holds \(raw), which is not a \(Value.self)")
                }
                record[keyPath: field] = value
            }
        }
    }

    /// The `asset` table's columns after `id`: the one list that reads rows into records, writes
    /// records into rows (``insertStatement``, ``updateStatement``) and fills catalogs in bulk
    /// (``SQLCatalogStore/insertAssets(_:)``). A new column is a field of the record, an entry
    /// here, and a column in each engine's schema.
    package static let table: [Column] = [
        Column("localIdentifier", \.localIdentifier),
        Column("mediaType", \.mediaType),
        Column("mediaSubtypes", \.mediaSubtypes),
        Column("pixelWidth", \.pixelWidth),
        Column("pixelHeight", \.pixelHeight),
        Column("creationDate", \.creationDate),
        Column("modificationDate", \.modificationDate),
        Column("addedDate", \.addedDate),
        Column("latitude", \.latitude),
        Column("longitude", \.longitude),
        Column("altitude", \.altitude),
        Column("duration", \.duration),
        Column("isFavorite", \.isFavorite),
        Column("isHidden", \.isHidden),
        Column("trashedDate", \.trashedDate),
        Column("originalFilename", \.originalFilename),
        Column("contentHash", \.contentHash),
        Column("uniformTypeIdentifier", \.uniformTypeIdentifier),
        Column("fileSize", \.fileSize),
        Column("creatorClient", \.creatorClient),
        Column("renderHash", \.renderHash),
        Column("renderUniformTypeIdentifier", \.renderUniformTypeIdentifier),
        Column("renderFileSize", \.renderFileSize),
        Column("contentRevision", \.contentRevision),
        Column("originalAssetIdentifier", \.originalAssetIdentifier),
        Column("userEditedFields", \.userEditedFields),
        Column("timeZoneOffset", \.timeZoneOffset),
        Column("timeZoneIdentifier", \.timeZoneIdentifier),
        Column("pairingIdentifier", \.pairingIdentifier),
        Column("companionType", \.companionType),
        Column("companionHash", \.companionHash),
        Column("companionUniformTypeIdentifier", \.companionUniformTypeIdentifier),
        Column("companionFilename", \.companionFilename),
        Column("companionFileSize", \.companionFileSize),
        Column("cameraMake", \.cameraMake),
        Column("cameraModel", \.cameraModel),
        Column("cameraSerialNumber", \.cameraSerialNumber),
        Column("burstIdentifier", \.burstIdentifier),
        Column("representsBurst", \.representsBurst),
        Column("burstSelectionTypes", \.burstSelectionTypes),
        Column("lensModel", \.lensModel),
        Column("searchText", \.searchText),
        Column("placeName", \.placeName),
        Column("placeCountry", \.placeCountry),
        Column("continuousDrive", \.continuousDrive),
        Column("title", \.title),
        Column("caption", \.caption),
        Column("keywords", \.keywords),
        Column("rating", \.rating),
        Column("label", \.label),
        Column("fileValues", \.fileValues),
        Column("ownerID", \.ownerID),
    ]

    /// The names of ``table``'s columns, in order.
    package static let columns = table.map(\.name)

    /// The text of ``insertStatement``, made once.
    private static let insertText =
        "INSERT INTO asset (\(columns.joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ") RETURNING id"

    /// The text of ``updateStatement``, made once.
    private static let updateText = "UPDATE asset SET " + columns.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE id = ?"

    /// A record as a row of the `asset` table holds it. Columns the row lacks keep the blank
    /// record's values; a row that lists the table's columns in order is read without a search.
    init(row: SQLRow) {
        var record = AssetRecord.blank
        record.id = row["id"]
        let names = row.columns
        var next = names.firstIndex(of: Self.table[0].rowName) ?? names.count
        for column in Self.table {
            let index: Int
            if next < names.count, names[next] == column.rowName {
                index = next
            } else if let found = names.firstIndex(of: column.rowName) {
                index = found
            } else {
                continue
            }
            column.read(row.values[index], &record)
            next = index + 1
        }
        self = record
    }

    /// A record with every field empty, which ``init(row:)`` fills.
    static var blank: AssetRecord {
        AssetRecord(
            id: nil, localIdentifier: "", mediaType: 0, mediaSubtypes: 0, pixelWidth: 0, pixelHeight: 0,
            creationDate: Date(timeIntervalSince1970: 0), modificationDate: Date(timeIntervalSince1970: 0),
            addedDate: Date(timeIntervalSince1970: 0), latitude: nil, longitude: nil, altitude: nil, duration: 0, isFavorite: false,
            isHidden: false, trashedDate: nil, originalFilename: "", contentHash: "", uniformTypeIdentifier: "", fileSize: 0,
            creatorClient: nil)
    }

    /// The values of ``table``'s columns, in order.
    var values: [SQLValue] { Self.table.map { $0.value(self) } }

    /// `INSERT … RETURNING id`.
    var insertStatement: SQLStatement {
        SQLStatement(Self.insertText, arguments: values)
    }

    /// `UPDATE asset SET … WHERE id = ?`.
    var updateStatement: SQLStatement {
        SQLStatement(Self.updateText, arguments: values + [(id ?? 0).sqlValue])
    }
}
