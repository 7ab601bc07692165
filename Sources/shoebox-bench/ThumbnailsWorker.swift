import ArgumentParser
import Foundation
import ShoeboxImaging

/// The measured half of `thumbnails`, run as a child process so that its time and peak memory
/// are its own (not the generator's, not the parent's).
struct ThumbnailsWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnails-worker",
        abstract: "Thumbnail files sequentially with ShoeboxImaging (used by `thumbnails`).",
        shouldDisplay: false
    )

    @Option var size: Int
    @Option var quality: Double
    @Option var output: String
    @Argument var files: [String]

    func run() throws {
        let target = PixelSize(square: size)
        let options = ImageEncodingOptions(quality: quality)
        for file in files {
            let url = URL(fileURLWithPath: file)
            let destination = URL(fileURLWithPath: output).appendingPathComponent("tn_" + url.deletingPathExtension().lastPathComponent + ".jpg")
            let thumbnail = try Image(contentsOf: url).thumbnail(targetSize: target, contentMode: .aspectFit)
            try thumbnail.write(to: destination, format: .jpeg, options: options)
        }
    }
}
