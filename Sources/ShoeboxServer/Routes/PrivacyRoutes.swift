import Foundation
import Hummingbird
import ServiceLifecycle
import ShoeboxLibrary

/// Clients, their grants and the prompts: registration with tokens (`/api/clients`), a client's
/// own authorization (`/api/authorization/SERVICE`), and for each person the Privacy page's
/// settings and the prompts waiting for their answer (`/api/prompts`). Apps are each person's: a
/// client is registered for one person, its token acts for them, and only they decide for it.
struct PrivacyRoutes {
    let state: ServerState

    struct Registered: Encodable {
        let client: ClientJSON
        /// Shown once: the client presents it as `Authorization: Bearer TOKEN`.
        let token: String
    }

    struct ClientJSON: Encodable {
        let identifier: String
        let displayName: String
        let usageDescriptions: [String: String]
        /// Status per service: `camera`, `microphone`, `photoLibrary`, `photoLibraryAdd`.
        let services: [String: String]
        let limitedSelection: [String]
    }

    /// An access-log entry with what it concerns: the asset, or the album's title.
    struct ReportEntryJSON: Encodable {
        let date: Date
        let client: String
        let action: String
        let localIdentifier: String
        let detail: String?
        /// The asset the entry concerns, as the library shows it now (absent once it is gone).
        let asset: AssetJSON?
        /// The album's title, for `album` entries.
        let albumTitle: String?

        init(entry: AccessLogEntry, asset: AssetJSON?, albumTitle: String?) {
            date = entry.date
            client = entry.client
            action = entry.action
            localIdentifier = entry.localIdentifier
            detail = entry.detail
            self.asset = asset
            self.albumTitle = albumTitle
        }
    }

    func clientJSON(_ manifest: ClientManifest, of authorization: Authorization) async throws(LibraryError) -> ClientJSON {
        var services: [String: String] = [:]
        for service in Authorization.Service.all {
            services[service.policyName] = try await authorization.status(for: service, client: manifest.identifier).rawValue
        }
        return ClientJSON(
            identifier: manifest.identifier, displayName: manifest.displayName,
            usageDescriptions: Dictionary(uniqueKeysWithValues: manifest.usageDescriptions.map { ($0.key.rawValue, $0.value) }),
            services: services, limitedSelection: try await authorization.limitedSelection(client: manifest.identifier))
    }

