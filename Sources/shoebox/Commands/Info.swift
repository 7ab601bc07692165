import ArgumentParser
import Foundation
import ShoeboxImaging

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the format, size, orientation and metadata of image files.",
        discussion: """
            Reads only the headers. Exits 0 when every file was read, 1 when any failed; a file \
            that fails gets an error record and the others are still read.

            JSON (--json) is an array with one object per file, in argument order, with these keys \
            where known: path, format, pixelWidth, pixelHeight (as displayed, after the EXIF \
            orientation), storedWidth, storedHeight (as stored in the file), orientation (1-8), \
            make, model, lens, creationDate (ISO 8601, with the offset when the file records one), \
            latitude, longitude (signed decimal degrees), altitude (metres). A file that fails has \
            path and error: {code, message}.
            """
    )

    @Argument(help: "Image files to read.", completion: .file())
    var files: [String]

    @Flag(help: "Print a JSON array instead of text.")
    var json = false

    @Option(help: "Refuse images with more pixels than this.")
    var pixelLimit: Int = ImageDecodingOptions.defaultPixelLimit

    func validate() throws {
        guard pixelLimit > 0 else { throw ValidationError("--pixel-limit must be positive") }
    }

    func run() throws {
        let options = ImageDecodingOptions(pixelLimit: pixelLimit)
        let records = files.map { Self.record(for: $0, options: options) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(records)
            print(String(decoding: data, as: UTF8.self))
        } else {
            for record in records {
                if record.error != nil {
                    Terminal.standardError(record.textLine)
                } else {
                    print(record.textLine)
                }
            }
        }
        if records.contains(where: { $0.error != nil }) {
            throw ExitCode.failure
        }
    }

    private static func record(for path: String, options: ImageDecodingOptions) -> InfoRecord {
        do {
            return InfoRecord(path: path, image: try Image(contentsOfFile: path, options: options))
        } catch {
            return InfoRecord(path: path, error: error)
        }
    }
}
