import Foundation
import HTTPTypes
import Hummingbird
import ShoeboxLibrary

extension AssetJSON {
    /// The asset written as `JSONEncoder` writes it (sorted keys, absent optionals left out).
    func encode(into json: inout JSONBytes) {
        json.beginObject()
        json.field("addedBy", addedBy)
        json.field("addedDate", addedDate)
        json.field("altitude", altitude)
        json.field("burstCount", burstCount)
        json.field("burstIdentifier", burstIdentifier)
        json.field("caption", caption)
        json.field("contentHash", contentHash)
        json.field("creationDate", creationDate)
        json.field("creatorClient", creatorClient)
        json.field("deletedBy", deletedBy)
        json.field("duration", duration)
        json.field("fileSize", fileSize)
        json.field("hasAdjustments", hasAdjustments)
        json.field("isFavorite", isFavorite)
        json.field("isHidden", isHidden)
        json.field("isTrashed", isTrashed)
        if let keywords { strings("keywords", keywords, into: &json) }
        json.field("label", label)
        json.field("latitude", latitude)
        json.field("library", library)
        json.field("localCreationDate", localCreationDate)
        json.field("localIdentifier", localIdentifier)
        json.field("longitude", longitude)
        strings("mediaSubtypes", mediaSubtypes, into: &json)
        json.field("mediaType", mediaType)
        json.field("modificationDate", modificationDate)
        json.field("originalAssetIdentifier", originalAssetIdentifier)
        json.field("originalFileCount", originalFileCount)
        json.field("originalFilename", originalFilename)
        json.field("pixelHeight", pixelHeight)
        json.field("pixelWidth", pixelWidth)
        json.field("place", place)
        json.field("rating", rating)
        json.field("representsBurst", representsBurst)
        json.field("sharedBy", sharedBy)
        json.field("thumbnailPending", thumbnailPending)
        json.field("timeZone", timeZone)
        json.field("timeZoneOffset", timeZoneOffset)
        json.field("title", title)
        json.field("trashedDate", trashedDate)
        json.field("uniformTypeIdentifier", uniformTypeIdentifier)
        if let userSet { strings("userSet", userSet, into: &json) }
        json.field("version", version)
        json.endObject()
    }

    private func strings(_ name: StaticString, _ values: [String], into json: inout JSONBytes) {
        json.key(name)
        json.beginArray()
        for value in values { json.string(value) }
        json.endArray()
    }

    /// `{"assets": [...], "next": ID?}`: a keyset page, written without `JSONEncoder`.
    static func pageResponse(_ assets: [AssetJSON], next: String?) -> Response {
        JSONResponse.make(bytes: pageBytes(assets, next: next))
    }

    /// `{"assets": [...], "count", "offset"}`: a fetch's page by index, written without `JSONEncoder`.
    static func fetchPageResponse(_ assets: [AssetJSON], offset: Int, count: Int) -> Response {
        JSONResponse.make(bytes: fetchPageBytes(assets, offset: offset, count: count))
    }

    /// The body of ``pageResponse(_:next:)``.
    static func pageBytes(_ assets: [AssetJSON], next: String?) -> [UInt8] {
        listBytes(assets) { $0.field("next", next) }
    }

    /// The body of ``fetchPageResponse(_:offset:count:)``.
    static func fetchPageBytes(_ assets: [AssetJSON], offset: Int, count: Int) -> [UInt8] {
        listBytes(assets) { json in
            json.field("count", count)
            json.field("offset", offset)
        }
    }

    /// `{"assets": [...], …}`, the keys after `assets` (in sorted order) written by `rest`.
    private static func listBytes(_ assets: [AssetJSON], rest: (inout JSONBytes) -> Void) -> [UInt8] {
        var json = JSONBytes(capacity: 700 * assets.count + 64)
        json.beginObject()
        json.key("assets")
        json.beginArray()
        for asset in assets { asset.encode(into: &json) }
        json.endArray()
        rest(&json)
        json.endObject()
        return json.bytes
    }
}

extension JSONBytes {
    mutating func field(_ name: StaticString, _ value: AssetJSON.Owner?) {
        guard let value else { return }
        key(name)
        value.encode(into: &self)
    }
}

extension AssetJSON.Owner {
    func encode(into json: inout JSONBytes) {
        json.beginObject()
        json.field("displayName", displayName)
        json.field("id", id)
        json.field("name", name)
        json.endObject()
    }
}