    func register(on api: RouterGroup<ServerRequestContext>) {
        // Registration: anyone may register a new client (it starts with no access); changing a
        // registered one takes its token, or the user.
        api.post("clients") { request, context in
            if !context.caller.isUser, let wait = state.registrations.take() {
                var error = APIError(.tooManyRequests, "rateLimited", "too many clients registered lately: try again in \(wait) s")
                error.headers[.retryAfter] = String(wait)
                throw error
            }
            let registration = try await JSONResponse.decode(RequestBody.ClientRegistration.self, from: request)
            let manifest = registration.manifest
            try manifest.validate()
            let person = try await registeringPerson(context, named: registration.person)
            let authorization = state.apps(for: person).authorization
            if let existing = try await authorization.client(manifest.identifier) {
                // The person themself, or the client itself (its token acts for that person).
                let isItself =
                    context.caller.person?.rowID == person.rowID
                    || (context.caller.clientIdentifier == manifest.identifier && context.caller.actingFor?.rowID == person.rowID)
                // A client without a token (its access revoked, or registered by the user's own
                // tools) may register again: what it was granted starts over undecided, and what it
                // was denied stays denied (below).
                let tokenless = try await !authorization.hasTokens(manifest.identifier)
                guard isItself || tokenless else {
                    throw APIError(.conflict, "alreadyRegistered", "\(manifest.identifier) is registered already: present its token to change it")
                }
                // A client that renames itself is another app to the user: what was granted to
                // the old name is not the new one's (the user renaming it keeps the grants). A
                // denial stays with the identifier whatever it calls itself, and after Revoke
                // Access, until the user changes it (iOS's rule): the app cannot ask again by
                // registering afresh or under another name.
                if !context.caller.isUser, !isItself || existing.displayName != manifest.displayName {
                    for service in Authorization.Service.all
                    where try await authorization.status(for: service, client: manifest.identifier) != .denied {
                        try await authorization.setStatus(nil, for: service, client: manifest.identifier)
                    }
                    try await authorization.setLimitedSelection([], client: manifest.identifier)
                }
            }
            try await authorization.register(manifest)
            let token = try await authorization.issueToken(for: manifest.identifier)
            return try await JSONResponse.make(Registered(client: try clientJSON(manifest, of: authorization), token: token), status: .created)
        }
        api.get("clients") { _, context in
            let apps = try personsApps(context)
            var clients: [ClientJSON] = []
            for manifest in try await apps.authorization.clients() { clients.append(try await clientJSON(manifest, of: apps.authorization)) }
            return try JSONResponse.make(clients)
        }
        api.get("clients/:client") { _, context in
            let (manifest, apps) = try await clientFrom(context, allowingSelf: true)
            return try await JSONResponse.make(try clientJSON(manifest, of: apps.authorization))
        }
        api.put("clients/:client/services/:service") { request, context in
            let (manifest, apps) = try await clientFrom(context, allowingSelf: false)
            let service = try serviceFrom(context)
            let status = try await JSONResponse.decode(RequestBody.StatusChange.self, from: request).decided()
            try await apps.authorization.setStatus(status, for: service, client: manifest.identifier)
            return try await JSONResponse.make(try clientJSON(manifest, of: apps.authorization))
        }
        api.put("clients/:client/limited") { request, context in
            let (manifest, apps) = try await clientFrom(context, allowingSelf: false)
            let body = try await JSONResponse.decode(RequestBody.LimitedSelection.self, from: request)
            try await apps.authorization.setLimitedSelection(body.assets, client: manifest.identifier)
            return try await JSONResponse.make(try clientJSON(manifest, of: apps.authorization))
        }
        api.get("clients/:client/report") { request, context in
            let (manifest, apps) = try await clientFrom(context, allowingSelf: false)
            let limit = min(max(request.uri.queryParameters.get("limit", as: Int.self) ?? 500, 1), 10_000)
            await state.flushAccessLogs()
            let entries = try await apps.authorization.accessLog(client: manifest.identifier, limit: limit)
            // Each entry names its asset (its name and thumbnail in the report), or its album's
            // title: the user reads what the app saw, not identifiers. Gone ones stay ids only.
            let identifiers = Array(Set(entries.map(\.localIdentifier).filter { !$0.isEmpty }))
            var assets: [String: AssetJSON] = [:]
            var albums: [String: String] = [:]
            if !identifiers.isEmpty {
                for asset in try await apps.library.fetchAssets(withLocalIdentifiers: identifiers).allObjects() {
                    assets[asset.localIdentifier] = AssetJSON(asset)
                }
                if entries.contains(where: { $0.action == "album" }) {
                    for album in try await apps.library.fetchAssetCollections(with: .album).allObjects() {
                        albums[album.localIdentifier] = album.localizedTitle
                    }
                }
            }
            return try await JSONResponse.make(
                entries.map { ReportEntryJSON(entry: $0, asset: assets[$0.localIdentifier], albumTitle: albums[$0.localIdentifier]) })
        }
        // Remove App: the client is forgotten (decisions, selection, tokens); its report stays.
        api.delete("clients/:client") { _, context in
            let (manifest, apps) = try await clientFrom(context, allowingSelf: false)
            try await apps.authorization.removeClient(manifest.identifier)
            return Response(status: .noContent)
        }
        api.delete("clients/:client/tokens") { _, context in
            let (manifest, apps) = try await clientFrom(context, allowingSelf: false)
            try await apps.authorization.revokeTokens(for: manifest.identifier)
            return Response(status: .noContent)
        }

        // A client's own authorization, decided by its person.
        api.get("authorization/:service") { _, context in
            let (client, apps) = try requireClient(context)
            let service = try serviceFrom(context)
            return try await JSONResponse.make(["status": try apps.authorization.status(for: service, client: client.identifier).rawValue])
        }
        api.post("authorization/:service") { _, context in
            let (client, apps) = try requireClient(context)
            let service = try serviceFrom(context)
            // A stopping server does not wait for the person: the client asks again elsewhere.
            let prompter = apps.prompter
            let status = try await withGracefulShutdownHandler {
                try await apps.authorization.requestAccess(for: service, client: client.identifier, missingUsageDescription: .throw)
            } onGracefulShutdown: {
                prompter.stopAsking()
            }
            return try JSONResponse.make(["status": status.rawValue])
        }

        // The person's answers to their apps' questions.
        api.get("prompts") { _, context in
            let apps = try personsApps(context)
            return try JSONResponse.make(try await apps.prompter.pending().map(PromptJSON.init))
        }
        api.post("prompts/:prompt") { request, context in
            let apps = try personsApps(context)
            let id = try context.parameters.requireDecoded("prompt")
            let answer = try await JSONResponse.decode(RequestBody.Answer.self, from: request).authorizationAnswer()
            guard try await apps.prompter.answer(id, with: answer) else { throw APIError.notFound("no question \(id) is waiting (answered, or timed out)") }
            return Response(status: .noContent)
        }
    }

