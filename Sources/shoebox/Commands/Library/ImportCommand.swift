import ArgumentParser
import Foundation
import ShoeboxLibrary
import Synchronization

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Copy photos and movies into the library.",
        discussion: """
            Each file is imported on its own: a file that fails (not an image or movie, damaged, \
            unreadable) is reported and the others still import; one that fails because a \
            PostgreSQL catalog is away is tried again after 2, 4 and 8 s. Identical bytes already in the \
            library are not stored again (reported as duplicates); bytes of a photo in Recently \
            Deleted restore it (reported as restored). Folders are read one level deep (the \
            sub-folders left out are named), or all the way down with --recursive, following \
            links to folders once (a link back to a folder read already is named, not followed); \
            hidden files are skipped. An XMP sidecar (IMG_1.CR2.xmp, or IMG_1.xmp for every IMG_1.*) \
            goes in with its photo: its date, place, title, caption, keywords, rating and label win \
            over the file's (for a photo already in the library, they fill only what it lacks); one \
            whose photo is not imported with it is named as waiting and nothing of it is kept. A \
            Google Takeout folder imports as it is: each photo's JSON (found by Google's naming \
            rules: .supplemental-metadata, names cut to 46–51 characters, (1) counters, -edited \
            copies) fills the time, place, description and favorite mark its file lacks (the \
            file's own EXIF wins), and album folders (those with a metadata.json) become albums, \
            "Photos from YYYY" folders not. Archives (.zip, .tgz or .tar.gz, .tar: Takeout's parts, \
            given by name or found in a folder) are unpacked together into the library's staging and \
            imported as one folder, read all the way down, so a photo and its JSON in two parts \
            meet; an entry whose path climbs out (..), a link, or one cut short or damaged is \
            named and not kept, and what came before a cut is imported. Other \
            sidecar and text files (.aae, .thm, .json, .txt, …) are skipped with a note, not failures. A Live Photo's movie joins its photo, and a raw file the \
            JPEG of the same shot (same name, same time), in either order; they are counted under \
            paired, not imported. --albums-from-folders files each folder's photos into an album \
            named after it, with folders for nesting: a folder of photos becomes an album, a \
            folder of folders a folder, and one with both a folder holding an album of its own \
            name; the folder given is the outermost; albums and folders already there with the \
            same title in the same place are filled again, not made twice. Exits 1 if any file \
            failed. JSON: {"imported": N, "duplicates": N, "restored": N, "paired": N, "sidecars": N, "takeoutJSON": N, \
            "waitingSidecars": [{"path", "photo"}], "skipped": [path…], "skippedFolders": [path…], "skippedLinks": [path…], \
            "failed": [{"path", "code", "message"}], "assets": [localIdentifier…], "albums": [localIdentifier…]}.
            """)

    @OptionGroup var options: LibraryOptions

    @Argument(help: "Files or folders.", completion: .file())
    var paths: [String]

    @Flag(help: "Descend into sub-folders (and folders linked to, once).")
    var recursive = false

    @Option(help: "Also add the imported assets (and duplicates) to this album, made if missing.")
    var album: String?

    @Flag(help: "Make an album of each folder's photos (and folders for nesting), named after the folders.")
    var albumsFromFolders = false

    @Flag(help: "Queue thumbnails, previews and renditions as jobs for `shoebox worker` (or a running `shoebox serve`) instead of making them now.")
    var queue = false

    @Flag(help: "Print a JSON summary.")
    var json = false

    func run() async throws {
        let library = try await options.open(backgroundWork: queue ? .queued : .inProcess)
        let urls = paths.map { URL(fileURLWithPath: $0) }
        let bar = Mutex(ImportProgressBar(enabled: !json && ImportProgressBar.isTerminal))
        let summary = await library.importItems(at: urls, recursive: recursive, albumsFromFolders: albumsFromFolders) { progress in
            bar.withLock { $0.show(progress) }
        }
        bar.withLock { $0.finish() }
        if let album, !summary.assets.isEmpty {
            try await addToAlbum(album, identifiers: summary.assets, library: library)
        }
        _ = try? await library.purgeExpiredAssets()
        await library.waitForBackgroundWork()  // thumbnails and previews, so the grid is ready
        if json {
            try JSONOutput.print(summary)
        } else {
            for failure in summary.failed {
                Terminal.standardError("failed: \(failure.message)")
            }
            if !summary.skipped.isEmpty {
                let names = summary.skipped.prefix(5).map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
                Terminal.standardError(
                    "skipped \(summary.skipped.count) sidecar or text file\(summary.skipped.count == 1 ? "" : "s"), not photos or movies: \(names)\(summary.skipped.count > 5 ? ", …" : "")"
                )
            }
            for waiting in summary.waitingSidecars.prefix(5) {
                Terminal.standardError(
                    "waiting: \((waiting.path as NSString).lastPathComponent) is the XMP sidecar of \(waiting.photo), which this import did not bring in; import them together"
                )
            }
            if summary.waitingSidecars.count > 5 { Terminal.standardError("waiting: \(summary.waitingSidecars.count - 5) more sidecars") }
            if !summary.skippedFolders.isEmpty {
                let names = summary.skippedFolders.prefix(5).joined(separator: ", ")
                Terminal.standardError(
                    "skipped \(summary.skippedFolders.count) sub-folder\(summary.skippedFolders.count == 1 ? "" : "s") (--recursive imports them too): \(names)\(summary.skippedFolders.count > 5 ? ", …" : "")"
                )
            }
            if !summary.skippedLinks.isEmpty {
                let names = summary.skippedLinks.prefix(5).joined(separator: ", ")
                Terminal.standardError(
                    "did not follow \(summary.skippedLinks.count) link\(summary.skippedLinks.count == 1 ? "" : "s") to a folder read already (a loop): \(names)\(summary.skippedLinks.count > 5 ? ", …" : "")"
                )
            }
            let restored = summary.restored > 0 ? ", restored from Recently Deleted \(summary.restored)" : ""
            let skipped = summary.skipped.isEmpty ? "" : ", skipped \(summary.skipped.count)"
            let live = summary.paired > 0 ? ", paired with a photo \(summary.paired)" : ""
            let sidecars =
                (summary.sidecars > 0 ? ", with XMP sidecars \(summary.sidecars)" : "")
                + (summary.takeoutJSON > 0 ? ", with Takeout JSON \(summary.takeoutJSON)" : "")
            let waiting = summary.waitingSidecars.isEmpty ? "" : ", sidecars waiting \(summary.waitingSidecars.count)"
            let albums = albumsFromFolders || !summary.albums.isEmpty ? ", into \(summary.albums.count) album\(summary.albums.count == 1 ? "" : "s")" : ""
            print(
                "imported \(summary.imported), duplicates \(summary.duplicates)\(restored)\(live)\(sidecars)\(waiting)\(skipped), failed \(summary.failed.count)\(albums)"
            )
        }
        if !summary.failed.isEmpty { throw ExitCode.failure }
    }

    private func addToAlbum(_ title: String, identifiers: [String], library: PhotoLibrary) async throws {
        let assets = try await library.fetchAssets(withLocalIdentifiers: identifiers).allObjects()
        let existing = try await library.fetchAssetCollections(with: .album).allObjects().first { $0.localizedTitle == title || $0.localIdentifier == title }
        try await library.performChanges {
            if let existing {
                AssetCollectionChangeRequest(for: existing).addAssets(assets)
            } else {
                AssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title).addAssets(assets)
            }
        }
    }
}

