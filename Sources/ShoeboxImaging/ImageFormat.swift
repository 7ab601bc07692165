/// An image file format, recognised from the bytes, never from a file name.
///
/// ```swift
/// ImageFormat(sniffing: Data([0xFF, 0xD8, 0xFF, 0xE1]))  // .jpeg
/// ImageFormat.jpeg.uniformTypeIdentifier                  // "public.jpeg"
/// ImageFormat.heic.canEncode                              // true where libvips has an HEVC encoder
/// ```
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    /// JPEG (`public.jpeg`), files that start `FF D8 FF`; one of the ``encodable`` formats.
    case jpeg
    /// PNG (`public.png`); one of the ``encodable`` formats.
    case png
    /// WebP in its RIFF container (`org.webmproject.webp`); one of the ``encodable`` formats.
    case webp
    /// HEIF with HEVC-coded images (Apple's `.HEIC`).
    case heic
    /// HEIF with another or an unstated codec.
    case heif
    /// AV1 in HEIF.
    case avif
    /// The first frame of a GIF.
    case gif
    /// TIFF (`public.tiff`); also what ``init(sniffing:)`` reports for raw formats that only their
    /// TIFF tags tell apart (DNG, NEF, ARW, PEF, SRW, …).
    case tiff
    /// Adobe Digital Negative.
    case dng
    /// Canon CR2 raw (TIFF-based).
    case cr2
    /// Canon CR3 raw (ISO base media).
    case cr3
    /// Canon CRW raw (CIFF, before CR2).
    case crw
    /// Nikon NEF raw (TIFF-based).
    case nef
    /// Nikon NRW raw, from Coolpix cameras (TIFF-based).
    case nrw
    /// Sony ARW raw (TIFF-based).
    case arw
    /// Sony SR2 and SRF raw (TIFF-based).
    case sr2
    /// Olympus ORF raw (a TIFF structure with its own signature).
    case orf
    /// Panasonic RW2 raw (a TIFF structure with its own signature).
    case rw2
    /// Leica RWL raw, from Panasonic-made Leicas (RW2's structure).
    case rwl
    /// Fujifilm RAF raw.
    case raf
    /// Pentax and Ricoh PEF raw (TIFF-based).
    case pef
    /// Samsung SRW raw (TIFF-based).
    case srw
    /// Hasselblad 3FR raw (TIFF-based).
    case hasselblad3FR = "3fr"
    /// Sigma X3F raw (Foveon).
    case x3f
    /// Konica Minolta MRW raw.
    case mrw

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
        case .cr3: .canonCR3
        case .crw: .canonCRW
        case .nef: .nikonNEF
        case .nrw: .nikonNRW
        case .arw: .sonyARW
        case .sr2: .sonySR2
        case .orf: .olympusORF
        case .rw2: .panasonicRW2
        case .rwl: .leicaRWL
        case .raf: .fujiRAF
        case .pef: .pentaxPEF
        case .srw: .samsungSRW
        case .hasselblad3FR: .hasselblad3FR
        case .x3f: .sigmaX3F
        case .mrw: .minoltaMRW
        }
    }

    /// The Uniform Type Identifier, as `AssetResource` and the picker's info report it.
    public var uniformTypeIdentifier: String { uniformType.identifier }

    /// The MIME type used over HTTP.
    public var mimeType: String { uniformType.preferredMIMEType ?? "application/octet-stream" }

    /// The usual file name extension, without the dot (``UTType/preferredFilenameExtension``).
    public var fileExtension: String { uniformType.preferredFilenameExtension ?? rawValue }

    /// Whether libvips's TIFF reader opens files of this format (TIFF itself and the raw formats
    /// built as a TIFF file with TIFF's signature): where LibRaw does not read a raw file, its
    /// first TIFF image (often the camera's preview) is what Shoebox shows.
    var isTIFFFamily: Bool {
        switch self {
        case .tiff, .dng, .cr2, .nef, .nrw, .arw, .sr2, .pef, .srw, .hasselblad3FR: true
        default: false
        }
    }

    /// Whether the file is a TIFF structure whose tags ``ImageMetadata/init(exif:)`` reads: the
    /// TIFF family, and ORF, RW2 and RWL, which differ only in their signature.
    var hasTIFFDirectories: Bool {
        isTIFFFamily || self == .orf || self == .rw2 || self == .rwl
    }

    /// Whether libheif decodes this format (HEIF's containers: HEIC's HEVC, AVIF's AV1).
    var isDecodedByLibheif: Bool {
        switch self {
        case .heic, .heif, .avif: true
        default: false
        }
    }

    /// Whether this is a camera raw format: decoded by LibRaw (the camera's embedded preview for
    /// thumbnails where it is large enough, the sensor data developed otherwise).
    public var isRaw: Bool { uniformType.conforms(to: .rawImage) }

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