    /// The apps of the person asking (a client is refused: `403 userOnly`).
    private func personsApps(_ context: ServerRequestContext) throws -> ServerState.Apps {
        state.apps(for: try context.caller.requirePerson("only a person sees and decides for their apps"))
    }

    /// The person a registration is for: the person asking (for themselves only), the client's
    /// own (registering itself again), else the one the body names (an app a person runs asks
    /// them; the registration limit bounds guessing at names), else the first admin.
    private func registeringPerson(_ context: ServerRequestContext, named name: String?) async throws -> Person {
        if let person = context.caller.actingFor {
            if let name, name.lowercased() != person.name, name != person.id {
                throw APIError.badRequest("a client registered with credentials is the caller's own: leave out \"person\" or name \(person.name)")
            }
            return person
        }
        guard let name else { return try await state.firstAdmin() }
        let found: Person?
        do { found = try await state.library.person(named: name) } catch { throw APIError(error) }
        guard let found, found.state == .active else { throw APIError.notFound("no person named \(name) uses this library") }
        return found
    }

    private func requireClient(_ context: ServerRequestContext) throws -> (ClientManifest, ServerState.Apps) {
        guard case .client(let manifest, let person) = context.caller else {
            throw APIError(.unauthorized, "clientOnly", "authorization is asked for by a client: send its token as Authorization: Bearer TOKEN")
        }
        return (manifest, state.apps(for: person))
    }

    /// The client the path names and the apps it is among: the caller's own (a client reading
    /// itself, when `allowingSelf`), else the person asking's.
    private func clientFrom(_ context: ServerRequestContext, allowingSelf: Bool) async throws -> (ClientManifest, ServerState.Apps) {
        let id = try context.parameters.requireDecoded("client")
        let apps: ServerState.Apps
        if allowingSelf, case .client(let manifest, let person) = context.caller, manifest.identifier == id {
            apps = state.apps(for: person)
        } else {
            apps = state.apps(for: try context.caller.requirePerson("only a person sees or changes \(id)'s settings"))
        }
        guard let manifest = try await apps.authorization.client(id) else { throw APIError.notFound("no client \(id)") }
        return (manifest, apps)
    }

    private func serviceFrom(_ context: ServerRequestContext) throws -> Authorization.Service {
        let name = try context.parameters.requireDecoded("service")
        guard let service = Authorization.Service(policyName: name) else {
            throw APIError.badRequest("service must be camera, microphone, photoLibrary or photoLibraryAdd, not \(name)")
        }
        return service
    }
}
