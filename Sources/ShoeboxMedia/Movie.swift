import Foundation
import ShoeboxImaging

/// A movie file, probed: poster frames, trims and transcodes, all through `ffmpeg`.
///
/// ```swift
/// let movie = try await Movie(contentsOf: URL(fileURLWithPath: "IMG_0042.MOV"))
/// print(movie.info.duration, movie.info.pixelSize)
/// let poster = try await movie.posterFrame()
/// let clip = try await movie.trimming(2.0..<7.5, to: URL(fileURLWithPath: "clip.mov"), maximumDuration: 10).run()
/// print(clip.usedStreamCopy)
/// ```
public struct Movie: Sendable {
    /// The file.
    public let url: URL
    /// What ffprobe read from it.
    public let info: MovieInfo

    /// Probes the movie at `url`. See ``MovieInfo/init(contentsOf:)`` for the errors.
    public init(contentsOf url: URL) async throws(MediaError) {
        self.url = url.standardizedFileURL
        self.info = try await MovieInfo(contentsOf: url)
    }

    // MARK: Poster frames

    /// One frame as an upright ``Image``.
    ///
    /// - Parameter time: Seconds from the start; by default 10 % into the movie (the first frame
    ///   for very short ones). A time past the end gives the first frame.
    /// - Throws: ``MediaError/Code/invalidArgument`` for a negative or non-finite time;
    ///   ``MediaError/Code/corrupt`` when no frame can be decoded.
    public func posterFrame(at time: Double? = nil) async throws(MediaError) -> Image {
        let seconds = time ?? (info.duration >= 1 ? info.duration * 0.1 : 0)
        guard seconds.isFinite, seconds >= 0 else {
            throw .invalidArgument("poster time \(seconds) must be a non-negative number of seconds")
        }
        if let image = try await frame(at: seconds < info.duration ? seconds : 0) { return image }
        if seconds > 0, let image = try await frame(at: 0) { return image }
        throw .corrupt(reason: "no frame could be decoded")
    }

