import Foundation
import HTTPTypes
import Hummingbird
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxMedia
import ShoeboxPicker

/// Albums, assets and their changes: `/api/albums`, `/api/assets`, `/api/fetches`. The user sees
/// everything; a client sees what its grants allow (the library checks every call).
struct LibraryRoutes {
    let state: ServerState

    func register(on api: RouterGroup<ServerRequestContext>) {
        struct Health: Encodable {
            let ok: Bool
            let version: String
            let library: String
        }
        api.get("health") { _, _ in
            try JSONResponse.make(Health(ok: true, version: ShoeboxServerVersion.current, library: state.library.url.lastPathComponent))
        }
        registerAlbums(on: api)
        registerAssets(on: api)
        registerFetches(on: api)
        registerChanges(on: api)
    }

    // MARK: Albums

    struct AlbumList: Encodable {
        let smartAlbums: [AlbumJSON]
        let albums: [AlbumJSON]
        let folders: [AlbumJSON]
        /// How many days Recently Deleted keeps things.
        let trashRetentionDays: Double
    }

    private func registerAlbums(on api: RouterGroup<ServerRequestContext>) {
        api.get("albums") { _, context in
            let library = try state.handle(for: context.caller).library
            do {
                let smart = try await library.fetchAssetCollections(with: .smartAlbum).allObjects()
                let albums = try await library.fetchAssetCollections(with: .album).allObjects()
                let folders = try await library.fetchAssetCollections(with: .folder).allObjects()
                let retention = try await state.library.trashRetention() / 86_400
                return try JSONResponse.make(
                    AlbumList(
                        smartAlbums: smart.map { AlbumJSON($0) }, albums: albums.map { AlbumJSON($0) },
                        folders: folders.map { AlbumJSON($0) }, trashRetentionDays: retention))
            } catch {
                throw APIError(error)
            }
        }
        api.post("albums") { request, context in
            let library = try state.handle(for: context.caller).library
            let body = try await JSONResponse.decode(RequestBody.NewAlbum.self, from: request)
            let title = body.title  // the library trims it and keeps to its rule (AssetCollectionChangeRequest.validatedTitle)
            var placeholder: String?
            let members = try await library.fetchAssets(withLocalIdentifiers: body.assets ?? []).allObjects()
            var folder: AssetCollection?
            if let identifier = body.folder {
                guard let found = try await library.assetCollection(withLocalIdentifier: identifier), found.assetCollectionType == .folder else {
                    throw APIError.notFound("no folder \(identifier)")
                }
                folder = found
            }
            try await library.performChanges {
                let change = AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                if !members.isEmpty { change.addAssets(members) }
                if let folder { change.moveToFolder(folder) }
                placeholder = change.placeholderForCreatedAssetCollection?.localIdentifier
            }
            guard let id = placeholder, let album = try await library.assetCollection(withLocalIdentifier: id) else {
                throw APIError(.internalServerError, "internal", "the album was not created")
            }
            return try JSONResponse.make(AlbumJSON(album), status: .created)
        }
        api.patch("albums/:album") { request, context in
            let (library, album) = try await albumFrom(context)
            let title = try await JSONResponse.decode(RequestBody.Rename.self, from: request).title
            try await library.performChanges { AssetCollectionChangeRequest(for: album).title = title }
            return try await JSONResponse.make(AlbumJSON(try library.assetCollection(withLocalIdentifier: album.localIdentifier) ?? album))
        }
        api.delete("albums/:album") { _, context in
            let (library, album) = try await albumFrom(context)
            try await library.performChanges { AssetCollectionChangeRequest.deleteAssetCollections([album]) }
            return Response(status: .noContent)
        }
        for action in ["add", "remove"] {
            api.post("albums/:album/\(action)") { request, context in
                let (library, album) = try await albumFrom(context)
                let body = try await JSONResponse.decode(RequestBody.Members.self, from: request)
                let assets = try await library.fetchAssets(withLocalIdentifiers: body.assets).allObjects()
                guard assets.count == Set(body.assets).count else { throw APIError.notFound("some of those assets are not in the library") }
                try await library.performChanges {
                    let change = AssetCollectionChangeRequest(for: album)
                    if action == "add" { change.addAssets(assets) } else { change.removeAssets(assets) }
                }
                return try await JSONResponse.make(AlbumJSON(try library.assetCollection(withLocalIdentifier: album.localIdentifier) ?? album))
            }
        }
    }

