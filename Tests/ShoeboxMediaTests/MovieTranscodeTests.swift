import Foundation
import ShoeboxImaging
import ShoeboxMedia
import ShoeboxTesting
import Testing

@Suite struct MovieTranscodeTests {
    @Test(
        "Preset sizes: fit inside the box, turned for portrait, never enlarged",
        arguments: [
            (VideoQuality.typeHigh, PixelSize(width: 3840, height: 2160), PixelSize(width: 1920, height: 1080)),
            (.typeHigh, PixelSize(width: 1280, height: 720), PixelSize(width: 1280, height: 720)),
            (.typeMedium, PixelSize(width: 1920, height: 1080), PixelSize(width: 480, height: 270)),
            (.typeMedium, PixelSize(width: 1080, height: 1920), PixelSize(width: 270, height: 480)),
            (.typeLow, PixelSize(width: 640, height: 480), PixelSize(width: 192, height: 144)),
            (.type640x480, PixelSize(width: 1920, height: 1080), PixelSize(width: 640, height: 360)),
            (.typeIFrame960x540, PixelSize(width: 1920, height: 1080), PixelSize(width: 960, height: 540)),
            (.typeIFrame1280x720, PixelSize(width: 1920, height: 1080), PixelSize(width: 1280, height: 720)),
            (.hd1280x720, PixelSize(width: 4000, height: 3000), PixelSize(width: 960, height: 720)),
            (.hd1920x1080, PixelSize(width: 1280, height: 720), PixelSize(width: 1280, height: 720)),
            (.uhd3840x2160, PixelSize(width: 7680, height: 4320), PixelSize(width: 3840, height: 2160)),
            (.typeMedium, PixelSize(width: 641, height: 481), PixelSize(width: 478, height: 360)),
        ])
    func outputSizes(quality: VideoQuality, source: PixelSize, expected: PixelSize) {
        #expect(quality.outputSize(forDisplayed: source) == expected)
    }

    @Test(
        "Transcoded movies have the documented size",
        arguments: [
            (VideoQuality.typeMedium, PixelSize(width: 480, height: 270)),
            (.type640x480, PixelSize(width: 640, height: 360)),
            (.typeLow, PixelSize(width: 192, height: 108)),
            (.typeHigh, PixelSize(width: 1280, height: 720)),
            (.typeIFrame960x540, PixelSize(width: 960, height: 540)),
        ])
    func transcodes(quality: VideoQuality, expected: PixelSize) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try SyntheticMovie(duration: 1, width: 1280, height: 720).write(to: folder.appendingPathComponent("hd.mp4"))
        let output = folder.appendingPathComponent("out.mp4")
        let result = try await Movie(contentsOf: source).transcoding(to: output, quality: quality).run()
        #expect(result.info.pixelSize == expected)
        #expect(result.info.container == "mp4")
        #expect(result.info.videoCodec == "h264" && result.info.audioCodec == "aac")
        #expect(abs(result.info.duration - 1) < 0.1)
    }

    @Test(.enabled(if: corpus != nil, Comment(rawValue: corpusMissing)))
    func rotationAndMetadataAreKept() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let corpus = try #require(corpus)
        let rotated = try await Movie(contentsOf: corpus.url("generated-video/rotated90-h264.mov"))
        let output = folder.appendingPathComponent("upright.mp4")
        let result = try await rotated.transcoding(to: output, quality: .typeMedium).run()
        #expect(result.info.pixelSize == PixelSize(width: 360, height: 480), "displayed the same way")
        #expect(result.info.rotation == 0)
        #expect(result.info.latitude == 48.8583 && result.info.longitude == 2.2945)

        let dated = try await Movie(contentsOf: corpus.url("generated-video/testsrc-640x480-h264-aac.mp4"))
        let copy = try await dated.transcoding(to: folder.appendingPathComponent("dated.mp4"), quality: .typeLow).run()
        #expect(copy.info.creationDate == dated.info.creationDate)
    }

    @Test func progressIsReportedInOrder() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try SyntheticMovie(duration: 3, width: 640, height: 360).write(to: folder.appendingPathComponent("in.mp4"))
        let movie = try await Movie(contentsOf: source)
        var fractions: [Double] = []
        var finished: MovieExport.Result?
        for try await event in movie.transcoding(to: folder.appendingPathComponent("out.mp4"), quality: .typeLow) {
            switch event {
            case .progress(let progress): fractions.append(progress.fractionCompleted)
            case .finished(let result): finished = result
            }
        }
        #expect(finished != nil)
        #expect(!fractions.isEmpty)
        #expect(fractions == fractions.sorted())
        #expect(fractions.last == 1)
    }

    @Test func cancellingLeavesNothingBehind() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try SyntheticMovie(duration: 20, width: 1280, height: 720, hasAudio: false)
            .write(to: folder.appendingPathComponent("long.mp4"))
        let movie = try await Movie(contentsOf: source)
        let output = folder.appendingPathComponent("out.mp4")
        let watch = try FolderWatch(folder)
        let task = Task {
            var sawProgress = false
            for try await event in movie.transcoding(to: output, quality: .typeHigh) {
                if case .progress(let progress) = event, progress.processedSeconds > 0 {
                    sawProgress = true
                    break  // dropping the iterator cancels the export
                }
            }
            return sawProgress
        }
        #expect(try await task.value)
        // The export's teardown kills ffmpeg and deletes the partial file.
        let leftovers = { @Sendable in try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "long.mp4" } }
        let cleared = try await watch.wait(timeout: .seconds(5)) { try leftovers().isEmpty }
        #expect(cleared, "left behind: \((try? leftovers()) ?? [])")

        // Cancelled once ffmpeg has reported progress: mid-transcode.
        let reported = EventRecorder<Double>()
        let cancelled = Task { try await movie.transcoding(to: output, quality: .typeHigh).run { reported.append($0.processedSeconds) } }
        #expect(await reported.wait(timeout: .seconds(60)) { !$0.isEmpty }, "ffmpeg reported no progress")
        cancelled.cancel()
        do {
            _ = try await cancelled.value
            Issue.record("a cancelled transcode must not finish")
        } catch {
            #expect((error as? MediaError)?.code == .cancelled)
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        let partials = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("partial") }
        #expect(partials.isEmpty)
    }
}
