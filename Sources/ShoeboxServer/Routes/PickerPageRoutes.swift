import Foundation
import HTTPTypes
import Hummingbird
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxPicker
import Synchronization

/// The picker page's own API, `/api/picker/sessions/ID/ui/…`, for the user only: it shows only
/// what the session allows (its media types and filter) and changes only the session.
struct PickerPageRoutes {
    let server: PhotoLibraryServer
    var state: ServerState { server.state }

    struct StateJSON: Encodable {
        let id: String
        let request: PickerRequest
        let clientName: String?
        let selection: [String]
        /// The selected library assets, by identifier.
        let assets: [String: AssetJSON]
        /// This session's captures, by id.
        let captures: [String: CapturedMedia]
        let edits: [String: PickerEdit]
        let reviewing: CapturedMedia?
        let isRecording: Bool
        let cameraSource: String?
        let cameraDevice: String
        let captureMode: String
        let flashMode: String
        let hasFlash: Bool
        /// A capture device's zoom (`factor`, `minimum`, `maximum`); the browser zooms its own camera.
        let zoom: Zoom?
        /// A capture device's exposure bias (`bias`, `minimum`, `maximum`, in EV).
        let exposure: Exposure?
        /// The cameras the picker may switch between: `front` / `rear` with what they are.
        let cameras: [CameraJSON]
        let finished: String?
        let album: String?
        let sizeLabel: String?
    }

    struct Zoom: Encodable {
        let factor: Double
        let minimum: Double
        let maximum: Double
    }

    struct Exposure: Encodable {
        let bias: Float
        let minimum: Float
        let maximum: Float
    }

    struct CameraJSON: Encodable {
        /// `front` or `rear`, the picker's name for it.
        let device: String
        let label: String
        let hasFlash: Bool
    }

    /// The cameras a session may switch between: the machine's capture devices, or the browser's.
    /// (Discovering the machine's devices may wait on PulseAudio: on the blocking pool, when the
    /// last listing is out of date.)
    func cameras(for session: PickerSession) async -> [CameraJSON] {
        switch session.cameraSource {
        case .captureDevice?:
            let devices = await PickerAvailability.captureDevices()
            return [ImagePickerController.CameraDevice.rear, .front].compactMap { position in
                devices[position].map { CameraJSON(device: position.rawValue, label: $0.localizedName, hasFlash: $0.hasFlash) }
            }
        case .presenter?:
            let report = await state.knownBrowserCameras(for: PickerRegistry.personID(of: session))
            let offered = BrowserCameras.offered(by: report)
            return [ImagePickerController.CameraDevice.rear, .front].compactMap { position in
                offered[position].map { camera in
                    let label = report?.cameras.first { $0.position == position }?.label
                    return CameraJSON(device: position.rawValue, label: label ?? "\(position.rawValue.capitalized) camera", hasFlash: camera.hasFlash)
                }
            }
        case .automatic?, nil:
            return []  // a session's source is always resolved to one of the two
        }
    }

    func stateJSON(_ session: PickerSession) async -> StateJSON {
        let selection = session.selection
        var assets: [String: AssetJSON] = [:]
        var captures: [String: CapturedMedia] = [:]
        var edits: [String: PickerEdit] = [:]
        let selected = (try? await session.library?.fetchAssets(withLocalIdentifiers: selection).allObjects()) ?? []
        for asset in selected { assets[asset.localIdentifier] = AssetJSON(asset) }
        for id in selection {
            if let capture = session.capture(id) { captures[id] = capture }
            if let edit = session.edit(for: id) { edits[id] = edit }
        }
        if let reviewing = session.reviewing, let edit = session.edit(for: reviewing.id) { edits[reviewing.id] = edit }
        let finished: String? =
            switch session.finishedResult {
            case .picked?: "picked"
            case .cancelled?: "cancelled"
            case nil: nil
            }
        let cameras = await cameras(for: session)
        let hasFlash = cameras.first { $0.device == session.cameraDevice.rawValue }?.hasFlash == true
        return StateJSON(
            id: session.id, request: session.request, clientName: session.request.clientDisplayName ?? session.request.clientIdentifier,
            selection: selection, assets: assets, captures: captures, edits: edits, reviewing: session.reviewing,
            isRecording: session.isRecording, cameraSource: session.cameraSource?.rawValue, cameraDevice: session.cameraDevice.rawValue,
            captureMode: session.cameraCaptureMode.rawValue, flashMode: session.cameraFlashMode.rawValue, hasFlash: hasFlash,
            zoom: session.cameraZoom.map { Zoom(factor: $0.factor, minimum: $0.range.lowerBound, maximum: $0.range.upperBound) },
            exposure: session.cameraExposureBias.map { Exposure(bias: $0.bias, minimum: $0.range.lowerBound, maximum: $0.range.upperBound) },
            cameras: cameras, finished: finished, album: session.selector?.selectedAlbum?.id, sizeLabel: session.selector?.sizeLabel)
    }

