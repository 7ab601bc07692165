import ArgumentParser
import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxTesting

struct ImagesBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "images",
        abstract: "ImageManager: warm and cold requests, derivatives on import, many concurrent requests.",
        discussion: """
            Inputs are --count generated 24 MP JPEGs (made once into .build/bench-input). \
            (a) Warm: --warm-requests requests of a 256 px thumbnail already rendered, from the \
            same manager (memory) and from fresh managers (the derivative file): p50 and p99. \
            (b) Cold: 256 px fit requests of --cold-files photos with nothing cached, beside one \
            vipsthumbnail process over the same files: seconds per image, best of --runs. \
            (c) Import of every photo as `shoebox import` does (one change per file, one per core \
            at a time) with its derivatives (1024 px preview + 256 px grid, made from the decode \
            that validates the file), until the last one is written; the same derivatives made \
            again from an empty cache through ImageManager; beside vipsthumbnail over the same files. (d) 100 concurrent cold \
            requests (every photo at two sizes) in a child process: its peak RSS.
            """)

    @Option(help: "Generated 24 MP photos.") var count = 50
    @Option(help: "Photos for the cold comparison.") var coldFiles = 10
    @Option(help: "Warm requests timed.") var warmRequests = 2_000
    @Option(help: "Runs of the cold and import comparisons; the best counts.") var runs = 2
    @Flag(help: "Print JSON.") var json = false

    struct Result: Encodable {
        var warmMemoryP50Milliseconds = 0.0
        var warmMemoryP99Milliseconds = 0.0
        var warmDiskP50Milliseconds = 0.0
        var warmDiskP99Milliseconds = 0.0
        var coldShoeboxSecondsPerImage = 0.0
        var coldVipsthumbnailSecondsPerImage = 0.0
        var coldRatio = 0.0
        var importFiles = 0
        var importWithDerivativesImagesPerSecond = 0.0
        var derivativesOnlyImagesPerSecond = 0.0
        var vipsthumbnailImagesPerSecond = 0.0
        var concurrentRequests = 0
        var concurrentPeakMemoryMB = 0.0
    }

    func run() async throws {
        let files = try BenchInput.generatedJPEGs(count: count, megapixels: 24, quiet: json)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-bench-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var result = Result()

        // (c) first: it builds the library the others use.
        if !json { Progress.note("(c) import with derivatives") }
        var libraryURL = scratch
        var bestImport = Double.infinity
        for run in 1...runs {
            let url = scratch.appendingPathComponent("Run\(run).shoebox")
            let library = try await PhotoLibrary.open(at: url)
            let start = DispatchTime.now().uptimeNanoseconds
            try await BenchInput.importFiles(files.map { URL(fileURLWithPath: $0) }, into: library)
            await library.waitForBackgroundWork()
            bestImport = Swift.min(bestImport, Self.seconds(since: start))
            libraryURL = url
        }
        result.importFiles = files.count
        result.importWithDerivativesImagesPerSecond = Double(files.count) / bestImport
        let library = try await PhotoLibrary.open(at: libraryURL)
        let assets = try await library.fetchAssets().allObjects()
        var bestRegenerate = Double.infinity
        for _ in 1...runs {
            try FileManager.default.removeItem(at: libraryURL.appendingPathComponent("derivatives"))
            let fresh = try await PhotoLibrary.open(at: libraryURL)
            let manager = ImageManager(library: fresh, memoryByteLimit: 0)
            let start = DispatchTime.now().uptimeNanoseconds
            try await withThrowingTaskGroup(of: Void.self) { group in
                for asset in assets {
                    group.addTask {
                        let options = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
                        let preview = await manager.requestImage(for: asset, targetSize: PixelSize(square: 1_024), options: options).finalResult()
                        if let error = preview?.error { throw error }
                        let grid = await manager.requestImage(for: asset, targetSize: PixelSize(square: 256), contentMode: .aspectFill, options: options)
                            .finalResult()
                        if let error = grid?.error { throw error }
                    }
                }
                try await group.waitForAll()
            }
            bestRegenerate = Swift.min(bestRegenerate, Self.seconds(since: start))
        }
        result.derivativesOnlyImagesPerSecond = Double(assets.count) / bestRegenerate
        var bestVips = Double.infinity
        for _ in 1...runs {
            let out = scratch.appendingPathComponent("vips-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let vips = try ChildProcess.run("vipsthumbnail", ["-s", "256", "-o", out.path + "/%s.jpg"] + files, captureOutput: false)
            guard vips.status == 0 else { throw ChildProcess.Failure("vipsthumbnail failed; is libvips-tools installed?") }
            bestVips = Swift.min(bestVips, vips.seconds)
        }
        result.vipsthumbnailImagesPerSecond = Double(files.count) / bestVips

        // (a) Warm.
        if !json { Progress.note("(a) warm requests") }
        let warmOptions = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
        let warmManager = ImageManager(library: library)
        let target = assets[0]
        _ = await warmManager.requestImage(for: target, targetSize: PixelSize(square: 256), contentMode: .aspectFill, options: warmOptions).finalResult()
        var memoryTimes: [Double] = []
        var diskTimes: [Double] = []
        for index in 0..<warmRequests {
            let start = DispatchTime.now().uptimeNanoseconds
            let hit = await warmManager.requestImage(for: target, targetSize: PixelSize(square: 256), contentMode: .aspectFill, options: warmOptions)
                .finalResult()
            memoryTimes.append(Self.seconds(since: start) * 1_000)
            guard hit?.image != nil else { throw ChildProcess.Failure("a warm request failed: \(hit?.error?.message ?? "no result")") }
            if index % 4 == 0 {
                let fresh = ImageManager(library: library)
                let diskStart = DispatchTime.now().uptimeNanoseconds
                _ = await fresh.requestImage(for: target, targetSize: PixelSize(square: 256), contentMode: .aspectFill, options: warmOptions).finalResult()
                diskTimes.append(Self.seconds(since: diskStart) * 1_000)
            }
        }
        result.warmMemoryP50Milliseconds = Statistics.percentile(memoryTimes, 0.5)
        result.warmMemoryP99Milliseconds = Statistics.percentile(memoryTimes, 0.99)
        result.warmDiskP50Milliseconds = Statistics.percentile(diskTimes, 0.5)
        result.warmDiskP99Milliseconds = Statistics.percentile(diskTimes, 0.99)

        // (b) Cold, beside vipsthumbnail on the same files.
        if !json { Progress.note("(b) cold requests") }
        let coldAssets = Array(assets.prefix(coldFiles))
        var coldPaths: [String] = []
        for asset in coldAssets { coldPaths.append(try await library.originalURL(for: asset).path) }
        var bestCold = Double.infinity
        var bestColdVips = Double.infinity
        for _ in 1...runs {
            try? FileManager.default.removeItem(at: libraryURL.appendingPathComponent("derivatives"))
            let fresh = try await PhotoLibrary.open(at: libraryURL)
            let manager = ImageManager(library: fresh, memoryByteLimit: 0)
            let start = DispatchTime.now().uptimeNanoseconds
            for asset in coldAssets {
                let cold = await manager.requestImage(for: asset, targetSize: PixelSize(square: 256), options: warmOptions).finalResult()
                guard cold?.image != nil else { throw ChildProcess.Failure("a cold request failed: \(cold?.error?.message ?? "no result")") }
            }
            bestCold = Swift.min(bestCold, Self.seconds(since: start) / Double(coldAssets.count))
            let out = scratch.appendingPathComponent("vips-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let vips = try ChildProcess.run("vipsthumbnail", ["-s", "256", "-o", out.path + "/%s.jpg"] + coldPaths, captureOutput: false)
            bestColdVips = Swift.min(bestColdVips, vips.seconds / Double(coldPaths.count))
        }
        result.coldShoeboxSecondsPerImage = bestCold
        result.coldVipsthumbnailSecondsPerImage = bestColdVips
        result.coldRatio = bestCold / bestColdVips

        // (d) 100 concurrent cold requests, in a child so its peak RSS is its own.
        if !json { Progress.note("(d) 100 concurrent cold requests") }
        try? FileManager.default.removeItem(at: libraryURL.appendingPathComponent("derivatives"))
        guard ChildProcess.canMeasurePeakMemory else {
            throw ValidationError("peak memory is measured with GNU time (\(ChildProcess.gnuTime)); install the Debian package `time`")
        }
        let child = try ChildProcess.run(
            BenchInput.executable, ["images-worker", libraryURL.path, "--requests", "100"],
            captureOutput: false, measuringPeakMemory: true)
        guard child.status == 0 else { throw ChildProcess.Failure("the concurrent-request worker failed (exit \(child.status))") }
        result.concurrentRequests = 100
        result.concurrentPeakMemoryMB = Double(child.peakMemoryBytes ?? 0) / 1_048_576

        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
        } else {
            print(
                String(
                    format: "(a) warm 256 px: memory p50 %.3f ms, p99 %.3f ms (target p50 < 0.5 ms); derivative file p50 %.3f ms, p99 %.3f ms",
                    result.warmMemoryP50Milliseconds, result.warmMemoryP99Milliseconds, result.warmDiskP50Milliseconds, result.warmDiskP99Milliseconds))
            print(
                String(
                    format: "(b) cold 256 px from 24 MP: shoebox %.3f s/image, vipsthumbnail %.3f s/image, ratio %.2f× (target ≤ 1.2×)",
                    result.coldShoeboxSecondsPerImage, result.coldVipsthumbnailSecondsPerImage, result.coldRatio))
            print(
                String(
                    format:
                        "(c) %d × 24 MP: import + derivatives %.2f images/s, derivatives alone %.2f images/s, vipsthumbnail %.2f images/s (target ≥ 0.8×: %.2f× / %.2f×)",
                    result.importFiles, result.importWithDerivativesImagesPerSecond, result.derivativesOnlyImagesPerSecond,
                    result.vipsthumbnailImagesPerSecond, result.importWithDerivativesImagesPerSecond / result.vipsthumbnailImagesPerSecond,
                    result.derivativesOnlyImagesPerSecond / result.vipsthumbnailImagesPerSecond))
            print(
                String(format: "(d) %d concurrent cold requests: peak RSS %.1f MB (target < 1024 MB)", result.concurrentRequests, result.concurrentPeakMemoryMB)
            )
        }
    }

    static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

/// `images-worker LIBRARY --requests N`: N concurrent cold requests (each asset at 256 and 512 px
/// fill, cycling), for the peak-memory figure. A request refused as busy (more than a person's 64
/// renders waiting) is asked again until it is rendered.
struct ImagesWorker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "images-worker", shouldDisplay: false)
    @Argument var library: String
    @Option var requests = 100

    func run() async throws {
        let library = try await PhotoLibrary.open(at: URL(fileURLWithPath: library), backgroundWork: .onDemand)
        let assets = try await library.fetchAssets().allObjects()
        let manager = ImageManager(library: library, memoryByteLimit: 0)
        let failures = await withTaskGroup(of: String?.self) { group in
            for index in 0..<requests {
                group.addTask {
                    let asset = assets[index % assets.count]
                    let side = (index / assets.count) % 2 == 0 ? 256 : 512
                    let options = ImageRequestOptions(deliveryMode: .highQualityFormat, resizeMode: .exact)
                    let render = {
                        await manager.requestImage(for: asset, targetSize: PixelSize(square: side), contentMode: .aspectFill, options: options).finalResult()
                    }
                    var result = await render()
                    // Renders past a person's 64 waiting are refused as busy, as a server's 503: asked
                    // again, as a browser does, so all N are rendered.
                    while result?.error?.code == .busy {
                        try? await Task.sleep(for: .milliseconds(100))
                        result = await render()
                    }
                    guard result?.image == nil else { return nil }
                    return "\(asset.localIdentifier) at \(side) px: \(result?.error?.message ?? "no result")"
                }
            }
            return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
        }
        guard failures.isEmpty else {
            throw ChildProcess.Failure("\(failures.count) of \(requests) requests failed; the first: \(failures[0])")
        }
    }
}
