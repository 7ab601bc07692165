import ArgumentParser
import Foundation
import ShoeboxImaging
import ShoeboxLibrary

struct FavoriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "favorite", abstract: "Mark assets as favorites (or not, with --off).")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Asset identifiers.") var identifiers: [String]
    @Flag(help: "Remove the mark.") var off = false

    func run() async throws {
        let library = try await options.open()
        let assets = try await resolveAssets(identifiers, in: library)
        try await library.perform(off ? .unfavorite : .favorite, on: assets)
    }
}

struct HideCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hide", abstract: "Hide assets (or show them again, with --off).")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Asset identifiers.") var identifiers: [String]
    @Flag(help: "Show them again.") var off = false

    func run() async throws {
        let library = try await options.open()
        let assets = try await resolveAssets(identifiers, in: library)
        try await library.perform(off ? .unhide : .hide, on: assets)
    }
}

struct KeyPhotoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key-photo",
        abstract: "Make a frame of a burst the photo that stands for it.",
        discussion: """
            A burst shows as one photo, its key photo: the frame chosen here, else its first. \
            `shoebox ls --burst ID` lists a burst's frames.
            """)
    @OptionGroup var options: LibraryOptions
    @Argument(help: "The frame's asset identifier.") var identifier: String

    func run() async throws {
        let library = try await options.open()
        let assets = try await resolveAssets([identifier], in: library)
        try await library.performChanges {
            for asset in assets { AssetChangeRequest(for: asset).makeKeyPhotoOfBurst() }
        }
    }
}

struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Move assets to Recently Deleted.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Asset identifiers.") var identifiers: [String]

    func run() async throws {
        let library = try await options.open()
        let assets = try await resolveAssets(identifiers, in: library)
        try await library.perform(.delete, on: assets)
        try await library.purgeExpiredAssets()
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Bring assets back from Recently Deleted.")
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Asset identifiers.") var identifiers: [String]

    func run() async throws {
        let library = try await options.open()
        let assets = try await resolveAssets(identifiers, in: library)
        try await library.perform(.restore, on: assets)
    }
}

