import ArgumentParser
import Foundation
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import ShoeboxPicker
import ShoeboxServer

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
            localIdentifier, mediaMetadata, …). Cancelling prints nothing and exits 1. \
            With $SHOEBOX_API_KEY (a person's key of scope write: shoebox key add), the command \
            acts for that key's person through the running server, or the server --server \
            names (which may be another machine); the person signs in on the picker page. \
            Without it, a running server is asked with its own key, as the first admin.
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
    @Option(
        help: ArgumentHelp(
            "Ask the server at this URL (http://host:port) instead of the library's own; needs $SHOEBOX_API_KEY.", valueName: "url"))
    var server: String?

    /// `$SHOEBOX_API_KEY`: a person's key, never taken from an argument (other users of the
    /// machine can read a command line).
    var apiKey: String? {
        guard let key = ProcessInfo.processInfo.environment["SHOEBOX_API_KEY"]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty
        else { return nil }
        return key
    }

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 (no limit) or more") }
        guard maxDuration.isFinite, maxDuration > 0 else { throw ValidationError("--max-duration must be a positive number of seconds, not \(maxDuration)") }
        guard VideoQuality(rawValue: quality) != nil else {
            throw ValidationError("--quality must be one of \(VideoQuality.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        _ = try mediaTypes()
        if let server {
            guard let url = URL(string: server), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("--server must be an http:// or https:// URL with a host, not \(server)")
            }
            guard apiKey != nil else {
                throw ValidationError("--server needs a key of the person who picks in $SHOEBOX_API_KEY (shoebox key add NAME --scope write)")
            }
        }
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
        request.sourceType = sourceType
        request.mediaTypes = try mediaTypes()
        request.allowsEditing = edit
        request.configuration = configuration
        request.videoMaximumDuration = maxDuration
        request.videoQuality = VideoQuality(rawValue: quality) ?? .typeMedium
        request.savesCapturedMedia = save
        request.camera.device = camera
        if source == .camera, request.mediaTypes == [.movie] { request.camera.captureMode = .video }
        request.clientDisplayName = "shoebox pick"
        return request
    }

    private var sourceType: ImagePickerController.SourceType {
        switch source {
        case .library: .photoLibrary
        case .saved: .savedPhotosAlbum
        case .camera: .camera
        }
    }

    private var configuration: PickerConfiguration {
        PickerConfiguration(
            selectionLimit: limit, minimumSelectionCount: minimum, selection: ordered ? .ordered : .default,
            preferredAssetRepresentationMode: compatible ? .compatible : .automatic)
    }

    func run() async throws {
        let picked: [PickerInfoJSON]?
        if let server, let apiKey, let base = URL(string: server) {
            picked = try await pickThroughServer(RemotePickerClient(base: base, key: apiKey), request: try request())
        } else if let running = ServerDiscovery.find(forLibraryAt: library.url) {
            // The server's own key is the first admin's: another person's pick needs their key.
            if let person = library.person, apiKey == nil {
                Terminal.standardError(
                    "error: the library's server is running, and it acts for \(person) only with a key of theirs: set SHOEBOX_API_KEY (shoebox key add NAME --scope write --user \(person))"
                )
                throw ExitCode.failure
            }
            let client: RemotePickerClient
            do { client = try RemotePickerClient(server: running) } catch {
                Terminal.standardError("error: \(error.message)")
                throw ExitCode.failure
            }
            picked = try await pickThroughServer(apiKey.map { RemotePickerClient(base: client.base, key: $0) } ?? client, request: try request())
        } else {
            picked = try await pickWithOwnServer()?.map(PickerInfoJSON.init)
        }
        guard let picked else { throw ExitCode.failure }
        // Encoded once, from the one wire type the server answers with.
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(picked), as: UTF8.self))
        } else {
            for path in picked.compactMap(\.preferredPath) { print(path) }
        }
    }

    /// Starts a server in this process and presents an ``ImagePickerController`` on it, as an
    /// app would; `nil` when the user cancels.
    private func pickWithOwnServer() async throws -> [ImagePickerController.Info]? {
        if syntheticCamera { CaptureDevice.isSyntheticCameraEnabled = true }
        let opened = try await library.open()
        let server = PhotoLibraryServer(library: opened, configuration: .init(port: port))
        let running: Task<Void, any Error>
        do {
            running = try await server.start()
        } catch {
            Terminal.standardError("error: the picker's server did not start: \(ListenFailure.sentence(for: error, host: "127.0.0.1", port: port))")
            throw ExitCode.failure
        }
        let picker = ImagePickerController(library: opened, presenter: WebPresenter(server: server, onPresent: announce))
        let result: PickerResult
        do {
            // The same request a running server is sent, checked as that server checks it.
            try picker.setRequest(try self.request())
            result = try await picker.pick()
        } catch {
            Terminal.standardError("error: \((error as? any ShoeboxError)?.message ?? "\(error)")")
            await server.stop()
            _ = try? await running.value
            throw ExitCode.failure
        }
        // The server stops with this command, gracefully: the page's last request (Choose or
        // Cancel), which finished the session, gets its answer first, else the browser shows a
        // network error for a pick that worked.
        await server.stop()
        _ = try? await running.value
        guard case .picked(let infos) = result else { return nil }
        return infos
    }

    /// Asks a running server over HTTP (``RemotePickerClient``); `nil` when the user cancels.
    private func pickThroughServer(_ client: RemotePickerClient, request: PickerRequest) async throws -> [PickerInfoJSON]? {
        do {
            let created = try await client.createSession(request)
            // A person's key gets the page's path (they sign in there): it is on the server asked.
            await announce(URL(string: created.url, relativeTo: client.base)?.absoluteURL ?? client.base)
            return try await client.waitForAnswer(session: created.id)
        } catch {
            Terminal.standardError("error: \(error.message)")
            throw ExitCode.failure
        }
    }

    @Sendable private func announce(_ url: URL) async {
        Terminal.standardError("Pick in your browser: \(url.absoluteString)")
        if open { PhotoLibraryServer.openInBrowser(url) }
    }
}

extension ImagePickerController.CameraDevice: ExpressibleByArgument {}
