import Foundation

/// Why an image could not be opened, decoded, transformed or encoded.
///
/// Every failure in ``ShoeboxImaging`` is one of these cases. None of them is a crash: bad
/// input, however malformed, ends here.
///
/// ```swift
/// do {
///     let image = try Image(contentsOf: url)
///     print(image.pixelSize)
/// } catch .tooLarge(let pixels, let limit) {
///     print("refusing \(pixels) pixels (limit \(limit))")
/// } catch {
///     print(error.code, error.message)
/// }
/// ```
public enum ImageError: Error, Sendable, CustomStringConvertible {
    /// The data is not an image in a format Shoebox accepts (JPEG, PNG, WebP, HEIF/HEIC/AVIF,
    /// GIF, TIFF, and camera raw through LibRaw). The text says what was seen.
    case unsupportedFormat(String)
    /// The data claims to be a supported image but is truncated, damaged or inconsistent.
    case corrupt(reason: String)
    /// The header declares more pixels than the configured limit; nothing was decoded.
    case tooLarge(pixels: Int, limit: Int)
    /// The file could not be read.
    case io(path: String, underlying: any Error)
    /// An argument is out of range, such as a target size of zero or a crop outside the image.
    case invalidArgument(String)
    /// This libvips build cannot write the format, or the encoder failed.
    case encodingFailed(format: ImageFormat, reason: String)
    /// libvips could not be initialised.
    case libraryUnavailable(String)

    /// A stable, machine-readable name for the case, as `shoebox info --json` prints it.
    public var code: String {
        switch self {
        case .unsupportedFormat: "unsupportedFormat"
        case .corrupt: "corrupt"
        case .tooLarge: "tooLarge"
        case .io: "io"
        case .invalidArgument: "invalidArgument"
        case .encodingFailed: "encodingFailed"
        case .libraryUnavailable: "libraryUnavailable"
        }
    }

    /// A one-line, human-readable explanation.
    public var message: String {
        switch self {
        case .unsupportedFormat(let detail):
            "unsupported format: \(detail)"
        case .corrupt(let reason):
            "corrupt image: \(reason)"
        case .tooLarge(let pixels, let limit):
            "image too large: \(pixels) pixels exceeds the limit of \(limit)"
        case .io(let path, let underlying):
            "cannot read \(path): \(Self.describe(underlying))"
        case .invalidArgument(let detail):
            "invalid argument: \(detail)"
        case .encodingFailed(let format, let reason):
            "cannot encode \(format.rawValue): \(reason)"
        case .libraryUnavailable(let reason):
            "libvips is unavailable: \(reason)"
        }
    }

    /// The ``message``, so that `print(error)` and interpolation show the explanation.
    public var description: String { message }

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
