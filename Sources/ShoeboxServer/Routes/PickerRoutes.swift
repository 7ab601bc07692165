import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxPicker

/// Picker sessions over HTTP.
///
/// For the program that wants a pick (a client with its token, or the user's own tools):
/// `POST /api/picker/sessions` with a ``ShoeboxPicker/PickerRequest`` creates one and answers its
/// page's URL; `GET /api/picker/sessions/ID?wait=S` waits for and returns the result, whose
/// files download from `/api/picker/sessions/ID/files/NAME`; `DELETE` cancels; the custom camera
/// controls are `POST …/ID/takePicture|startVideoCapture|stopVideoCapture|dismiss`. No library
/// grant is needed: the program gets only what the user picks.
///
/// For the picker page (the user only): `…/ID/ui/…` browses the session's albums and assets,
/// selects, edits, captures and finishes, and `…/ID/ui/events` streams the session's events.
struct PickerRoutes {
    let server: PhotoLibraryServer
    var state: ServerState { server.state }

    // MARK: JSON

    struct Created: Encodable {
        let id: String
        /// The page to open in the user's browser (signed in already, or with the key for the user).
        let url: String
        let status: String
    }

    /// `GET /api/picker/cameras`: the browser's last report and what pickers are offered of it.
    struct CamerasJSON: Encodable {
        let cameras: [BrowserCameras.Camera]
        /// ISO 8601 to the millisecond, so that two reports in one second (a page opened twice)
        /// are told apart.
        let reportedAt: String?
        /// The picker cameras the web presenter offers: `front`, `rear`, with their flash (both,
        /// provisionally, before any report: no `reportedAt`).
        let available: [String: Bool]

        init(_ report: BrowserCameras?) {
            cameras = report?.cameras ?? []
            reportedAt = report.map { Date.ISO8601FormatStyle(includingFractionalSeconds: true).format($0.reportedAt) }
            available = Dictionary(uniqueKeysWithValues: BrowserCameras.offered(by: report).map { ($0.key.rawValue, $0.value.hasFlash) })
        }
    }

    struct ResultJSON: Encodable {
        let id: String
        let status: String
        let results: [Item]?

        struct Item: Encodable {
            let info: ImagePickerController.Info
            /// Download paths of the delivered files: `image`, `editedImage`, `media`.
            let files: [String: String]
        }
    }

    func resultJSON(_ session: PickerSession) -> ResultJSON {
        guard let result = session.finishedResult else {
            // Items delivered one by one (custom controls, continuous selection) show at once.
            let delivered = session.deliveredSoFar
            return ResultJSON(id: session.id, status: "pending", results: delivered.isEmpty ? nil : items(delivered, session))
        }
        guard case .picked(let infos) = result else { return ResultJSON(id: session.id, status: "cancelled", results: nil) }
        return ResultJSON(id: session.id, status: "picked", results: items(infos, session))
    }

    func items(_ infos: [ImagePickerController.Info], _ session: PickerSession) -> [ResultJSON.Item] {
        let base = "/api/picker/sessions/\(session.id)/files/"
        return infos.map { info in
            var files: [String: String] = [:]
            if let url = info.imageURL { files["image"] = base + url.lastPathComponent }
            if let url = info.editedImageURL { files["editedImage"] = base + url.lastPathComponent }
            if let url = info.mediaURL { files["media"] = base + url.lastPathComponent }
            return ResultJSON.Item(info: info, files: files)
        }
    }

    // MARK: Routes