    private func albumFrom(_ context: ServerRequestContext) async throws -> (PhotoLibrary, AssetCollection) {
        let library = try state.handle(for: context.caller).library
        let id = try context.parameters.requireDecoded("album")
        guard let album = try await library.assetCollection(withLocalIdentifier: id), album.assetCollectionType != .smartAlbum else {
            throw APIError.notFound("no user album \(id)")
        }
        return (library, album)
    }

    // MARK: Assets

    private func registerAssets(on api: RouterGroup<ServerRequestContext>) {
        api.get("assets") { request, context in
            let library = try state.handle(for: context.caller).library
            let parameters = request.uri.queryParameters
            let query = try FetchQuery(parameters: parameters)
            var (options, collection) = try await query.resolve(in: library)
            if let collection {
                guard let scoped = library.fetchOptions(for: collection, base: options) else { return AssetJSON.pageResponse([], next: nil) }
                options = scoped
            }
            let limit = min(max(parameters.get("limit", as: Int.self) ?? 200, 1), 1_000)
            var after: Asset?
            if let cursor = parameters.get("after") {
                after = try await library.fetchAssets(withLocalIdentifiers: [cursor]).firstObject
                guard after != nil else { throw APIError.badRequest("the cursor \(cursor) names no asset (deleted?): start again without after") }
            }
            let page = try await library.fetchAssetPage(with: options, after: after, limit: limit)
            return AssetJSON.pageResponse(await AssetJSON.list(page.assets, in: library), next: page.hasMore ? page.assets.last?.localIdentifier : nil)
        }
        api.get("assets/:asset") { _, context in
            let library = try state.handle(for: context.caller).library
            let asset = try await library.viewableAsset(withLocalIdentifier: try context.parameters.requireDecoded("asset"), action: "detail")
            return try JSONResponse.make(try await AssetDetail(asset, library: library))
        }
        api.patch("assets/:asset") { request, context in
            let (library, asset) = try await assetFrom(context)
            let body = try await JSONResponse.decode(RequestBody.Edit.self, from: request)
            if let value = body.representsBurst, !value {
                throw APIError.badRequest("representsBurst can only be set to true: make another frame the key photo instead")
            }
            let adjustment = body.metadata.changesSomething ? try body.metadata.adjustment() : nil
            if body.isFavorite != nil || body.isHidden != nil || body.representsBurst == true {
                try await library.performChanges {
                    let change = AssetChangeRequest(for: asset)
                    if let value = body.isFavorite { change.isFavorite = value }
                    if let value = body.isHidden { change.isHidden = value }
                    if body.representsBurst == true { change.makeKeyPhotoOfBurst() }
                }
            }
            if let adjustment {
                do { try await library.adjustMetadata(of: [asset], adjustment) } catch { throw APIError(error) }
            }
            return try await JSONResponse.make(await AssetJSON.one(try reloaded(asset, in: library), in: library))
        }
        api.delete("assets/:asset") { request, context in
            let (library, asset) = try await assetFrom(context)
            // ?wholeBurst=true: a burst's key photo takes its frames with it.
            let whole = try FetchQuery.bool(request.uri.queryParameters, "wholeBurst") ?? false
            let assets = whole ? try await library.withWholeBursts([asset]) : [asset]
            try await confirmDeletion(of: assets, permanently: false, context: context)
            try await library.performChanges { AssetChangeRequest.deleteAssets(assets) }
            return try await JSONResponse.make(await AssetJSON.one(try reloaded(asset, in: library), in: library))
        }
        api.post("assets/:asset/restore") { _, context in
            let (library, asset) = try await assetFrom(context)
            try await library.performChanges { AssetChangeRequest.restoreAssets([asset]) }
            return try await JSONResponse.make(await AssetJSON.one(try reloaded(asset, in: library), in: library))
        }
        api.post("assets/:asset/purge") { _, context in
            let (library, asset) = try await assetFrom(context)
            try await confirmDeletion(of: [asset], permanently: true, context: context)
            try await library.performChanges { AssetChangeRequest.purgeAssets([asset]) }
            return Response(status: .noContent)
        }
        // The assets: named, or every asset of a fetch but those excepted (the web app's Select
        // All, Recover All and Delete All, however many are loaded).
        api.post("assets/batch") { request, context in
            let library = try state.handle(for: context.caller).library
            let body = try await JSONResponse.decode(RequestBody.Batch.self, from: request)
            guard let action = AssetBatchAction(rawValue: body.action) else {
                let names = AssetBatchAction.allCases.map(\.rawValue)
                throw APIError.badRequest("action must be \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")")
            }
            let assets = try await AssetSelection.assets(
                named: body.assets, fetch: body.fetch, except: body.except, wholeBursts: body.wholeBursts == true && action.appliesToWholeBursts,
                in: library, state: state, context: context)
            guard !assets.isEmpty else { return try JSONResponse.make(["done": 0]) }
            var album: AssetCollection?
            if let identifier = body.album { album = try await library.assetCollection(withLocalIdentifier: identifier) }
            if action.needsAlbum, album?.assetCollectionType != .album {
                throw APIError.badRequest("\(action.rawValue) needs an album")
            }
            if action.deletes {
                try await confirmDeletion(of: assets, permanently: action == .purge, context: context)
            }
            try await library.perform(action, on: assets, album: album)
            return try JSONResponse.make(["done": assets.count])
        }
    }

