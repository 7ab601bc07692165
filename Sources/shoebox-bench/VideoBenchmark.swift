import ArgumentParser
import Foundation
import ShoeboxMedia
import ShoeboxTesting

struct VideoBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "video",
        abstract: "Trim (stream copy) and transcode a 1080p clip with ShoeboxMedia and with plain ffmpeg; compare.",
        discussion: """
            The clip (testsrc2 + a tone, H.264 with B-frames, a key frame every 2 s, AAC) is \
            generated once into .build/bench-input. The trim cuts from the key frame at --trim-start \
            to the end, which ShoeboxMedia does by stream copy; the transcode is the typeHigh preset \
            (H.264 veryfast CRF 20 + AAC 160k at 1920×1080). ffmpeg runs the same arguments \
            directly. The source is probed once beforehand (a caller holds a Movie); ShoeboxMedia's \
            times include its own ffprobe calls (finding the key frame, probing the result). Best \
            of --runs.
            """
    )

    @Option(help: "Length of the generated clip in seconds.")
    var duration = 30

    @Option(help: "Where the trim starts (a key frame: a multiple of 2 s).")
    var trimStart = 10

    @Option(help: "Runs per side; the best counts.")
    var runs = 2

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard duration > 2, runs > 0, trimStart >= 0, trimStart < duration, trimStart % 2 == 0 else {
            throw ValidationError("need duration > 2, runs > 0, and an even trim start inside the clip")
        }
    }

    func run() async throws {
        let folder = Corpus.packageRoot().appendingPathComponent(".build/bench-input/video")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("testsrc2-1080p-\(duration)s.mp4")
        if !FileManager.default.fileExists(atPath: source.path) {
            if !json { Progress.note("generating a \(duration) s 1080p clip into \(source.path) (reused next time)") }
            try SyntheticMovie(duration: Double(duration), width: 1920, height: 1080, frameRate: 30, keyFrameInterval: 60)
                .write(to: source)
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-video-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }

        let input = ["-hide_banner", "-nostdin", "-v", "error", "-y"]
        let trimArguments =
            input + [
                "-ss", "\(trimStart)", "-i", source.path, "-map", "0:v:0", "-map", "0:a:0?", "-c", "copy",
                "-avoid_negative_ts", "make_zero", "-map_metadata", "0",
                "-movflags", "+faststart+use_metadata_tags", output.appendingPathComponent("ff-trim.mp4").path,
            ]
        let transcodeArguments =
            input + [
                "-i", source.path, "-map", "0:v:0", "-map", "0:a:0?", "-map_metadata", "0",
                "-vf", "scale=1920:1080,format=yuv420p", "-c:v", "libx264", "-preset", "veryfast",
                "-crf", "20", "-c:a", "aac", "-b:a", "160000",
                "-movflags", "+faststart+use_metadata_tags", output.appendingPathComponent("ff-transcode.mp4").path,
            ]

        let movie = try await Movie(contentsOf: source)
        var shoeboxTrim: [Double] = []
        var ffmpegTrim: [Double] = []
        var shoeboxTranscode: [Double] = []
        var ffmpegTranscode: [Double] = []
        // Trims first, then transcodes, each side going first in every other run, with the disk
        // flushed before each timing: a copy timed right after a transcode would pay for writing
        // back the transcode's output.
        for run in 1...runs {
            if !json { Progress.note("run \(run)/\(runs): trim") }
            let ours = {
                sync()
                shoeboxTrim.append(
                    try await Self.time {
                        let result = try await movie.trimming(Double(trimStart)..<Double(duration), to: output.appendingPathComponent("sb-trim.mp4")).run()
                        guard result.usedStreamCopy else { throw ChildProcess.Failure("the trim was not a stream copy") }
                    })
            }
            let theirs = {
                sync()
                ffmpegTrim.append(try Self.ffmpeg(trimArguments))
            }
            if run % 2 == 1 {
                try await ours()
                try theirs()
            } else {
                try theirs()
                try await ours()
            }
        }
        for run in 1...runs {
            if !json { Progress.note("run \(run)/\(runs): transcode") }
            sync()
            shoeboxTranscode.append(
                try await Self.time {
                    try await movie.transcoding(to: output.appendingPathComponent("sb-transcode.mp4"), quality: .typeHigh).run()
                })
            sync()
            ffmpegTranscode.append(try Self.ffmpeg(transcodeArguments))
        }
        let trimmed = Double(duration - trimStart)
        let result = Result(
            clipSeconds: duration, trimmedSeconds: trimmed, runs: runs,
            trimShoeboxSeconds: shoeboxTrim.min()!, trimFFmpegSeconds: ffmpegTrim.min()!,
            transcodeShoeboxSeconds: shoeboxTranscode.min()!, transcodeFFmpegSeconds: ffmpegTranscode.min()!)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
        } else {
            print("\(duration) s 1920×1080 H.264/AAC clip, best of \(runs)")
            print(
                String(
                    format: "trim (copy, %.0f s)   shoebox %6.3f s (%6.1f× real time)   ffmpeg %6.3f s (%6.1f×)   shoebox/ffmpeg %.2f",
                    trimmed, result.trimShoeboxSeconds, trimmed / result.trimShoeboxSeconds,
                    result.trimFFmpegSeconds, trimmed / result.trimFFmpegSeconds, result.trimRatio))
            print(
                String(
                    format: "transcode typeHigh    shoebox %6.3f s (%6.2f× real time)   ffmpeg %6.3f s (%6.2f×)   shoebox/ffmpeg %.3f",
                    result.transcodeShoeboxSeconds, Double(duration) / result.transcodeShoeboxSeconds,
                    result.transcodeFFmpegSeconds, Double(duration) / result.transcodeFFmpegSeconds, result.transcodeRatio))
        }
    }

    struct Result: Encodable {
        let clipSeconds: Int
        let trimmedSeconds: Double
        let runs: Int
        let trimShoeboxSeconds: Double
        let trimFFmpegSeconds: Double
        let transcodeShoeboxSeconds: Double
        let transcodeFFmpegSeconds: Double
        /// Shoebox's time over ffmpeg's (target ≤ 1.1).
        let trimRatio: Double
        let transcodeRatio: Double

        init(
            clipSeconds: Int, trimmedSeconds: Double, runs: Int, trimShoeboxSeconds: Double, trimFFmpegSeconds: Double,
            transcodeShoeboxSeconds: Double, transcodeFFmpegSeconds: Double
        ) {
            self.clipSeconds = clipSeconds
            self.trimmedSeconds = trimmedSeconds
            self.runs = runs
            self.trimShoeboxSeconds = trimShoeboxSeconds
            self.trimFFmpegSeconds = trimFFmpegSeconds
            self.transcodeShoeboxSeconds = transcodeShoeboxSeconds
            self.transcodeFFmpegSeconds = transcodeFFmpegSeconds
            trimRatio = trimShoeboxSeconds / trimFFmpegSeconds
            transcodeRatio = transcodeShoeboxSeconds / transcodeFFmpegSeconds
        }
    }

    static func time(_ body: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func ffmpeg(_ arguments: [String]) throws -> Double {
        let result = try ChildProcess.run("ffmpeg", arguments, captureOutput: true)
        guard result.status == 0 else { throw ChildProcess.Failure("ffmpeg failed: \(result.standardError)") }
        return result.seconds
    }
}
