import Foundation
import ShoeboxImaging
import ShoeboxMedia
import ShoeboxTesting
import Testing

@Suite struct MovieTrimTests {
    /// 2 s at 30 fps, a key frame every 10 frames, B-frames, and the frame number in the picture.
    static func counterMovie(in folder: URL, name: String = "counter.mp4", bFrames: Bool = true) throws -> URL {
        try SyntheticMovie(
            duration: 2, width: 64, height: 64, frameRate: 30, pattern: .frameCounter,
            keyFrameInterval: 10, usesBFrames: bFrames, hasAudio: true
        )
        .write(to: folder.appendingPathComponent(name))
    }

    struct Cut: Sendable, CustomTestStringConvertible {
        let startFrame: Int
        let endFrame: Int?  // nil: to the end (frame 60)
        let copies: Bool
        var testDescription: String { "frames \(startFrame)..<\(endFrame ?? 60)" }
    }

    @Test(
        "Trims land within one frame of the asked bounds",
        arguments: [
            Cut(startFrame: 0, endFrame: nil, copies: true),  // whole movie: copy
            Cut(startFrame: 20, endFrame: nil, copies: true),  // key frame to the end: copy
            Cut(startFrame: 25, endFrame: nil, copies: false),  // between key frames: re-encode
            Cut(startFrame: 10, endFrame: 40, copies: false),  // B-frames: an exact end needs re-encoding
            Cut(startFrame: 7, endFrame: 31, copies: false),
        ])
    func trimAccuracy(_ cut: Cut) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = try await Movie(contentsOf: Self.counterMovie(in: folder))
        let start = Double(cut.startFrame) / 30
        let end = Double(cut.endFrame ?? 60) / 30
        let output = folder.appendingPathComponent("clip.mp4")
        let result = try await movie.trimming(start..<end, to: output).run()
        #expect(result.usedStreamCopy == cut.copies)
        let frames = try videoFrameCount(output)
        #expect(abs(frames - ((cut.endFrame ?? 60) - cut.startFrame)) <= 1, "\(frames) frames")
        // The first frame shows luma 16 + 3 × its index in the source.
        let first = try await Movie(contentsOf: output).posterFrame(at: 0)
        let index = (try meanLuma(first) - 16) / 3
        #expect(abs(index - Double(cut.startFrame)) <= 1.5, "first frame is source frame \(index)")
    }

    @Test func exactEndsAreCopiedWithoutBFrames() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = try await Movie(contentsOf: Self.counterMovie(in: folder, bFrames: false))
        let output = folder.appendingPathComponent("clip.mp4")
        let result = try await movie.trimming((10.0 / 30)..<(40.0 / 30), to: output).run()
        #expect(result.usedStreamCopy)
        #expect(abs(try videoFrameCount(output) - 30) <= 1)
    }

    @Test func webMCutsCopyIntoWebM() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try SyntheticMovie(duration: 2, width: 64, height: 64, keyFrameInterval: 30)
            .write(to: folder.appendingPathComponent("rec.webm"))
        let movie = try await Movie(contentsOf: source)
        let copy = try await movie.trimming(0..<1, to: folder.appendingPathComponent("a.webm")).run()
        #expect(copy.usedStreamCopy && copy.info.container == "webm")
        #expect(abs(try videoFrameCount(copy.url) - 30) <= 1)
        let mp4 = try await movie.trimming(0..<1, to: folder.appendingPathComponent("b.mp4")).run()
        #expect(!mp4.usedStreamCopy && mp4.info.videoCodec == "h264" && mp4.info.audioCodec == "aac")
    }

    @Test func maximumDurationIsEnforced() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = try await Movie(contentsOf: Self.counterMovie(in: folder))
        let output = folder.appendingPathComponent("long.mp4")
        do {
            try await movie.trimming(0..<1.5, to: output, maximumDuration: 1).run()
            Issue.record("a 1.5 s clip must not pass a 1 s maximum")
        } catch {
            #expect(error == .exceedsMaximumDuration(duration: 1.5, maximum: 1), "\(error)")
            #expect(error.message == "the clip is 1.500 s long, more than the maximum of 1.000 s")
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let ok = try await movie.trimming(0..<1, to: output, maximumDuration: 1).run()
        #expect(abs(ok.info.duration - 1) < 0.1)
    }

    @Test("Bad ranges are invalid", arguments: [(-1.0, 1.0), (3.0, 4.0), (1.0, 1.0), (0.5, .infinity)])
    func badRanges(start: Double, end: Double) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = try await Movie(contentsOf: Self.counterMovie(in: folder))
        do {
            try await movie.trimming(start..<max(start, end), to: folder.appendingPathComponent("x.mp4")).run()
            Issue.record("\(start)..<\(end) should be refused")
        } catch {
            #expect(error.code == .invalidArgument)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "counter.mp4" }
        #expect(leftovers.isEmpty)
    }

    @Test func unknownContainersAreRefused() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = try await Movie(contentsOf: Self.counterMovie(in: folder))
        do {
            try await movie.trimming(0..<1, to: folder.appendingPathComponent("x.gif")).run()
            Issue.record("a .gif destination should be refused")
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }
}
