import Foundation
import ShoeboxImaging
internal import Subprocess
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Writes frames made in memory into an H.264 MP4 (with AAC sound when asked), through an ffmpeg
/// subprocess fed on its standard input: what a camera's movie recording is made of.
///
/// ```swift
/// let writer = try MovieWriter(url: URL(fileURLWithPath: "clip.mp4"), frameSize: PixelSize(width: 640, height: 480), frameRate: 30)
/// for frame in frames { writer.append(try frame.bitmap()) }
/// let info = try await writer.finish()
/// ```
///
/// Frames are taken at a constant frame rate: the movie lasts `frames / frameRate` seconds. The
/// file is written under a hidden temporary name beside `url` and renamed when finished, so a
/// crash or ``cancel()`` leaves no partial movie. If ffmpeg falls behind by more than 60 frames,
/// a new frame's pixels are not kept: the last kept frame is repeated in its place (the repeat
/// shares that frame's memory), so memory stays bounded and the movie still lasts as long as the
/// frames appended. Such frames are counted in ``frameCounts`` as `dropped`.
public final class MovieWriter: Sendable {
    /// Sound to record alongside.
    public enum Audio: Sendable, Hashable {
        /// A 440 Hz tone (the synthetic microphone).
        case syntheticTone
        /// An ALSA capture device (`default`, `hw:1,0`, …).
        case alsa(String)
        /// A PulseAudio source (`default`, …).
        case pulse(String)
    }

    /// Where the movie appears once ``finish()`` succeeds (the URL given, standardised).
    public let url: URL
    /// The size of every frame, in pixels; both sides are even.
    public let frameSize: PixelSize
    /// The frames per second the movie plays at, 1…240.
    public let frameRate: Double
    private let temporary: URL
    private let frames: AsyncStream<Data>.Continuation
    private let run: Task<(status: Int32, error: String), any Error>
    /// Shared with the task feeding ffmpeg, which counts frames as it writes them.
    private let counts = SharedCounts()

    /// At most this many frames with pixels of their own wait for ffmpeg.
    static let maximumPendingFrames = 60

    private final class SharedCounts: Sendable {
        private let mutex = Mutex(Counts())
        func withLock<R>(_ body: (inout Counts) -> R) -> R { mutex.withLock { body(&$0) } }
    }

    private struct Counts: Sendable {
        var appended = 0
        var dropped = 0
        /// Frames handed to ffmpeg's queue and not yet written to its input.
        var pending = 0
        /// The last frame queued with pixels of its own (a repeat shares its bytes).
        var last: Data?
    }

