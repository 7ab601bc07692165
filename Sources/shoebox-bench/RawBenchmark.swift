import ArgumentParser
import Foundation
import ShoeboxImaging
import ShoeboxTesting

struct RawBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raw",
        abstract: "Camera raw files through LibRaw: opening, thumbnails from the preview, verifying, developing.",
        discussion: """
            Input: a generated raw of --megapixels (3:2, a Nikon D700 NEF layout: 12-bit \
            uncompressed sensor data in a SubIFD, a --preview-width JPEG preview in IFD0), written \
            once into .build/bench-input. Timed, best of --runs: opening (the header, the preview's \
            header); a 256 px grid thumbnail (from the preview); verifying the sensor data (what an \
            import adds); a --large px thumbnail (half-size development where it covers it); the \
            whole picture developed (AHD). Peak memory: the process's peak resident set (VmHWM, \
            started again before each step) less what it held before the step. The sensor data is \
            uncompressed: a camera's compressed raw takes longer to unpack.
            """)

    @Option(help: "The sensor's megapixels.") var megapixels = 24
    @Option(help: "The embedded preview's width (0: none).") var previewWidth = 1_620
    @Option(help: "The larger thumbnail's side.") var large = 2_048
    @Option(help: "Runs; the best counts.") var runs = 3
    @Flag(help: "Print JSON.") var json = false

    struct Result: Encodable {
        var file: String
        var sensor: String
        var previewWidth: Int
        var steps: [BenchStep] = []
    }

    func run() throws {
        let height = Int((Double(megapixels) * 1_000_000 / 1.5).squareRoot()) / 2 * 2
        let width = height * 3 / 2 / 2 * 2
        let folder = URL(fileURLWithPath: ".build/bench-input")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("raw-\(width)x\(height)-preview\(previewWidth).NEF")
        if !FileManager.default.fileExists(atPath: url.path) {
            if !json { Progress.note("writing \(url.path)") }
            var raw = SyntheticRaw(kind: .nef, width: width, height: height)
            raw.previewSize = previewWidth > 0 ? PixelSize(width: previewWidth, height: previewWidth * height / width) : nil
            try raw.write(to: url)
        }
        var result = Result(file: url.path, sensor: "\(width)×\(height)", previewWidth: previewWidth)
        func measure(_ name: String, _ body: () throws -> PixelSize) throws {
            result.steps.append(try BenchStep.measure(name, runs: runs, quiet: json, body))
        }
        try measure("open") { try Image(contentsOf: url).pixelSize }
        try measure("grid thumbnail 256 (preview)") {
            try Image(contentsOf: url).thumbnail(targetSize: PixelSize(square: 256), contentMode: .aspectFill, cropToFill: true).pixelSize
        }
        try measure("verify sensor data") {
            let image = try Image(contentsOf: url)
            try image.verifySensorData()
            return image.storedPixelSize
        }
        try measure("thumbnail \(large)") { try Image(contentsOf: url).thumbnail(targetSize: PixelSize(square: large)).pixelSize }
        try measure("develop whole picture") { try Image(contentsOf: url).decoded().pixelSize }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
        }
    }
}