    private func frame(at seconds: Double) async throws(MediaError) -> Image? {
        let result = try await FFmpeg.collect(
            FFmpeg.ffmpegName,
            ["-hide_banner", "-nostdin", "-v", "error", "-ss", Self.format(seconds)] + FFmpeg.safeInputOptions
                + ["-i", FFmpeg.fileArgument(url), "-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "pipe:1"],
            outputLimit: 512 << 20)
        guard result.status == 0, !result.output.isEmpty else { return nil }
        // libvips reads the frame's header on the pool: this is an async API that requests call.
        let output = result.output
        do {
            return try await BlockingPool.shared.run { () throws(ImageError) -> Image in try Image(data: output) }
        } catch {
            throw .corrupt(reason: "ffmpeg's frame could not be read: \(error.message)")
        }
    }

    // MARK: Trimming

    /// Cuts `range` (seconds) into a new file.
    ///
    /// Streams are copied when the cut allows it — the start falls on a key frame and the codecs
    /// suit the destination's container — which is fast and lossless; otherwise the clip is
    /// re-encoded (H.264 + AAC for MP4/MOV, VP9 + Opus for WebM). With `quality`, the clip is
    /// always re-encoded to that preset, as the picker does with `videoQuality`.
    ///
    /// - Parameters:
    ///   - range: Start and end in seconds; the end is clamped to the movie's duration.
    ///   - destination: A file URL ending in `.mp4`, `.m4v`, `.mov`, `.webm` or `.mkv`.
    ///   - maximumDuration: The longest clip allowed (the picker's `videoMaximumDuration`).
    ///   - quality: Re-encode to this preset.
    /// - Returns: An export to iterate or ``MovieExport/run(progress:)``.
    ///   Errors surface there: ``MediaError/Code/invalidArgument`` for a range outside the movie,
    ///   ``MediaError/Code/exceedsMaximumDuration`` for a clip that is too long.
    public func trimming(
        _ range: Range<Double>, to destination: URL, maximumDuration: Double? = nil, quality: VideoQuality? = nil
    ) -> MovieExport {
        let movie = self
        return MovieExport { () async throws(MediaError) -> FFmpegJob in
            try await movie.planTrim(range, to: destination, maximumDuration: maximumDuration, quality: quality)
        }
    }

    // MARK: Transcoding

    /// Re-encodes the whole movie to a ``VideoQuality`` preset: H.264 + AAC in MP4 (or MOV when the
    /// destination ends in `.mov`), rotation applied to the pixels, creation date and location kept.
    ///
    /// - Returns: An export to iterate or ``MovieExport/run(progress:)``.
    public func transcoding(to destination: URL, quality: VideoQuality) -> MovieExport {
        let movie = self
        return MovieExport { () async throws(MediaError) -> FFmpegJob in
            let muxer = try Self.muxer(for: destination)
            guard muxer == "mp4" || muxer == "mov" else {
                throw .invalidArgument("presets write MP4 or MOV, not .\(destination.pathExtension)")
            }
            return FFmpegJob(
                arguments: FFmpeg.safeInputOptions + ["-i", FFmpeg.fileArgument(movie.url)]
                    + movie.encodingArguments(quality: quality, muxer: muxer),
                muxer: muxer, destination: destination.standardizedFileURL,
                expectedDuration: movie.info.duration, usedStreamCopy: false)
        }
    }

    // MARK: Planning

    func planTrim(_ range: Range<Double>, to destination: URL, maximumDuration: Double?, quality: VideoQuality?) async throws(MediaError) -> FFmpegJob {
        let start = range.lowerBound
        guard start.isFinite, range.upperBound.isFinite, start >= 0 else {
            throw .invalidArgument("trim range \(range) must be finite and start at 0 or later")
        }
        guard start < info.duration else {
            throw .invalidArgument(String(format: "trim starts at %.3f s, after the movie's end (%.3f s)", start, info.duration))
        }
        let end = min(range.upperBound, info.duration)
        let length = end - start
        guard length > 0 else { throw .invalidArgument("trim range \(range) is empty") }
        if let maximumDuration {
            guard maximumDuration > 0 else { throw .invalidArgument("maximum duration must be positive") }
            if length > maximumDuration + 1e-6 {
                throw .exceedsMaximumDuration(duration: length, maximum: maximumDuration)
            }
        }
        let muxer = try Self.muxer(for: destination)
        let frame = 1 / (info.frameRate ?? 30)
        let toTheEnd = end >= info.duration - frame / 2
        // A stream copy starts exactly only on a key frame, and ends exactly only at the end of
        // the movie or where no B-frames make ffmpeg cut by decoding order (which would keep a
        // few frames too many).
        let copyable =
            quality == nil && Self.canCopy(video: info.videoCodec, audio: info.audioCodec, into: muxer)
            && (toTheEnd || info.frameReorderDelay == 0)
        let copy = copyable ? try await startsOnKeyFrame(start) : false
        var input = ["-ss", Self.format(start)] + FFmpeg.safeInputOptions + ["-i", FFmpeg.fileArgument(url)]
        if !(copy && toTheEnd) {
            input += ["-t", Self.format(length)]
        }
        let codecArguments: [String]
        if copy {
            codecArguments =
                ["-map", "0:v:0", "-map", "0:a:0?", "-c", "copy", "-avoid_negative_ts", "make_zero", "-map_metadata", "0"]
                + Self.muxerOptions(muxer)
        } else {
            codecArguments = encodingArguments(quality: quality, muxer: muxer)
        }
        var job = FFmpegJob(
            arguments: input + codecArguments, muxer: muxer, destination: destination.standardizedFileURL,
            expectedDuration: length, usedStreamCopy: copy)
        if copy, muxer == "mp4" || muxer == "mov" {
            // A copy keeps the streams, their size and rotation, and (-map_metadata 0) the date and
            // place: only the length and the bytes change, and those are in the written moov box.
            let source = info
            job.describe = { written in
                guard let table = MP4SampleTable.read(written) else { return nil }
                var described = source
                described.container = muxer
                described.duration = table.duration
                let size = (try? FileManager.default.attributesOfItem(atPath: written.path)[.size] as? Int) ?? nil
                described.fileSize = size
                described.bitRate = size.flatMap { table.duration > 0 ? Int(Double($0 * 8) / table.duration) : nil }
                return described
            }
        }
        return job
    }

    /// Codec arguments for a re-encode, with a preset's scaling when given.
    func encodingArguments(quality: VideoQuality?, muxer: String) -> [String] {
        var arguments = ["-map", "0:v:0", "-map", "0:a:0?", "-map_metadata", "0"]
        var filters: [String] = []
        if let quality {
            let size = quality.outputSize(forDisplayed: info.pixelSize)
            filters.append("scale=\(size.width):\(size.height)")
        }
        if muxer == "webm" || muxer == "matroska" {
            filters.append("format=yuv420p")
            arguments += [
                "-vf", filters.joined(separator: ","), "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
                "-b:v", "0", "-crf", "32", "-row-mt", "1", "-c:a", "libopus", "-b:a", "128k",
            ]
            return arguments
        }
        filters.append("format=yuv420p")
        arguments += [
            "-vf", filters.joined(separator: ","), "-c:v", "libx264", "-preset", "veryfast",
            "-crf", "\(quality?.constantRateFactor ?? 18)",
        ]
        if quality?.isIntraOnly == true {
            arguments += ["-g", "1", "-keyint_min", "1"]
        }
        arguments += ["-c:a", "aac", "-b:a", "\(quality?.audioBitRate ?? 160_000)"] + Self.muxerOptions(muxer)
        return arguments
    }

    /// Whether a key frame lies within half a frame of `time`.
    ///
    /// MP4 and MOV files answer from their sample tables, read in-process; others by packet flags
    /// after a seek, without decoding anything: ffprobe seeks to the last key frame at or before
    /// `time`, so the first key-frame packet it lists tells.
    func startsOnKeyFrame(_ time: Double) async throws(MediaError) -> Bool {
        let tolerance = 0.5 / (info.frameRate ?? 30)
        if time <= tolerance { return true }
        if info.container == "mp4" || info.container == "mov", let table = MP4SampleTable.read(url) {
            // The sample tables say it without launching ffprobe (~80 ms of loading libraries).
            return table.keyFrameTimes.contains { abs($0 - time) <= tolerance }
        }
        let result = try await FFmpeg.collect(
            FFmpeg.probeName,
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0",
                "-read_intervals", "\(Self.format(time))%+\(Self.format(tolerance * 4))",
            ]
                + FFmpeg.safeInputOptions + ["-i", FFmpeg.fileArgument(url)])
        guard result.status == 0 else { return false }
        for line in String(decoding: result.output, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ",")
            guard fields.count >= 2, fields[1].hasPrefix("K"), let pts = Double(fields[0]) else { continue }
            if abs(pts - time) <= tolerance { return true }
        }
        return false
    }

    static func canCopy(video: String, audio: String?, into muxer: String) -> Bool {
        switch muxer {
        case "mp4", "mov":
            return ["h264", "hevc"].contains(video) && (audio.map { ["aac", "alac", "mp3"].contains($0) } ?? true)
        case "webm":
            return ["vp8", "vp9", "av1"].contains(video) && (audio.map { ["opus", "vorbis"].contains($0) } ?? true)
        case "matroska":
            return true
        default:
            return false
        }
    }

    static func muxer(for destination: URL) throws(MediaError) -> String {
        guard destination.isFileURL else { throw .invalidArgument("\(destination) is not a file URL") }
        switch destination.pathExtension.lowercased() {
        case "mp4", "m4v": return "mp4"
        case "mov": return "mov"
        case "webm": return "webm"
        case "mkv": return "matroska"
        default: throw .invalidArgument("cannot tell a movie container from .\(destination.pathExtension); use .mp4, .mov, .webm or .mkv")
        }
    }

    static func muxerOptions(_ muxer: String) -> [String] {
        muxer == "mp4" || muxer == "mov" ? ["-movflags", "+faststart+use_metadata_tags"] : []
    }

    static func format(_ seconds: Double) -> String {
        String(format: "%.6f", seconds)
    }
}
