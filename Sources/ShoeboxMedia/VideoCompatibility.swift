import Foundation

/// Whether a movie can go into the library and play in a browser, and if not, why.
public struct VideoCompatibility: Sendable, Hashable, Codable {
    /// `true` when the library stores it and browsers play it.
    public let isCompatible: Bool
    /// Why not, when ``isCompatible`` is `false`.
    public let reason: String?

    static let compatible = VideoCompatibility(isCompatible: true, reason: nil)

    static func incompatible(_ reason: String) -> VideoCompatibility {
        VideoCompatibility(isCompatible: false, reason: reason)
    }
}

extension Movie {
    /// `UIVideoAtPathIsCompatibleWithSavedPhotosAlbum` for Shoebox: MP4 or MOV with H.264 or
    /// HEVC, or WebM with VP8, VP9 or AV1, each with AAC, Opus or no audio.
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
        return compatibility(of: info)
    }

    /// The rule behind ``isVideoCompatibleWithSavedPhotosAlbum(at:)``, for an already probed movie.
    public static func compatibility(of info: MovieInfo) -> VideoCompatibility {
        let audioOK = info.audioCodec.map { ["aac", "opus"].contains($0) } ?? true
        switch info.container {
        case "mp4", "mov":
            guard ["h264", "hevc"].contains(info.videoCodec) else {
                return .incompatible("\(info.container.uppercased()) with \(info.videoCodec) video: browsers play H.264 or HEVC in MP4/MOV")
            }
        case "webm":
            guard ["vp8", "vp9", "av1"].contains(info.videoCodec) else {
                return .incompatible("WebM with \(info.videoCodec) video: browsers play VP8, VP9 or AV1 in WebM")
            }
        default:
            return .incompatible("the \(info.container) container: Shoebox keeps MP4, MOV and WebM")
        }
        guard audioOK else {
            return .incompatible("\(info.audioCodec ?? "") audio: browsers play AAC or Opus")
        }
        return .compatible
    }
}
