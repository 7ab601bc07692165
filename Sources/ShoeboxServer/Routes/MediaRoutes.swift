import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ShoeboxImaging
import ShoeboxLibrary

/// Pixels and files of assets: thumbnails of any size through the derivative cache, and the
/// original, the current version and a playable movie with byte ranges.
package struct MediaRoutes {
    let state: ServerState

    func register(on api: RouterGroup<ServerRequestContext>) {
        api.get("archive") { request, context in try await archive(request, context: context) }
        api.get("assets/:asset/thumbnail") { request, context in
            let id = try context.parameters.requireDecoded("asset")
            // The user's grid: a versioned URL already sent is answered from memory.
            if context.caller.isFirstAdmin, let cached = cachedThumbnail(request) { return cached }
            let handle = try state.handle(for: context.caller)
            let asset = try await handle.library.viewableAsset(withLocalIdentifier: id, action: "thumbnail")
            // A partner's photo renders from its owner's library (the caller's own caches hold only theirs).
            let images = handle.library.isSomeoneElses(asset) ? state.everyonesImages : handle.images
            return try await thumbnail(of: asset, images: images, request: request, context: context)
        }
        api.get("assets/:asset/original") { request, context in
            let library = try state.handle(for: context.caller).library
            let asset = try await library.viewableAsset(withLocalIdentifier: try context.parameters.requireDecoded("asset"), action: "original")
            return try await resource(asset.resources[0], of: library, request: request, context: context)
        }
        api.get("assets/:asset/render") { request, context in
            let library = try state.handle(for: context.caller).library
            let asset = try await library.viewableAsset(withLocalIdentifier: try context.parameters.requireDecoded("asset"), action: "render")
            return try await resource(asset.currentResource, of: library, request: request, context: context)
        }
        api.get("assets/:asset/resources/:type") { request, context in
            let library = try state.handle(for: context.caller).library
            let asset = try await library.viewableAsset(withLocalIdentifier: try context.parameters.requireDecoded("asset"), action: "resource")
            let type = try context.parameters.require("type")
            guard let resource = asset.resources.first(where: { $0.type.rawValue == type }) else {
                throw APIError.notFound(
                    "\(asset.localIdentifier) has no \(type) resource (it has \(asset.resources.map(\.type.rawValue).joined(separator: ", ")))")
            }
            return try await self.resource(resource, of: library, request: request, context: context)
        }
        api.get("assets/:asset/video") { request, context in
            let own = try state.handle(for: context.caller)
            let id = try context.parameters.requireDecoded("asset")
            var found = try await own.library.fetchAssets(withLocalIdentifiers: [id]).firstObject
            if found == nil { found = try await own.library.partnerAsset(withLocalIdentifier: id) }
            guard let asset = found else { throw APIError.notFound("no asset \(id)") }
            // A partner's movie plays from its owner's library.
            let handle = own.library.isSomeoneElses(asset) ? state.everyonesHandle : own
            if try Self.version(request.uri.queryParameters) == .original {
                // An editor's source: the original movie, playable (a rendition where browsers cannot play it as it is).
                let url = try await handle.images.requestVideoURL(for: asset, version: .original)
                let type = UTType(filenameExtension: url.pathExtension) ?? UTType(asset.uniformTypeIdentifier)
                return try await FileResponse.make(
                    url, contentType: type?.preferredMIMEType ?? "video/mp4",
                    entityTag: asset.contentHash + "-play-original", immutable: true,
                    request: request, context: context, fileIO: state.fileIO)
            }
            if state.redirectsToObjectStorage, let direct = try await handle.images.requestVideoDirectURL(for: asset) {
                return redirect(to: direct, library: handle.library)
            }
            if state.proxiesObjectStorage, asset.mediaType == .video, try await handle.images.playsInBrowsersAsIs(asset) {
                return try await proxy(
                    asset.currentResource, of: handle.library, entityTag: AssetJSON.version(of: asset) + "-play",
                    downloadName: nil, request: request)
            }
            let url = try await handle.images.requestVideoURL(for: asset)
            return try await FileResponse.make(
                url, contentType: Self.playbackMIMEType(of: url, asset: asset), entityTag: AssetJSON.version(of: asset) + "-play", immutable: true,
                request: request, context: context, fileIO: state.fileIO)
        }
    }

    /// `GET /api/archive`: a ZIP of assets' files, streamed as it is made (``PhotoLibrary/archive(of:options:)``).
    /// The assets: `assets=ID,ID,…`, or `fetch=ID` (a fetch of the caller's, as the grid's Select
    /// All) with `except=ID,…`; `files=current|originals`, `location=keep|strip`, `name=` the
    /// archive's file name (without `.zip`). The caller's grant decides what it may archive.
    func archive(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let library = try state.handle(for: context.caller).library
        func list(_ name: String) -> [String] {
            (query.get(name) ?? "").split(separator: ",").map { String($0).removingPercentEncoding ?? String($0) }.filter { !$0.isEmpty }
        }
        var assets: [Asset]
        if let fetch = query.get("fetch") {
            guard query.get("assets") == nil else { throw APIError.badRequest("name the assets or a fetch, not both") }
            guard let snapshot = state.fetches.snapshot(fetch, owner: context.caller.owner) else {
                throw APIError.notFound("no fetch \(fetch) (fetches expire: make a new one)")
            }
            // The snapshot's assets as the caller may read them now (a grant can shrink after
            // the fetch was made), in the snapshot's order.
            let except = Set(list("except"))
            let wanted = try await snapshot.result.allObjects().map(\.localIdentifier).filter { !except.contains($0) }
            let readable = try await library.fetchAssets(withLocalIdentifiers: wanted).allObjects()
            let byID = Dictionary(readable.map { ($0.localIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
            assets = wanted.compactMap { byID[$0] }
        } else {
            // Each asset once, in the order first named.
            var seen = Set<String>()
            let named = list("assets").filter { seen.insert($0).inserted }
            guard !named.isEmpty, named.count <= 10_000 else { throw APIError.badRequest("name 1 to 10,000 assets (assets=ID,ID,…) or a fetch") }
            let found = try await library.fetchAssets(withLocalIdentifiers: named).allObjects()
            let byID = Dictionary(found.map { ($0.localIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
            assets = named.compactMap { byID[$0] }
            guard assets.count == named.count else {
                let missing = named.filter { byID[$0] == nil }
                throw APIError.notFound(
                    "\(missing.count) of the \(named.count) assets named \(missing.count == 1 ? "is" : "are") not in the library: \(missing.prefix(3).joined(separator: ", "))\(missing.count > 3 ? ", …" : "")"
                )
            }
        }
        guard !assets.isEmpty else { throw APIError.badRequest("the archive would be empty") }
        let files: PhotoLibrary.ArchiveOptions.Files
        switch query.get("files") ?? "current" {
        case "current": files = .current
        case "originals": files = .originals
        default: throw APIError.badRequest("files is current or originals")
        }
        let includesLocation: Bool
        switch query.get("location") ?? "keep" {
        case "keep": includesLocation = true
        case "strip": includesLocation = false
        default: throw APIError.badRequest("location is keep or strip")
        }
        let includesSidecars: Bool
        switch query.get("sidecars") ?? "none" {
        case "none": includesSidecars = false
        case "xmp": includesSidecars = true
        default: throw APIError.badRequest("sidecars is none or xmp")
        }
        let name = Self.archiveName(query.get("name"), count: assets.count)
        let pieces = library.archive(of: assets, options: .init(files: files, includesLocation: includesLocation, includesSidecars: includesSidecars))
        let body = ResponseBody { writer in
            for try await piece in pieces {
                try await writer.write(ByteBuffer(bytes: piece))
            }
            try await writer.finish(nil)
        }
        let ascii = String(name.unicodeScalars.filter { $0.isASCII && $0 != "\"" && $0 != "\\" && $0.value >= 0x20 }.map(Character.init))
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "Shoebox"
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/zip",
                .contentDisposition: "attachment; filename=\"\(ascii.isEmpty ? "Shoebox" : ascii).zip\"; filename*=UTF-8''\(encoded).zip",
                .cacheControl: "no-store",
            ], body: body)
    }

    /// The archive's name: the one asked for (one line, at most 100 characters), else
    /// "Shoebox, N items".
    static func archiveName(_ asked: String?, count: Int) -> String {
        let cleaned = (asked ?? "").unicodeScalars.filter { $0.value >= 0x20 && $0 != "/" && $0.value != 0x7F }.map(Character.init)
        let name = String(String(cleaned).trimmingCharacters(in: .whitespaces).prefix(100))
        return name.isEmpty ? "Shoebox, \(count) \(count == 1 ? "item" : "items")" : name
    }

    /// One of an asset's files: a redirect to object storage, the bytes streamed from there, or
    /// the file.
    func resource(_ resource: AssetResource, of library: PhotoLibrary, request: Request, context: ServerRequestContext) async throws -> Response {
        let downloadName = request.uri.queryParameters.get("download") == nil ? nil : resource.deliveredFilename
        switch request.uri.queryParameters.get("location") {
        case nil, "keep": break
        case "strip": return try await withoutLocation(resource, of: library, downloadName: downloadName, request: request)
        default: throw APIError.badRequest("location is keep or strip")
        }
        if state.redirectsToObjectStorage, let direct = library.directURL(for: resource, downloadName: downloadName) {
            return redirect(to: direct, library: library)
        }
        if state.proxiesObjectStorage {
            return try await proxy(resource, of: library, entityTag: resource.contentHash, downloadName: downloadName, request: request)
        }
        return try await FileResponse.make(
            library.fileURL(for: resource), contentType: UTType.mimeType(for: resource.uniformTypeIdentifier),
            entityTag: resource.contentHash, immutable: true, request: request, context: context,
            fileIO: state.fileIO, downloadName: downloadName)
    }

    /// A resource's bytes with the place it was made taken out (`LocationRemoval`: the same
    /// length, every other byte as stored), streamed from the file a mebibyte at a time.
    func withoutLocation(_ resource: AssetResource, of library: PhotoLibrary, downloadName: String?, request: Request) async throws -> Response {
        let url = try await library.fileURL(for: resource)
        let patches = try await BlockingPool.shared.run { try LocationRemoval.patches(forFileAt: url) }
        var headers = FileResponse.headers(
            contentType: UTType.mimeType(for: resource.uniformTypeIdentifier), entityTag: resource.contentHash + "-noplace",
            immutable: true, downloadName: downloadName)
        headers[.contentLength] = "\(resource.fileSize)"
        headers[.acceptRanges] = nil
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: Self.patchedBody(url, patches: patches))
    }

    /// The file at `url` read a megabyte at a time off the event loop, with `patches` written over
    /// it on the way (none: as it is).
    static func patchedBody(_ url: URL, patches: [LocationRemoval.Patch]) -> ResponseBody {
        ResponseBody { writer in
            let handle = try await BlockingPool.shared.run { try FileHandle(forReadingFrom: url) }
            defer { try? handle.close() }
            var offset = 0
            while true {
                let chunk = try await BlockingPool.shared.run { try handle.read(upToCount: 1 << 20) ?? Data() }
                if chunk.isEmpty { break }
                let piece = PhotoLibrary.Archive.Iterator.patched(chunk, at: offset, with: patches)
                offset += piece.count
                try await writer.write(ByteBuffer(bytes: piece))
            }
            try await writer.finish(nil)
        }
    }

    /// `302 Found` to a presigned URL, kept by the browser until a minute before it expires.
    func redirect(to url: URL, library: PhotoLibrary) -> Response {
        let maxAge = max(0, Int(library.directURLsExpire.timeIntervalSinceNow) - 60)
        return Response(status: .found, headers: [.location: url.absoluteString, .cacheControl: "private, max-age=\(maxAge)", .contentLength: "0"])
    }

    /// A resource's bytes streamed from object storage through the server, with entity tags and
    /// one byte range (as ``FileResponse``).
    func proxy(_ resource: AssetResource, of library: PhotoLibrary, entityTag: String, downloadName: String?, request: Request) async throws -> Response {
        let size = resource.fileSize
        var headers = FileResponse.headers(
            contentType: UTType.mimeType(for: resource.uniformTypeIdentifier), entityTag: entityTag, immutable: true,
            downloadName: downloadName)
        let tag = headers[.eTag] ?? ""
        if let match = request.headers[.ifNoneMatch], match == tag || match == "*" {
            return Response(status: .notModified, headers: headers)
        }
        var range: ClosedRange<Int>?
        if let header = request.headers[.range], request.headers[.ifRange].map({ $0 == tag }) ?? true {
            guard let bounds = FileResponse.parseRange(header, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                throw APIError(.rangeNotSatisfiable, "rangeNotSatisfiable", "the range \(header) is outside the file's \(size) bytes")
                    .with(headers: headers)
            }
            range = bounds
            headers[.contentRange] = "bytes \(bounds.lowerBound)-\(bounds.upperBound)/\(size)"
        }
        let status: HTTPResponse.Status = range == nil ? .ok : .partialContent
        headers[.contentLength] = "\(range?.count ?? size)"
        if request.method == .head || size == 0 { return Response(status: status, headers: headers) }
        guard let stream = try await library.stream(resource, range: range) else {
            throw APIError(.internalServerError, "noObjectStorage", "the library's bytes are not in object storage")
        }
        return Response(status: status, headers: headers, body: ResponseBody(asyncSequence: stream))
    }

    /// The memory cache's answer for the user (HEAD, and GETs ``ThumbnailFastPath`` passed on).
    func cachedThumbnail(_ request: Request) -> Response? {
        guard let entry = state.thumbnails.entry(request.uri.string) else { return nil }
        if let location = entry.location {
            return Response(status: .found, headers: [.location: location, .cacheControl: "private, max-age=\(entry.redirectMaxAge)", .contentLength: "0"])
        }
        if request.headers[.ifNoneMatch] == entry.entityTag {
            return Response(status: .notModified, headers: [.eTag: entry.entityTag])
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: entry.contentType, .eTag: entry.entityTag, .contentLength: "\(entry.bytes.readableBytes)",
                .cacheControl: "private, max-age=31536000, immutable",
            ], body: .init(byteBuffer: entry.bytes))
    }

    /// `?size=256` or `?size=320x240`, `mode=fill|fit` (fill by default: each side at least the
    /// size), `crop=x,y,w,h` in unit coordinates (an exact crop), `version=current|original` (the
    /// edit's render, or the original without it), `v=VERSION` (cache for a year).
    /// A derivative of `asset` as `?size=`, `?mode=`, `?crop=` and `?version=` ask; `caches`: kept
    /// in the first admin's memory cache when the URL is versioned (not for a shared album's,
    /// whose access can end while the URL stays the same).
    func thumbnail(
        of asset: Asset, images: ImageManager, request: Request, context: ServerRequestContext, caches: Bool = true,
        parameters asked: Parameters? = nil
    ) async throws -> Response {
        let parameters = asked ?? request.uri.queryParameters
        let size = try Self.parseSize(parameters.get("size") ?? "256")
        let mode: ImageContentMode
        switch parameters.get("mode") ?? "fill" {
        case "fill": mode = .aspectFill
        case "fit": mode = .aspectFit
        case let other: throw APIError.badRequest("mode must be fill or fit, not \(other)")
        }
        // Exact: the size asked for, rendered once and then served from the derivative cache.
        var options = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
        options.version = try Self.version(parameters)  // .original: an editor's source, the original without its edit
        if let crop = parameters.get("crop") {
            let values = crop.split(separator: ",").compactMap { Double($0) }
            guard values.count == 4 else { throw APIError.badRequest("crop must be x,y,width,height in 0…1") }
            options.resizeMode = .exact
            options.normalizedCropRect = NormalizedRect(x: values[0], y: values[1], width: values[2], height: values[3])
        }
        let file = try await images.requestDerivativeFile(for: asset, targetSize: size, contentMode: mode, options: options)
        let tag = "\"\(file.entityTag)\""
        let version = AssetJSON.version(of: asset)
        let immutable = parameters.get("v") == version
        if state.redirectsToObjectStorage, let direct = await images.directURL(for: file) {
            let response = redirect(to: direct, library: images.library)
            if immutable, caches, context.caller.isFirstAdmin {
                state.thumbnails.insert(
                    .init(
                        bytes: ByteBuffer(), entityTag: tag, contentType: UTType.mimeType(for: file.uniformTypeIdentifier),
                        location: direct.absoluteString, renewal: images.library.directURLsRenewal,
                        expiry: images.library.directURLsExpire), for: request.uri.string)
            }
            return response
        }
        var headers: HTTPFields = [.eTag: tag, .cacheControl: immutable ? "private, max-age=31536000, immutable" : "private, no-cache"]
        if request.headers[.ifNoneMatch] == tag { return Response(status: .notModified, headers: headers) }
        // Read at once (the cache may evict the file later, and thumbnails are small), on a dispatch
        // thread: a miss reads a file the page cache may not hold.
        let data: Data
        do {
            let url = file.url
            data = try await BlockingPool.shared.run { try Data(contentsOf: url) }
        } catch {
            throw APIError(.serviceUnavailable, "evicted", "the thumbnail was evicted while being sent: ask again")
        }
        let contentType = UTType.mimeType(for: file.uniformTypeIdentifier)
        headers[.contentType] = contentType
        headers[.contentLength] = "\(data.count)"
        let bytes = ByteBuffer(bytes: data)
        // Kept by the request's target as sent: a URL with this version always names these pixels,
        // and the same target always routes here to this asset (another spelling of it only misses).
        // The memory cache (and the fast path that reads it) is the first admin's: a URL another
        // person's request put there would be answered to them.
        if immutable, caches, context.caller.isFirstAdmin {
            state.thumbnails.insert(.init(bytes: bytes, entityTag: tag, contentType: contentType), for: request.uri.string)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }

    /// `?version=current` (the default: with the edit) or `original` (without it), as the
    /// thumbnail and video routes take it.
    static func version(_ parameters: Parameters) throws(APIError) -> ImageRequestOptions.Version {
        switch parameters.get("version") ?? "current" {
        case "current": .current
        case "original": .original
        case let other: throw APIError.badRequest("version must be current or original, not \(other)")
        }
    }

    /// The largest side a thumbnail may ask for.
    package static let maximumThumbnailSide = 4_096

    package static func parseSize(_ text: String) throws(APIError) -> PixelSize {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        let size: PixelSize
        switch parts.count {
        case 1: size = PixelSize(width: parts[0], height: parts[0])
        case 2: size = PixelSize(width: parts[0], height: parts[1])
        default: throw .badRequest("size must be N or WxH, not \(text)")
        }
        guard size.isPositive, size.width <= maximumThumbnailSide, size.height <= maximumThumbnailSide else {
            throw .badRequest("size must be 1…\(maximumThumbnailSide) on each side, not \(text)")
        }
        return size
    }

    /// The MIME type of the file ``ImageManager/requestVideoURL(for:)`` gave for `asset`: the
    /// rendition is named `….mp4`; the movie itself is a blob named by its hash, of the current
    /// version's type.
    static func playbackMIMEType(of url: URL, asset: Asset) -> String {
        let type = UTType(filenameExtension: url.pathExtension) ?? UTType(asset.currentResource.uniformTypeIdentifier)
        return type?.preferredMIMEType ?? "video/mp4"
    }
}