struct PurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Remove assets in Recently Deleted for good (all of them, or those named).",
        discussion: """
            Only assets in Recently Deleted are purged; an original is removed when no other asset shares its bytes.
            Assets older than the library's retention (30 days unless --set-retention changed it) are purged \
            automatically by `import`, `delete` and long-running processes.

            Without identifiers (everything in Recently Deleted), the command asks first on a terminal \
            ("Delete 3 items forever? This cannot be undone. [y/N]"); --yes skips the question. When standard \
            input is not a terminal and --yes is not given it refuses and purges nothing (exit 1), as does \
            any answer but y.
            """)
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Asset identifiers (default: everything in Recently Deleted).") var identifiers: [String] = []
    @Option(help: "Purge only what has been in Recently Deleted longer than this many days.") var olderThan: Double?
    @Flag(help: "Purge only what is older than the library's retention.") var expired = false
    @Option(help: ArgumentHelp("Set how many days assets stay in Recently Deleted (then purge what is older).", valueName: "days"))
    var setRetention: Double?
    @Flag(name: [.customShort("y"), .long], help: "Purge everything in Recently Deleted without asking.") var yes = false

    func run() async throws {
        let library = try await options.open()
        if let setRetention {
            try await library.setTrashRetention(setRetention * 86_400)
            print("retention \(setRetention) days; purged \(try await library.purgeExpiredAssets())")
            return
        }
        if expired || olderThan != nil {
            print("purged \(try await library.purgeExpiredAssets(olderThan: olderThan.map { $0 * 86_400 }))")
            return
        }
        let assets =
            await identifiers.isEmpty
            ? try await library.fetchAssets(with: FetchOptions(predicate: .isTrashed(true), includeHiddenAssets: true, includeTrashedAssets: true)).allObjects()
            : try resolveAssets(identifiers, in: library)
        if identifiers.isEmpty, !assets.isEmpty, !yes { try confirm(count: assets.count) }
        try await library.performChanges { AssetChangeRequest.purgeAssets(assets) }
        print("purged \(assets.filter(\.isTrashed).count)")
    }

    /// Asks before everything in Recently Deleted goes, as the web app asks; throws unless the
    /// answer is yes. Without a terminal to ask on, it refuses.
    private func confirm(count: Int) throws {
        let items = "\(count) item\(count == 1 ? "" : "s")"
        guard isatty(STDIN_FILENO) == 1 else {
            Terminal.standardError(
                "error: this would delete all \(items) in Recently Deleted forever; standard input is not a terminal to ask on, so add --yes to confirm")
            throw ExitCode.failure
        }
        FileHandle.standardError.write(Data("Delete \(items) forever? This cannot be undone. [y/N] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
            Terminal.standardError("nothing purged")
            throw ExitCode.failure
        }
    }
}

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy assets out of the library, as files or as one ZIP.",
        discussion: """
            Writes each asset's current version (an edited asset's render, NAME_edited.jpg), or with --original its original bytes \
            (every original: a Live Photo's photo and its movie, a RAW+JPEG pair's raw); names are made unique on clashes \
            (IMG_0001 2.JPG). --zip writes them into one archive instead (made next to its name and renamed when whole). \
            --no-location takes out the place each was made (EXIF GPS, XMP's GPS and place names, a movie's ISO 6709 location) \
            and keeps every other byte. --sidecars writes an XMP sidecar beside each asset's files (IMG_0001.JPG.xmp): its \
            date, place, title, caption, keywords, rating and label as the library has them (what you corrected \
            included), as Lightroom, darktable and digiKam read them.
            """)
    @OptionGroup var options: LibraryOptions
    @Argument(help: "Asset identifiers.") var identifiers: [String]
    @Option(help: "The folder to write into (made if missing).") var to: String?
    @Option(help: ArgumentHelp("Write one ZIP archive at this path instead.", valueName: "path.zip")) var zip: String?
    @Flag(help: "Write the original bytes.") var original = false
    @Flag(name: .customLong("no-location"), help: "Leave out where each photo or movie was made.") var noLocation = false
    @Flag(help: "Write an XMP sidecar of each asset's date, place and words beside its files.") var sidecars = false

    func validate() throws {
        guard (to == nil) != (zip == nil) else { throw ValidationError("say where: --to FOLDER or --zip PATH.zip (one of them)") }
    }

    func run() async throws {
        let library = try await options.open()
        let assets = try await resolveAssets(identifiers, in: library)
        if let zip {
            try await Self.writeArchive(
                of: assets, library: library, to: URL(fileURLWithPath: zip),
                options: .init(files: original ? .originals : .current, includesLocation: !noLocation, includesSidecars: sidecars))
            return
        }
        let folder = URL(fileURLWithPath: to ?? ".")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for asset in assets {
            // Originals: every file the camera made (a Live Photo's photo and its movie).
            let resources = original ? asset.resources.filter { $0.isOriginal } : [asset.currentResource]
            var first: URL?
            for resource in resources {
                let destination = Self.uniqueURL(in: folder, name: resource.deliveredFilename)
                try await FileManager.default.copyItem(at: library.fileURL(for: resource), to: destination)
                if noLocation { try Self.removeLocation(at: destination) }
                print(destination.path)
                first = first ?? destination
            }
            if sidecars, let first {
                let sidecar = Self.uniqueURL(in: folder, name: first.lastPathComponent + ".xmp")
                try asset.xmpSidecar(includesLocation: !noLocation).write(to: sidecar)
                print(sidecar.path)
            }
        }
    }

    /// The ZIP, written to `PATH.partial` and renamed when whole (an interrupted export leaves no
    /// archive that looks finished), with the bytes written so far on standard error.
    static func writeArchive(of assets: [Asset], library: PhotoLibrary, to url: URL, options: PhotoLibrary.ArchiveOptions) async throws {
        let partial = url.appendingPathExtension("partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil), let handle = FileHandle(forWritingAtPath: partial.path) else {
            throw ValidationError("cannot write \(partial.path)")
        }
        var written = 0
        var reported = 0
        do {
            for try await piece in library.archive(of: assets, options: options) {
                try handle.write(contentsOf: piece)
                written += piece.count
                if written - reported >= 64 << 20 {
                    reported = written
                    FileHandle.standardError.write(Data("\(written >> 20) MiB written\n".utf8))
                }
            }
            try handle.close()
            _ = try? FileManager.default.removeItem(at: url)
            try FileManager.default.moveItem(at: partial, to: url)
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        print(url.path)
    }

    /// Takes the place out of the file at `url`, in place (same length, every other byte kept).
    static func removeLocation(at url: URL) throws {
        let patches = try LocationRemoval.patches(forFileAt: url)
        guard !patches.isEmpty else { return }
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        for patch in patches {
            try handle.seek(toOffset: UInt64(patch.offset))
            try handle.write(contentsOf: patch.bytes)
        }
    }

    static func uniqueURL(in folder: URL, name: String) -> URL {
        let safe = name.replacingOccurrences(of: "/", with: "_")
        var candidate = folder.appendingPathComponent(safe)
        let base = (safe as NSString).deletingPathExtension
        let ext = (safe as NSString).pathExtension
        var counter = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = folder.appendingPathComponent(ext.isEmpty ? "\(base) \(counter)" : "\(base) \(counter).\(ext)")
            counter += 1
        }
        return candidate
    }
}
