import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import ShoeboxLibrary
import ShoeboxSupport

/// `POST /api/assets?filename=NAME[&album=ID]`: the body is the file. It is streamed into the
/// library's staging folder (size limit, optional `X-Content-SHA256` check; a killed server's
/// partial upload is removed by the next process to open the library) and imported as the
/// library imports anything: recognised by its content, probed, checked against the pixel limit,
/// stored once (identical bytes are reported as a duplicate; a trashed photo's bytes restore it).
///
/// `/api/uploads` does the same for a file sent in pieces that any server takes (see
/// ``PhotoLibrary/beginUpload(filename:size:album:)``).
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

    /// A resumable upload, as `/api/uploads/ID` answers it.
    struct UploadJSON: Encodable {
        let id: String
        let filename: String
        let size: Int
        /// Bytes received: where the next piece starts.
        let offset: Int
        /// `receiving` or `complete`.
        let state: String
        /// The asset, once complete.
        let localIdentifier: String?

        init(_ record: UploadRecord) {
            id = record.id
            filename = record.filename
            size = record.size
            offset = record.received
            state = record.state.rawValue
            localIdentifier = record.assetIdentifier
        }
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.post("assets") { request, context in
            let library = try state.handle(for: context.caller).library
            let parameters = request.uri.queryParameters
            let album = try await userAlbum(parameters.get("album"), in: library)
            // A declared length past the person's quota is refused before a byte is read.
            if let declared = request.headers[.contentLength].flatMap(Int64.init) {
                do { try await library.checkRoom(for: declared) } catch { throw APIError(error) }
            }
            let upload = try await UploadReceiver.receive(
                request, into: library, limit: state.configuration.uploadByteLimit,
                filename: parameters.get("filename"))
            let result = try await upload.pending.commit(adding(to: album))
            return try await imported(result.created[0], size: upload.size, sha256: upload.sha256, library: library, caller: context.caller)
        }
        api.post("assets/known") { request, context in
            try context.caller.requireUser("which files a library holds is for its person to ask, not for an app")
            let library = try state.handle(for: context.caller).library
            let body = try await JSONResponse.decode(RequestBody.KnownFiles.self, from: request)
            let known: KnownFiles
            do { known = try await library.knownFiles(contentHashes: body.sha256) } catch { throw APIError(error) }
            return try JSONResponse.make(["present": known.present.sorted(), "deleted": known.deleted.sorted()])
        }
        registerResumable(on: api)
    }

    /// Resumable uploads: `POST /api/uploads` announces a file, `PUT /api/uploads/ID?offset=N`
    /// sends the bytes from N (in one request or many), `GET` tells where an upload stands, on
    /// any server, and `DELETE` abandons it. The request that brings the last byte imports the
    /// file and answers as `POST /api/assets` does.
    private func registerResumable(on api: RouterGroup<ServerRequestContext>) {
        api.post("uploads") { request, context in
            let library = try state.handle(for: context.caller).library
            let body = try await JSONResponse.decode(RequestBody.UploadStart.self, from: request)
            guard body.size <= state.configuration.uploadByteLimit else {
                throw APIError(.contentTooLarge, "tooLarge", "the upload has \(body.size) bytes; at most \(state.configuration.uploadByteLimit) are accepted")
            }
            _ = try await userAlbum(body.album, in: library)
            let record = try await library.beginUpload(filename: UploadReceiver.sanitize(body.filename), size: body.size, album: body.album)
            return try JSONResponse.make(UploadJSON(record), status: .created)
        }
        api.get("uploads/:upload") { _, context in
            try JSONResponse.make(UploadJSON(try await ownedUpload(context).record))
        }
        api.delete("uploads/:upload") { _, context in
            let (record, library) = try await ownedUpload(context)
            try await library.cancelUpload(record.id)
            return Response(status: .noContent)
        }
        api.put("uploads/:upload") { request, context in
            var (record, library) = try await ownedUpload(context)
            guard let offset = request.uri.queryParameters.get("offset", as: Int.self) else {
                throw APIError.badRequest("say where the bytes start: ?offset=N (this upload is at \(record.received))")
            }
            if record.state == .receiving, !record.isWhole {
                guard offset == record.received else { throw Self.elsewhere(record) }
                _ = try UploadReceiver.expectedDigest(contentLength: request.headers[.contentLength], sha256: nil, limit: record.size - offset)
                guard let piece = try await library.beginUploadPiece(record.id, at: offset) else {
                    throw Self.elsewhere(try await library.upload(record.id) ?? record)
                }
                let appended = try await Self.receive(request.body, as: piece, of: library)
                guard appended.accepted else { throw Self.elsewhere(appended.record) }
                record = appended.record
                guard record.isWhole else { return try JSONResponse.make(UploadJSON(record)) }
            } else if offset != record.received {
                throw Self.elsewhere(record)
            }
            // Every byte is here (now, or before a server died while importing): import it.
            let album = try await userAlbum(record.album, in: library)
            let (_, creation) = try await library.finishUpload(record.id, changes: adding(to: album))
            return try await imported(creation, size: record.size, sha256: nil, library: library, caller: context.caller)
        }
    }

    /// Receives a piece's bytes where the upload keeps them (its file, or a staged piece) as
    /// they come, then records it.
    private static func receive(
        _ body: HummingbirdCore.RequestBody, as piece: UploadPieceWriter, of library: PhotoLibrary
    ) async throws -> (record: UploadRecord, accepted: Bool) {
        let write: @Sendable (UnsafeRawBufferPointer) throws(LibraryError) -> Void = { bytes throws(LibraryError) in try piece.write(bytes) }
        let hashing: @Sendable (UnsafeRawBufferPointer) -> Void = { bytes in piece.hash(bytes) }
        let hash = piece.hashes ? hashing : nil
        do {
            try await UploadReceiver.stream(body, limit: piece.limit, into: write, hash: hash)
            return try await library.finishUploadPiece(piece)
        } catch let error as LibraryError where error.code == .invalidArgument && piece.written == 0 {
            throw APIError(.badRequest, "emptyUpload", "the piece is empty: no bytes came")
        } catch {
            await BlockingPool.shared.run { piece.discard() }
            throw error
        }
    }

    /// `409 offsetMismatch`, with where the upload stands (also as `Upload-Offset`).
    static func elsewhere(_ record: UploadRecord) -> APIError {
        var error = APIError(
            .conflict, "offsetMismatch",
            record.state == .complete
                ? "the upload is complete: GET it for its asset"
                : "the upload is at byte \(record.received): send from there")
        error.headers[HTTPField.Name("Upload-Offset")!] = String(record.received)
        return error
    }

    private func ownedUpload(_ context: ServerRequestContext) async throws -> (record: UploadRecord, library: PhotoLibrary) {
        let library = try state.handle(for: context.caller).library
        let id = try context.parameters.requireDecoded("upload")
        guard let record = try await library.upload(id) else { throw APIError.notFound("no upload \(id)") }
        return (record, library)
    }

    /// The user album `id` names, checked before any byte is taken.
    private func userAlbum(_ id: String?, in library: PhotoLibrary) async throws -> AssetCollection? {
        guard let id else { return nil }
        guard let found = try await library.assetCollection(withLocalIdentifier: id), found.assetCollectionType == .album else {
            throw APIError.notFound("no user album \(id)")
        }
        return found
    }

    /// What an import's change adds besides the asset: the asset into `album`.
    private func adding(to album: AssetCollection?) -> (AssetChangeRequest) throws -> Void {
        { change in
            if let album, let placeholder = change.placeholderForCreatedAsset {
                AssetCollectionChangeRequest(for: album).addAssets([placeholder])
            }
        }
    }

    /// The answer to an upload that became an asset: `201`, or `200` for bytes already there.
    private func imported(_ created: ChangeResult.Creation, size: Int, sha256: String?, library: PhotoLibrary, caller: Caller) async throws -> Response {
        let asset = try? await library.fetchAssets(withLocalIdentifiers: [created.localIdentifier]).firstObject
        // The asset as the user sees it, when the caller's view lacks it.
        let stored = asset != nil ? asset : try? await state.library(for: caller).fetchAssets(withLocalIdentifiers: [created.localIdentifier]).firstObject
        // A client whose bytes were already a photo it neither may see nor made learns that
        // they are in the library, never which photo: no identifier, no asset. (An add-only
        // client sees nothing, but the photos it made are its own to name.)
        var hidden = false
        if let client = caller.clientIdentifier, created.isDuplicate, asset == nil {
            hidden = stored?.creatorClient != client
        }
        // Put together from pieces (no `sha256` of the body): the stored original's hash is the file's.
        let hash = sha256 ?? stored?.contentHash
        return try JSONResponse.make(
            Imported(
                localIdentifier: hidden ? nil : created.localIdentifier, isDuplicate: created.isDuplicate,
                isRestored: created.isRestored, size: size, sha256: hash ?? "", asset: asset.map(AssetJSON.init)),
            status: created.isDuplicate ? .ok : .created)
    }
}
