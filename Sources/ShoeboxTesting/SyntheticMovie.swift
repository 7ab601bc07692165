import Foundation

/// Movies made with ffmpeg's test sources, for tests that need particular durations, sizes,
/// frame rates, key-frame spacing, rotation or audio.
///
/// ```swift
/// let url = try SyntheticMovie(duration: 2, width: 64, height: 64, frameRate: 30).write(to: folder.appendingPathComponent("ramp.mp4"))
/// ```
public struct SyntheticMovie: Sendable {
    /// What the frames show.
    public enum Pattern: Sendable {
        /// ffmpeg's `testsrc2`: a moving colour pattern with a clock.
        case testSource
        /// A flat grey whose luma is `16 + 3 × frame number` (clamped to 235): the frame shown tells
        /// its index, for the first 73 frames.
        case frameCounter
    }

    /// The length in seconds, of the picture and of the tone.
    public var duration: Double
    /// The frame width in pixels (even for H.264, which ffmpeg encodes as 4:2:0).
    public var width: Int
    /// The frame height in pixels (even for H.264, which ffmpeg encodes as 4:2:0).
    public var height: Int
    /// Frames per second.
    public var frameRate: Int
    /// What the frames show (ffmpeg's moving test pattern unless said otherwise).
    public var pattern: Pattern
    /// Frames between key frames.
    public var keyFrameInterval: Int
    /// Whether to use B-frames (reordering), as most cameras do.
    public var usesBFrames: Bool
    /// Add a sine tone (AAC in MP4/MOV, Opus in WebM).
    public var hasAudio: Bool
    /// Display-matrix rotation in degrees, as ffprobe reports it (MP4/MOV/3GP only).
    public var rotation: Int
    /// ffmpeg output options that replace the extension's codecs and muxer (`["-c:v", "mjpeg",
    /// "-c:a", "pcm_s16le"]`), for the formats of older cameras; `-an` is added without audio.
    public var codecOptions: [String]?
    /// Container tags, as ffmpeg's `-metadata` takes them (`creation_time`, `location`,
    /// `com.apple.quicktime.content.identifier`).
    public var metadata: [String: String] = [:]

    /// A movie `duration` seconds long. By default: 320 × 240 pixels at 30 frames per second, a key
    /// frame every 30 frames, B-frames, a sine tone, no rotation and no container tags.
    public init(
        duration: Double, width: Int = 320, height: Int = 240, frameRate: Int = 30, pattern: Pattern = .testSource,
        keyFrameInterval: Int = 30, usesBFrames: Bool = true, hasAudio: Bool = true, rotation: Int = 0
    ) {
        self.duration = duration
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.pattern = pattern
        self.keyFrameInterval = keyFrameInterval
        self.usesBFrames = usesBFrames
        self.hasAudio = hasAudio
        self.rotation = rotation
    }

    /// Writes the movie; the container and codecs follow the extension (`.mp4`/`.mov`: H.264 +
    /// AAC; `.webm`: VP8 + Opus; `.avi`: MPEG-4 Part 2 + MP3, which browsers do not play), unless
    /// ``codecOptions`` says otherwise.
    @discardableResult
    public func write(to url: URL) throws -> URL {
        let source: String
        switch pattern {
        case .testSource:
            source = "testsrc2=size=\(width)x\(height):rate=\(frameRate):duration=\(duration)"
        case .frameCounter:
            source = "color=c=gray:size=\(width)x\(height):rate=\(frameRate):duration=\(duration),format=yuv420p,geq=lum='min(16+N*3\\,235)':cb=128:cr=128"
        }
        var arguments = ["-hide_banner", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", source]
        if hasAudio {
            arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(duration)"]
        }
        switch codecOptions == nil ? url.pathExtension.lowercased() : "" {
        case "":
            arguments += codecOptions ?? []
        case "webm":
            arguments += ["-c:v", "libvpx", "-deadline", "realtime", "-b:v", "1M", "-g", "\(keyFrameInterval)"]
            if hasAudio { arguments += ["-c:a", "libopus"] }
        case "avi":
            arguments += ["-c:v", "mpeg4", "-g", "\(keyFrameInterval)"]
            if hasAudio { arguments += ["-c:a", "libmp3lame"] }
        default:
            arguments += [
                "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-g", "\(keyFrameInterval)",
                "-keyint_min", "\(keyFrameInterval)", "-sc_threshold", "0", "-bf", usesBFrames ? "2" : "0",
            ]
            if hasAudio { arguments += ["-c:a", "aac"] }
        }
        var tags = metadata.sorted(by: { $0.key < $1.key }).flatMap { ["-metadata", "\($0.key)=\($0.value)"] }
        // Reverse-DNS keys (`com.apple.quicktime.content.identifier`) go in QuickTime's `keys` box.
        if metadata.keys.contains(where: { $0.hasPrefix("com.") }) { tags += ["-movflags", "use_metadata_tags"] }
        arguments += tags
        let encoded = rotation == 0 ? url : url.deletingLastPathComponent().appendingPathComponent(".unrotated-" + url.lastPathComponent)
        arguments.append(encoded.path)
        try Self.ffmpeg(arguments)
        if rotation != 0 {
            // ffmpeg 5.1 turns the `rotate` stream tag into a display matrix when remuxing (not
            // when encoding); ffprobe then reports the same angle. The remux drops creation_time
            // unless it is given again.
            defer { try? FileManager.default.removeItem(at: encoded) }
            try Self.ffmpeg(
                [
                    "-hide_banner", "-nostdin", "-v", "error", "-y", "-i", encoded.path, "-map", "0", "-c", "copy",
                    "-metadata:s:v:0", "rotate=\(rotation)",
                ] + tags + [url.path])
        }
        return url
    }

    private static func ffmpeg(_ arguments: [String]) throws {
        let result = try ChildProcess.run("ffmpeg", arguments)
        guard result.status == 0 else {
            throw ChildProcess.Failure("ffmpeg could not make the test movie: \(result.standardError)")
        }
    }
}
