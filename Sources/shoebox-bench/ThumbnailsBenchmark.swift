import ArgumentParser
import Foundation
import ShoeboxImaging
import ShoeboxTesting

struct ThumbnailsBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnails",
        abstract: "Thumbnail every JPEG in a folder with Shoebox and with vipsthumbnail; compare.",
        discussion: """
            Both sides run as child processes over the same files, one file after another, to a \
            \(256)-pixel fit (vipsthumbnail -s N), writing JPEG at libvips's default quality 75. \
            Each side runs --runs times, alternating; the best run counts. Peak memory is each \
            child's own maximum resident set. Without DIR, --count photo-like JPEGs of \
            --megapixels are generated once into .build/bench-input and reused.
            """
    )

    @Argument(help: "A folder of JPEGs (default: generated).", completion: .directory)
    var directory: String?

    @Option(help: "Generated photos, when no folder is given.")
    var count = 20

    @Option(help: "Megapixels of generated photos (3:2).")
    var megapixels = 24

    @Option(help: "Thumbnail size (fit inside N×N).")
    var size = 256

    @Option(help: "Runs per side; the best counts.")
    var runs = 3

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard count > 0, megapixels > 0, size > 0, runs > 0 else { throw ValidationError("all numbers must be positive") }
    }

    func run() throws {
        let files = try inputFiles()
        guard !files.isEmpty else { throw ValidationError("no JPEG files found") }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }

        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let shoeboxArguments = ["thumbnails-worker", "--size", "\(size)", "--quality", "0.75", "--output", output.path] + files
        let vipsArguments = ["-s", "\(size)", "-o", output.path + "/vt_%s.jpg"] + files

        guard ChildProcess.canMeasurePeakMemory else {
            throw ValidationError("peak memory is measured with GNU time (\(ChildProcess.gnuTime)); install the Debian package `time`")
        }
        var shoebox: [ChildProcess.Result] = []
        var vips: [ChildProcess.Result] = []
        for run in 1...runs {
            if !json { Progress.note("run \(run)/\(runs): shoebox, vipsthumbnail") }
            let ours = try ChildProcess.run(me, shoeboxArguments, captureOutput: false, measuringPeakMemory: true)
            guard ours.status == 0 else { throw ChildProcess.Failure("the Shoebox worker failed (exit \(ours.status))") }
            shoebox.append(ours)
            let theirs = try ChildProcess.run("vipsthumbnail", vipsArguments, captureOutput: false, measuringPeakMemory: true)
            guard theirs.status == 0 else { throw ChildProcess.Failure("vipsthumbnail failed (exit \(theirs.status)); is libvips-tools installed?") }
            vips.append(theirs)
        }
        let best = { (list: [ChildProcess.Result]) in list.min { $0.seconds < $1.seconds }! }
        let ours = best(shoebox)
        let theirs = best(vips)
        let pixels = try Image(contentsOfFile: files[0]).pixelSize
        let result = Result(
            files: files.count, sourceSize: "\(pixels.width)x\(pixels.height)", targetSize: size, runs: runs,
            shoeboxImagesPerSecond: Double(files.count) / ours.seconds,
            vipsthumbnailImagesPerSecond: Double(files.count) / theirs.seconds,
            ratio: theirs.seconds / ours.seconds,
            shoeboxPeakMemoryMB: Double(shoebox.compactMap(\.peakMemoryBytes).max() ?? 0) / 1_048_576,
            vipsthumbnailPeakMemoryMB: Double(vips.compactMap(\.peakMemoryBytes).max() ?? 0) / 1_048_576)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
        } else {
            print(String(format: "%d JPEGs of %@ to %d px, best of %d runs", files.count, result.sourceSize, size, runs))
            print(String(format: "shoebox        %7.2f images/s   peak RSS %6.1f MB", result.shoeboxImagesPerSecond, result.shoeboxPeakMemoryMB))
            print(String(format: "vipsthumbnail  %7.2f images/s   peak RSS %6.1f MB", result.vipsthumbnailImagesPerSecond, result.vipsthumbnailPeakMemoryMB))
            print(String(format: "ratio          %7.2f× vipsthumbnail (target ≥ 0.90×)", result.ratio))
        }
    }

    struct Result: Encodable {
        let files: Int
        let sourceSize: String
        let targetSize: Int
        let runs: Int
        let shoeboxImagesPerSecond: Double
        let vipsthumbnailImagesPerSecond: Double
        /// Shoebox's throughput divided by vipsthumbnail's.
        let ratio: Double
        let shoeboxPeakMemoryMB: Double
        let vipsthumbnailPeakMemoryMB: Double
    }

    private func inputFiles() throws -> [String] {
        if let directory {
            let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            return names.map { (directory as NSString).appendingPathComponent($0) }.filter { path in
                guard let handle = FileHandle(forReadingAtPath: path), let head = try? handle.read(upToCount: 4) else { return false }
                return ImageFormat(sniffing: [UInt8](head)) == .jpeg
            }
        }
        return try BenchInput.generatedJPEGs(count: count, megapixels: megapixels, quiet: json)
    }
}
