import Foundation
import ShoeboxImaging

extension PhotoLibrary {
    /// Imports files and folders, each file in a change of its own, so that a damaged or
    /// unreadable file fails alone and the others still import: `shoebox import`.
    ///
    /// Folders are read one level deep — the sub-folders left out are named in
    /// ``ImportReport/skippedFolders`` — or all the way down with `recursive` (links to folders
    /// followed once; one back to a folder read already is named in ``ImportReport/skippedLinks``); hidden files are
    /// left out; a file whose name is not valid UTF-8 is imported under its name read as Latin-1
    /// (``ImportFileList``). Identical bytes already in the library are not stored again (duplicates), bytes
    /// in Recently Deleted bring their asset back (restored), an XMP sidecar goes in with its photo
    /// (``ImportReport/sidecars``; one without its photo is named in ``ImportReport/waitingSidecars``),
    /// other sidecar and text files are skipped, archives (a `.zip`, `.tgz`/`.tar.gz` or `.tar`:
    /// Google Takeout's parts) are unpacked together into one folder of the library's staging and
    /// imported from it, all the way down (``ImportReport/archives``; what cannot be unpacked is in
    /// ``ImportReport/failed``, naming the archive and its entry),
    /// and a Live Photo's movie or a raw file joins its photo in either order (paired). A file
    /// whose change fails because the catalog is away is tried again after 2, 4 and 8 s. Up to
    /// ``recommendedImportConcurrency`` files at a time.
    ///
    /// - Parameters:
    ///   - urls: Files and folders.
    ///   - recursive: Read folders all the way down.
    ///   - albumsFromFolders: Put what each folder held in an album named after it, with folders
    ///     for nesting (``ImportReport/albums``): a folder of photos is an album, a folder of
    ///     folders a folder, and one with both a folder holding an album of its own name. The
    ///     folder named is the outermost (`Trips` of `shoebox import Trips`); an album or folder
    ///     already there with the same title in the same place is filled again, not made twice.
    ///     Files named by themselves go in no album.
    ///   - progress: Told the totals once, before the first file (the folders are read and the
    ///     files' sizes added up once, here), then of each file when it is done, in the order the
    ///     files finish.
    public func importItems(
        at urls: [URL], recursive: Bool = false, albumsFromFolders: Bool = false,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async -> ImportReport {
        var listed = ImportFileList(urls, recursive: recursive)
        // Archives (a Takeout's .zip and .tgz parts) are unpacked into one folder in staging,
        // held locked so that no other process takes it for a leftover, and imported from there.
        let archives = listed.files.compactMap { url in ArchiveUnpacker.kind(of: url).map { (url: url, kind: $0) } }
        var unpacker: ArchiveUnpacker?
        var unpackedLock: FileLock?
        if !archives.isEmpty {
            let folder = staging.folder.appendingPathComponent("unpacked-\(UUID().uuidString)")
            unpackedLock = FileLock(creatingFolder: folder.path)
            let shownAs = archives.map { listed.displayPath(of: $0.url) }
            let unpacked =
                await
                (try? BlockingPool.shared.run { () -> ArchiveUnpacker in
                    var unpacker = ArchiveUnpacker(folder: folder)
                    for archive in archives { unpacker.unpack(archive.url, kind: archive.kind) }
                    return unpacker
                }) ?? ArchiveUnpacker(folder: folder)
            unpacker = unpacked
            listed.removeLinks()
            // The outermost folder of what they held is named after the first (`Trips.zip`: Trips).
            var stem = archives[0].url.deletingPathExtension()
            if stem.pathExtension.lowercased() == "tar" { stem = stem.deletingPathExtension() }
            listed = ImportFileList(
                urls, recursive: recursive, unpacked: (folder, stem.lastPathComponent, unpacked.written), leavingOut: Set(shownAs))
        }
        let list = listed
        defer {
            list.removeLinks()
            if let folder = unpacker?.folder {
                try? FileManager.default.removeItem(at: folder)
                withExtendedLifetime(unpackedLock) {}
            }
        }
        let files = list.files
        let sizes = files.map { Self.fileSize($0) ?? 0 }
        let totalBytes = sizes.reduce(0, +)
        var completed = (files: 0, bytes: 0)
        progress?(.init(file: nil, fileBytes: 0, completedFiles: 0, completedBytes: 0, totalFiles: files.count, totalBytes: totalBytes))
        var report = ImportReport()
        report.archives = unpacker?.archives ?? 0
        report.failed = unpacker?.failures ?? []
        report.skippedFolders = list.skippedFolders
        report.skippedLinks = list.skippedLinks
        var outcomes = [Result<ChangeResult, LibraryError>?](repeating: nil, count: files.count)
        // Per file, the identifiers its attempts that failed on an outage would have made: one of
        // them found as the "duplicate" of a later attempt is the file's own commit.
        var ownAttempts = [Set<String>](repeating: [], count: files.count)
        // XMP sidecars go in with their photos; each photo's task reads its own.
        let sidecars = ImportSidecars(files)
        var sidecarFailures: [Int: LibraryError] = [:]
        var sidecarsRead: [Int: XMPSidecar] = [:]
        var takeoutFailures: [Int: LibraryError] = [:]
        typealias Outcome = (
            index: Int, result: Result<ChangeResult, LibraryError>?, attempts: Set<String>,
            sidecar: Result<XMPSidecar, LibraryError>?, takeout: Result<TakeoutMetadata, LibraryError>?
        )
        await withTaskGroup(of: Outcome.self) { group in
            var next = 0
            func add() {
                guard next < files.count else { return }
                let index = next
                let file = files[index]
                let sidecarFile = sidecars.sidecarOfFile[index].map { files[$0] }
                let takeoutFile = sidecars.takeoutOfFile[index].map { files[$0] }
                group.addTask {
                    if sidecars.isSidecar(index) || sidecars.isTakeoutJSON(index) { return (index, nil, [], nil, nil) }
                    let sidecar = await sidecarFile.asyncMap { url in
                        await Self.outcome { () throws(LibraryError) in try await XMPSidecar(contentsOf: url, path: list.displayPath(of: url)) }
                    }
                    let takeout = await takeoutFile.asyncMap { url in
                        await Self.outcome { () throws(LibraryError) in try await TakeoutMetadata(contentsOf: url, path: list.displayPath(of: url)) }
                    }
                    let (outcome, attempts) = await self.importFile(file, sidecar: try? sidecar?.get(), takeout: try? takeout?.get())
                    return (index, outcome, attempts, sidecar, takeout)
                }
                next += 1
            }
            for _ in 0..<recommendedImportConcurrency { add() }
            for await (index, outcome, attempts, sidecar, takeout) in group {
                outcomes[index] = outcome
                ownAttempts[index] = attempts
                if let jsonIndex = sidecars.takeoutOfFile[index], case .failure(let error) = takeout { takeoutFailures[jsonIndex] = error }
                if let sidecarIndex = sidecars.sidecarOfFile[index] {
                    switch sidecar {
                    case .success(let read): sidecarsRead[index] = read
                    case .failure(let error): sidecarFailures[sidecarIndex] = error
                    case nil: break
                    }
                }
                completed.files += 1
                completed.bytes += sizes[index]
                progress?(
                    .init(
                        file: files[index], fileBytes: sizes[index], completedFiles: completed.files, completedBytes: completed.bytes,
                        totalFiles: files.count, totalBytes: totalBytes))
                add()
            }
        }
        // A movie or raw this run imported before its photo came is part of that photo now.
        var joinedLater: Set<String> = []
        for case .success(let result)? in outcomes { joinedLater.formUnion(result.pairedAssets) }
        var folderAssets: [(path: [String], assets: [String])] = []
        // Takeout's album folders (those with a metadata.json), by that file's index.
        var takeoutAlbums: [Int: [String]] = [:]
        var folderIndex: [[String]: Int] = [:]
        // A sidecar counts once its photo is in; one whose photos all failed still waits.
        var sidecarApplied: Set<Int> = []
        var duplicatesWithSidecars: [(asset: String, sidecar: XMPSidecar)] = []
        for (index, sidecarIndex) in sidecars.sidecarOfFile {
            guard case .success(let result)? = outcomes[index] else { continue }
            sidecarApplied.insert(sidecarIndex)
            guard let read = sidecarsRead[index] else { continue }
            for creation in result.created where creation.isDuplicate || creation.isRestored {
                duplicatesWithSidecars.append((creation.localIdentifier, read))
            }
        }
        var takeoutRead: Set<Int> = []
        for (index, jsonIndex) in sidecars.takeoutOfFile {
            if case .success? = outcomes[index] { takeoutRead.insert(jsonIndex) }
        }
        for (index, (file, outcome)) in zip(files, outcomes).enumerated() {
            if sidecars.isTakeoutJSON(index) {
                if let failure = takeoutFailures[index], failure.code != .sidecar {
                    report.failed.append(
                        .init(path: list.displayPath(of: file), code: failure.code.rawValue, message: list.displayText(failure.message, for: file)))
                } else if takeoutRead.contains(index), takeoutFailures[index] == nil {
                    report.takeoutJSON += 1
                } else {
                    report.skipped.append(list.displayPath(of: file))  // its photo failed, and says why
                }
                continue
            }
            if sidecars.isSidecar(index) {
                let path = list.displayPath(of: file)
                if let failure = sidecarFailures[index] {
                    report.failed.append(.init(path: path, code: failure.code.rawValue, message: list.displayText(failure.message, for: file)))
                } else if sidecarApplied.contains(index) {
                    report.sidecars += 1
                } else {
                    let photo = sidecars.waiting[index] ?? (file.lastPathComponent as NSString).deletingPathExtension
                    report.waitingSidecars.append(.init(path: path, photo: photo))
                }
                continue
            }
            switch outcome {
            case .success(let result):
                for creation in result.created {
                    let isOwnEarlierCommit = ownAttempts[index].contains(creation.localIdentifier)
                    if !joinedLater.contains(creation.localIdentifier) {
                        report.assets.append(creation.localIdentifier)
                        let folder = file.deletingLastPathComponent().path
                        if let metadata = sidecars.albumMetadata[folder], !TakeoutMetadata.isYearFolder(file.deletingLastPathComponent().lastPathComponent) {
                            takeoutAlbums[metadata, default: []].append(creation.localIdentifier)
                        } else if albumsFromFolders, let path = list.folders[index], !TakeoutMetadata.isYearFolder(path.last ?? "") {
                            let slot = folderIndex[path] ?? folderAssets.count
                            if slot == folderAssets.count {
                                folderIndex[path] = slot
                                folderAssets.append((path, []))
                            }
                            folderAssets[slot].assets.append(creation.localIdentifier)
                        }
                    }
                    if creation.isPairedResource || joinedLater.contains(creation.localIdentifier) {
                        report.paired += 1
                    } else if creation.isRestored {
                        report.restored += 1
                    } else if creation.isDuplicate && !isOwnEarlierCommit {
                        report.duplicates += 1
                    } else {
                        report.imported += 1
                    }
                }
            case .failure(let error) where error.code == .sidecar:
                report.skipped.append(list.displayPath(of: file))
            case .failure(let error):
                report.failed.append(.init(path: list.displayPath(of: file), code: error.code.rawValue, message: list.displayText(error.message, for: file)))
            case nil:
                report.failed.append(.init(path: list.displayPath(of: file), code: LibraryError.Code.storage.rawValue, message: "not attempted"))
            }
        }
        for (asset, sidecar) in duplicatesWithSidecars {
            do {
                try await fillIn(asset, from: sidecar)
            } catch {
                let failure = error as? LibraryError ?? .storage("\(error)", underlying: error)
                report.failed.append(
                    .init(path: asset, code: failure.code.rawValue, message: "the sidecar's values were not added to \(asset): \(failure.message)"))
            }
        }
        for (metadata, assets) in takeoutAlbums.sorted(by: { $0.key < $1.key }) {
            let file = files[metadata]
            let data = try? await BlockingPool.shared.run { () throws -> Data in try Data(contentsOf: file) }
            let title = data.flatMap(TakeoutMetadata.albumTitle) ?? file.deletingLastPathComponent().lastPathComponent
            folderAssets.append(([title], assets))
        }
        if albumsFromFolders || !takeoutAlbums.isEmpty {
            do {
                report.albums = try await fileIntoFolderAlbums(folderAssets)
            } catch {
                let failure = error as? LibraryError ?? .storage("\(error)", underlying: error)
                let folders = folderAssets.map { $0.path.joined(separator: "/") }
                report.failed.append(
                    .init(
                        path: folders.first ?? "", code: failure.code.rawValue,
                        message:
                            "the albums for \(folders.count) folder\(folders.count == 1 ? "" : "s") were not made (the photos are imported): \(failure.message)"
                    ))
            }
        }
        return report
    }

    /// How long ``importFile(_:)`` waits before each new attempt at a file whose change failed
    /// because the catalog was away (``LibraryError/Code/catalogUnavailable``): 14 s in all.
    static let outageRetryDelays: [Duration] = [.seconds(2), .seconds(4), .seconds(8)]

    /// Imports one file in a change of its own. A change the catalog's outage failed is tried
    /// again after each of ``outageRetryDelays``: the catalog may be back (a restart takes
    /// seconds), and an outage during the commit leaves its outcome unknown, so a later attempt
    /// that finds the bytes under the identifier an earlier attempt chose knows that attempt
    /// committed. Returns the outcome and those identifiers.
    func importFile(_ file: URL, sidecar: XMPSidecar? = nil, takeout: TakeoutMetadata? = nil) async -> (Result<ChangeResult, LibraryError>, Set<String>) {
        var attempts: Set<String> = []
        var delays = Self.outageRetryDelays[...]
        while true {
            var placeholder: String?
            let outcome: Result<ChangeResult, LibraryError>
            do {
                outcome = .success(
                    try await performChanges {
                        let request = AssetChangeRequest.creationRequestForAsset(fromFileAt: file)
                        if let sidecar { request.setSidecar(sidecar) }
                        if let takeout { request.setTakeout(takeout) }
                        placeholder = request.placeholderForCreatedAsset?.localIdentifier
                    })
            } catch let error as LibraryError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(.storage("\(error)", underlying: error))
            }
            guard case .failure(let error) = outcome, error.code == .catalogUnavailable, let delay = delays.popFirst() else {
                return (outcome, attempts)
            }
            if let placeholder { attempts.insert(placeholder) }
            do { try await Task.sleep(for: delay) } catch { return (outcome, attempts) }
        }
    }

