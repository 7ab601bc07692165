import ArgumentParser
import Foundation
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the library, the picker and the camera as a web app, with a JSON API.",
        discussion: """
            Listens on loopback by default and prints the URL to open: it carries the library's \
            key, which signs the browser in (other users of the machine cannot). The key is kept \
            in the library folder (server.key, readable only by you), so a browser stays signed \
            in when the server restarts; with a PostgreSQL catalog it is the one the catalog keeps \
            for all its servers, so a browser signed in on one server is on all. --rotate-key \
            replaces it (every browser signs in again); --key uses the one given. Clients register \
            with POST /api/clients and use their token (docs/API.md). Stop with Ctrl-C or \
            SIGTERM: requests in progress are answered first, for 30 s at most (a second signal \
            stops at once). \
            While it runs, `shoebox pick` on the same library uses it; a second `shoebox serve` \
            on the library says which server already runs (its URL and process) and serves too, \
            leaving the first one's discovery entry alone, so `shoebox pick` keeps using the first. \
            A port in use is an error that says so (exit 1). Background work goes \
            to the catalog's job queue (`shoebox jobs`): thumbnails, previews, posters and \
            playback renditions of what is imported, emptying Recently Deleted of items older \
            than 30 days every hour, and sweeping once a day what crashes left (as shoebox \
            doctor --repair, for what is older than a day). A worker in this process runs the \
            jobs; --no-worker leaves them to `shoebox worker` processes. With blobs in S3, \
            --blob-delivery picks how browsers get bytes: redirect (default; presigned URLs, \
            the bucket's endpoint is allowed by the pages' Content-Security-Policy) or proxy.
            """)

    @OptionGroup var library: LibraryOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port (0: any free one).") var port = 8080
    @Flag(help: "Open the web app in the browser (xdg-open), and pickers that clients ask for.") var open = false
    @Option(name: .customLong("allow-origin"), help: ArgumentHelp("Allow API calls from this web origin (CORS); repeatable.", valueName: "origin"))
    var allowedOrigins: [String] = []
    @Option(name: .customLong("allow-host"), help: ArgumentHelp("Answer to this host name too (besides localhost); repeatable.", valueName: "name"))
    var allowedHosts: [String] = []
    @Option(
        help: ArgumentHelp(
            "Use this key instead of the one the library keeps (server.key, or with a PostgreSQL catalog the catalog's).",
            valueName: "key"))
    var key: String?
    @Flag(help: "Replace the key the library keeps for its servers with a new one (every browser signs in again).")
    var rotateKey = false
    @Flag(
        help: "Browsers reach this server over HTTPS through a proxy: cookies are Secure, and https:// pages of the allowed hosts may change the library."
    )
    var behindHTTPS = false
    @Option(help: ArgumentHelp("The largest upload accepted, in megabytes.", valueName: "MB")) var uploadLimit = 4_096
    @Option(
        help: ArgumentHelp(
            "For blobs in S3: redirect browsers to presigned URLs, or proxy the bytes through the server (with ranges).",
            valueName: "redirect|proxy"))
    var blobDelivery: PhotoLibraryServer.Configuration.BlobDelivery = .redirect
    @Option(help: ArgumentHelp("Connections kept open; over it, the longest-idle are closed to make room.", valueName: "N"))
    var maxConnections = 1_000
    @Option(
        help: ArgumentHelp(
            "The memory decodes of photos may hold at once, in megabytes (uploads' checks, thumbnails, previews, edits; a larger one runs alone).",
            valueName: "MB"))
    var decodeMemory = DecodeMemoryBudget.defaultCapacity >> 20
    @Flag(help: "Run no jobs in this process (leave them to `shoebox worker`).") var noWorker = false
    @Option(help: "Jobs the worker in this process runs at once (default: the cores).") var workerConcurrency = ProcessInfo.processInfo.activeProcessorCount
    @Flag(help: "Offer the synthetic cameras (as SHOEBOX_SYNTHETIC_CAMERA=1 does).") var syntheticCamera = false
    @Flag(help: "Print {\"url\", \"port\"} as one JSON line when ready.") var json = false
    @Option(
        name: .customLong("oidc-issuer"),
        help: ArgumentHelp(
            "Let people sign in with this OpenID Connect provider too (its issuer URL; the client secret, if any, from $SHOEBOX_OIDC_CLIENT_SECRET).",
            valueName: "url"))
    var oidcIssuer: String?
    @Option(name: .customLong("oidc-client-id"), help: ArgumentHelp("The client id Shoebox has at the provider.", valueName: "id"))
    var oidcClientID: String?
    @Option(name: .customLong("oidc-name"), help: ArgumentHelp("What the sign-in page calls the provider.", valueName: "name"))
    var oidcName = "Single Sign-On"
    @Option(
        name: .customLong("oidc-redirect-uri"),
        help: ArgumentHelp("Where the provider sends browsers back (default: http(s)://HOST/signin/oidc/callback of the request).", valueName: "url"))
    var oidcRedirectURI: String?

    func validate() throws {
        if let issuer = oidcIssuer {
            guard let url = URL(string: issuer), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ValidationError("--oidc-issuer must be an http(s) URL, not \(issuer)")
            }
            guard let client = oidcClientID, !client.isEmpty else { throw ValidationError("--oidc-issuer needs --oidc-client-id") }
        } else if oidcClientID != nil || oidcRedirectURI != nil {
            throw ValidationError("--oidc-client-id and --oidc-redirect-uri go with --oidc-issuer")
        }
        if let redirect = oidcRedirectURI, URL(string: redirect)?.host == nil {
            throw ValidationError("--oidc-redirect-uri must be an http(s) URL, not \(redirect)")
        }
        guard maxConnections > 0 else { throw ValidationError("--max-connections must be at least 1, not \(maxConnections)") }
        guard (1...(1 << 30)).contains(decodeMemory) else {
            throw ValidationError("--decode-memory must be a positive number of megabytes, not \(decodeMemory)")
        }
    }

    func run() async throws {
        Image.configureAllocatorForDecoding()
        if syntheticCamera { CaptureDevice.isSyntheticCameraEnabled = true }
        let opened = try await library.open(backgroundWork: .queued)
        // Several servers may serve one library (the catalog is shared); `shoebox pick` and the
        // web app find the one its server.json names, which a later server never replaces.
        if let running = ServerDiscovery.find(forLibraryAt: library.url), running.pid != getpid() {
            Terminal.standardError(
                "note: a server already serves this library at \(running.url) (process \(running.pid)); this one serves it too, "
                    + "and shoebox pick keeps using that one")
        }
        let server = PhotoLibraryServer(library: opened, configuration: try await configuration(for: opened))
        let stopDeadline = StopDeadline(grace: Self.stopGrace)
        defer { stopDeadline.cancel() }
        let (json, open, libraryURL) = (self.json, self.open, opened.url)
        do {
            try await server.run(handlesSignals: true) { url in
                if json {
                    print(#"{"url": "\#(url.absoluteString)", "port": \#(server.port ?? 0)}"#)
                } else {
                    print("Shoebox is serving \(libraryURL.path)")
                    print("Open \(url.absoluteString)")
                }
                fflush(nil)
                if open { PhotoLibraryServer.openInBrowser(url) }
            }
        } catch let error as LibraryError {
            Terminal.standardError("error: cannot queue the library's repeating jobs: \(error.message)")
            throw ExitCode.failure
        } catch {
            Terminal.standardError("error: \(ListenFailure.sentence(for: error, host: host, port: port))")
            throw ExitCode.failure
        }
    }

    /// The server's configuration from the options (the library is opened with its background
    /// work queued): a worker in this process unless --no-worker, `server.json` written, and the library's key unless
    /// --key gives one.
    private func configuration(for opened: PhotoLibrary) async throws -> PhotoLibraryServer.Configuration {
        var configuration = PhotoLibraryServer.Configuration(
            host: host, port: port, allowedHostNames: allowedHosts, corsAllowedOrigins: allowedOrigins,
            uploadByteLimit: uploadLimit << 20, userKey: try await userKey(for: opened), opensPickerInBrowser: open,
            blobDelivery: blobDelivery)
        configuration.maximumConnections = maxConnections
        configuration.decodeMemory = decodeMemory << 20
        configuration.worker = noWorker ? nil : JobWorker.Options(concurrency: workerConcurrency, name: "serve")
        configuration.writesDiscoveryFile = true
        configuration.servedOverHTTPS = behindHTTPS
        if let issuer = oidcIssuer.flatMap(URL.init(string:)), let client = oidcClientID {
            // The secret is never an argument (other users read a process's arguments).
            let secret = ProcessInfo.processInfo.environment["SHOEBOX_OIDC_CLIENT_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
            configuration.openID = OpenIDConfiguration(
                issuer: issuer, clientID: client, clientSecret: secret, displayName: oidcName, redirectURI: oidcRedirectURI.flatMap(URL.init(string:)))
        }
        return configuration
    }

    /// The key is the library's, so a browser stays signed in when the server restarts: servers
    /// sharing a PostgreSQL catalog share the one it keeps (a browser signed in on one is signed
    /// in on all); an embedded library's is in its folder.
    private func userKey(for opened: PhotoLibrary) async throws -> String {
        if let key {
            if rotateKey { throw ValidationError("--rotate-key makes a new key and --key gives one: use one or the other") }
            return key
        }
        do {
            if case .postgres = opened.configuration.catalog {
                return try await opened.sharedServerKey(rotating: rotateKey)
            }
            return try opened.storedServerKey(rotating: rotateKey)
        } catch {
            Terminal.standardError("error: cannot read or make the library's server key: \(error.message)")
            throw ExitCode.failure
        }
    }
}

extension ServeCommand {
    /// How long a stop (SIGTERM, SIGINT) may take before the process exits without waiting more.
    static let stopGrace = Duration.seconds(30)
}

extension PhotoLibraryServer.Configuration.BlobDelivery: ExpressibleByArgument {}
