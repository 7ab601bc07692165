import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// Starts the command. For `serve`, SwiftNIO's event loops become Swift Concurrency's executor
/// first: request handlers then run on the threads that do the I/O, without a hop to the global
/// pool and back for every request (it must happen before any task exists, hence this main).
///
/// `--library PATH` before the command is global: it stands for `$SHOEBOX_LIBRARY` in every
/// command (`shoebox --library Photos.shoebox ls`); after the command it is that command's option.
@main
enum ShoeboxMain {
    static func main() {
        // libvips loads every module it finds when it starts (JPEG XL, ImageMagick, OpenSlide,
        // Poppler: formats Shoebox refuses) at about 12 ms a process; pointed at a home without
        // modules it loads none, and ShoeboxImaging loads the one it uses (HEIF) itself. Set here,
        // before any thread exists (setenv is not safe beside other threads); a VIPSHOME of the
        // user's own stands.
        setenv("VIPSHOME", "/nonexistent/shoebox-loads-its-own-libvips-modules", 0)
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--library", arguments.count > 1 {
            setenv("SHOEBOX_LIBRARY", arguments[1], 1)
            arguments.removeFirst(2)
        } else if let first = arguments.first, first.hasPrefix("--library=") {
            setenv("SHOEBOX_LIBRARY", String(first.dropFirst("--library=".count)), 1)
            arguments.removeFirst()
        }
        arguments = movingOptionsAfterSubcommand(arguments)
        if arguments.first == "serve" {
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
        let finished = DispatchSemaphore(value: 0)
        // Detached: a plain Task would inherit main's main-actor isolation and wait forever for
        // the main thread, which waits for it.
        Task.detached { [arguments] in
            await run(arguments)
            finished.signal()
        }
        finished.wait()
    }

    /// `shoebox jobs --library X reread-metadata --all` as `shoebox jobs reread-metadata --library X
    /// --all`: a command made of subcommands (jobs, album, video, …) has no options of its own, so
    /// options written before the subcommand's name are that subcommand's. (Left in place,
    /// argument-parser ran the default subcommand with them, `jobs list`.) Arguments without a
    /// subcommand's name after the options are left as they are.
    static func movingOptionsAfterSubcommand(_ arguments: [String]) -> [String] {
        guard arguments.count > 2, arguments[1].hasPrefix("-"),
            let command = Shoebox.configuration.subcommands.first(where: { $0._commandName == arguments[0] })
        else { return arguments }
        let names = Set(command.configuration.subcommands.flatMap { [$0._commandName] + $0.configuration.aliases })
        guard !names.isEmpty else { return arguments }
        for index in 1..<arguments.count {
            let argument = arguments[index]
            if names.contains(argument) {
                return [arguments[0], argument] + arguments[1..<index] + arguments[(index + 1)...]
            }
            let previous = arguments[index - 1]
            let isOptionValue = index > 1 && previous.hasPrefix("-") && !previous.contains("=")
            guard argument != "--", argument.hasPrefix("-") || isOptionValue else { return arguments }
        }
        return arguments
    }

    static func run(_ arguments: [String]) async {
        do {
            var command = try Shoebox.parseAsRoot(arguments)
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            Shoebox.exit(withError: error)
        }
    }
}

struct Shoebox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shoebox",
        abstract: "Photos, movies and cameras for Swift on Linux.",
        discussion: """
            Reads images with libvips: JPEG, PNG, WebP, HEIF/HEIC/AVIF, GIF (first frame), TIFF; \
            camera raw (DNG, CR2, CR3, CRW, NEF, ARW, RAF, ORF, RW2, PEF, SRW, 3FR, X3F, MRW, …) \
            with LibRaw. Formats are recognised from the bytes, never \
            from the file name. Movies go through ffprobe and ffmpeg (`shoebox video`).

            The library is --library PATH (before the command it applies to every command: \
            `shoebox --library Photos.shoebox ls`), else $SHOEBOX_LIBRARY, else \
            ~/Pictures/Shoebox.shoebox.
            """,
        version: ShoeboxVersion.current,
        subcommands: [
            Info.self, Thumbnail.self, Video.self,
            InitCommand.self, MigrateCommand.self, ImportCommand.self, ListCommand.self, FavoriteCommand.self, HideCommand.self, KeyPhotoCommand.self,
            AdjustCommand.self, KeywordsCommand.self, DeleteCommand.self, RestoreCommand.self, PurgeCommand.self, EditCommand.self, RevertCommand.self,
            ExportCommand.self, PrivacyCommand.self,
            DevicesCommand.self, CaptureCommand.self, AlbumsCommand.self, AlbumCommand.self, WatchCommand.self, DoctorCommand.self, ServeCommand.self,
            WorkerCommand.self, JobsCommand.self, PickCommand.self, UserCommand.self, KeyCommand.self, PartnerCommand.self, SharedLibraryCommand.self,
        ]
    )
}

enum ShoeboxVersion {
    static let current = "0.1.0"
}
