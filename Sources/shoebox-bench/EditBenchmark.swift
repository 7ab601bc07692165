import ArgumentParser
import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting

struct EditBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "An edit's full-size render: Adjustments applied to a large JPEG and encoded, as Save in the editor does.",
        discussion: """
            Input: a generated --megapixels 3:2 JPEG, written once into .build/bench-input. Each step decodes it, \
            applies the adjustments (one libvips pipeline) and encodes a JPEG at quality 0.92 with its metadata, \
            as PhotoLibrary.render does before the catalog commit. Timed, best of --runs; peak memory is the \
            process's peak resident set (VmHWM, started again before each step) less what it held before.
            """)

    @Option(help: "The photo's megapixels.") var megapixels = 24
    @Option(help: "Runs; the best counts.") var runs = 3
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let height = Int((Double(megapixels) * 1_000_000 / 1.5).squareRoot())
        let width = height * 3 / 2
        let folder = URL(fileURLWithPath: ".build/bench-input")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("edit-\(width)x\(height).jpg")
        if !FileManager.default.fileExists(atPath: url.path) {
            if !json { Progress.note("writing \(url.path)") }
            try SyntheticPhoto(width: width, height: height, seed: 5).image().write(to: url, options: ImageEncodingOptions(quality: 0.9))
        }
        let light = Adjustments.Light(exposure: 0.4, contrast: 0.2, highlights: -0.3, shadows: 0.3, saturation: 0.1, warmth: 0.2)
        let cases: [(String, Adjustments)] = [
            ("rotate 90 (version 1)", Adjustments(rotation: 90)),
            ("crop 80 % (version 1)", Adjustments(crop: NormalizedRect(x: 0.1, y: 0.1, width: 0.8, height: 0.8))),
            ("straighten 3°", Adjustments(straighten: 3)),
            ("light (six sliders)", Adjustments(light: light)),
            ("filter (sepia)", Adjustments(filter: .sepia)),
            (
                "everything",
                Adjustments(
                    rotation: 90, isFlipped: true, straighten: -3, crop: NormalizedRect(x: 0.05, y: 0.05, width: 0.9, height: 0.9),
                    light: light, filter: .vivid)
            ),
        ]
        var steps: [BenchStep] = []
        for (name, adjustments) in cases {
            steps.append(
                try BenchStep.measure(name, runs: runs, quiet: json, nameWidth: 26) {
                    let rendered = try adjustments.applied(to: try Image(contentsOf: url))
                    _ = try rendered.encoded(as: .jpeg, options: ImageEncodingOptions(quality: 0.92, keepsMetadata: true))
                    return rendered.pixelSize
                })
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(steps), as: UTF8.self))
        }
    }
}
