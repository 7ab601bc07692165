import Foundation

/// Why a movie could not be probed, decoded, trimmed or transcoded.
///
/// ```swift
/// do {
///     let movie = try await Movie(contentsOf: url)
/// } catch {
///     print(error.code, error.message)   // e.g. "corrupt", "corrupt movie: moov atom not found"
/// }
/// ```
public enum MediaError: Error, Sendable, CustomStringConvertible {
    /// `ffprobe` or `ffmpeg` is not installed (Debian: `apt-get install ffmpeg`).
    case toolMissing(String)
    /// The file is readable but is not a movie Shoebox handles (no video stream, an image, text).
    case unsupportedFormat(String)
    /// The file claims to be a movie but is truncated or damaged.
    case corrupt(reason: String)
    /// The file could not be read or the output could not be written.
    case io(path: String, reason: String)
    /// An argument is out of range: a trim outside the movie, a negative time.
    case invalidArgument(String)
    /// A trim is longer than the allowed maximum (the picker's `videoMaximumDuration`).
    case exceedsMaximumDuration(duration: Double, maximum: Double)
    /// `ffmpeg` failed for a reason other than bad input.
    case processFailed(tool: String, status: Int32, message: String)
    /// The work was cancelled; any partial output was removed.
    case cancelled

    /// A stable, machine-readable name for the case.
    public var code: String {
        switch self {
        case .toolMissing: "toolMissing"
        case .unsupportedFormat: "unsupportedFormat"
        case .corrupt: "corrupt"
        case .io: "io"
        case .invalidArgument: "invalidArgument"
        case .exceedsMaximumDuration: "exceedsMaximumDuration"
        case .processFailed: "processFailed"
        case .cancelled: "cancelled"
        }
    }

    /// A one-line, human-readable explanation.
    public var message: String {
        switch self {
        case .toolMissing(let tool): "\(tool) is not installed (Debian: apt-get install ffmpeg)"
        case .unsupportedFormat(let detail): "unsupported movie: \(detail)"
        case .corrupt(let reason): "corrupt movie: \(reason)"
        case .io(let path, let reason): "cannot access \(path): \(reason)"
        case .invalidArgument(let detail): "invalid argument: \(detail)"
        case .exceedsMaximumDuration(let duration, let maximum):
            String(format: "the clip is %.3f s long, more than the maximum of %.3f s", duration, maximum)
        case .processFailed(let tool, let status, let message): "\(tool) failed (exit \(status)): \(message)"
        case .cancelled: "cancelled"
        }
    }

    /// The same as ``message``.
    public var description: String { message }
}