    /// Gives an asset already in the library what a sidecar imported with its bytes again says,
    /// where the asset has nothing: its place, title, caption, keywords, rating and label (a
    /// date or value the asset has, the person's or the file's, stays).
    func fillIn(_ identifier: String, from sidecar: XMPSidecar) async throws {
        guard let asset = try await fetchAssets(withLocalIdentifiers: [identifier]).firstObject else { return }
        var details = AssetUpdate.Details()
        if asset.title == nil { details.title = sidecar.details.title }
        if asset.caption == nil { details.caption = sidecar.details.caption }
        if asset.keywords.isEmpty { details.keywords = sidecar.details.keywords }
        if asset.rating == 0, let rating = sidecar.details.rating, rating > 0 { details.rating = rating }
        if asset.label == nil { details.label = sidecar.details.label }
        let location = asset.location == nil ? sidecar.location : nil
        guard !details.isEmpty || location != nil else { return }
        try await performChanges {
            let request = AssetChangeRequest(for: asset)
            (request.title, request.caption, request.keywords, request.rating, request.label) =
                (details.title, details.caption, details.keywords, details.rating, details.label)
            if let location { request.location = location }
        }
    }

    /// What `body` gives or throws, as a result.
    static func outcome<Value>(_ body: () async throws(LibraryError) -> Value) async -> Result<Value, LibraryError> {
        do throws(LibraryError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// The size of the file at `url` (a link's file's), if it can be read.
    static func fileSize(_ url: URL) -> Int? {
        var status = stat()
        return stat(url.path, &status) == 0 ? Int(status.st_size) : nil
    }
}

extension Optional {
    /// ``map(_:)`` for an asynchronous transform.
    fileprivate func asyncMap<Mapped>(_ transform: (Wrapped) async -> Mapped) async -> Mapped? {
        guard let self else { return nil }
        return await transform(self)
    }
}
