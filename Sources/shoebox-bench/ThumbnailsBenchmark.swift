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
            --megapixels are generated once into .build/bench-input and reused. With --per-process, \
            every file is its own process on both sides (`shoebox thumbnail FILE` against \
            `vipsthumbnail FILE`), which is what a script calling either once per photo gets: \
            start-up counts as much as the thumbnail.
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

    @Flag(help: "One process per file on each side (start-up included), not one process for all.")
    var perProcess = false

    @Option(help: "The shoebox executable for --per-process (default: the one beside this benchmark).")
    var shoebox: String?

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
        var shoebox: [Measured] = []
        var vips: [Measured] = []
        let cli = self.shoebox ?? URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("shoebox").path
        if perProcess, !FileManager.default.isExecutableFile(atPath: cli) {
            throw ValidationError("no shoebox executable at \(cli): build it (swift build -c release --product shoebox) or pass --shoebox")
        }
        for run in 1...runs {
            if !json { Progress.note("run \(run)/\(runs): shoebox, vipsthumbnail\(perProcess ? " (a process per file)" : "")") }
            if perProcess {
                // Each side's run: every file in its own process, one after another.
                shoebox.append(
                    try Self.perFile(files) { index, file in
                        (cli, ["thumbnail", file, "--size", "\(size)", "--mode", "fit", "--quality", "0.75", "--output", output.path + "/sb_\(index).jpg"])
                    })
                vips.append(try Self.perFile(files) { _, file in ("vipsthumbnail", ["-s", "\(size)", "-o", output.path + "/vt_%s.jpg", file]) })
                continue
            }
            let ours = try ChildProcess.run(me, shoeboxArguments, captureOutput: false, measuringPeakMemory: true)
            guard ours.status == 0 else { throw ChildProcess.Failure("the Shoebox worker failed (exit \(ours.status))") }
            shoebox.append(Measured(ours))
            let theirs = try ChildProcess.run("vipsthumbnail", vipsArguments, captureOutput: false, measuringPeakMemory: true)
            guard theirs.status == 0 else { throw ChildProcess.Failure("vipsthumbnail failed (exit \(theirs.status)); is libvips-tools installed?") }
            vips.append(Measured(theirs))
        }
        let best = { (list: [Measured]) in list.min { $0.seconds < $1.seconds }! }
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
            print(
                String(
                    format: "%d JPEGs of %@ to %d px, best of %d runs%@", files.count, result.sourceSize, size, runs,
                    perProcess ? ", a process per file" : ""))
            print(String(format: "shoebox        %7.2f images/s   peak RSS %6.1f MB", result.shoeboxImagesPerSecond, result.shoeboxPeakMemoryMB))
            print(String(format: "vipsthumbnail  %7.2f images/s   peak RSS %6.1f MB", result.vipsthumbnailImagesPerSecond, result.vipsthumbnailPeakMemoryMB))
            print(String(format: "ratio          %7.2f× vipsthumbnail (target ≥ %.2f×)", result.ratio, perProcess ? 0.95 : 0.90))
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

    /// Runs one process per file, one after another: the seconds summed, the largest peak.
    /// A side's run: wall-clock seconds and the largest peak resident set.
    struct Measured {
        let seconds: Double
        let peakMemoryBytes: Int?

        init(seconds: Double, peakMemoryBytes: Int?) {
            self.seconds = seconds
            self.peakMemoryBytes = peakMemoryBytes
        }

        init(_ result: ChildProcess.Result) {
            self.init(seconds: result.seconds, peakMemoryBytes: result.peakMemoryBytes)
        }
    }

    private static func perFile(_ files: [String], _ command: (Int, String) -> (String, [String])) throws -> Measured {
        var seconds = 0.0
        var peak: Int?
        for (index, file) in files.enumerated() {
            let (executable, arguments) = command(index, file)
            let result = try ChildProcess.run(executable, arguments, captureOutput: false, measuringPeakMemory: true)
            guard result.status == 0 else { throw ChildProcess.Failure("\(executable) failed on \(file) (exit \(result.status))") }
            seconds += result.seconds
            peak = max(peak ?? 0, result.peakMemoryBytes ?? 0)
        }
        return Measured(seconds: seconds, peakMemoryBytes: peak)
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