    func register(on ui: RouterGroup<ServerRequestContext>) {
        ui.get("") { _, context in try await JSONResponse.make(stateJSON(try await session(context))) }
        ui.get("events") { _, context in
            let session = try await session(context)
            let events = session.events
            let routes = self
            return ServerSentEvents.response { stream in
                try await stream.send("state", routes.stateJSON(session))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await event in events {
                            switch event {
                            case .command(let command): try await stream.send("command", ["command": command.rawValue])
                            case .progress(let fraction): try await stream.send("progress", ["fraction": fraction])
                            case .delivered: try await stream.send("delivered", routes.stateJSON(session))
                            case .finished:
                                try await stream.send("state", routes.stateJSON(session))
                                return
                            default: try await stream.send("state", routes.stateJSON(session))
                            }
                        }
                    }
                    group.addTask { try await stream.heartbeat() }
                    try await group.next()
                    group.cancelAll()
                }
            }
        }
        registerBrowsing(on: ui)
        registerChoosing(on: ui)
        registerCamera(on: ui)
    }

    // MARK: Browsing

    struct AlbumItem: Encodable {
        let id: String
        let title: String
        let count: Int
        let kind: String
    }

    struct AssetsPage: Encodable {
        let album: String?
        let offset: Int
        let count: Int
        let assets: [AssetJSON]
    }

    private func registerBrowsing(on ui: RouterGroup<ServerRequestContext>) {
        ui.get("albums") { _, context in
            let selector = try await selector(context)
            return try await JSONResponse.make(
                try selector.albums().map {
                    AlbumItem(id: $0.id, title: $0.title, count: $0.count, kind: $0.collection.assetCollectionType == .smartAlbum ? "smartAlbum" : "album")
                })
        }
        ui.post("album") { request, context in
            let session = try await session(context)
            let body = try await JSONResponse.decode(RequestBody.Pick.self, from: request)
            try await session.selectAlbum(withIdentifier: body.id)
            return try await changed(session)
        }
        ui.get("assets") { request, context in
            let selector = try await selector(context)
            guard let assets = selector.assets else { throw APIError(.conflict, "invalidState", "choose an album first") }
            let parameters = request.uri.queryParameters
            let offset = min(max(parameters.get("offset", as: Int.self) ?? 0, 0), assets.count)
            let limit = min(max(parameters.get("limit", as: Int.self) ?? 200, 1), 1_000)
            return try await JSONResponse.make(
                AssetsPage(
                    album: selector.selectedAlbum?.id, offset: offset, count: assets.count,
                    assets: assets.objects(in: offset..<min(offset + limit, assets.count)).map(AssetJSON.init)))
        }
        ui.get("assets/:asset/thumbnail") { request, context in
            let asset = try await allowedAsset(context)
            // The picker's person's images: the grid of their library.
            return try await MediaRoutes(state: state).thumbnail(
                of: asset, images: try state.handle(for: context.caller).images, request: request, context: context)
        }
        ui.get("assets/:asset/video") { request, context in
            let asset = try await allowedAsset(context)
            let url = try await state.handle(for: context.caller).images.requestVideoURL(for: asset)
            return try await FileResponse.make(
                url, contentType: MediaRoutes.playbackMIMEType(of: url, asset: asset), entityTag: AssetJSON.version(of: asset) + "-play",
                immutable: true, request: request, context: context, fileIO: state.fileIO)
        }
        ui.post("preview") { request, context in
            let selector = try await selector(context)
            let body = try await JSONResponse.decode(RequestBody.Pick.self, from: request)
            let asset = try await allowedAsset(body.id, in: try await session(context))
            try await selector.selectAsset(asset)
            return try JSONResponse.make(["id": asset.localIdentifier, "sizeLabel": selector.sizeLabel ?? ""])
        }
    }

    // MARK: Choosing and editing

    private func registerChoosing(on ui: RouterGroup<ServerRequestContext>) {
        for action in ["select", "deselect"] {
            ui.post(RouterPath(stringLiteral: action)) { request, context in
                let session = try await session(context)
                let body = try await JSONResponse.decode(RequestBody.Pick.self, from: request)
                if action == "select" { try await session.select(body.id) } else { try await session.deselect(body.id) }
                return try await changed(session)
            }
        }
        ui.post("crop") { request, context in
            let session = try await session(context)
            let body = try await JSONResponse.decode(RequestBody.Crop.self, from: request)
            try session.setCrop(body.rect, for: body.id)
            return try await changed(session)
        }
        ui.post("trim") { request, context in
            let session = try await session(context)
            let body = try await JSONResponse.decode(RequestBody.Trim.self, from: request)
            try session.setTrim(try body.range(), for: body.id)
            return try await changed(session)
        }
        ui.post("confirm") { _, context in
            let session = try await session(context)
            try await session.confirm()
            return try await changed(session)
        }
        ui.post("cancel") { _, context in
            let session = try await session(context)
            await session.cancel()
            return try await changed(session)
        }
        ui.post("dismiss") { _, context in
            let session = try await session(context)
            await session.dismiss()
            return try await changed(session)
        }
    }

    // MARK: Camera

    private func registerCamera(on ui: RouterGroup<ServerRequestContext>) {
        for action in ["takePicture", "startVideoCapture", "stopVideoCapture", "retake", "use"] {
            ui.post(RouterPath(stringLiteral: "camera/\(action)")) { _, context in
                let session = try await session(context)
                switch action {
                case "takePicture": try await session.takePicture()
                case "startVideoCapture": try await session.startVideoCapture()
                case "stopVideoCapture": try await session.stopVideoCapture()
                case "retake": try await session.retake()
                default: try await session.useCapture()
                }
                return try await changed(session)
            }
        }
        ui.post("camera/settings") { request, context in
            let session = try await session(context)
            let body = try await JSONResponse.decode(RequestBody.CameraSettings.self, from: request)
            if let device = body.device { try await session.setCameraDevice(device) }
            if let mode = body.mode { try session.setCameraCaptureMode(mode) }
            if let flash = body.flash { try session.setCameraFlashMode(flash) }
            if let zoom = body.zoom { try session.setCameraZoomFactor(zoom) }
            if let bias = body.exposureBias { try session.setCameraExposureTargetBias(bias) }
            return try await changed(session)
        }
        // A picture or recording from the browser's camera.
        ui.post("captures") { request, context in
            let session = try await session(context)
            // Received into the user's library's staging folder (never the system's temporary
            // folder), then moved into the session (written once).
            let upload = try await UploadReceiver.receive(
                request, into: state.library, limit: 2 << 30,
                filename: request.uri.queryParameters.get("filename") ?? "capture")
            do {
                try await session.addCapture(contentsOf: upload.pending.url, consuming: true)
            } catch {
                await upload.pending.discardOnPool()
                throw error
            }
            await upload.pending.discardOnPool()
            return try await changed(session, status: .created)
        }
        ui.get("captures/:capture") { request, context in
            let session = try await session(context)
            let id = try context.parameters.requireDecoded("capture")
            guard let capture = session.capture(id) else { throw APIError.notFound("no capture \(id)") }
            return try await FileResponse.make(
                capture.fileURL, contentType: PickerRoutes.mimeType(for: capture.fileURL), entityTag: "\(session.id)-\(id)",
                immutable: true, request: request, context: context, fileIO: state.fileIO)
        }
        // The capture device's live picture, as Motion JPEG (an <img> shows it).
        ui.get("camera/preview") { _, context in
            let session = try await session(context)
            let frames = try await session.previewFrames()
            return MotionJPEG.response(frames)
        }
    }

    // MARK: Helpers

    /// `refreshing: false` for the grid's pixels: they read only what the session offers, which
    /// a copy held here (kept current by the registry's watcher) answers without a catalog read.
    private func session(_ context: ServerRequestContext, refreshing: Bool = true) async throws -> PickerSession {
        let person = try context.caller.requirePerson("the picker page is a person's: sign in (at /, or with the URL shoebox serve printed)")
        let id = try context.parameters.requireDecoded("session")
        // A picker shows one person's library: another person finds no such session.
        guard let entry = try await state.pickers.entry(id, refreshing: refreshing), entry.personID == person.rowID else {
            throw APIError.notFound("no picker session \(id)")
        }
        return entry.session
    }

    /// The page's answer after it changed the session: the change is stored first, so that the
    /// next request finds it on any server.
    private func changed(_ session: PickerSession, status: HTTPResponse.Status = .ok) async throws -> Response {
        try await state.pickers.save(session)
        return try await JSONResponse.make(stateJSON(session), status: status)
    }

    private func selector(_ context: ServerRequestContext) async throws -> PhotoSelector {
        guard let selector = try await session(context).selector else {
            throw APIError(.conflict, "invalidState", "this picker is the camera: it has no albums")
        }
        return selector
    }

    private func allowedAsset(_ context: ServerRequestContext) async throws -> Asset {
        try await allowedAsset(try context.parameters.requireDecoded("asset"), in: try await session(context, refreshing: false))
    }

    /// An asset the session offers: its media types and filter allow it.
    private func allowedAsset(_ id: String, in session: PickerSession) async throws -> Asset {
        guard let selector = session.selector, let library = session.library,
            let asset = try await library.fetchAssets(withLocalIdentifiers: [id]).firstObject, selector.allows(asset)
        else {
            throw APIError.notFound("this picker offers no asset \(id)")
        }
        return asset
    }
}
