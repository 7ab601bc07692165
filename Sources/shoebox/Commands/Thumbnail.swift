import ArgumentParser
import Foundation
import ShoeboxImaging

struct Thumbnail: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write an upright, scaled-down copy of an image.",
        discussion: """
            --mode fit keeps the whole picture inside the size; --mode fill covers the size (each \
            side at least the target, as PHImageManager's aspectFill); add --crop to cut a fill to \
            exactly the size. Images are never enlarged. The format comes from --format, else from \
            the output's extension, else JPEG.
            """
    )

    @Argument(help: "The image to read.", completion: .file())
    var file: String

    @Option(help: ArgumentHelp("Target size: N for a square, or WxH.", valueName: "size"))
    var size: TargetSize

    @Option(help: "fit (inside the size) or fill (covers the size).")
    var mode: ModeOption = .fit

    @Flag(help: "With --mode fill, crop the centre to exactly the size.")
    var crop = false

    @Option(help: "jpeg, webp, png or heic (default: from the output's extension, else jpeg).")
    var format: FormatOption?

    @Option(help: "Lossy quality, 0-1.")
    var quality: Double = 0.85

    @Flag(help: "Leave out EXIF, XMP and the ICC profile.")
    var strip = false

    @Option(name: .shortAndLong, help: "Where to write the thumbnail.", completion: .file())
    var output: String

    func validate() throws {
        guard (0...1).contains(quality) else { throw ValidationError("--quality must be between 0 and 1") }
        if crop, mode != .fill { throw ValidationError("--crop needs --mode fill") }
    }

    func run() throws {
        let outputURL = URL(fileURLWithPath: output)
        let chosen = format?.imageFormat ?? ImageFormat(name: outputURL.pathExtension) ?? .jpeg
        do {
            let image = try Image(contentsOfFile: file)
            let thumbnail = try image.thumbnail(targetSize: size.pixelSize, contentMode: mode.contentMode, cropToFill: crop)
            try thumbnail.write(
                to: outputURL, format: chosen,
                options: ImageEncodingOptions(quality: quality, keepsMetadata: !strip))
        } catch {
            Terminal.standardError("error: \(file): \(error.message)")
            throw ExitCode.failure
        }
    }
}

struct TargetSize: ExpressibleByArgument {
    let pixelSize: PixelSize

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, numbers.allSatisfy({ $0 > 0 }) else { return nil }
        switch numbers.count {
        case 1: pixelSize = PixelSize(square: numbers[0])
        case 2: pixelSize = PixelSize(width: numbers[0], height: numbers[1])
        default: return nil
        }
    }
}

enum ModeOption: String, ExpressibleByArgument, CaseIterable {
    case fit, fill

    var contentMode: ImageContentMode { self == .fit ? .aspectFit : .aspectFill }
}

enum FormatOption: String, ExpressibleByArgument, CaseIterable {
    case jpeg, webp, png, heic

    var imageFormat: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .webp: .webp
        case .png: .png
        case .heic: .heic
        }
    }
}
