import Foundation

extension PhotoLibrary {
    /// Imports files and folders, each file in a change of its own, so that a damaged or
    /// unreadable file fails alone and the others still import: `shoebox import`.
    ///
    /// Folders are read one level deep — the sub-folders left out are named in
    /// ``ImportReport/skippedFolders`` — or all the way down with `recursive` (links to folders
    /// followed once; one back to a folder read already is named in ``ImportReport/skippedLinks``); hidden files are
    /// left out; a file whose name is not valid UTF-8 is imported under its name read as Latin-1
    /// (``ImportFileList``). Identical bytes already in the library are not stored again (duplicates), bytes
    /// in Recently Deleted bring their asset back (restored), sidecar and text files are skipped,
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
        let list = ImportFileList(urls, recursive: recursive)
        defer { list.removeLinks() }
        let files = list.files
        let sizes = files.map { Self.fileSize($0) ?? 0 }
        let totalBytes = sizes.reduce(0, +)
        var completed = (files: 0, bytes: 0)
        progress?(.init(file: nil, fileBytes: 0, completedFiles: 0, completedBytes: 0, totalFiles: files.count, totalBytes: totalBytes))
        var report = ImportReport()
        report.skippedFolders = list.skippedFolders
        report.skippedLinks = list.skippedLinks
        var outcomes = [Result<ChangeResult, LibraryError>?](repeating: nil, count: files.count)
        // Per file, the identifiers its attempts that failed on an outage would have made: one of
        // them found as the "duplicate" of a later attempt is the file's own commit.
        var ownAttempts = [Set<String>](repeating: [], count: files.count)
        await withTaskGroup(of: (Int, Result<ChangeResult, LibraryError>, Set<String>).self) { group in
            var next = 0
            func add() {
                guard next < files.count else { return }
                let index = next
                let file = files[index]
                group.addTask {
                    let (outcome, attempts) = await self.importFile(file)
                    return (index, outcome, attempts)
                }
                next += 1
            }
            for _ in 0..<recommendedImportConcurrency { add() }
            for await (index, outcome, attempts) in group {
                outcomes[index] = outcome
                ownAttempts[index] = attempts
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
        var folderIndex: [[String]: Int] = [:]
        for (index, (file, outcome)) in zip(files, outcomes).enumerated() {
            switch outcome {
            case .success(let result):
                for creation in result.created {
                    let isOwnEarlierCommit = ownAttempts[index].contains(creation.localIdentifier)
                    if !joinedLater.contains(creation.localIdentifier) {
                        report.assets.append(creation.localIdentifier)
                        if albumsFromFolders, let path = list.folders[index] {
                            let slot = folderIndex[path] ?? folderAssets.count
                            if slot == folderAssets.count {
                                folderIndex[path] = slot
                                folderAssets.append((path, []))
                            }
                            if !folderAssets[slot].assets.contains(creation.localIdentifier) { folderAssets[slot].assets.append(creation.localIdentifier) }
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
        if albumsFromFolders {
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
    func importFile(_ file: URL) async -> (Result<ChangeResult, LibraryError>, Set<String>) {
        var attempts: Set<String> = []
        var delays = Self.outageRetryDelays[...]
        while true {
            var placeholder: String?
            let outcome: Result<ChangeResult, LibraryError>
            do {
                outcome = .success(
                    try await performChanges {
                        placeholder = AssetChangeRequest.creationRequestForAsset(fromFileAt: file).placeholderForCreatedAsset?.localIdentifier
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

    /// The size of the file at `url` (a link's file's), if it can be read.
    static func fileSize(_ url: URL) -> Int? {
        var status = stat()
        return stat(url.path, &status) == 0 ? Int(status.st_size) : nil
    }
}
