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

    @Flag(
        help:
            "Lay them out as Google Takeout does: Takeout/Google Photos/Album NN/ of 100 photos each, every photo with its .supplemental-metadata.json (date, place, description) and every album with its metadata.json (the same bytes as without --takeout, for comparing imports)."
    )
    var takeout = false

    func validate() throws {
        guard count > 0, width > 0, height > 0 else { throw ValidationError("count, width and height must be positive") }
    }

    func run() throws {
        let folder = URL(fileURLWithPath: directory)
        let written = takeout ? folder.appendingPathComponent(".generated") : folder
        let urls = try SyntheticPhoto.writeJPEGs(count: count, width: width, height: height, to: written) { done in
            Progress.report("generating \(width)×\(height) photos", done: done, total: count)
        }
        Progress.finish()
        if takeout { try layOutAsTakeout(urls, in: folder) }
        print("\(urls.count) photos in \(directory)")
    }

    /// Moves the photos into Takeout's album folders, each with the JSON Google writes beside it.
    private func layOutAsTakeout(_ urls: [URL], in folder: URL) throws {
        let photos = folder.appendingPathComponent("Takeout/Google Photos")
        for (index, url) in urls.enumerated() {
            let album = photos.appendingPathComponent(String(format: "Album %02d", index / 100))
            if index % 100 == 0 {
                try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
                try Data(#"{"title": "Album \#(index / 100)", "description": "", "access": "protected"}"#.utf8)
                    .write(to: album.appendingPathComponent("metadata.json"))
            }
            let destination = album.appendingPathComponent(url.lastPathComponent)
            if !FileManager.default.fileExists(atPath: destination.path) { try FileManager.default.moveItem(at: url, to: destination) }
            let taken = 1_500_000_000 + index * 3_600
            let json: [String: Any] = [
                "title": url.lastPathComponent, "description": "photo \(index)",
                "photoTakenTime": ["timestamp": String(taken), "formatted": ""],
                "geoData": ["latitude": 41.89 + Double(index % 100) / 1_000, "longitude": 12.49, "altitude": 0],
                "geoDataExif": ["latitude": 0, "longitude": 0, "altitude": 0],
            ]
            try JSONSerialization.data(withJSONObject: json).write(to: album.appendingPathComponent(url.lastPathComponent + ".supplemental-metadata.json"))
        }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(".generated"))
    }
}
