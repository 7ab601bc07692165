import Foundation
import ShoeboxImaging
import ShoeboxTesting
import Testing

@Suite struct ThumbnailCommandTests {
    let folder: URL
    let source: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-thumb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        source = folder.appendingPathComponent("photo.jpg").path
        try SyntheticPhoto(width: 1200, height: 800).image().write(to: URL(fileURLWithPath: source))
    }

    @Test(
        "Sizes, modes and formats",
        arguments: [
            (["--size", "256"], "a.jpg", ImageFormat.jpeg, PixelSize(width: 256, height: 171)),
            (["--size", "256", "--mode", "fill"], "b.jpg", .jpeg, PixelSize(width: 384, height: 256)),
            (["--size", "256", "--mode", "fill", "--crop"], "c.png", .png, PixelSize(square: 256)),
            (["--size", "300x100", "--format", "webp"], "d.out", .webp, PixelSize(width: 150, height: 100)),
            (["--size", "5000"], "e.jpg", .jpeg, PixelSize(width: 1200, height: 800)),
        ])
    func writesTheThumbnail(options: [String], name: String, format: ImageFormat, size: PixelSize) throws {
        let output = folder.appendingPathComponent(name)
        let result = try CLIRunner.run(["thumbnail", source] + options + ["-o", output.path])
        #expect(result.status == 0, "\(result.standardError)")
        let image = try Image(contentsOf: output)
        #expect(image.format == format)
        #expect(image.pixelSize == size)
    }

    @Test func failureIsOneLineOnStandardError() throws {
        let bad = folder.appendingPathComponent("bad.jpg")
        try Data("nope".utf8).write(to: bad)
        let result = try CLIRunner.run(["thumbnail", bad.path, "--size", "64", "-o", folder.appendingPathComponent("x.jpg").path])
        #expect(result.status == 1)
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.hasPrefix("error: "))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.jpg").path))
    }

    /// `Image.decodingMemory(for:)` is a bound to plan with: what `shoebox thumbnail` takes at
    /// its peak (GNU time) beyond what `shoebox info` takes on the same file (the process and the
    /// header) stays within the estimate, for the decoders that hold the most — libheif (an
    /// 8192 × 8192 HEIC, decoded whole), an interlaced 50-megapixel PNG (held whole) — and for a
    /// 99-megapixel plain PNG, which streams. (The large photos are the bad-upload battery's,
    /// made once into `.build/bad-upload-battery/`.)
    @Test(.enabled(if: ChildProcess.canMeasurePeakMemory, "GNU time (/usr/bin/time) is missing"))
    func aThumbnailTakesNoMoreMemoryThanItsEstimate() throws {
        let cache = BadUploadFixtures.cache
        var files = [
            try LargePhotos.png(width: 8_192, height: 6_144, interlaced: true, in: cache),
            try LargePhotos.png(width: 11_500, height: 8_600, interlaced: false, in: cache),
        ]
        if ImageFormat.heic.canEncode { files.append(try LargePhotos.heic(side: 8_192, in: cache)) }
        for file in files {
            let target = PixelSize(square: 1_024)
            let estimate = try Image(contentsOf: file).decodingMemory(for: .thumbnail(target))
            let header = try CLIRunner.run(["info", file.path], measuringPeakMemory: true)
            let thumbnail = try CLIRunner.run(
                ["thumbnail", file.path, "--size", "1024", "-o", folder.appendingPathComponent("t.jpg").path],
                measuringPeakMemory: true)
            #expect(header.status == 0 && thumbnail.status == 0, "\(header.standardError) \(thumbnail.standardError)")
            let taken = try #require(thumbnail.peakMemoryBytes) - (try #require(header.peakMemoryBytes))
            #expect(taken <= estimate, "\(file.lastPathComponent): the thumbnail took \(taken >> 20) MB, more than the \(estimate >> 20) MB estimated")
        }
    }

    @Test("Bad arguments are refused", arguments: [["--size", "0"], ["--size", "12xq"], ["--size", "64", "--crop"], ["--size", "64", "--quality", "2"]])
    func badArguments(_ options: [String]) throws {
        let result = try CLIRunner.run(["thumbnail", source] + options + ["-o", folder.appendingPathComponent("y.jpg").path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("Error") || result.standardError.contains("error"))
    }
}

@Suite struct HelpTests {
    @Test("Every command has --help", arguments: [[], ["info"], ["thumbnail"]])
    func help(_ command: [String]) throws {
        let result = try CLIRunner.run(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("USAGE"))
    }

    @Test func version() throws {
        let result = try CLIRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(!result.standardOutput.isEmpty)
    }
}
