import ArgumentParser
import Foundation
import ShoeboxCapture
import ShoeboxLibrary
import ShoeboxMedia
import ShoeboxPicker
import ShoeboxServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct PickCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Let the user pick (or take) photos and movies in the browser, and print what was picked.",
        discussion: """
            Uses the library's running `shoebox serve`, or starts a server for the pick. The \
            picker's URL goes to standard error (and opens with --open); the command waits for \
            Choose or Cancel. Picked files are copies in a temporary folder, yours to remove. \
            Standard output: one file path per item (the edited image when there is one), or \
            with --json a JSON array of objects keyed by the UIImagePickerController info keys \
            (mediaType, originalImage, editedImage, cropRect, imageURL, mediaURL, referenceURL, \
            localIdentifier, mediaMetadata, …). Cancelling prints nothing and exits 1.
            """)

    enum Source: String, ExpressibleByArgument, CaseIterable {
        case library, saved, camera
    }

    @OptionGroup var library: LibraryOptions
    @Option(help: "Where media come from: library, saved (Recents only) or camera.") var source: Source = .library
    @Option(help: ArgumentHelp("Media types, comma-separated: image, movie.", valueName: "types")) var media = "image"
    @Flag(help: "Let the user crop photos (square) and trim movies.") var edit = false
    @Option(help: "How many items may be picked (0: no limit).") var limit = 1
    @Option(help: "How many items must be picked.") var minimum = 1
    @Flag(help: "Number the selection and keep its order.") var ordered = false
    @Option(help: ArgumentHelp("The longest movie, in seconds.", valueName: "seconds")) var maxDuration: Double = 600
    @Option(
        help: ArgumentHelp("The preset for edited and recorded movies: \(VideoQuality.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "preset"))
    var quality: String = VideoQuality.typeMedium.rawValue
    @Flag(help: "Convert to the most compatible formats (HEIC → JPEG, WebM → MP4).") var compatible = false
    @Flag(help: "Also save camera captures to the library.") var save = false
    @Option(help: "The camera: rear or front.") var camera: ImagePickerController.CameraDevice = .rear
    @Flag(help: "Open the picker in the browser (xdg-open).") var open = false
    @Flag(help: "Print a JSON array instead of paths.") var json = false
    @Flag(help: "Offer the synthetic cameras (as SHOEBOX_SYNTHETIC_CAMERA=1 does) when this command starts the server.")
    var syntheticCamera = false
    @Option(help: "The port for a server this command starts (0: any free one).") var port = 0

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 (no limit) or more") }
        guard VideoQuality(rawValue: quality) != nil else {
            throw ValidationError("--quality must be one of \(VideoQuality.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        _ = try mediaTypes()
    }

    func mediaTypes() throws -> [ImagePickerController.MediaType] {
        try media.split(separator: ",").map { name in
            switch name.trimmingCharacters(in: .whitespaces).lowercased() {
            case "image", "images", "photo", "public.image": .image
            case "movie", "movies", "video", "public.movie": .movie
            default: throw ValidationError("--media takes image and movie, not \(name)")
            }
        }
    }

    func request() throws -> PickerRequest {
        var request = PickerRequest()
        request.sourceType =
            switch source {
            case .library: .photoLibrary
            case .saved: .savedPhotosAlbum
            case .camera: .camera
            }
        request.mediaTypes = try mediaTypes()
        request.allowsEditing = edit
        request.configuration = PickerConfiguration(
            selectionLimit: limit, minimumSelectionCount: minimum, selection: ordered ? .ordered : .default,
            preferredAssetRepresentationMode: compatible ? .compatible : .automatic)
        request.videoMaximumDuration = maxDuration
        request.videoQuality = VideoQuality(rawValue: quality) ?? .typeMedium
        request.savesCapturedMedia = save
        request.camera.device = camera
        if source == .camera, request.mediaTypes == [.movie] { request.camera.captureMode = .video }
        request.clientDisplayName = "shoebox pick"
        return request
    }

    func run() async throws {
        let request = try request()
        if let running = ServerDiscovery.find(forLibraryAt: library.url) {
            // The server's JSON, read for its info objects and written out again.
            guard let infos = try await pickThroughRunningServer(running, request: request) else { throw ExitCode.failure }
            try print(
                json: { try JSONSerialization.data(withJSONObject: infos.map(\.object), options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) },
                paths: infos.compactMap { info in
                    let object = info.object as? [String: Any] ?? [:]
                    return object["editedImage"] as? String ?? object["imageURL"] as? String ?? object["mediaURL"] as? String
                })
        } else {
            // Encoded once, from the picker's own values.
            guard let infos = try await pickWithOwnServer(request) else { throw ExitCode.failure }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try print(json: { try encoder.encode(infos) }, paths: infos.compactMap { ($0.editedImageURL ?? $0.imageURL ?? $0.mediaURL)?.path })
        }
    }

    /// Prints the JSON (with --json) or one path per item.
    private func print(json encoded: () throws -> Data, paths: [String]) throws {
        if json {
            Swift.print(String(decoding: try encoded(), as: UTF8.self))
        } else {
            for path in paths { Swift.print(path) }
        }
    }

    /// Starts a server in this process for the pick; `nil` when the user cancels.
    private func pickWithOwnServer(_ request: PickerRequest) async throws -> [ImagePickerController.Info]? {
        if syntheticCamera { CaptureDevice.isSyntheticCameraEnabled = true }
        let opened = try await library.open()
        let server = PhotoLibraryServer(library: opened, configuration: .init(port: port))
        let running: Task<Void, any Error>
        do {
            running = try await server.start()
        } catch {
            Terminal.standardError("error: the picker's server did not start: \(error)")
            throw ExitCode.failure
        }
        defer { running.cancel() }
        let session: PickerSession
        do {
            session = try await server.makePickerSession(request)
            try await WebPresenter(server: server, onPresent: announce).present(session)
        } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
        let result = await session.result()
        // The server stops with this command: give the page's last request (Choose or Cancel),
        // which finished the session, time to get its answer, else the browser shows a network
        // error for a pick that worked.
        try? await Task.sleep(for: .milliseconds(500))
        guard case .picked(let infos) = result else { return nil }
        return infos
    }

    /// Asks the library's running server over HTTP; `nil` when the user cancels.
    private func pickThroughRunningServer(_ server: ServerDiscovery, request: PickerRequest) async throws -> [JSONValue]? {
        guard let base = URL(string: server.url) else { throw ExitCode.failure }
        let created = try await call(
            base.appendingPathComponent("api/picker/sessions"), method: "POST", body: try JSONEncoder().encode(request), key: server.key)
        guard let id = created["id"]?.string, let url = created["url"]?.string else {
            Terminal.standardError("error: the server did not make a picker session")
            throw ExitCode.failure
        }
        await announce(URL(string: url) ?? base)
        while true {
            let state = try await call(URL(string: "\(base.absoluteString)/api/picker/sessions/\(id)?wait=60")!, method: "GET", body: nil, key: server.key)
            switch state["status"]?.string {
            case "pending": continue
            case "picked": return state["results"]?.array?.compactMap { $0["info"] } ?? []
            default: return nil
            }
        }
    }

    @Sendable private func announce(_ url: URL) async {
        Terminal.standardError("Pick in your browser: \(url.absoluteString)")
        if open { openInBrowser(url) }
    }

    private func call(_ url: URL, method: String, body: Data?, key: String) async throws -> JSONValue {
        var request = URLRequest(url: url, timeoutInterval: 90)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        let value = try JSONValue.parse(data)
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            Terminal.standardError("error: \(value["error"]?["message"]?.string ?? "the server answered \((response as? HTTPURLResponse)?.statusCode ?? 0)")")
            throw ExitCode.failure
        }
        return value
    }
}

/// Parsed JSON, for reading a few fields of server answers.
struct JSONValue {
    let object: Any

    static func parse(_ data: Data) throws -> JSONValue {
        JSONValue(object: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }

    subscript(key: String) -> JSONValue? {
        (object as? [String: Any])?[key].map(JSONValue.init)
    }

    var string: String? { object as? String }
    var array: [JSONValue]? { (object as? [Any])?.map(JSONValue.init) }
}

extension ImagePickerController.CameraDevice: ExpressibleByArgument {}
