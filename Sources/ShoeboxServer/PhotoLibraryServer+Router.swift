import Foundation
import Hummingbird
import ShoeboxCapture
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxSupport

extension PhotoLibraryServer {
    /// Every route, behind the middleware: security headers (and errors as JSON), the `Host`
    /// check, CORS for configured origins, and who is calling (with the CSRF check).
    func makeRouter() -> Router<ServerRequestContext> {
        // HEAD answers every GET route (headers only: Range clients and link checkers ask first).
        let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
        if BlockingCheck.isEnabled { router.add(middleware: BlockingCheckMiddleware()) }
        router.add(middleware: SecurityHeadersMiddleware(mediaOrigin: state.redirectsToObjectStorage ? library.directURLOrigin : nil))
        router.add(middleware: HostCheckMiddleware(state: state))
        if !configuration.corsAllowedOrigins.isEmpty {
            router.add(middleware: AllowedOriginsMiddleware(origins: Set(configuration.corsAllowedOrigins)))
        }
        router.add(middleware: CallerMiddleware(server: self))
        WebAppRoutes(server: self).register(on: router)
        SharedLinkRoutes(state: state).register(on: router)
        let api = router.group("api")
        LibraryRoutes(state: state).register(on: api)
        MediaRoutes(state: state).register(on: api)
        PlaceRoutes(state: state).register(on: api)
        MetadataRoutes(state: state).register(on: api)
        MemoryRoutes(state: state).register(on: api)
        EditRoutes(state: state).register(on: api)
        ShareRoutes(state: state).register(on: api)
        SharedAlbumRoutes(state: state).register(on: api)
        PartnerRoutes(state: state).register(on: api)
        SharedLibraryRoutes(state: state).register(on: api)
        UploadRoutes(state: state).register(on: api)
        PrivacyRoutes(state: state).register(on: api)
        JobRoutes(state: state).register(on: api)
        PeopleRoutes(server: self).register(on: api)
        KeyRoutes(server: self).register(on: api)
        PasskeyRoutes(server: self).register(on: api)
        OpenIDRoutes(server: self).register(on: router, api: api)
        PickerRoutes(server: self).register(on: api)
        api.get("devices") { _, context in
            try context.caller.requireUser("only the user may list this machine's cameras")
            // A discovery (PulseAudio may take two seconds) runs on the blocking pool, and only
            // when a device node came or went or the last listing aged.
            let devices = await CaptureDevice.DiscoverySession(
                deviceTypes: [.builtInWideAngleCamera, .external, .microphone], mediaType: nil, position: .unspecified
            ).currentDevices
            return try JSONResponse.make(
                devices.map {
                    [
                        "uniqueID": $0.uniqueID, "localizedName": $0.localizedName, "position": $0.position.rawValue,
                        "mediaType": $0.mediaType.rawValue,
                    ]
                })
        }
        return router
    }
}
