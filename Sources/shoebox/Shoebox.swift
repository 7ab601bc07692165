import ArgumentParser

@main
struct Shoebox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shoebox",
        abstract: "Photos, movies and cameras for Swift on Linux.",
        discussion: """
            Reads images with libvips: JPEG, PNG, WebP, HEIF/HEIC/AVIF, GIF (first frame), TIFF and \
            the TIFF-based raw formats libvips opens. Formats are recognised from the bytes, never \
            from the file name. Movies go through ffprobe and ffmpeg (`shoebox video`).
            """,
        version: ShoeboxVersion.current,
        subcommands: [
            Info.self, Thumbnail.self, Video.self,
            InitCommand.self, ImportCommand.self, ListCommand.self, FavoriteCommand.self, HideCommand.self,
            DeleteCommand.self, RestoreCommand.self, PurgeCommand.self, EditCommand.self, RevertCommand.self, ExportCommand.self, PrivacyCommand.self, DevicesCommand.self, CaptureCommand.self, AlbumsCommand.self, AlbumCommand.self, WatchCommand.self, DoctorCommand.self, ServeCommand.self, PickCommand.self,
        ]
    )
}

enum ShoeboxVersion {
    static let current = "0.1.0"
}
