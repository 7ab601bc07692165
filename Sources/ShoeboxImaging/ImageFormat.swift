/// An image file format, recognised from the bytes, never from a file name.
///
/// ```swift
/// ImageFormat(sniffing: Data([0xFF, 0xD8, 0xFF, 0xE1]))  // .jpeg
/// ImageFormat.jpeg.uniformTypeIdentifier                  // "public.jpeg"
/// ImageFormat.heic.canEncode                              // true where libvips has an HEVC encoder
/// ```
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg
    case png
    case webp
    /// HEIF with HEVC-coded images (Apple's `.HEIC`).
    case heic
    /// HEIF with another or an unstated codec.
    case heif
    /// AV1 in HEIF.
    case avif
    /// The first frame of a GIF.
    case gif
    case tiff
    /// Adobe Digital Negative (TIFF-based; libvips reads its TIFF image).
    case dng
    /// Canon CR2 raw (TIFF-based).
    case cr2
    /// Nikon NEF raw (TIFF-based).
    case nef

    /// The media type of files in this format.
    public var uniformType: UTType {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .webp: .webP
        case .heic: .heic
        case .heif: .heif
        case .avif: .avif
        case .gif: .gif
        case .tiff: .tiff
        case .dng: .dng
        case .cr2: .canonCR2
        case .nef: .nikonNEF
        }
    }

    /// The Uniform Type Identifier, as `AssetResource` and the picker's info report it.
    public var uniformTypeIdentifier: String { uniformType.identifier }

    /// The MIME type used over HTTP.
    public var mimeType: String { uniformType.preferredMIMEType ?? "application/octet-stream" }

    /// The usual file name extension, without the dot (``UTType/preferredFilenameExtension``).
    public var fileExtension: String { uniformType.preferredFilenameExtension ?? rawValue }

    /// Whether this format is a TIFF container (TIFF itself and the TIFF-based raw formats).
    var isTIFFFamily: Bool {
        switch self {
        case .tiff, .dng, .cr2, .nef: true
        default: false
        }
    }

    /// Whether libheif decodes this format (HEIF's containers: HEIC's HEVC, AVIF's AV1).
    var isDecodedByLibheif: Bool {
        switch self {
        case .heic, .heif, .avif: true
        default: false
        }
    }

    /// Whether this is a camera raw format (decoded only as far as libvips's TIFF reader can).
    public var isRaw: Bool {
        switch self {
        case .dng, .cr2, .nef: true
        default: false
        }
    }

    /// The formats ``Image/encoded(as:options:)`` can write.
    public static let encodable: [ImageFormat] = [.jpeg, .png, .webp, .heic]

    /// Whether this build can write the format (HEIC needs libheif with an HEVC encoder).
    public var canEncode: Bool {
        switch self {
        case .jpeg: Vips.hasOperation("jpegsave_buffer")
        case .png: Vips.hasOperation("pngsave_buffer")
        case .webp: Vips.hasOperation("webpsave_buffer")
        case .heic: Vips.hasOperation("heifsave_buffer") && HEIFEncoderProbe.canEncodeHEVC
        default: false
        }
    }

    /// A format named the way people type it: `jpeg`, `jpg`, `png`, `webp`, `heic`, `heif`, …
    /// (its name or any of its file name extensions).
    public init?(name: String) {
        if let format = ImageFormat(rawValue: name.lowercased()) {
            self = format
            return
        }
        guard let type = UTType(filenameExtension: name), let format = ImageFormat.allCases.first(where: { $0.uniformType == type }) else {
            return nil
        }
        self = format
    }
}
