import Foundation
import ShoeboxLibrary
import ShoeboxPicker
import ShoeboxSupport
import Synchronization

/// Presents pickers in the browser: the session's page is `/pick/ID` on the server, and the user's
/// browser drives it over HTTP. The browser's cameras count as the presenter's: those the user's
/// browser last reported (every page of the web app reports them as it loads; photos and movies,
/// a flash where the camera's track has a torch). Before any browser reported, a rear and a front
/// camera provisionally: the picker page asks the browser, and says so when it has none.
///
/// ```swift
/// let server = PhotoLibraryServer(library: library)
/// let picker = ImagePickerController(library: library, presenter: WebPresenter(server: server) { url in print(url) })
/// let result = try await picker.pick()
/// ```
public struct WebPresenter: PickerPresenter {
    /// The server whose `/pick/ID` pages show the sessions; it must be running to present one.
    public let server: PhotoLibraryServer
    /// Called with the page's URL (signed in as the user) when a session is presented.
    public let onPresent: @Sendable (URL) async -> Void
    /// The row id of the person whose browser shows the pickers (whose cameras are offered).
    let person: Int64

    /// A presenter on `server`; `onPresent` is called with each session's page URL (by default it
    /// does nothing). Its pickers show in the library owner's (the first admin's) browser.
    public init(server: PhotoLibraryServer, onPresent: @escaping @Sendable (URL) async -> Void = { _ in }) {
        self.init(server: server, person: Person.adminRowID, onPresent: onPresent)
    }

    /// A presenter whose pickers show in the browser of the person with row id `person`.
    init(server: PhotoLibraryServer, person: Int64, onPresent: @escaping @Sendable (URL) async -> Void = { _ in }) {
        self.server = server
        self.person = person
        self.onPresent = onPresent
    }

    /// The rear and front cameras the person's browser last reported, with a flash where the
    /// camera's track has a torch; before any of their browsers reported, both provisionally (the
    /// picker page asks the browser when it opens, and says so when the browser has none).
    public var cameras: [ImagePickerController.CameraDevice: PickerAvailability.Camera] {
        BrowserCameras.offered(by: server.state.browserCameras.withLock { $0[person] })
    }

    /// Registers the session with the server (unless it is already), calls ``onPresent`` with its
    /// page's URL, and opens that in the browser when the configuration's `opensPickerInBrowser`
    /// says so.
    ///
    /// - Throws: `PickerError` with code `.library` when the session cannot be registered,
    ///   `.invalidState` when the server is not running.
    public func present(_ session: PickerSession) async throws(PickerError) {
        // Checked first: a session presented to a server that is not running is not left registered.
        guard let url = server.pickerURL(for: session) else {
            throw PickerError(.invalidState, "the server is not running: start it before presenting a picker")
        }
        if (try? await server.state.pickers.entry(session.id)) == nil {
            do {
                try await server.state.pickers.add(session, owner: session.request.clientIdentifier)
            } catch {
                throw PickerError(.library, error.message, underlying: error)
            }
        }
        await onPresent(url)
        if server.configuration.opensPickerInBrowser { BrowserOpener.open(url) }
    }
}

/// Opens a URL in the user's browser (`xdg-open`), without waiting for it (the child is
/// started on the blocking pool: a fork and exec is not event-loop work).
enum BrowserOpener {
    static func open(_ url: URL) {
        Task {
            await BlockingPool.shared.run {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["xdg-open", url.absoluteString]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try? process.run()
            }
        }
    }
}
