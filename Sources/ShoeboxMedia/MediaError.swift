import Foundation
import ShoeboxImaging

/// Why a movie could not be probed, decoded, trimmed or transcoded.
///
/// An error has a ``code`` to switch on (new codes may come, so switch with a `default`), a
/// ``message`` that names the problem, and, when another error caused it, that error as
/// ``underlying``.
///
/// ```swift
/// do {
///     let movie = try await Movie(contentsOf: url)
/// } catch {
///     print(error.code, error.message)   // e.g. "corrupt", "corrupt movie: moov atom not found"
/// }
/// ```
public struct MediaError: ShoeboxError {
    /// A kind of failure. New codes may be added: switch with a `default`.
    public struct Code: ShoeboxErrorCode {
        /// The code's stable name, such as `corrupt`: what the HTTP API's errors carry.
        public let rawValue: String
        /// The code of this name; any name is accepted, one this version does not define too.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `ffprobe` or `ffmpeg` is not installed (Debian: `apt-get install ffmpeg`).
        public static let toolMissing = Code(rawValue: "toolMissing")
        /// The file is readable but is not a movie Shoebox handles (no video stream, an image, text).
        public static let unsupportedFormat = Code(rawValue: "unsupportedFormat")
        /// The file claims to be a movie but is truncated or damaged.
        public static let corrupt = Code(rawValue: "corrupt")
        /// The file could not be read or the output could not be written.
        public static let io = Code(rawValue: "io")
        /// An argument is out of range: a trim outside the movie, a negative time.
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// A trim is longer than the allowed maximum (the picker's `videoMaximumDuration`).
        public static let exceedsMaximumDuration = Code(rawValue: "exceedsMaximumDuration")
        /// `ffmpeg` failed for a reason other than bad input.
        public static let processFailed = Code(rawValue: "processFailed")
        /// The work was cancelled; any partial output was removed.
        public static let cancelled = Code(rawValue: "cancelled")
    }

    /// The kind of failure, to switch on.
    public let code: Code
    /// A one-line, human-readable explanation that names the problem.
    public let message: String
    /// The error that caused this one (a file system error, a process that could not start), if any.
    public let underlying: (any Error)?

    /// An error of `code`, explained by `message`, caused by `underlying`.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The ``message`` after its kind (`unsupported movie: `, `corrupt movie: ` and the like):
    /// what ffmpeg or the caller said.
    public var detail: String {
        guard let colon = message.range(of: ": ") else { return message }
        return String(message[colon.upperBound...])
    }

    // MARK: Making errors

    /// `tool` (`ffmpeg`, `ffprobe`) is not installed.
    public static func toolMissing(_ tool: String) -> MediaError {
        MediaError(.toolMissing, "\(tool) is not installed (Debian: apt-get install ffmpeg)")
    }

    /// Not a movie Shoebox handles; `detail` says what was seen.
    public static func unsupportedFormat(_ detail: String) -> MediaError {
        MediaError(.unsupportedFormat, "unsupported movie: \(detail)")
    }

    /// A truncated or damaged movie.
    public static func corrupt(reason: String) -> MediaError {
        MediaError(.corrupt, "corrupt movie: \(reason)")
    }

    /// `path` could not be read or written; `underlying` is the file system's error, if known.
    public static func io(path: String, reason: String, underlying: (any Error)? = nil) -> MediaError {
        MediaError(.io, "cannot access \(path): \(reason)", underlying: underlying)
    }

    /// An argument out of range; `detail` names it.
    public static func invalidArgument(_ detail: String) -> MediaError {
        MediaError(.invalidArgument, "invalid argument: \(detail)")
    }

    /// A clip of `duration` seconds, longer than `maximum`.
    public static func exceedsMaximumDuration(duration: Double, maximum: Double) -> MediaError {
        MediaError(.exceedsMaximumDuration, String(format: "the clip is %.3f s long, more than the maximum of %.3f s", duration, maximum))
    }

    /// `tool` exited with `status`, saying `message`.
    public static func processFailed(tool: String, status: Int32, message: String) -> MediaError {
        MediaError(.processFailed, "\(tool) failed (exit \(status)): \(message)")
    }

    /// The work was cancelled.
    public static let cancelled = MediaError(.cancelled, "cancelled")
}

extension MediaError: Equatable {
    /// Two errors are equal when their codes and messages are (what a test compares);
    /// underlying is not compared.
    public static func == (lhs: MediaError, rhs: MediaError) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }
}
