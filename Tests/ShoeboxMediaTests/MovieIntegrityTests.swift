import Foundation
import ShoeboxMedia
import ShoeboxTesting
import Testing

/// Movies cut short after an index that promises more: ffprobe reports the full length, so the
/// container's sizes are checked against the file's.
@Suite struct MovieIntegrityTests {
    func halve(_ url: URL) throws -> URL {
        let data = try Data(contentsOf: url)
        let cut = url.deletingLastPathComponent().appendingPathComponent("cut-" + url.lastPathComponent)
        try data.prefix(data.count / 2).write(to: cut)
        return cut
    }

    @Test(arguments: ["faststart.mp4", "whole.webm", "whole.mov"])
    func truncatedMoviesAreCorrupt(_ name: String) async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(name)
        try SyntheticMovie(duration: 3, width: 320, height: 240).write(to: url)
        if name.hasPrefix("faststart") {
            // moov first, as cameras and browsers' MP4s have it.
            let moved = folder.appendingPathComponent("moved.mp4")
            let result = try ChildProcess.run("ffmpeg", ["-v", "error", "-y", "-i", url.path, "-c", "copy", "-movflags", "+faststart", moved.path])
            #expect(result.status == 0)
            try FileManager.default.removeItem(at: url)
            try FileManager.default.moveItem(at: moved, to: url)
        }
        _ = try await MovieInfo(contentsOf: url)  // whole, it is fine
        let cut = try halve(url)
        do {
            let info = try await MovieInfo(contentsOf: cut)
            Issue.record("a truncated \(name) probed as \(info.duration) s")
        } catch {
            #expect(error.code == .corrupt, "\(error.message)")
            // A MOV whose index comes last loses the index itself (ffprobe refuses it); the
            // others keep an index that promises more than the file holds.
            if name != "whole.mov" { #expect(error.message.contains("truncated"), "\(error.message)") }
        }
    }
}
