import Foundation
import ShoeboxSupport

/// Why an image could not be opened, decoded, transformed or encoded.
///
/// Every failure in ``ShoeboxImaging`` is one of these. None of them is a crash: bad input,
/// however malformed, ends here. An error has a ``code`` to switch on (new codes may come, so
/// switch with a `default`), a ``message`` that names the problem, and, when another error
/// caused it, that error as ``underlying``.
///
/// ```swift
/// do {
///     let image = try Image(contentsOf: url)
///     print(image.pixelSize)
/// } catch let error where error.code == .tooLarge {
///     print("refusing \(error.pixelCount ?? 0) pixels (limit \(error.pixelLimit ?? 0))")
/// } catch {
///     print(error.code, error.message)
/// }
/// ```
public struct ImageError: ShoeboxError {
    /// A kind of failure. New codes may be added: switch with a `default`.
    public struct Code: ShoeboxErrorCode {
        /// The code's stable name, such as `corrupt`: what `shoebox info --json` and the HTTP
        /// API's errors carry.
        public let rawValue: String
        /// The code of this name; any name is accepted, one this version does not define too.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The data is not an image in a format Shoebox accepts (JPEG, PNG, WebP,
        /// HEIF/HEIC/AVIF, GIF, TIFF, and camera raw through LibRaw).
        public static let unsupportedFormat = Code(rawValue: "unsupportedFormat")
        /// The data claims to be a supported image but is truncated, damaged or inconsistent.
        public static let corrupt = Code(rawValue: "corrupt")
        /// The header declares more pixels than the configured limit; nothing was decoded.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// The file could not be read.
        public static let io = Code(rawValue: "io")
        /// An argument is out of range, such as a target size of zero or a crop outside the image.
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// This libvips build cannot write the format, or the encoder failed.
        public static let encodingFailed = Code(rawValue: "encodingFailed")
        /// libvips could not be initialised.
        public static let libraryUnavailable = Code(rawValue: "libraryUnavailable")
    }

    /// The kind of failure, to switch on.
    public let code: Code
    /// A one-line, human-readable explanation that names the problem.
    public let message: String
    /// The error that caused this one (a file system error for ``Code/io``), if any.
    public let underlying: (any Error)?
    /// For ``Code/tooLarge``: the pixels the header declares.
    public let pixelCount: Int?
    /// For ``Code/tooLarge``: the limit they passed.
    public let pixelLimit: Int?

    /// An error of `code`, explained by `message`, caused by `underlying`.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.init(code, message, underlying: underlying, pixelCount: nil, pixelLimit: nil)
    }

    private init(_ code: Code, _ message: String, underlying: (any Error)?, pixelCount: Int?, pixelLimit: Int?) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.pixelCount = pixelCount
        self.pixelLimit = pixelLimit
    }

    /// The ``message`` after its kind (`unsupported format: `, `corrupt image: ` and the like):
    /// what libvips or the caller said.
    public var detail: String {
        guard let colon = message.range(of: ": ") else { return message }
        return String(message[colon.upperBound...])
    }

    // MARK: Making errors

    /// Not an image in a format Shoebox accepts; `detail` says what was seen.
    public static func unsupportedFormat(_ detail: String) -> ImageError {
        ImageError(.unsupportedFormat, "unsupported format: \(detail)")
    }

    /// A truncated, damaged or inconsistent image.
    public static func corrupt(reason: String) -> ImageError {
        ImageError(.corrupt, "corrupt image: \(reason)")
    }

    /// A header that declares `pixels`, more than `limit`.
    public static func tooLarge(pixels: Int, limit: Int) -> ImageError {
        ImageError(
            .tooLarge, "image too large: \(pixels) pixels exceeds the limit of \(limit)",
            underlying: nil, pixelCount: pixels, pixelLimit: limit)
    }

    /// The file at `path` could not be read, because of `underlying`.
    public static func io(path: String, underlying: any Error) -> ImageError {
        ImageError(.io, "cannot read \(path): \(describe(underlying))", underlying: underlying)
    }

    /// An argument out of range; `detail` names it.
    public static func invalidArgument(_ detail: String) -> ImageError {
        ImageError(.invalidArgument, "invalid argument: \(detail)")
    }

    /// Writing `format` failed, or this libvips build cannot write it.
    public static func encodingFailed(format: ImageFormat, reason: String) -> ImageError {
        ImageError(.encodingFailed, "cannot encode \(format.rawValue): \(reason)")
    }

    /// libvips could not be initialised.
    public static func libraryUnavailable(_ reason: String) -> ImageError {
        ImageError(.libraryUnavailable, "libvips is unavailable: \(reason)")
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.localizedDescription
        }
        return String(describing: error)
    }

    // MARK: Mapping libvips text

    /// A failure while reading a header: libvips says "not a known format" when no permitted
    /// loader recognises the bytes; anything else is damage.
    static func headerFailure(_ text: String) -> ImageError {
        let lowered = text.lowercased()
        if lowered.contains("not a known") || lowered.contains("is blocked") || lowered.contains("unsupported") {
            return .unsupportedFormat(text)
        }
        return .corrupt(reason: text)
    }

    /// A failure while decoding pixels.
    static func decodeFailure(_ text: String) -> ImageError {
        .corrupt(reason: text)
    }
}

extension ImageError: Equatable {
    /// Two errors are equal when their codes and messages are (what a test compares);
    /// underlying is not compared.
    public static func == (lhs: ImageError, rhs: ImageError) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }
}
