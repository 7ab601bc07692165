import ArgumentParser
import Foundation
import ShoeboxTesting

struct GeneratePhotos: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write deterministic, photo-like JPEGs (for benchmarks and demos without the corpus)."
    )

    @Argument(help: "The folder to write into (made if missing; existing files are kept).")
    var directory: String

    @Option(help: "How many photos.")
    var count = 20

    @Option(help: "Width in pixels.")
    var width = 6000

    @Option(help: "Height in pixels.")
    var height = 4000

    func validate() throws {
        guard count > 0, width > 0, height > 0 else { throw ValidationError("count, width and height must be positive") }
    }

    func run() throws {
        let urls = try SyntheticPhoto.writeJPEGs(
            count: count, width: width, height: height, to: URL(fileURLWithPath: directory)
        ) { done in
            Progress.report("generating \(width)×\(height) photos", done: done, total: count)
        }
        Progress.finish()
        print("\(urls.count) photos in \(directory)")
    }
}
