import Foundation

/// Whether the library keeps a movie, and if not, why.
public struct VideoCompatibility: Sendable, Hashable, Codable {
    /// `true` when the library stores it (browsers play it as it is or from a playback rendition).
    public let isCompatible: Bool
    /// Why not, when ``isCompatible`` is `false`.
    public let reason: String?

    static let compatible = VideoCompatibility(isCompatible: true, reason: nil)

    static func incompatible(_ reason: String) -> VideoCompatibility {
        VideoCompatibility(isCompatible: false, reason: reason)
    }
}

extension Movie {
    /// `UIVideoAtPathIsCompatibleWithSavedPhotosAlbum` for Shoebox: any movie ffmpeg reads and
    /// decodes — MP4, MOV, WebM, AVI, 3GP, Matroska, AVCHD's MPEG transport streams, MPEG program
    /// streams, DV, FLV, WMV and more, with any video codec ffmpeg has a decoder for. The library
    /// keeps the original as it is; a movie browsers do not play (``playsInBrowsers(_:)``) gets an
    /// H.264 playback rendition.
    ///
    /// Never throws: a file that cannot be read is simply not compatible, and the reason says why.
    ///
    /// ```swift
    /// let answer = await Movie.isVideoCompatibleWithSavedPhotosAlbum(at: url)
    /// if !answer.isCompatible { print(answer.reason!) }
    /// ```
    public static func isVideoCompatibleWithSavedPhotosAlbum(at url: URL) async -> VideoCompatibility {
        let info: MovieInfo
        do {
            info = try await MovieInfo(contentsOf: url)
        } catch {
            return .incompatible(error.message)
        }
        return await compatibility(of: info, at: url)
    }

    /// The answer of ``isVideoCompatibleWithSavedPhotosAlbum(at:)`` for a movie already probed:
    /// whether ``checkDecodes(_:info:)`` passes, and if not, why.
    public static func compatibility(of info: MovieInfo, at url: URL) async -> VideoCompatibility {
        do {
            try await checkDecodes(url, info: info)
        } catch {
            return .incompatible(error.message)
        }
        return .compatible
    }

    /// Whether browsers play the movie as it is: H.264 with AAC or no sound, in MP4 or MOV — what
    /// Chromium, Firefox and Safari all take. The library makes an MP4 playback rendition of any
    /// other movie, and the picker's `.compatible` mode converts it.
    public static func playsInBrowsers(_ info: MovieInfo) -> Bool {
        ["mp4", "mov"].contains(info.container) && info.videoCodec == "h264" && (info.audioCodec == nil || info.audioCodec == "aac")
    }

    /// Checks that a probed movie's pictures decode: the first frame of its main video stream.
    /// Movies in the formats phones and browsers record (H.264, HEVC, VP8, VP9 and AV1 in MP4,
    /// MOV or WebM), whose containers ``MovieInfo/init(contentsOf:)`` already checked against
    /// the file's length, skip the decode.
    ///
    /// - Throws: ``MediaError/Code/unsupportedFormat`` when ffmpeg has no decoder for the video
    ///   codec; ``MediaError/Code/corrupt`` when no frame decodes.
    public static func checkDecodes(_ url: URL, info: MovieInfo) async throws(MediaError) {
        let recorded: Set = ["h264", "hevc", "vp8", "vp9", "av1"]
        if ["mp4", "mov", "webm"].contains(info.container), recorded.contains(info.videoCodec) { return }
        // One frame, scaled to 8 × 8 grey bytes: 64 bytes out when it decoded, none when not.
        let result = try await FFmpeg.collect(
            FFmpeg.ffmpegName,
            ["-v", "error", "-nostdin"] + FFmpeg.safeInputOptions
                + ["-i", FFmpeg.fileArgument(url), "-map", "0:v:0", "-frames:v", "1", "-vf", "scale=8:8", "-pix_fmt", "gray", "-f", "rawvideo", "-"],
            outputLimit: 1 << 16)
        guard result.status != 0 || result.output.isEmpty else { return }
        let detail = FFmpeg.lastLine(result.error)
        if detail.localizedCaseInsensitiveContains("decoder") && detail.localizedCaseInsensitiveContains("not found")
            || detail.localizedCaseInsensitiveContains("unsupported codec") || detail.localizedCaseInsensitiveContains("no decoder")
        {
            throw .unsupportedFormat("no decoder for its \(info.videoCodec) video")
        }
        throw .corrupt(
            reason: result.status == 0 ? "no frame of its \(info.videoCodec) video decodes" : "its \(info.videoCodec) video does not decode (\(detail))")
    }
}
