import Foundation
import Hummingbird
import ShoeboxLibrary

/// `POST /api/assets?filename=NAME[&album=ID]`: the body is the file. It is streamed into the
/// library's staging folder (size limit, optional `X-Content-SHA256` check; a killed server's
/// partial upload is removed by the next process to open the library) and imported as the
/// library imports anything: recognised by its content, probed, checked against the pixel limit,
/// stored once (identical bytes are reported as a duplicate; a trashed photo's bytes restore it).
struct UploadRoutes {
    let state: ServerState

    struct Imported: Encodable {
        /// The asset's identifier; `nil` for a client whose bytes were a photo it may not see.
        let localIdentifier: String?
        let isDuplicate: Bool
        /// The bytes were a photo in Recently Deleted, which the upload restored.
        let isRestored: Bool
        let size: Int
        let sha256: String
        /// The asset, when the uploader may read it (add-only clients may not).
        let asset: AssetJSON?
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.post("assets") { request, context in
            let library = try state.handle(for: context.caller).library
            let parameters = request.uri.queryParameters
            var album: AssetCollection?
            if let id = parameters.get("album") {
                guard let found = try await library.assetCollection(withLocalIdentifier: id), found.assetCollectionType == .album else {
                    throw APIError.notFound("no user album \(id)")
                }
                album = found
            }
            let upload = try await UploadReceiver.receive(request, into: library, limit: state.configuration.uploadByteLimit,
                                                          filename: parameters.get("filename"))
            let result = try await upload.pending.commit { change in
                if let album, let placeholder = change.placeholderForCreatedAsset {
                    AssetCollectionChangeRequest(for: album).addAssets([placeholder])
                }
            }
            let created = result.created[0]
            let asset = try? await library.fetchAssets(withLocalIdentifiers: [created.localIdentifier]).firstObject
            // A client whose bytes were already a photo it neither may see nor made learns that
            // they are in the library, never which photo: no identifier, no asset. (An add-only
            // client sees nothing, but the photos it made are its own to name.)
            var hidden = false
            if let client = context.caller.clientIdentifier, created.isDuplicate, asset == nil {
                let existing = try? await state.library.fetchAssets(withLocalIdentifiers: [created.localIdentifier]).firstObject
                hidden = existing?.creatorClient != client
            }
            return try JSONResponse.make(Imported(localIdentifier: hidden ? nil : created.localIdentifier, isDuplicate: created.isDuplicate,
                                                  isRestored: created.isRestored, size: upload.size,
                                                  sha256: upload.sha256, asset: asset.map(AssetJSON.init)),
                                         status: created.isDuplicate ? .ok : .created)
        }
    }
}
