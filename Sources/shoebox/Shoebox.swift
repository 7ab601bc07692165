import ArgumentParser

@main
struct Shoebox: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shoebox",
        abstract: "Photos, movies and cameras for Swift on Linux.",
        discussion: """
            Reads images with libvips: JPEG, PNG, WebP, HEIF/HEIC/AVIF, GIF (first frame), TIFF and \
            the TIFF-based raw formats libvips opens. Formats are recognised from the bytes, never \
            from the file name.
            """,
        version: ShoeboxVersion.current,
        subcommands: [Info.self, Thumbnail.self]
    )
}

enum ShoeboxVersion {
    static let current = "0.1.0"
}
