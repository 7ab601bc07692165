import Foundation
import ShoeboxMedia
import ShoeboxTesting
import Testing

/// A browser's MediaRecorder writes WebM as a stream: no duration in the header, no cues.
@Suite struct StreamedRecordingTests {
    @Test func aWebMWithoutADurationIsMeasuredFromItsPackets() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("recording.webm")
        // Written to a pipe, as a recorder does: ffmpeg cannot go back to write the duration.
        let script =
            "ffmpeg -v error -y -f lavfi -i testsrc2=size=320x240:rate=30:duration=2 -f lavfi -i sine=duration=2 "
            + "-c:v libvpx -deadline realtime -c:a libopus -f webm pipe:1 > '\(url.path)'"
        let made = try ChildProcess.run("/bin/sh", ["-c", script])
        #expect(made.status == 0, "\(made.standardError)")
        let header = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url.path])
        #expect(
            header.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || header.standardOutput.contains("N/A"),
            "the file must have no duration for this test to mean anything")
        let info = try await MovieInfo(contentsOf: url)
        #expect(abs(info.duration - 2) < 0.05, "measured \(info.duration) s")
        #expect(info.container == "webm" && info.videoCodec == "vp8" && info.audioCodec == "opus")
        #expect(await Movie.isVideoCompatibleWithSavedPhotosAlbum(at: url).isCompatible)
        // And it transcodes to MP4 (the library's playback rendition).
        let movie = try await Movie(contentsOf: url)
        let result = try await movie.transcoding(to: folder.appendingPathComponent("playable.mp4"), quality: .typeLow).run()
        #expect(abs(result.info.duration - 2) < 0.1 && result.info.videoCodec == "h264")
    }
}
