import Foundation
import ShoeboxImaging
import ShoeboxMedia
import Synchronization

extension PhotoLibrary {
    /// A creation request whose file is staged and probed, ready to commit.
    struct PreparedCreation {
        let placeholder: String
        let staged: StagedBlob
        var row: AssetRecord
        /// Derivatives the probe made on the way (a photo's preview and grid thumbnail).
        var derivatives: [DerivativeStore.Staged] = []

        func discard(_ staging: Staging) {
            staging.discard(staged)
            for derivative in derivatives { try? FileManager.default.removeItem(at: derivative.temporary) }
        }
    }

    /// An edit's render, staged and probed, ready to commit.
    struct PreparedRender {
        let staged: StagedBlob
        let edit: ContentEdit
    }

    func apply(_ recorded: [ChangeTransaction.Request]) async throws(LibraryError) -> ChangeResult {
        let requests = recorded.compactMap { request -> AssetChangeRequest? in
            if case .asset(let asset) = request { return asset }
            return nil
        }
        // 1. Stage and probe every new file: imports and edits' renders. Any failure drops
        //    everything staged so far.
        var prepared: [PreparedCreation] = []
        var renders: [ObjectIdentifier: PreparedRender] = [:]
        do throws(LibraryError) {
            prepared = try await prepareCreations(requests)
            try Self.checkResources(requests, prepared: prepared)
            for request in requests {
                switch request.kind {
                case .modify(let identifier):
                    let values = request.currentValues
                    guard values.contentEditingOutput != nil || values.revertsContent else { continue }
                    guard let asset = try await catalog.asset(localIdentifier: identifier) else {
                        throw LibraryError.notFound(localIdentifier: identifier)
                    }
                    guard asset.canPerform(.content, client: clientIdentifier) else {
                        throw LibraryError.notEditable(localIdentifier: identifier, client: clientIdentifier)
                    }
                    if let output = values.contentEditingOutput {
                        renders[ObjectIdentifier(request)] = try await prepareRender(output, for: asset)
                    }
                default:
                    continue
                }
            }
        } catch {
            prepared.forEach { $0.discard(staging) }
            renders.values.forEach { staging.discard($0.staged) }
            throw error
        }

        // 2. The catalog changes. Whether a creation's bytes are new, a duplicate of a live asset
        //    or a trashed asset's (restored) is decided inside the commit's transaction, where no
        //    other change can interleave.
        var changes = CatalogChanges()
        var newByHash: [String: String] = [:]
        var claims: [BlobClaim] = []
        var collectionsCreated: [String] = []
        do throws(LibraryError) {
            for item in prepared {
                if let first = newByHash[item.staged.contentHash] {
                    // The same bytes twice in one change: one asset.
                    changes.aliases[item.placeholder] = first
                    item.discard(staging)
                    continue
                }
                newByHash[item.staged.contentHash] = item.row.localIdentifier
                changes.insertions.append(item.row)
                claims.append(BlobClaim(key: BlobKey(kind: .original, hash: item.staged.contentHash), pendingRecord: item.row))
            }
            for render in renders.values {
                claims.append(BlobClaim(key: BlobKey(kind: .render, hash: render.staged.contentHash), pendingRecord: nil))
            }
            let now = Date()
            for request in requests {
                switch request.kind {
                case .create:
                    continue
                case .modify(let identifier):
                    let values = request.currentValues
                    var content: ContentChange?
                    if let render = renders[ObjectIdentifier(request)] {
                        content = .edit(render.edit)
                    } else if values.revertsContent {
                        content = .revert
                    }
                    var update = AssetUpdate(
                        localIdentifier: identifier, isFavorite: values.isFavorite, isHidden: values.isHidden,
                        creationDate: values.creationDate, trashedDate: nil, location: values.location, content: content)
                    if !values.details.isEmpty { update.details = values.details }
                    update.captureTime = values.captureTime
                    update.revertsFields = AssetRecord.EditedFields(rawValue: values.revertsFields.rawValue)
                    if values.makesBurstKeyPhoto {
                        guard let asset = try await catalog.asset(localIdentifier: identifier) else {
                            throw LibraryError.notFound(localIdentifier: identifier)
                        }
                        guard asset.burstIdentifier != nil else {
                            throw LibraryError.invalidArgument("\(identifier) is no frame of a burst, so it cannot be a burst's key photo")
                        }
                        update.makesBurstKeyPhoto = true
                    }
                    changes.updates.append(update)
                case .delete(let identifiers):
                    for identifier in identifiers {
                        changes.updates.append(AssetUpdate(localIdentifier: identifier, trashedDate: .some(now)))
                    }
                case .restore(let identifiers):
                    for identifier in identifiers {
                        changes.updates.append(AssetUpdate(localIdentifier: identifier, trashedDate: .some(nil)))
                    }
                case .purge(let identifiers):
                    for identifier in identifiers {
                        guard let asset = try await catalog.asset(localIdentifier: identifier) else {
                            throw LibraryError.notFound(localIdentifier: identifier)
                        }
                        // Checked again inside the transaction: a restore or an import may come first.
                        guard asset.isTrashed else { continue }
                        changes.purges.append(identifier)
                    }
                }
            }
            for case .collection(let request) in recorded {
                switch request.kind {
                case .create(let title, let placeholder, let isFolder):
                    let title = try AssetCollectionChangeRequest.validatedTitle(title)
                    changes.albumCreations.append(.init(localIdentifier: placeholder, title: title, isFolder: isFolder, creatorClient: clientIdentifier))
                    collectionsCreated.append(placeholder)
                    let operations = try Self.validatingTitles(request.recordedOperations)
                    if !operations.isEmpty { changes.albumOperations.append((placeholder, operations)) }
                case .modify(let identifier):
                    guard !identifier.hasPrefix("SMART-") else {
                        throw LibraryError.invalidArgument("smart albums cannot be changed")
                    }
                    changes.albumOperations.append((identifier, try Self.validatingTitles(request.recordedOperations)))
                case .delete(let identifiers):
                    changes.albumDeletions += identifiers
                }
            }
        } catch {
            prepared.forEach { $0.discard(staging) }
            renders.values.forEach { staging.discard($0.staged) }
            throw error
        }

        // 3. Claim the blobs in the catalog, file them (flushed), then commit the rows: the row
        //    is the commit point. A crash before it leaves a claimed blob that the next process to
        //    open the library adopts (or removes, for a render); a failure takes back what this
        //    change filed unless another change holds it too.
        let claimID = UUID().uuidString
        var claimed = false
        let commit: CatalogCommit
        do throws(LibraryError) {
            if !claims.isEmpty {
                try await claim(claims, claimID: claimID)
                claimed = true
                changes.claimID = claimID
                changes.claimCount = claims.count
                await faults.reach(.afterClaim)
            }
            for item in prepared where newByHash[item.staged.contentHash] == item.row.localIdentifier {
                _ = try await blobs.store(
                    consuming: item.staged.url, size: item.staged.size,
                    as: BlobKey(kind: .original, hash: item.staged.contentHash))
            }
            for render in renders.values {
                _ = try await blobs.store(
                    consuming: render.staged.url, size: render.staged.size,
                    as: BlobKey(kind: .render, hash: render.staged.contentHash))
            }
            if !claims.isEmpty { await faults.reach(.afterRename) }
            if queuesBackgroundWork {
                changes.jobs = Self.jobs(forNew: changes.insertions, edited: changes.updates.filter { $0.content != nil }.map(\.localIdentifier))
            }
            let faults = self.faults
            commit = try await catalog.apply(changes) { faults.crashIfArmed(.insideCommit) }
        } catch {
            // All or nothing: the catalog refused the change, so no row refers to what it filed;
            // it goes unless another change holds it too.
            if claimed, let marked = try? await catalog.releaseClaims(claimID, candidates: claims.map(\.key)) {
                await removeMarkedBlobs(marked)
            }
            prepared.forEach { $0.discard(staging) }
            renders.values.forEach { staging.discard($0.staged) }
            throw error
        }
        withExtendedLifetime(prepared) {}
        await faults.reach(.afterCommit)

        // 4. Only now may bytes go: those the commit marked for removal (no asset refers to them
        //    and no change holds them). A crash here leaves the marks, which the next process to
        //    open the library completes.
        if !commit.removals.isEmpty {
            await faults.reach(.duringPurge)
            await removeMarkedBlobs(commit.removals)
        }

        var created: [ChangeResult.Creation] = []
        for item in prepared {
            let placeholder = item.placeholder
            let first = newByHash[item.staged.contentHash] ?? placeholder
            if first != placeholder {
                // A repeat within this change: whatever the first became.
                let target = commit.duplicates[first] ?? commit.restored[first] ?? first
                created.append(.init(placeholderIdentifier: placeholder, localIdentifier: target, isDuplicate: true))
            } else if let existing = commit.duplicates[placeholder] {
                created.append(.init(placeholderIdentifier: placeholder, localIdentifier: existing, isDuplicate: true))
            } else if let photo = commit.paired[placeholder] {
                created.append(.init(placeholderIdentifier: placeholder, localIdentifier: photo, isDuplicate: false, isPairedResource: true))
            } else if let existing = commit.restored[placeholder] {
                created.append(.init(placeholderIdentifier: placeholder, localIdentifier: existing, isDuplicate: true, isRestored: true))
            } else {
                created.append(.init(placeholderIdentifier: placeholder, localIdentifier: placeholder, isDuplicate: false))
            }
        }
        let inserted = Set(created.filter { !$0.isDuplicate && !$0.isPairedResource }.map(\.localIdentifier))
        let madeByProbe = Set(prepared.filter { !$0.derivatives.isEmpty }.map(\.row.localIdentifier))
        scheduleDerivatives(
            inserted: inserted.filter { !madeByProbe.contains($0) }.sorted(),
            edited: changes.updates.compactMap { $0.content == nil ? nil : $0.localIdentifier })
        // The probes' derivatives join the cache now that their sources are in the library (on
        // the pool: the cache's first accounting in a process walks it, and uploads commit here).
        let derivatives = self.derivatives
        let staged = prepared.map { (adopted: inserted.contains($0.placeholder), derivatives: $0.derivatives) }
        if staged.contains(where: { !$0.derivatives.isEmpty }) {
            await BlockingPool.shared.run {
                for item in staged {
                    if item.adopted {
                        item.derivatives.forEach(derivatives.adopt)
                    } else {
                        item.derivatives.forEach { try? FileManager.default.removeItem(at: $0.temporary) }
                    }
                }
            }
        }
        let pairedAssets = commit.paired.keys.filter { identifier in !prepared.contains { $0.placeholder == identifier } }.sorted()
        logAll(
            created.filter { !$0.isDuplicate && !$0.isPairedResource }.map { ("create", $0.localIdentifier, nil) }
                + created.filter(\.isPairedResource).map { ("pair", $0.localIdentifier, nil) }
                + pairedAssets.map { ("delete", $0, nil) }
                + created.filter(\.isRestored).map { ("restore", $0.localIdentifier, nil) }
                + changes.updates.map { ("update", $0.localIdentifier, nil) }
                + commit.purged.map { ("delete", $0, nil) }
                + (changes.albumCreations.map(\.localIdentifier) + changes.albumOperations.map(\.localIdentifier) + changes.albumDeletions)
                .map { ("album", $0, nil) })
        var result = ChangeResult(created: created, createdCollections: collectionsCreated)
        result.pairedAssets = pairedAssets
        return result
    }