/// `[=====>    ] 12/40 files  85.3/310.2 MB  12.4 MB/s  ETA 1 min 18 s` on a terminal, drawn
/// from the library's ``ImportProgress`` reports.
///
/// The estimate waits until enough has been measured (``estimateAfterFiles`` files or
/// ``estimateAfterSeconds`` seconds): the first file alone, done in a few milliseconds while
/// the others are still being copied, made estimates like "41451 s".
struct ImportProgressBar {
    static let isTerminal = isatty(2) == 1
    /// Files done before an estimate is shown (unless ``estimateAfterSeconds`` pass first).
    static let estimateAfterFiles = 3
    /// Seconds measured before an estimate is shown (unless ``estimateAfterFiles`` finish first).
    static let estimateAfterSeconds = 2.0

    let enabled: Bool
    private let start = Date()

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func show(_ progress: ImportProgress) {
        guard enabled, progress.file != nil else { return }
        let line = Self.line(for: progress, elapsed: Date().timeIntervalSince(start))
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    /// The bar for `progress`, `elapsed` seconds after the import began.
    static func line(for progress: ImportProgress, elapsed: Double) -> String {
        let elapsed = max(0.001, elapsed)
        let rate = Double(progress.completedBytes) / elapsed
        let width = 24
        let filled = Int(progress.fractionCompleted * Double(width))
        let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "") + String(repeating: " ", count: max(0, width - filled - 1))
        var line = String(
            format: "[%@] %d/%d files  %.1f/%.1f MB  %.1f MB/s",
            bar, progress.completedFiles, progress.totalFiles, Double(progress.completedBytes) / 1e6, Double(progress.totalBytes) / 1e6,
            rate / 1e6)
        let measured = progress.completedFiles >= estimateAfterFiles || elapsed >= estimateAfterSeconds
        if measured, rate > 0, progress.completedFiles < progress.totalFiles {
            line += "  ETA " + duration(Double(progress.totalBytes - progress.completedBytes) / rate)
        }
        return line
    }

    /// A duration as people read it: "8 s", "1 min 15 s", "12 min", "1 h 2 min", "2 d 3 h".
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (days, hours, minutes, rest) = (total / 86_400, total % 86_400 / 3_600, total % 3_600 / 60, total % 60)
        if days > 0 { return hours > 0 ? "\(days) d \(hours) h" : "\(days) d" }
        if hours > 0 { return minutes > 0 ? "\(hours) h \(minutes) min" : "\(hours) h" }
        if minutes >= 10 || (minutes > 0 && rest == 0) { return "\(minutes) min" }
        if minutes > 0 { return "\(minutes) min \(rest) s" }
        return "\(rest) s"
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
