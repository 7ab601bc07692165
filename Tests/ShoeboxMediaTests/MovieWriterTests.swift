import Foundation
import ShoeboxImaging
import ShoeboxMedia
import Testing

@Suite struct MovieWriterTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("shoebox-movie-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func frame(_ size: PixelSize, shade: UInt8) throws -> Bitmap {
        try Bitmap(
            width: size.width, height: size.height, channels: 3,
            bytes: [UInt8](repeating: shade, count: size.width * size.height * 3))
    }

    /// Frames come far faster than ffmpeg encodes 1080p: the writer keeps at most 60 frames' pixels
    /// waiting and repeats the last kept one for the rest, so the movie still has every frame.
    @Test func aWriterThatFallsBehindKeepsTheMoviesLength() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = PixelSize(width: 1920, height: 1080)
        let writer = try MovieWriter(url: folder.appendingPathComponent("burst.mp4"), frameSize: size, frameRate: 30)
        let frames = try (0..<8).map { try frame(size, shade: UInt8($0 * 30)) }
        for index in 0..<150 { try writer.append(frames[index % frames.count]) }
        let counts = writer.frameCounts
        #expect(counts.appended == 150)
        #expect(counts.dropped > 0, "150 1080p frames at once should outrun ffmpeg")
        let info = try await writer.finish()
        #expect(abs(info.duration - 5) < 0.05, "150 frames at 30 fps are 5 s, got \(info.duration)")
    }

    /// A recording stopped after its last frame lasts until the stop.
    @Test func extendingRepeatsTheLastFrame() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = PixelSize(width: 320, height: 240)
        let writer = try MovieWriter(url: folder.appendingPathComponent("short.mp4"), frameSize: size, frameRate: 30)
        writer.extend(toDuration: 1)
        #expect(writer.frameCounts.appended == 0, "nothing to repeat before the first frame")
        for index in 0..<10 { try writer.append(try frame(size, shade: UInt8(index * 20))) }
        writer.extend(toDuration: 1.5)
        #expect(writer.frameCounts.appended == 45)
        writer.extend(toDuration: 1)
        #expect(writer.frameCounts.appended == 45, "never shortens")
        let info = try await writer.finish()
        #expect(abs(info.duration - 1.5) < 0.05, "got \(info.duration)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["short.mp4"])
    }

    @Test func badFramesAndSizesAreErrors() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: MediaError.self) {
            try MovieWriter(url: folder.appendingPathComponent("odd.mp4"), frameSize: PixelSize(width: 321, height: 240), frameRate: 30)
        }
        #expect(throws: MediaError.self) {
            try MovieWriter(url: folder.appendingPathComponent("missing/x.mp4"), frameSize: PixelSize(width: 320, height: 240), frameRate: 30)
        }
    }
}
