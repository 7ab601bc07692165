import Foundation
import Hummingbird
import ShoeboxImaging
import ShoeboxLibrary

/// Editing: `GET /api/assets/ID/adjustments` (the edit to continue, for anyone who reads the
/// asset), `PUT` (render and commit a new edit) and `DELETE` (Revert to Original) — the last two
/// for the user only: clients edit through the picker or the Swift library, where the
/// creating-client rule applies.
struct EditRoutes {
    let state: ServerState

    /// What an editor starts from.
    struct EditState: Encodable {
        /// The edit in Shoebox's format to continue, or `null` (unedited, or edited in another
        /// app's format: a new edit starts from the original and replaces it).
        let adjustments: Adjustments?
        /// The stored edit's format, when there is one.
        let formatIdentifier: String?
        let formatVersion: String?
        /// The original's upright size (the crop's unit square is of this, turned and straightened).
        let originalWidth: Int
        let originalHeight: Int
        /// A movie's original length in seconds (the trim's range).
        let originalDuration: Double
        /// Every filter an editor may offer, in order, with its title.
        let filters: [FilterJSON]

        enum CodingKeys: String, CodingKey {
            case adjustments, formatIdentifier, formatVersion, originalWidth, originalHeight, originalDuration, filters
        }

        // `adjustments` is always there, `null` when there is nothing to continue.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let adjustments { try container.encode(adjustments, forKey: .adjustments) } else { try container.encodeNil(forKey: .adjustments) }
            try container.encodeIfPresent(formatIdentifier, forKey: .formatIdentifier)
            try container.encodeIfPresent(formatVersion, forKey: .formatVersion)
            try container.encode(originalWidth, forKey: .originalWidth)
            try container.encode(originalHeight, forKey: .originalHeight)
            try container.encode(originalDuration, forKey: .originalDuration)
            try container.encode(filters, forKey: .filters)
        }
    }

    struct FilterJSON: Encodable {
        let name: String
        let title: String
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.get("assets/:asset/adjustments") { _, context in
            let library = try state.handle(for: context.caller).library
            let asset = try await library.readableAsset(withLocalIdentifier: try context.parameters.requireDecoded("asset"), action: "adjustments")
            let edit: ContentEdit?
            do { edit = try await library.contentEdit(for: asset) } catch { throw APIError(error) }
            let data = edit?.adjustmentData
            let adjustments = data.flatMap { Adjustments.canHandle($0) ? try? Adjustments($0) : nil }
            // An unedited asset's size is its original's.
            var original = (width: asset.pixelWidth, height: asset.pixelHeight, duration: asset.duration)
            if let edit, edit.originalPixelWidth > 0 {
                original = (edit.originalPixelWidth, edit.originalPixelHeight, edit.originalDuration)
            }
            return try JSONResponse.make(
                EditState(
                    adjustments: adjustments, formatIdentifier: data?.formatIdentifier, formatVersion: data?.formatVersion,
                    originalWidth: original.width, originalHeight: original.height, originalDuration: original.duration,
                    filters: Adjustments.Filter.allCases.map { FilterJSON(name: $0.rawValue, title: $0.title) }))
        }
        api.put("assets/:asset/adjustments") { request, context in
            try context.caller.requireUser("only the user edits in the web app; clients edit through the picker or the library")
            let library = try state.handle(for: context.caller).library
            let asset = try await library.readableAsset(withLocalIdentifier: try context.parameters.requireDecoded("asset"), action: "edit")
            let adjustments = try await JSONResponse.decode(Adjustments.self, from: request, limit: 64 << 10)
            let asCopy = try FetchQuery.bool(request.uri.queryParameters, "asCopy") ?? false
            let result: Asset
            do {
                result =
                    asCopy
                    ? try await library.saveModifiedVersion(of: asset, applying: adjustments)
                    : try await library.applyAdjustments(adjustments, to: asset)
            } catch {
                throw APIError(error)
            }
            return try await JSONResponse.make(await AssetJSON.one(result, in: library), status: asCopy ? .created : .ok)
        }
        api.delete("assets/:asset/adjustments") { _, context in
            try context.caller.requireUser("only the user reverts edits in the web app")
            let library = try state.handle(for: context.caller).library
            let asset = try await library.readableAsset(withLocalIdentifier: try context.parameters.requireDecoded("asset"), action: "revert")
            let result: Asset
            do { result = try await library.revertAssetContentToOriginal(asset) } catch { throw APIError(error) }
            return try await JSONResponse.make(await AssetJSON.one(result, in: library))
        }
    }
}