    /// Starts ffmpeg.
    ///
    /// - Throws: ``MediaError/Code/invalidArgument`` for an empty size, a size with odd sides
    ///   (H.264 in 4:2:0 needs even ones) or a frame rate outside 1…240;
    ///   ``MediaError/Code/io`` when the folder does not exist.
    public init(url: URL, frameSize: PixelSize, frameRate: Double, audio: Audio? = nil) throws(MediaError) {
        guard frameSize.isPositive, frameSize.width % 2 == 0, frameSize.height % 2 == 0 else {
            throw .invalidArgument("frame size \(frameSize) must be positive and even on both sides")
        }
        guard frameRate.isFinite, (1...240).contains(frameRate) else {
            throw .invalidArgument("frame rate \(frameRate) must be within 1…240")
        }
        let destination = url.standardizedFileURL
        let folder = destination.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .io(path: folder.path, reason: "the output folder does not exist")
        }
        self.url = destination
        self.frameSize = frameSize
        self.frameRate = frameRate
        temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString)")
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .unbounded)
        frames = continuation

        var arguments = [
            "-hide_banner", "-nostdin", "-v", "error", "-y",
            "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(frameSize.width)x\(frameSize.height)",
            "-framerate", String(format: "%g", frameRate), "-i", "pipe:0",
        ]
        switch audio {
        case nil: break
        case .syntheticTone?: arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"]
        case .alsa(let device)?: arguments += ["-f", "alsa", "-i", device]
        case .pulse(let device)?: arguments += ["-f", "pulse", "-i", device]
        }
        arguments += ["-map", "0:v:0"] + (audio == nil ? [] : ["-map", "1:a:0", "-c:a", "aac", "-b:a", "128k", "-shortest"])
        arguments += [
            "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p",
            "-movflags", "+faststart", "-f", "mp4", "file:" + temporary.path,
        ]
        let finalArguments = arguments
        let counts = counts
        run = Task {
            let result = try await Subprocess.run(
                FFmpeg.executable(FFmpeg.ffmpegName), arguments: Arguments(finalArguments),
                input: .inputWriter, output: .discarded, error: .string(limit: 1 << 20)
            ) { execution in
                let writer = execution.standardInputWriter
                for await frame in stream {
                    _ = try await writer.write(frame)
                    counts.withLock { $0.pending -= 1 }
                }
                try await writer.finish()
            }
            return (result.terminationStatus.code, result.standardError)
        }
    }

    /// Frames taken so far, and frames dropped because ffmpeg was behind.
    public var frameCounts: (appended: Int, dropped: Int) { counts.withLock { ($0.appended, $0.dropped) } }

    /// Seconds of movie taken so far.
    public var duration: Double { Double(frameCounts.appended) / frameRate }

    /// Adds a frame; it must be ``frameSize``, 3 channels (RGB).
    ///
    /// - Throws: ``MediaError/Code/invalidArgument`` for another size or channel count.
    public func append(_ bitmap: Bitmap) throws(MediaError) {
        guard bitmap.width == frameSize.width, bitmap.height == frameSize.height, bitmap.channels == 3 else {
            throw .invalidArgument("a \(bitmap.width)×\(bitmap.height)×\(bitmap.channels) frame does not fit a \(frameSize) RGB movie")
        }
        counts.withLock { counts in
            var frame = Data(bitmap.bytes)
            if counts.pending >= Self.maximumPendingFrames, let last = counts.last {
                // ffmpeg is behind: repeat the last kept frame (no new memory) to keep the timing.
                frame = last
                counts.dropped += 1
            } else {
                counts.last = frame
            }
            if case .enqueued = frames.yield(frame) {
                counts.appended += 1
                counts.pending += 1
            }
        }
    }

    /// Repeats the last appended frame until the movie lasts at least `seconds` (a recording
    /// stopped between two frames, or whose last frames came late, still lasts until the stop).
    /// Does nothing before the first frame or when the movie is long enough already.
    public func extend(toDuration seconds: Double) {
        counts.withLock { counts in
            guard let last = counts.last, seconds.isFinite else { return }
            let wanted = Int((seconds * frameRate).rounded(.down))
            while counts.appended < wanted, case .enqueued = frames.yield(last) {
                counts.appended += 1
                counts.pending += 1
            }
        }
    }

    /// Ends the movie: waits for ffmpeg, then moves the file into place.
    ///
    /// - Returns: The written movie, probed.
    /// - Throws: ``MediaError/Code/processFailed`` when ffmpeg fails (also when no
    ///   frame was appended); ``MediaError/Code/io`` when the file cannot be moved.
    @discardableResult
    public func finish() async throws(MediaError) -> MovieInfo {
        frames.finish()
        let outcome: (status: Int32, error: String)
        do {
            outcome = try await run.value
        } catch let error as SubprocessError where error.code == .executableNotFound {
            throw .toolMissing("ffmpeg")
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .processFailed(tool: "ffmpeg", status: -1, message: "\(error)")
        }
        guard outcome.status == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw .processFailed(tool: "ffmpeg", status: outcome.status, message: outcome.error.split(separator: "\n").last.map(String.init) ?? "")
        }
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw .io(path: url.path, reason: String(cString: strerror(errno)))
        }
        return try await MovieInfo(contentsOf: url)
    }

    /// Abandons the movie: ffmpeg is stopped and nothing is left on disk.
    public func cancel() async {
        frames.finish()
        run.cancel()
        _ = try? await run.value
        try? FileManager.default.removeItem(at: temporary)
    }
}
