internal import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ShoeboxImaging
import ShoeboxLibrary

/// A shared link's read-only gallery, for anyone with the link and nothing else:
/// `/s/TOKEN` (the page), `/s/TOKEN/data` (its photos by number), `/s/TOKEN/N/thumbnail`,
/// `/s/TOKEN/N/image`, `/s/TOKEN/N/video`, `/s/TOKEN/N/download` and `POST /s/TOKEN/unlock`.
/// Photos are known by their place in the link (0, 1, …), never by their identifiers; without
/// the link's metadata option they are served as new JPEGs without metadata (movies without
/// their place, their dates and their camera). An unknown, revoked or badly formed token is `404`; an expired one `410`; a
/// password not yet typed `401 passwordRequired`. Every look is logged for the user.
struct SharedLinkRoutes {
    let state: ServerState

    struct ItemJSON: Encodable {
        let index: Int
        let mediaType: String
        let pixelWidth: Int
        let pixelHeight: Int
        let duration: Double?
        /// When it was taken, with the link's metadata option only.
        let creationDate: Date?
    }

    struct GalleryJSON: Encodable {
        let title: String
        let count: Int
        let allowsDownload: Bool
        let expiresDate: Date?
        let items: [ItemJSON]
    }

    func register(on router: Router<ServerRequestContext>) {
        router.get("/s/:token") { request, context in
            do {
                _ = try await check(request, context, what: "page", needsPassword: false)
            } catch let error as APIError {
                // A person at a browser: a page that says so, not JSON.
                return Self.notice(
                    status: error.status, error.status == .gone ? "This shared link has expired." : "There is no shared link here. It may have been turned off."
                )
            }
            return try page()
        }
        router.get("/s/:token/data") { request, context in
            let (record, assets) = try await open(request, context, what: "list")
            return try JSONResponse.make(
                GalleryJSON(
                    title: record.title, count: assets.count, allowsDownload: record.allowsDownload,
                    expiresDate: record.expiresDate,
                    items: assets.enumerated().map { index, asset in
                        ItemJSON(
                            index: index, mediaType: asset.mediaType == .video ? "video" : "image", pixelWidth: asset.pixelWidth,
                            pixelHeight: asset.pixelHeight, duration: asset.mediaType == .video ? asset.duration : nil,
                            creationDate: record.includesMetadata ? asset.creationDate : nil)
                    }))
        }
        router.post("/s/:token/unlock") { request, context in
            let token = try context.parameters.require("token")
            guard let record = try await record(token) else { throw Self.missing }
            guard record.isOpenNow else { throw Self.expired }
            struct Body: Decodable { let password: String }
            let body = try await JSONResponse.decode(Body.self, from: request)
            guard record.password != nil else { return Response(status: .noContent) }
            // Guessing is slowed per address and per link, counted in the link's log (so on every server).
            let wait: Int?
            do { wait = try await state.library.sharedLinkPasswordWait(record, address: context.remoteAddress) } catch { throw APIError(error) }
            if let wait {
                context.logger.warning("shared link \(record.id): password attempts from \(context.remoteAddress) refused for now (too many wrong ones)")
                var refused = APIError(.tooManyRequests, "tooManyAttempts", "too many wrong passwords: try again in \(wait) seconds")
                refused.headers[.retryAfter] = "\(wait)"
                throw refused
            }
            guard PhotoLibrary.sharedLinkPasswordMatches(body.password, record: record) else {
                await state.library.logSharedLinkView(record, address: context.remoteAddress, what: SharedLink.View.wrongPassword)
                context.logger.notice("shared link \(record.id): a wrong password from \(context.remoteAddress)")
                throw APIError(.unauthorized, "wrongPassword", "that is not the link's password")
            }
            await state.library.logSharedLinkView(record, address: context.remoteAddress, what: "password")
            var headers = HTTPFields()
            headers[.setCookie] =
                "\(Self.cookieName(record))=\(PhotoLibrary.sharedLinkUnlockValue(record)); Path=/s/\(token); HttpOnly; SameSite=Strict\(state.cookieSecurity)"
            return Response(status: .noContent, headers: headers)
        }
        router.get("/s/:token/:index/thumbnail") { request, context in
            let (record, asset, index) = try await item(request, context, what: "thumbnail")
            return try await derivative(of: asset, side: 512, mode: .aspectFill, link: record, request: request, name: "\(index)")
        }
        router.get("/s/:token/:index/image") { request, context in
            let (record, asset, index) = try await item(request, context, what: "image")
            return try await derivative(of: asset, side: 2_048, mode: .aspectFit, link: record, request: request, name: "\(index)")
        }
        router.get("/s/:token/:index/video") { request, context in
            let (record, asset, _) = try await item(request, context, what: "video")
            guard asset.mediaType == .video else { throw APIError.notFound("item is not a movie") }
            let url: URL
            do {
                url = try await state.sharedLinks.run { try await state.everyonesImages.requestVideoURL(for: asset) }
            } catch let error as APIError {
                throw error
            } catch {
                throw APIError(error)
            }
            return try await stream(
                url, contentType: MediaRoutes.playbackMIMEType(of: url, asset: asset), stripping: !record.includesMetadata,
                downloadName: nil, request: request)
        }
        router.get("/s/:token/:index/download") { request, context in
            let (record, asset, index) = try await item(request, context, what: "download")
            guard record.allowsDownload else { throw APIError.forbidden("downloadNotAllowed", "this link does not allow downloads") }
            let stem = "\(record.title.replacingOccurrences(of: "/", with: "-")) \(index + 1)"
            if asset.mediaType == .video || record.includesMetadata {
                let url: URL
                do { url = try await state.library.fileURL(for: asset.currentResource) } catch { throw APIError(error) }
                let type = UTType(asset.currentResource.uniformTypeIdentifier)
                return try await stream(
                    url, contentType: type?.preferredMIMEType ?? "application/octet-stream", stripping: !record.includesMetadata,
                    downloadName: "\(stem).\(type?.preferredFilenameExtension ?? "bin")", request: request)
            }
            // A photo without its metadata: a new full-size JPEG.
            var response = try await derivative(
                of: asset, side: max(asset.pixelWidth, asset.pixelHeight, 1), mode: .aspectFit, link: record, request: request,
                name: "\(index)")
            response.headers[.contentDisposition] = "attachment; filename=\"\(stem.filter { $0 != "\"" }).jpg\""
            return response
        }
    }

    // MARK: Opening

    static let missing = APIError(.notFound, "notFound", "there is no shared link here (it may have been turned off)")
    static let expired = APIError(.gone, "expired", "this shared link has expired")

    func record(_ token: String) async throws -> SharedLinkRecord? {
        do { return try await state.library.sharedLinkRecord(forToken: token) } catch { throw APIError(error) }
    }

    static func cookieName(_ record: SharedLinkRecord) -> String { "shoebox_share_\(record.id)" }

    /// The link, checked (there, open, its password typed), and its photos now; logs `what`.
    func open(_ request: Request, _ context: ServerRequestContext, what: String) async throws -> (SharedLinkRecord, [Asset]) {
        let record = try await check(request, context, what: what)
        do { return (record, try await state.library.sharedLinkAssets(record)) } catch { throw APIError(error) }
    }

    /// The link, checked: there, open and (unless `needsPassword` is false) its password typed;
    /// logs `what`.
    func check(_ request: Request, _ context: ServerRequestContext, what: String, needsPassword: Bool = true) async throws -> SharedLinkRecord {
        let token = try context.parameters.require("token")
        guard let record = try await record(token) else { throw Self.missing }
        guard record.isOpenNow else { throw Self.expired }
        if needsPassword, record.password != nil {
            let name = Array((Self.cookieName(record) + "=").utf8)
            let value = Array(PhotoLibrary.sharedLinkUnlockValue(record).utf8)
            guard request.headers[values: .cookie].contains(where: { CallerMiddleware.cookieHeader($0, holds: name, value: value) }) else {
                throw APIError(.unauthorized, "passwordRequired", "this shared link asks for a password")
            }
        }
        // Downloads are logged each; any other look only when it starts a visit.
        if what.hasPrefix("download") {
            await state.library.logSharedLinkView(record, address: context.remoteAddress, what: what)
        } else if state.sharedLinks.startsVisit(link: record.id, address: context.remoteAddress) {
            await state.library.logSharedLinkView(record, address: context.remoteAddress, what: SharedLink.View.visit)
        }
        return record
    }

    /// The item at `:index` of the link.
    func item(_ request: Request, _ context: ServerRequestContext, what: String) async throws -> (SharedLinkRecord, Asset, Int) {
        let raw = try context.parameters.require("index")
        guard let index = Int(raw), index >= 0, String(index) == raw else { throw APIError.notFound("no item \(raw) in this link") }
        let record = try await check(request, context, what: "\(what) \(index)")
        let asset: Asset?
        do { asset = try await state.library.sharedLinkAsset(record, at: index) } catch { throw APIError(error) }
        guard let asset else { throw APIError.notFound("no item \(raw) in this link") }
        return (record, asset, index)
    }

    // MARK: Bytes

    /// A derivative JPEG (no metadata) of at most `side` pixels.
    func derivative(of asset: Asset, side: Int, mode: ImageContentMode, link: SharedLinkRecord, request: Request, name: String) async throws -> Response {
        let file: DerivativeFile
        do {
            // In the links' own render slots, never in front of the user's work.
            file = try await state.sharedLinks.run {
                try await state.everyonesImages.requestDerivativeFile(
                    for: asset, targetSize: PixelSize(width: min(side, 16_384), height: min(side, 16_384)),
                    contentMode: mode, options: ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact))
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(error)
        }
        let data: Data
        do {
            let url = file.url
            data = try await BlockingPool.shared.run { try Data(contentsOf: url) }
        } catch {
            throw APIError(.serviceUnavailable, "evicted", "the image was evicted while being sent: ask again")
        }
        // An entity tag that names this link's copy and nothing of the photo (not its hash).
        let entityTag = "\"\(Self.opaqueTag(file.entityTag, link: link))\""
        let headers: HTTPFields = [
            .contentType: UTType.mimeType(for: file.uniformTypeIdentifier), .contentLength: "\(data.count)",
            .cacheControl: "private, no-cache", .eTag: entityTag,
        ]
        if request.headers[.ifNoneMatch] == entityTag { return Response(status: .notModified, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A file streamed in pieces, its place taken out on the way when `stripping` (movies keep
    /// every other byte; no ranges, so the player starts from the beginning).
    func stream(_ url: URL, contentType: String, stripping: Bool, downloadName: String?, request: Request) async throws -> Response {
        var patches: [LocationRemoval.Patch] = []
        if stripping { patches = try await BlockingPool.shared.run { try LocationRemoval.patches(forFileAt: url, includingCaptureDetails: true) } }
        let size = await FileResponse.size(of: url) ?? 0
        var headers: HTTPFields = [.contentType: contentType, .contentLength: "\(size)", .cacheControl: "private, no-cache"]
        if let downloadName { headers[.contentDisposition] = "attachment; filename=\"\(downloadName.filter { $0 != "\"" && $0.isASCII })\"" }
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: MediaRoutes.patchedBody(url, patches: patches))
    }

    /// `tag` as a link shows it: a digest of the link's name and the tag, so two links' copies of
    /// one photo differ and neither says anything of the photo's bytes.
    static func opaqueTag(_ tag: String, link: SharedLinkRecord) -> String {
        let digest = SHA256.hash(data: Data((link.id + "\u{0}" + link.tokenHash + "\u{0}" + tag).utf8))
        return digest.prefix(12).map { String(format: "%02x", $0) }.joined()
    }

    /// The gallery page (a plain page; its script reads the token from the address).
    func page() throws -> Response {
        guard let html = WebAssets.shared.files["/shared.html"]?.text else { throw APIError.notFound("the gallery page is missing from this build") }
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        if let referrer = HTTPField.Name("Referrer-Policy") { headers[referrer] = "no-referrer" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func notice(status: HTTPResponse.Status, _ message: String) -> Response {
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Shared photos</title><link rel="stylesheet" href="/app/app.css"></head><body class="sign-in"><main><h1>Shared photos</h1>
            <p>\(WebAppRoutes.escapeHTML(message))</p></main></body></html>
            """
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

extension SharedLinkRecord {
    var isOpenNow: Bool { expiresDate.map { $0 > Date() } ?? true }
}