    /// Claims blobs for a change, waiting while another process removes one of them (a removal
    /// takes one file operation, so the wait is short; a remover that died is taken over once
    /// its hold lapses).
    func claim(_ claims: [BlobClaim], claimID: String) async throws(LibraryError) {
        let deadline = ContinuousClock.now + .seconds(60)
        var pause = Duration.milliseconds(5)
        while true {
            switch try await catalog.claim(
                claims, claimID: claimID, owner: ProcessIdentity.current.description,
                expires: Date().addingTimeInterval(BlobClaim.lease))
            {
            case .claimed:
                return
            case .busy(let key):
                guard ContinuousClock.now < deadline else {
                    throw .storage("the \(key.kind.rawValue) \(key.hash) has been being removed for a minute; try again later")
                }
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(200))
            }
        }
    }

    /// Removes blobs the catalog marked for removal (`nil`: every pending one), with their
    /// derivatives: each is taken in the catalog first (so no claim can come between), removed
    /// from the store, then its mark deleted. A failure gives the removal back for a later try.
    /// Returns the blobs removed.
    @discardableResult
    func removeMarkedBlobs(_ keys: [BlobKey]?) async -> [BlobKey] {
        guard let pending = keys != nil ? keys : try? await catalog.pendingRemovals() else { return [] }
        let remover = ProcessIdentity.current.description + "/" + UUID().uuidString
        var removed: [BlobKey] = []
        for key in pending {
            guard (try? await catalog.beginRemoval(of: key, remover: remover, expires: Date().addingTimeInterval(300))) == true else { continue }
            do {
                try await blobs.remove(key)
                try await catalog.finishRemoval(of: key, remover: remover, removed: true)
                let derivatives = self.derivatives
                await BlockingPool.shared.run { derivatives.removeAll(forSource: key.hash) }
                removed.append(key)
            } catch {
                try? await catalog.finishRemoval(of: key, remover: remover, removed: false)
            }
        }
        return removed
    }

    /// Checks that the files of each ``AssetCreationRequest`` make one asset, by what they are.
    private static func checkResources(_ requests: [AssetChangeRequest], prepared: [PreparedCreation]) throws(LibraryError) {
        let resources = requests.compactMap { request -> (placeholder: String, group: String, type: AssetResource.ResourceType)? in
            let values = request.currentValues
            guard let group = values.resourceGroup, let type = values.resourceType, let placeholder = request.placeholderForCreatedAsset
            else { return nil }
            return (placeholder.localIdentifier, group, type)
        }
        guard !resources.isEmpty else { return }
        let raw = Set(ImageFormat.allCases.filter(\.isRaw).map(\.uniformTypeIdentifier))
        var kinds: [String: (isMovie: Bool, isRaw: Bool, name: String)] = [:]
        for item in prepared {
            kinds[item.placeholder] = (
                item.row.mediaType == Asset.MediaType.video.rawValue, raw.contains(item.row.uniformTypeIdentifier),
                item.row.originalFilename
            )
        }
        try AssetCreationRequest.validate(resources, kinds: kinds)
    }

    /// Stages and probes every creation request, up to one per core at a time, in request order.
    /// Any failure drops everything staged.
    private func prepareCreations(_ requests: [AssetChangeRequest]) async throws(LibraryError) -> [PreparedCreation] {
        let creations = requests.compactMap { request -> (AssetChangeRequest.Source, String, AssetChangeRequest.Values)? in
            guard case .create(let source) = request.kind, let placeholder = request.placeholderForCreatedAsset else { return nil }
            return (source, placeholder.localIdentifier, request.currentValues)
        }
        if creations.count == 1 {
            return [try await prepare(creations[0].0, placeholder: creations[0].1, values: creations[0].2)]
        }
        let width = ProcessInfo.processInfo.activeProcessorCount
        var results = [PreparedCreation?](repeating: nil, count: creations.count)
        var failure: LibraryError?
        await withTaskGroup(of: (Int, Result<PreparedCreation, LibraryError>).self) { group in
            var next = 0
            func add() {
                guard next < creations.count, failure == nil else { return }
                let index = next
                let (source, placeholder, values) = creations[index]
                group.addTask {
                    do throws(LibraryError) {
                        return (index, .success(try await self.prepare(source, placeholder: placeholder, values: values)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
                next += 1
            }
            for _ in 0..<width { add() }
            for await (index, result) in group {
                switch result {
                case .success(let item): results[index] = item
                case .failure(let error): failure = failure ?? error
                }
                add()
            }
        }
        if let failure {
            results.compactMap { $0 }.forEach { $0.discard(staging) }
            throw failure
        }
        return results.compactMap { $0 }
    }

    /// Starts making the standard derivatives of new and edited assets in the background.
    private func scheduleDerivatives(inserted: [String], edited: [String]) {
        guard generatesDerivativesInBackground, !queuesBackgroundWork else { return }
        let identifiers = Array(Set(inserted + edited))
        guard !identifiers.isEmpty else { return }
        let store = derivatives
        store.inBackground { [self] in
            // A failure here only means the derivatives are made on first request instead.
            guard let assets = try? await catalog.assets(localIdentifiers: identifiers) else { return }
            for asset in assets.values {
                guard let source = try? await versionSource(of: asset, original: false) else { continue }
                _ = try? await DerivativeRenderer.makeStandardDerivatives(of: source, in: store)
            }
        }
    }

    /// `operations` with every new title as the library keeps it (``AssetCollectionChangeRequest/validatedTitle(_:)``).
    private static func validatingTitles(_ operations: [AssetCollectionChangeRequest.Operation]) throws(LibraryError) -> [AssetCollectionChangeRequest
        .Operation]
    {
        var result: [AssetCollectionChangeRequest.Operation] = []
        for operation in operations {
            if case .rename(let title) = operation {
                result.append(.rename(try AssetCollectionChangeRequest.validatedTitle(title)))
            } else {
                result.append(operation)
            }
        }
        return result
    }

    private func prepare(_ source: AssetChangeRequest.Source, placeholder: String, values: AssetChangeRequest.Values) async throws(LibraryError)
        -> PreparedCreation
    {
        let staged: StagedBlob
        let filename: String
        var fileDate: Date?
        var values = values
        switch source {
        case .modifiedVersion(let original, let output):
            let renderedURL = output.renderedContentURL
            guard FileManager.default.fileExists(atPath: renderedURL.path) else {
                throw .invalidArgument("the edit's rendered content was never written to \(renderedURL.path)")
            }
            filename = (original.originalFilename as NSString).deletingPathExtension + "_edited." + renderedURL.pathExtension
            staged = try await staging.stage(copying: renderedURL)
            if values.creationDate == nil { values.creationDate = original.creationDate }
            if values.location == nil { values.location = .some(original.location) }
        case .image(let url), .video(let url), .file(let url):
            filename = url.lastPathComponent
            fileDate = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]) as? Date
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                // A name given as text that was not UTF-8 arrives with U+FFFD in it, naming no file;
                // a folder import reads such names as bytes (``ImportFileList``).
                let missing =
                    url.path.contains("\u{FFFD}")
                    ? "no such file (its name is not valid UTF-8 and was changed on the way in: import its folder instead)" : "no such file"
                throw .importFailed(path: url.path, code: .io, message: isDirectory.boolValue ? "is a directory" : missing)
            }
            staged = try await staging.stage(copying: url)
        case .written(let url, let contentHash, let size):
            filename = url.lastPathComponent
            fileDate = Date()
            staged = try await staging.stage(adopting: url, contentHash: contentHash, size: size)
        case .data(let data, let metadata, let name):
            filename = name
            var bytes = data
            if let metadata {
                // The caller's camera fields go into the file (JPEG and PNG; others keep their bytes);
                // bytes that do not open are left for the probe to name what is wrong.
                bytes = (try? await BlockingPool.shared.run { () throws(ImageError) -> Data in try Image.embeddingMetadata(metadata, in: data) }) ?? data
            }
            staged = try await staging.stage(data: bytes, name: name)
        }
        // Takeout's time stands in for the file's own clock: it is used only when the file has none.
        if let taken = values.takeout?.takenDate { fileDate = taken }
        do {
            // Queued work is done by a worker; otherwise the probe's decode makes the derivatives.
            let collector = generatesDerivativesInBackground && !queuesBackgroundWork ? DerivativeCollector() : nil
            var row = try await probe(
                staged, source: source, filename: filename, placeholder: placeholder, fileDate: fileDate,
                derivatives: collector)
            let derivatives = collector?.staged ?? []
            // A file of an AssetCreationRequest pairs with the request's other file, as given.
            if let group = values.resourceGroup { row.pairingIdentifier = group }
            if let name = values.filename, !name.isEmpty { row.originalFilename = name }
            var update = AssetUpdate(
                localIdentifier: placeholder, isFavorite: values.isFavorite, isHidden: values.isHidden,
                creationDate: values.creationDate, trashedDate: nil, location: values.location)
            if !values.details.isEmpty { update.details = values.details }
            row.apply(update)
            if let takeout = values.takeout { await apply(takeout, to: &row) }
            if let sidecar = values.sidecar { await apply(sidecar, to: &row) }
            // A client's creations are its own whatever it claims; Shoebox's tools may name one.
            row.creatorClient = clientIdentifier ?? values.creatorClient
            if case .modifiedVersion(let original, _) = source {
                row.pairingIdentifier = nil  // a modified version is no half of a Live Photo, nor a frame of a burst
                row.burstIdentifier = nil
                row.originalAssetIdentifier = original.localIdentifier
                // Taken when and where the original was (the apply above set the instant).
                row.timeZoneOffset = original.timeZoneOffset
                row.timeZoneIdentifier = original.timeZoneIdentifier
            }
            return PreparedCreation(placeholder: placeholder, staged: staged, row: row, derivatives: derivatives)
        } catch {
            staging.discard(staged)
            throw error
        }
    }

    /// Stages and probes an edit's render.
    private func prepareRender(_ output: ContentEditingOutput, for asset: Asset) async throws(LibraryError) -> PreparedRender {
        guard output.assetLocalIdentifier == asset.localIdentifier else {
            throw .invalidArgument("the editing output is for \(output.assetLocalIdentifier), not \(asset.localIdentifier)")
        }
        guard let adjustmentData = output.adjustmentData else {
            throw .invalidArgument("an edit of \(asset.localIdentifier) needs adjustment data")
        }
        guard adjustmentData.data.count <= AdjustmentData.maximumDataSize else {
            throw .invalidArgument("adjustment data of \(adjustmentData.data.count) bytes is over the \(AdjustmentData.maximumDataSize)-byte limit")
        }
        let url = output.renderedContentURL
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .invalidArgument("the edit's rendered content was never written to \(url.path)")
        }
        let staged = try await staging.stage(copying: url)
        do {
            let source: AssetChangeRequest.Source = asset.mediaType == .video ? .video(url) : .image(url)
            let row = try await probe(staged, source: source, filename: url.lastPathComponent, placeholder: asset.localIdentifier, fileDate: nil)
            let edit = ContentEdit(
                renderHash: staged.contentHash, renderUniformTypeIdentifier: row.uniformTypeIdentifier, renderFileSize: staged.size,
                pixelWidth: row.pixelWidth, pixelHeight: row.pixelHeight, duration: row.duration,
                adjustmentData: adjustmentData, editorClient: clientIdentifier, date: Date())
            return PreparedRender(staged: staged, edit: edit)
        } catch {
            staging.discard(staged)
            if error.path != nil {
                throw .renderFailed(
                    "the rendered content is not a \(asset.mediaType == .video ? "movie" : "photo") the library keeps (\(error.code): \(error.message))",
                    underlying: error)
            }
            throw error
        }
    }

    /// Reads what the catalog needs from a staged file and proves its pixels decode. With
    /// `derivatives`, the decode that proves it also makes the photo's preview and grid
    /// thumbnail (a second full decode would cost as much again).
    private func probe(
        _ staged: StagedBlob, source: AssetChangeRequest.Source, filename: String,
        placeholder: String, fileDate: Date?, derivatives: DerivativeCollector? = nil
    ) async throws(LibraryError) -> AssetRecord {
        let path = source.displayPath
        let head = (try? FileHandle(forReadingFrom: staged.url).read(upToCount: ImageFormat.sniffLength)) ?? nil
        let sniffed = ImageFormat(sniffing: [UInt8](head ?? Data()))
        let isImage = sniffed != nil
        let now = Date()
        // Sidecars and notes travel with photos; they are skipped, with a note, not failures.
        if !isImage, ImportProblem.isSidecar(filename, contents: staged.url) { throw ImportProblem.sidecar(path: path, filename: filename) }
        switch source {
        case .video where isImage:
            throw .importFailed(path: path, code: .unsupportedFormat, message: "an image, not a movie")
        case .image, .data:
            break
        case .video, .file, .written, .modifiedVersion:
            if !isImage { return try await probeMovie(staged, path: path, filename: filename, placeholder: placeholder, fileDate: fileDate, now: now) }
        }
        // Decoding a thumbnail reads every byte of the compressed data (at reduced scale, so it
        // is quick): a truncated or damaged file fails here instead of becoming an asset that can
        // never be shown. libvips works on the blocking pool, once the decode memory budget has
        // room for what the header says the decode will hold.
        let cache = self.derivatives
        let stagedURL = staged.url
        let hash = staged.contentHash
        let image: Image
        do {
            image = try await BlockingPool.shared.run { () throws(ImageError) -> Image in try Image(contentsOfFile: stagedURL.path) }
            let check = PixelSize(square: 64)
            // (An untyped closure: Swift 6.3's optimizer crashes on the thunk of a typed-throws one returning Void.)
            try await BlockingPool.shared.decode(image, for: .thumbnail(derivatives == nil ? check : DerivativeRenderer.preview.target)) {
                if let derivatives {
                    let preview = try image.thumbnail(targetSize: DerivativeRenderer.preview.target, contentMode: DerivativeRenderer.preview.mode)
                    let grid = try preview.thumbnail(targetSize: DerivativeRenderer.grid.target, contentMode: DerivativeRenderer.grid.mode)
                    for (spec, sized) in [(DerivativeRenderer.preview, preview), (DerivativeRenderer.grid, grid)] {
                        let url = try? cache.temporaryURL(forSource: hash, key: spec.key)
                        guard let url, (try? sized.encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.85, keepsMetadata: false)).write(to: url)) != nil
                        else { continue }  // the cache is best effort: the request path makes what is missing
                        derivatives.append(.init(temporary: url, key: spec.key, sourceHash: hash, info: "\(sized.pixelWidth)x\(sized.pixelHeight).jpg"))
                    }
                } else {
                    _ = try image.thumbnail(targetSize: check)
                }
                // A raw file's thumbnail may come from its preview: its sensor data must read too.
                try image.verifySensorData()
            }
        } catch is CancellationError {
            derivatives?.staged.forEach { try? FileManager.default.removeItem(at: $0.temporary) }
            throw .cancelled
        } catch {
            derivatives?.staged.forEach { try? FileManager.default.removeItem(at: $0.temporary) }
            if sniffed == nil { throw ImportProblem.unrecognized(stagedURL, path: path) }
            throw ImportProblem.photo(stagedURL, path: path, format: sniffed, error: error as? ImageError)
        }
        var metadata = image.metadata
        if case .data(_, let supplied?, _) = source {
            if let date = supplied.dateTimeOriginal { metadata.dateTimeOriginal = date }
            if supplied.latitude != nil {
                metadata.latitude = supplied.latitude
                metadata.longitude = supplied.longitude
                metadata.altitude = supplied.altitude
            }
        }
        let format = image.format ?? .jpeg
        let location = Self.location(of: metadata)
        let time = await Self.captureTime(of: metadata, places: configuration.places) ?? CaptureTime(date: fileDate ?? now)
        let camera = AssetUpdate.FileMetadata.Camera(metadata)  // none without a model, as a re-read gives it
        return AssetRecord(
            id: nil, localIdentifier: placeholder, mediaType: Asset.MediaType.image.rawValue,
            mediaSubtypes: Self.subtypes(format: format, size: image.pixelSize, metadata: metadata).rawValue,
            pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight,
            creationDate: time.date, modificationDate: now, addedDate: now,
            latitude: location?.latitude, longitude: location?.longitude, altitude: location?.altitude,
            duration: 0, isFavorite: false, isHidden: false, trashedDate: nil, originalFilename: filename,
            contentHash: staged.contentHash, uniformTypeIdentifier: format.uniformTypeIdentifier, fileSize: staged.size,
            creatorClient: nil, timeZoneOffset: time.timeZoneOffset, timeZoneIdentifier: time.timeZoneIdentifier,
            pairingIdentifier: Self.pairingIdentifier(of: metadata, filename: filename, fromFile: source.isFile),
            cameraMake: camera?.make, cameraModel: camera?.model, cameraSerialNumber: camera?.serialNumber,
            burstIdentifier: metadata.burstIdentifier, lensModel: metadata.lensModel, continuousDrive: camera?.continuousDrive)
    }

    /// Gives a new asset's row what its XMP sidecar says, over what the file says: the date (a
    /// time without a zone read in the zone of the place, as a file's is), the place, and the
    /// title, caption, keywords, rating and label. The date and place count as the person's
    /// (set in another app), so reading the file again keeps them.
    func apply(_ sidecar: XMPSidecar, to row: inout AssetRecord) async {
        // One update, as the person's: what the file said is kept for a revert.
        var update = AssetUpdate(localIdentifier: row.localIdentifier)
        if let location = sidecar.location { update.location = .some(location) }
        if let date = sidecar.date {
            var metadata = ImageMetadata()
            metadata.dateTimeOriginal = date
            let location = sidecar.location ?? row.currentLocation
            (metadata.latitude, metadata.longitude) = (location?.latitude, location?.longitude)
            update.captureTime = await Self.captureTime(of: metadata, places: configuration.places)
        }
        if !sidecar.details.isEmpty { update.details = sidecar.details }
        row.apply(update)
    }

    /// Gives a new asset's row what its Google Takeout JSON says where the file said nothing:
    /// the place (and, for a time that came from the JSON, the place's zone), the description
    /// as its caption, and the favorite mark. The time itself came in as the file's date.
    func apply(_ takeout: TakeoutMetadata, to row: inout AssetRecord) async {
        if row.latitude == nil, let location = takeout.location {
            (row.latitude, row.longitude, row.altitude) = (location.latitude, location.longitude, location.altitude)
            if row.timeZoneOffset == nil, let places = configuration.places {
                let instant = row.creationDate
                if let time = try? await BlockingPool.shared.run({ CaptureTime(instant: instant, recordedOffset: nil, location: location, places: places) }) {
                    row.captureTime = time
                }
            }
        }
        if row.caption == nil, let caption = takeout.caption {
            var update = AssetUpdate(localIdentifier: row.localIdentifier)
            update.details = .init(caption: caption)
            row.apply(update)
        }
        if takeout.isFavorite { row.isFavorite = true }
    }

    /// What pairs a photo with the other files of its shot: Apple's content identifier (a Live
    /// Photo's movie), else, for a file, its name without the extension and the time it was
    /// taken to the second (a camera's RAW+JPEG: `shot:img_0042@2024:05:01 10:11:12`).
    static func pairingIdentifier(of metadata: ImageMetadata, filename: String, fromFile: Bool) -> String? {
        if let identifier = metadata.contentIdentifier { return identifier }
        let stem = (filename as NSString).deletingPathExtension.lowercased()
        guard fromFile, !stem.isEmpty, let taken = metadata.dateTimeOriginal else { return nil }
        return "shot:\(stem)@\(taken.exifString.prefix(19))"
    }

    private func probeMovie(
        _ staged: StagedBlob, path: String, filename: String, placeholder: String,
        fileDate: Date?, now: Date
    ) async throws(LibraryError) -> AssetRecord {
        let info: MovieInfo
        do {
            info = try await MovieInfo(contentsOf: staged.url)
        } catch {
            throw ImportProblem.movie(staged.url, path: path, error: error)
        }
        do {
            try await Movie.checkDecodes(staged.url, info: info)
        } catch let error where error.code == .unsupportedFormat {
            throw .importFailed(path: path, code: .unsupportedFormat, message: "a movie Shoebox cannot play (\(error.detail))", underlying: error)
        } catch {
            throw ImportProblem.movie(staged.url, path: path, error: error)
        }
        let type = info.uniformType.identifier
        let time = await Self.captureTime(of: info, places: configuration.places) ?? CaptureTime(date: fileDate ?? now)
        return AssetRecord(
            id: nil, localIdentifier: placeholder, mediaType: Asset.MediaType.video.rawValue, mediaSubtypes: 0,
            pixelWidth: info.pixelSize.width, pixelHeight: info.pixelSize.height,
            creationDate: time.date, modificationDate: now, addedDate: now,
            latitude: info.latitude, longitude: info.longitude, altitude: info.altitude,
            duration: info.duration, isFavorite: false, isHidden: false, trashedDate: nil, originalFilename: filename,
            contentHash: staged.contentHash, uniformTypeIdentifier: type, fileSize: staged.size, creatorClient: nil,
            timeZoneOffset: time.timeZoneOffset, timeZoneIdentifier: time.timeZoneIdentifier, pairingIdentifier: info.contentIdentifier)
    }

    /// Screenshots: PNGs with no camera and no capture date. Panoramas: 2:1 or more.
    static func subtypes(format: ImageFormat, size: PixelSize, metadata: ImageMetadata) -> Asset.MediaSubtypes {
        var subtypes: Asset.MediaSubtypes = []
        let long = Double(max(size.width, size.height))
        let short = Double(max(1, min(size.width, size.height)))
        if long / short >= 2, long >= 2_000 { subtypes.insert(.photoPanorama) }
        if format == .png, metadata.make == nil, metadata.model == nil, metadata.dateTimeOriginal == nil {
            subtypes.insert(.photoScreenshot)
        }
        return subtypes
    }
}

/// Collects the derivatives a probe makes.
final class DerivativeCollector: Sendable {
    private let storage = Mutex<[DerivativeStore.Staged]>([])
    func append(_ staged: DerivativeStore.Staged) { storage.withLock { $0.append(staged) } }
    var staged: [DerivativeStore.Staged] { storage.withLock { $0 } }
}

extension PhotoLibrary {
    /// How many changes that each import one file should run at once to keep this machine busy:
    /// one per core when the bytes are files (hashing and probing are the work); twice that when
    /// they go to object storage, where each upload mostly waits on the store.
    public var recommendedImportConcurrency: Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return blobs.isRemote ? max(4, cores * 2) : cores
    }
}