    func register(on api: RouterGroup<ServerRequestContext>) {
        // The person's browser's cameras: what the web presenter offers their pickers (BrowserCameras).
        api.get("picker/cameras") { _, context in
            let person = try context.caller.requirePerson("the browser's cameras are the person's, not an app's")
            return try await JSONResponse.make(CamerasJSON(await state.knownBrowserCameras(for: person.rowID)))
        }
        api.post("picker/cameras") { request, context in
            let person = try context.caller.requirePerson("only a person's browser reports its cameras")
            let body = try await JSONResponse.decode(RequestBody.BrowserCamerasReport.self, from: request)
            let report = try body.report()
            do throws(LibraryError) {
                try await state.reportBrowserCameras(report, for: person.rowID)
            } catch {
                throw APIError(library: error)
            }
            return try await JSONResponse.make(CamerasJSON(report))
        }
        api.post("picker/sessions") { request, context in
            // The picker shows the library of the person asking, or of the one the client acts for.
            let client: ClientManifest?
            let person: Person
            switch context.caller {
            case .user(let asking): (client, person) = (nil, asking)
            case .client(let manifest, let theirs): (client, person) = (manifest, theirs)
            case .anonymous: throw APIError(.unauthorized, "authenticationRequired", "send a client token to ask for a pick")
            }
            var body = try await JSONResponse.decode(PickerRequest.self, from: request)
            if client != nil, !body.configuration.preselectedAssetIdentifiers.isEmpty {
                // A client preselects only what it may see itself: the picker shows the user
                // everything, but ids the client harvested elsewhere select nothing.
                let wanted = body.configuration.preselectedAssetIdentifiers
                let library = try state.handle(for: context.caller).library
                let visible = Set((try? await library.fetchAssets(withLocalIdentifiers: wanted).allObjects().map(\.localIdentifier)) ?? [])
                body.configuration.preselectedAssetIdentifiers = wanted.filter(visible.contains)
            }
            let session = try await server.makePickerSession(body, client: client, for: person)
            if let client {
                // The camera picker needs the client's camera (and microphone) grants: asked for
                // in the user's browser when undecided, refused otherwise (403). Checked once the
                // request is known to be valid, so a bad request never prompts.
                do {
                    try await session.request.authorizeCapture(
                        client: client.identifier, authorization: state.apps(for: person).authorization, missingUsageDescription: .throw)
                } catch {
                    await session.cancel()
                    try? await state.pickers.save(session)
                    throw error
                }
            }
            if client != nil, server.configuration.opensPickerInBrowser, let url = server.pickerURL(for: session) { BrowserOpener.open(url) }
            // The first admin's tools (the server key itself) get the page signed in by the
            // server key; nobody else is led to it — a session's person, a person's key (even
            // the first admin's), a client: they sign in there as themselves.
            let byServerKey = context.caller.isFirstAdmin && context.key == nil && context.session == nil
            let url = byServerKey ? server.pickerURL(for: session)?.absoluteString : nil
            return try JSONResponse.make(Created(id: session.id, url: url ?? server.publicPickerURL(for: session), status: "pending"), status: .created)
        }
        api.get("picker/sessions/:session") { request, context in
            let session = try await ownedSession(context)
            let wait = min(max(request.uri.queryParameters.get("wait", as: Double.self) ?? 0, 0), 120)
            if wait > 0, !session.isFinished {
                // At most `wait` seconds (then `pending`), and not past the server's stopping.
                _ = await cancelWhenGracefulShutdown { await session.result(waitingAtMost: .seconds(wait)) }
            }
            return try JSONResponse.make(resultJSON(session))
        }
        api.delete("picker/sessions/:session") { _, context in
            let session = try await ownedSession(context)
            await session.cancel()
            try await state.pickers.save(session)
            return try JSONResponse.make(resultJSON(session))
        }
        api.get("picker/sessions/:session/files/:name") { request, context in
            let session = try await ownedSession(context)
            let name = try context.parameters.requireDecoded("name")
            // Only files the result names: the name picks one of them, it never builds a path.
            let infos = session.finishedResult?.infos ?? session.deliveredSoFar
            let delivered = infos.flatMap { [$0.imageURL, $0.editedImageURL, $0.mediaURL].compactMap { $0 } }
            guard let url = delivered.first(where: { $0.lastPathComponent == name }) else {
                throw APIError.notFound("the pick has no file \(name)")
            }
            return try await FileResponse.make(
                url, contentType: Self.mimeType(for: url), entityTag: "\(session.id)-\(name)", immutable: true,
                request: request, context: context, fileIO: state.fileIO, downloadName: name)
        }
        for action in ["takePicture", "startVideoCapture", "stopVideoCapture", "dismiss"] {
            api.post("picker/sessions/:session/\(action)") { _, context in
                let session = try await ownedSession(context)
                if action != "dismiss", case .client(let client, let person) = context.caller {
                    try await requireCaptureGrants(of: client.identifier, person: person, for: session)
                }
                switch action {
                case "takePicture": return try JSONResponse.make(try await session.takePicture())
                case "startVideoCapture": try await session.startVideoCapture()
                case "stopVideoCapture": return try JSONResponse.make(try await session.stopVideoCapture())
                default:
                    await session.dismiss()
                    try await state.pickers.save(session)
                }
                return try JSONResponse.make(resultJSON(session))
            }
        }
        PickerPageRoutes(server: server).register(on: api.group("picker/sessions/:session/ui"))
    }

    /// A client drives its camera picker's controls only while it holds the grants the picker
    /// needs (the camera, and the microphone for movies), as they are now: a decision changed in
    /// the Privacy page after the picker opened stops the next picture (`403 notAuthorized`).
    /// Nobody is asked here: the picker asked when it opened.
    private func requireCaptureGrants(of client: String, person: Person, for session: PickerSession) async throws {
        for service in session.request.requiredCaptureServices {
            let status = try await state.apps(for: person).authorization.status(for: service, client: client)
            guard status == .authorized else {
                throw APIError.forbidden("notAuthorized", "\(client) may not use the \(service) (status \(status.rawValue))")
            }
        }
    }

    /// The session, if the caller created it or it shows the caller's library (another
    /// person's, or another client's, is not found).
    private func ownedSession(_ context: ServerRequestContext) async throws -> PickerSession {
        if case .anonymous = context.caller { throw Caller.signInFirst }
        let id = try context.parameters.requireDecoded("session")
        guard let entry = try await state.pickers.entry(id) else { throw APIError.notFound("no picker session \(id)") }
        switch context.caller {
        case .user(let person) where person.rowID == entry.personID: return entry.session
        case .client(let manifest, let person) where manifest.identifier == entry.owner && person.rowID == entry.personID: return entry.session
        default: throw APIError.notFound("no picker session \(id)")
        }
    }

    /// The MIME type a file's extension names (files Shoebox wrote, so the name is known).
    static func mimeType(for url: URL) -> String {
        UTType(filenameExtension: url.pathExtension)?.preferredMIMEType ?? "application/octet-stream"
    }
}