    /// A client's deletion waits for the user's answer in the web app, as PhotoKit asks before an
    /// app deletes (the user's own deletions ask in the app before they are sent). `403
    /// deletionDeclined` when the user says no; `503 cannotPrompt` when nobody answers.
    private func confirmDeletion(of assets: [Asset], permanently: Bool, context: ServerRequestContext) async throws {
        guard case .client(let manifest, let person) = context.caller else { return }
        let allowed: Bool
        do {
            allowed = try await state.apps(for: person).prompter.confirmDeletion(by: manifest, of: assets, permanently: permanently)
        } catch {
            throw APIError(authorization: error)
        }
        guard allowed else {
            try state.handle(for: context.caller).library.logDeclinedDeletion(of: assets.map(\.localIdentifier), permanently: permanently)
            throw APIError.forbidden(
                "deletionDeclined",
                "the user did not allow “\(manifest.displayName)” to delete \(assets.count == 1 ? "this item" : "these \(assets.count) items")")
        }
    }

    private func assetFrom(_ context: ServerRequestContext) async throws -> (PhotoLibrary, Asset) {
        let library = try state.handle(for: context.caller).library
        let id = try context.parameters.requireDecoded("asset")
        guard let asset = try await library.fetchAssets(withLocalIdentifiers: [id]).firstObject else { throw APIError.notFound("no asset \(id)") }
        return (library, asset)
    }

    private func reloaded(_ asset: Asset, in library: PhotoLibrary) async throws -> Asset {
        try await library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject ?? asset
    }

    // MARK: Fetches (the grid's snapshots)

    /// `page` in the body of `POST /api/fetches`: how many of the fetch's first assets to answer with.
    struct FirstPage: Decodable {
        var page: Int?
    }

    struct FetchCreated: Encodable {
        let id: String
        let count: Int
        let sections: [PhotoLibrary.MonthSection]?
        /// The change token the result reflects: change events after it are this fetch's.
        let changeToken: String
        /// With `search`: what the text was understood as (`“italy”`, `2019`, `Videos`).
        let search: [String]?
    }

    private func registerFetches(on api: RouterGroup<ServerRequestContext>) {
        api.post("fetches") { request, context in
            let library = try state.handle(for: context.caller).library
            var body = request
            let bytes = Data(try await body.collectBody(upTo: 1 << 20).readableBytesView)
            let query = try JSONResponse.decode(FetchQuery.self, from: bytes)
            let firstPage = try JSONResponse.decode(FirstPage.self, from: bytes).page
            if let firstPage, !(1...1_000).contains(firstPage) { throw APIError.badRequest("page is how many assets to answer with, 1 to 1,000") }
            // The token first: a change committed while the fetch runs comes as an event.
            let token = try await library.currentChangeToken
            let (result, sections) = try await fetchWithSections(query, in: library)
            let snapshot = state.fetches.add(result, query: query, owner: context.caller.owner, token: token)
            let created = FetchCreated(
                id: snapshot.id, count: result.count, sections: sections, changeToken: token.description,
                search: query.search.map { SearchQuery($0).terms.map(\.label) })
            guard let firstPage else { return try await JSONResponse.make(created, status: .created) }
            // The grid's first page in the same answer: one round trip less before the first row.
            let assets = try await result.objects(in: 0..<min(firstPage, result.count))
            let page = AssetJSON.fetchPageBytes(await AssetJSON.list(assets, in: library), offset: 0, count: result.count)
            var answer = [UInt8](try JSONResponse.encoder.encode(created))

            answer.removeLast()
            answer += Array(#","page":"#.utf8) + page + [UInt8(ascii: "}")]
            return JSONResponse.make(bytes: answer, status: .created)
        }
        api.get("fetches/:fetch/assets") { request, context in
            // Who is asking first: nobody holds no fetch.
            let library = try state.handle(for: context.caller).library
            let snapshot = try fetchSnapshot(context)
            let parameters = request.uri.queryParameters
            let count = snapshot.result.count
            let offset = min(max(parameters.get("offset", as: Int.self) ?? 0, 0), count)
            let limit = min(max(parameters.get("limit", as: Int.self) ?? 200, 1), 1_000)
            let assets = try await snapshot.result.objects(in: offset..<min(offset + limit, count))
            return AssetJSON.fetchPageResponse(await AssetJSON.list(assets, in: library), offset: offset, count: count)
        }
        registerFetchIndex(on: api)
        registerFetchSummary(on: api)
    }

    /// The caller's fetch named by `:fetch`; `404` when there is none (or it expired, or is another caller's).
    private func fetchSnapshot(_ context: ServerRequestContext) throws -> FetchSnapshots.Snapshot {
        let id = try context.parameters.requireDecoded("fetch")
        guard let snapshot = state.fetches.snapshot(id, owner: context.caller.owner) else {
            throw APIError.notFound("no fetch \(id) (fetches expire: make a new one)")
        }
        return snapshot
    }

    /// How many of a fetch's assets are favorites, however few are loaded (the web app's Select
    /// All offers Unfavorite when every selected one is): `{"count", "favorites"}`.
    private func registerFetchSummary(on api: RouterGroup<ServerRequestContext>) {
        api.get("fetches/:fetch/summary") { _, context in
            let library = try state.handle(for: context.caller).library
            let snapshot = try fetchSnapshot(context)
            // The snapshot's assets as they are now (its loaded pages may be older than a change).
            let identifiers = try await snapshot.result.allObjects().map(\.localIdentifier)
            let assets = try await library.fetchAssets(withLocalIdentifiers: identifiers).allObjects()
            return try JSONResponse.make(["count": identifiers.count, "favorites": assets.filter(\.isFavorite).count])
        }
    }

    /// Where an asset is in a fetch (the web app reopens a photo's URL at its place): `{"index"}`.
    private func registerFetchIndex(on api: RouterGroup<ServerRequestContext>) {
        api.get("fetches/:fetch/index") { request, context in
            let library = try state.handle(for: context.caller).library
            let snapshot = try fetchSnapshot(context)
            guard let assetID = request.uri.queryParameters.get("asset") else { throw APIError.badRequest("say which asset: ?asset=ID") }
            var found = try await library.fetchAssets(withLocalIdentifiers: [assetID]).firstObject
            if found == nil { found = try await library.partnerAsset(withLocalIdentifier: assetID) }
            guard let asset = found, let index = snapshot.result.index(of: asset)
            else {
                throw APIError.notFound("the fetch \(try context.parameters.requireDecoded("fetch")) has no asset \(assetID)")
            }
            return try JSONResponse.make(["index": index])
        }
    }

    /// A new fetch's assets and, for listings by creation date, its date sections: for the whole
    /// library (Recents, a search there) from one read of the catalog.
    func fetchWithSections(_ query: FetchQuery, in library: PhotoLibrary) async throws -> (FetchResult<Asset>, [PhotoLibrary.MonthSection]?) {
        let (options, collection) = try await query.resolve(in: library)
        guard collection == nil, options.sortDescriptors.first?.key ?? .creationDate == .creationDate else {
            return (try await query.fetch(in: library), try await sections(for: query, in: library))
        }
        do {
            return try await library.fetchAssetsWithMonthSections(with: options)
        } catch {
            throw APIError(library: error)
        }
    }

    /// Date sections, for listings by creation date.
    func sections(for query: FetchQuery, in library: PhotoLibrary) async throws -> [PhotoLibrary.MonthSection]? {
        let (options, collection) = try await query.resolve(in: library)
        if let collection, collection.assetCollectionType == .album, query.sort == nil { return nil }
        guard options.sortDescriptors.first?.key ?? .creationDate == .creationDate else { return nil }
        if let collection {
            guard let scoped = library.fetchOptions(for: collection, base: options),
                scoped.sortDescriptors.first?.key == .creationDate
            else { return nil }
            return try await library.fetchMonthSections(with: scoped)
        }
        return try await library.fetchMonthSections(with: options)
    }

    // MARK: Changes

    private func registerChanges(on api: RouterGroup<ServerRequestContext>) {
        api.get("events") { request, context in
            let caller = context.caller
            let library = try state.handle(for: caller).library
            let owner = caller.owner
            let parameters = request.uri.queryParameters
            // A client hears of changes only when it may read the library (403 otherwise).
            if !caller.isUser { _ = try await library.currentChangeToken }
            // Where the client is: the last event it got (a browser connecting again), the token
            // it names, or its fetch's.
            var since: PersistentChangeToken?
            if let text = request.headers[HTTPField.Name("Last-Event-ID")!] ?? parameters.get("since") {
                guard let token = PersistentChangeToken(text) else { throw APIError.badRequest("\(text) is not a change token") }
                since = token
            }
            var fetchID = parameters.get("fetch")
            var reset: String?
            if let id = fetchID {
                if let snapshot = state.fetches.snapshot(id, owner: owner) {
                    // The server moved the snapshot past what the client last got: their indexes
                    // no longer agree.
                    if let token = since, snapshot.token > token { reset = "the fetch \(id) moved past change \(token)" }
                    since = since ?? snapshot.token
                } else {
                    reset = "no fetch \(id) (fetches expire: make a new one)"
                }
            }
            var caughtUp: AsyncStream<PhotoLibraryChange>?
            if reset == nil, let token = since {
                caughtUp = state.changeHub(for: caller).subscribe(after: token)
                if caughtUp == nil { reset = "changes after \(token) are no longer held" }
            }
            if reset != nil { fetchID = nil }
            let changes = caughtUp ?? state.changeHub(for: caller).subscribe()
            // A person hears their own apps' questions and pickers.
            let prompts = caller.person.map { state.apps(for: $0).prompter.questions() }
            let pickers = caller.person.map { (person: $0, sessions: state.pickers.presented()) }
            let routes = self
            return ServerSentEvents.response { [fetchID, reset] stream in
                // The client must load again: what it holds cannot be brought up to date.
                if let reset { try await stream.send("reset", ["reason": reset]) }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await change in changes {
                            // A client hears only of what it may see; when its grant is taken
                            // away, its stream ends (and connecting again is refused).
                            let visible: PhotoLibraryChange?
                            do {
                                visible = caller.isUser ? change : try await change.visible(to: library)
                            } catch {
                                return
                            }
                            // Only a partner's photos changed: the library event would name nothing
                            // (the open fetch's details below show what the share lets it).
                            if let visible, !visible.isOnlyPartnerAssets {
                                try await stream.send("library", LibraryChangeJSON(visible), id: change.token.description)
                            } else {
                                try await stream.advance(to: change.token.description)
                            }
                            // The details come from the caller's own snapshot, scoped by its grant.
                            if let fetchID { try await routes.sendDetails(of: change, fetch: fetchID, owner: owner, library: library, to: stream) }
                        }
                    }
                    if let prompts {
                        // Questions waiting now, then each as it is raised or settled, on any server.
                        group.addTask {
                            for await event in prompts {
                                switch event {
                                case .raised(let question): try await stream.send("prompt", PromptJSON(question))
                                case .settled(let id): try await stream.send("promptSettled", ["id": id])
                                }
                            }
                        }
                    }
                    if let pickers {
                        group.addTask {
                            for await session in pickers.sessions where PickerRegistry.personID(of: session) == pickers.person.rowID {
                                try await stream.send(
                                    "picker",
                                    [
                                        "id": session.id, "url": "/pick/\(session.id)",
                                        "client": session.request.clientDisplayName ?? session.request.clientIdentifier ?? "",
                                    ])
                            }
                        }
                    }
                    group.addTask { try await stream.heartbeat() }
                    try await group.next()
                    group.cancelAll()
                }
            }
        }
    }

    struct LibraryChangeJSON: Encodable {
        let inserted: [String]
        let changed: [String]
        let removed: [String]
        let albums: [String]
        /// Shared albums whose people, photos, likes or comments changed (the caller's own and
        /// those shared with them).
        let sharedAlbums: [String]
        /// The people whose partner sharing with the caller changed (either side).
        let partners: [String]
        /// The people whose place in the Shared Library changed (absent when none did).
        let sharedLibrary: [String]?
        init(_ change: PhotoLibraryChange) {
            inserted = change.insertedAssetIdentifiers.sorted()
            changed = change.changedAssetIdentifiers.sorted()
            removed = change.removedAssetIdentifiers.sorted()
            albums = change.changedCollectionIdentifiers.sorted()
            sharedAlbums = change.changedSharedAlbumIdentifiers.sorted()
            partners = change.changedPartnerIdentifiers.sorted()
            sharedLibrary = change.changedSharedLibraryParticipants.isEmpty ? nil : change.changedSharedLibraryParticipants.sorted()
        }
    }

    /// A fetch result's change details, in `PHFetchResultChangeDetails`' apply order: remove
    /// (indexes before), insert (indexes after), then changed (indexes after) and moves.
    struct DetailsJSON: Encodable {
        let fetch: String
        let count: Int
        let removed: [Int]
        let inserted: [Int]
        let changed: [Int]
        let moves: [[Int]]
        /// The inserted and changed assets, by index after the change, so a grid updates in place.
        let assets: [String: AssetJSON]
        let sections: [PhotoLibrary.MonthSection]?
    }

    func sendDetails(of change: PhotoLibraryChange, fetch: String, owner: String, library: PhotoLibrary, to stream: ServerSentEvents.Stream) async throws {
        guard let snapshot = state.fetches.snapshot(fetch, owner: owner), snapshot.token < change.token else { return }
        guard let details = try await change.details(for: snapshot.result) else {
            _ = state.fetches.update(fetch, to: snapshot.result, token: change.token)
            return
        }
        let after = details.fetchResultAfterChanges
        // Another stream on the same fetch (a browser's new connection before the old one ended)
        // moved it on first: that one sends these details.
        guard state.fetches.update(fetch, to: after, token: change.token) else { return }
        var touched: [(index: Int, asset: Asset)] = []
        for index in details.insertedIndexes.union(details.changedIndexes) {
            if let asset = try await after.object(at: index) { touched.append((index, asset)) }
        }
        let listed = await AssetJSON.list(touched.map(\.asset), in: library)
        var assets: [String: AssetJSON] = [:]
        for (item, json) in zip(touched, listed) { assets[String(item.index)] = json }
        try await stream.send(
            "change",
            DetailsJSON(
                fetch: fetch, count: after.count, removed: Array(details.removedIndexes), inserted: Array(details.insertedIndexes),
                changed: Array(details.changedIndexes), moves: details.moves.map { [$0.from, $0.to] }, assets: assets,
                sections: try? sections(for: snapshot.query, in: library)))
    }
}

enum ShoeboxServerVersion {
    static let current = "0.2.0"
}
