import Foundation

/// A kind of media file, by its Uniform Type Identifier, with the file name extensions and MIME
/// types that go with it (`UTType` of Apple's UniformTypeIdentifiers).
///
/// It is Shoebox's one table of media types: the library stores an original's identifier, and
/// every other module asks this type for the extension to name a file with, the MIME type to
/// serve it as, and whether it is a photo, a camera raw photo or a movie.
///
/// ```swift
/// UTType.jpeg.preferredMIMEType                    // "image/jpeg"
/// UTType(filenameExtension: "ARW")?.identifier     // "com.sony.arw-raw-image"
/// UTType("public.avi")?.preferredFilenameExtension // "avi"
/// UTType.avi.conforms(to: .movie)                  // true
/// ```
///
/// Unlike Apple's, it knows only the types listed in ``allKnown`` (the media kinds Shoebox
/// stores) and the three abstract ones, ``image``, ``rawImage`` and ``movie``.
public struct UTType: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The broad kind a type conforms to.
    enum Kind: Sendable, Hashable {
        case image, rawImage, movie, abstract
    }

    /// The reverse-DNS identifier: `public.jpeg`, `com.apple.quicktime-movie`, …
    public let identifier: String
    /// File name extensions, lowercase and without the dot, the preferred one first.
    public let filenameExtensions: [String]
    /// MIME types, the preferred one first.
    public let mimeTypes: [String]
    let kind: Kind

    init(_ identifier: String, _ kind: Kind, extensions: [String], mime: [String]) {
        self.identifier = identifier
        self.kind = kind
        self.filenameExtensions = extensions
        self.mimeTypes = mime
    }

    /// The extension to name a file of this type with (`jpg`, `mov`), without the dot.
    public var preferredFilenameExtension: String? { filenameExtensions.first }

    /// The MIME type to serve a file of this type as.
    public var preferredMIMEType: String? { mimeTypes.first }

    /// The ``identifier``, as `public.jpeg`.
    public var description: String { identifier }

    /// Whether a value of this type is also one of `other`: every type conforms to itself, photos
    /// (raw ones too) to ``image``, camera raw photos to ``rawImage``, movies to ``movie``.
    public func conforms(to other: UTType) -> Bool {
        if other.identifier == identifier { return true }
        switch other.identifier {
        case UTType.image.identifier: return kind == .image || kind == .rawImage
        case UTType.rawImage.identifier: return kind == .rawImage
        case UTType.movie.identifier: return kind == .movie
        default: return false
        }
    }

    /// Whether this is a photo type (a camera raw one too).
    public var isImage: Bool { conforms(to: .image) }

    /// Whether this is a movie type.
    public var isMovie: Bool { conforms(to: .movie) }

    // MARK: Looking types up

    /// The type with this identifier, if Shoebox knows it.
    public init?(_ identifier: String) {
        guard let known = Self.byIdentifier[identifier] else { return nil }
        self = known
    }

    /// The type a file name extension names (any case, with or without the dot), if Shoebox
    /// knows it.
    public init?(filenameExtension: String) {
        var key = filenameExtension.lowercased()
        if key.hasPrefix(".") { key.removeFirst() }
        guard let known = Self.byExtension[key] else { return nil }
        self = known
    }

    /// The type a MIME type names (parameters such as `; codecs=…` are ignored), if Shoebox
    /// knows it.
    public init?(mimeType: String) {
        let key = mimeType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard let known = Self.byMIMEType[key] else { return nil }
        self = known
    }

    /// The extension for a stored identifier: the type's preferred one, `bin` for one Shoebox
    /// does not know.
    public static func filenameExtension(for identifier: String) -> String {
        UTType(identifier)?.preferredFilenameExtension ?? "bin"
    }

    /// Types whose files are one container format under several names (ISO base media
    /// movies; HEIF images): a file of one named as another is not misnamed.
    static let sameContainer: [Set<String>] = [
        Set(["mp4", "mp4v", "m4v", "mov", "qt", "3gp", "3gpp", "3g2", "3gp2"]), Set(["heic", "heics", "heif", "hif", "heifs"]),
    ]

    /// `name` with an extension that says what the bytes are, for a file of type `identifier`
    /// handed to someone (a download, an archive's entry, an export): kept when its extension is
    /// one of the type's (`IMG_1.JPEG` stays), else the type's preferred extension replaces a
    /// media extension (`clip.mov` holding a PNG is `clip.png`, `IMG_1.MOV` is `IMG_1.PNG`) or follows any other name
    /// (`scan` is `scan.png`). A type Shoebox does not know leaves the name as it is.
    public static func filename(_ name: String, forType identifier: String) -> String {
        guard let type = UTType(identifier), let preferred = type.preferredFilenameExtension else { return name }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let written = dot.map { String(name[name.index(after: $0)...]) } ?? ""
        let current = written.lowercased()
        if type.filenameExtensions.contains(current) { return name }
        if sameContainer.contains(where: { $0.contains(current) && $0.contains(preferred) }) { return name }
        let stem = dot.flatMap { UTType(filenameExtension: current) != nil ? String(name[..<$0]) : nil } ?? name
        // In the case the name's extension was written in (`IMG_1.MOV` is `IMG_1.PNG`).
        return stem + "." + (written != current && written == written.uppercased() ? preferred.uppercased() : preferred)
    }

    /// The MIME type for a stored identifier: the type's preferred one,
    /// `application/octet-stream` for one Shoebox does not know.
    public static func mimeType(for identifier: String) -> String {
        UTType(identifier)?.preferredMIMEType ?? "application/octet-stream"
    }

    // MARK: Codable, as the identifier

    /// Decodes the identifier as a single string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for an identifier Shoebox does not know (one that
    ///   ``init(_:)`` returns `nil` for).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let identifier = try container.decode(String.self)
        guard let known = UTType(identifier) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(identifier) is not a media type Shoebox knows")
        }
        self = known
    }

    /// Encodes the ``identifier`` as a single string, as `"public.jpeg"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }

    private static let byIdentifier = Dictionary((allKnown + [image, rawImage, movie]).map { ($0.identifier, $0) }) { first, _ in first }
    private static let byExtension = Dictionary(allKnown.flatMap { type in type.filenameExtensions.map { ($0, type) } }) { first, _ in first }
    private static let byMIMEType = Dictionary(allKnown.flatMap { type in type.mimeTypes.map { ($0, type) } }) { first, _ in first }
}

// MARK: The types

extension UTType {
    /// Any photo (`public.image`).
    public static let image = UTType("public.image", .abstract, extensions: [], mime: [])
    /// Any camera raw photo (`public.camera-raw-image`).
    public static let rawImage = UTType("public.camera-raw-image", .abstract, extensions: [], mime: [])
    /// Any movie (`public.movie`).
    public static let movie = UTType("public.movie", .abstract, extensions: [], mime: [])

    /// JPEG, the photo format of most cameras and phones.
    public static let jpeg = UTType("public.jpeg", .image, extensions: ["jpg", "jpeg", "jpe", "jfif"], mime: ["image/jpeg", "image/pjpeg"])
    /// Portable Network Graphics, animated PNG (`image/apng`) too.
    public static let png = UTType("public.png", .image, extensions: ["png"], mime: ["image/png", "image/apng"])
    /// Google's WebP, lossy or lossless, still or animated.
    public static let webP = UTType("org.webmproject.webp", .image, extensions: ["webp"], mime: ["image/webp"])
    /// HEIC: HEIF with HEVC-coded images, as iPhones take them (`.heics` for sequences).
    public static let heic = UTType("public.heic", .image, extensions: ["heic", "heics"], mime: ["image/heic", "image/heic-sequence"])
    /// HEIF of any codec; `.hif` is what Canon, Fujifilm and Sony cameras name it.
    public static let heif = UTType("public.heif", .image, extensions: ["heif", "hif", "heifs"], mime: ["image/heif", "image/heif-sequence"])
    /// AV1 Image File Format: HEIF with AV1-coded images.
    public static let avif = UTType("public.avif", .image, extensions: ["avif"], mime: ["image/avif"])
    /// Graphics Interchange Format, still or animated.
    public static let gif = UTType("com.compuserve.gif", .image, extensions: ["gif"], mime: ["image/gif"])
    /// Tagged Image File Format (raw formats built on TIFF have their own types).
    public static let tiff = UTType("public.tiff", .image, extensions: ["tiff", "tif"], mime: ["image/tiff"])

    /// Adobe Digital Negative.
    public static let dng = UTType("com.adobe.raw-image", .rawImage, extensions: ["dng"], mime: ["image/x-adobe-dng", "image/dng"])
    /// Canon raw, the TIFF-based format of earlier EOS cameras.
    public static let canonCR2 = UTType("com.canon.cr2-raw-image", .rawImage, extensions: ["cr2"], mime: ["image/x-canon-cr2"])
    /// Canon raw in an ISO base media (MP4-style) container, the format of newer EOS cameras.
    public static let canonCR3 = UTType("com.canon.cr3-raw-image", .rawImage, extensions: ["cr3"], mime: ["image/x-canon-cr3"])
    /// Canon's first raw format (CIFF), of early EOS D and PowerShot cameras.
    public static let canonCRW = UTType("com.canon.crw-raw-image", .rawImage, extensions: ["crw"], mime: ["image/x-canon-crw"])
    /// Nikon Electronic Format, the raw of Nikon's cameras.
    public static let nikonNEF = UTType("com.nikon.raw-image", .rawImage, extensions: ["nef"], mime: ["image/x-nikon-nef"])
    /// Nikon raw of Coolpix compact cameras.
    public static let nikonNRW = UTType("com.nikon.nrw-raw-image", .rawImage, extensions: ["nrw"], mime: ["image/x-nikon-nrw"])
    /// Sony Alpha Raw.
    public static let sonyARW = UTType("com.sony.arw-raw-image", .rawImage, extensions: ["arw"], mime: ["image/x-sony-arw"])
    /// Sony's earlier raw formats, SR2 and SRF.
    public static let sonySR2 = UTType("com.sony.sr2-raw-image", .rawImage, extensions: ["sr2", "srf"], mime: ["image/x-sony-sr2"])
    /// Olympus (OM System) raw.
    public static let olympusORF = UTType("com.olympus.raw-image", .rawImage, extensions: ["orf"], mime: ["image/x-olympus-orf"])
    /// Panasonic raw: `.rw2`, and the `.raw` of older models (any `.raw` file is taken as this).
    public static let panasonicRW2 = UTType("com.panasonic.rw2-raw-image", .rawImage, extensions: ["rw2", "raw"], mime: ["image/x-panasonic-rw2"])
    /// Fujifilm raw.
    public static let fujiRAF = UTType("com.fuji.raw-image", .rawImage, extensions: ["raf"], mime: ["image/x-fuji-raf"])
    /// Pentax Electronic File, Pentax's raw.
    public static let pentaxPEF = UTType("com.pentax.raw-image", .rawImage, extensions: ["pef"], mime: ["image/x-pentax-pef"])
    /// Samsung raw, of its NX cameras.
    public static let samsungSRW = UTType("com.samsung.raw-image", .rawImage, extensions: ["srw"], mime: ["image/x-samsung-srw"])
    /// Leica raw of the compact cameras made with Panasonic (D-Lux, V-Lux).
    public static let leicaRWL = UTType("com.leica.rwl-raw-image", .rawImage, extensions: ["rwl"], mime: ["image/x-leica-rwl"])
    /// Hasselblad raw, of its medium-format cameras.
    public static let hasselblad3FR = UTType("com.hasselblad.3fr-raw-image", .rawImage, extensions: ["3fr"], mime: ["image/x-hasselblad-3fr"])
    /// Sigma raw, from Foveon sensors.
    public static let sigmaX3F = UTType("com.sigma.raw-image", .rawImage, extensions: ["x3f"], mime: ["image/x-sigma-x3f"])
    /// Minolta and Konica Minolta raw.
    public static let minoltaMRW = UTType("com.konicaminolta.raw-image", .rawImage, extensions: ["mrw"], mime: ["image/x-minolta-mrw"])

    /// MPEG-4, the movie container browsers play most widely.
    public static let mpeg4Movie = UTType("public.mpeg-4", .movie, extensions: ["mp4", "mp4v"], mime: ["video/mp4"])
    /// Apple's variant of MPEG-4, from iTunes and Apple's exports.
    public static let appleM4V = UTType("com.apple.m4v-video", .movie, extensions: ["m4v"], mime: ["video/x-m4v"])
    /// QuickTime movie, as iPhones and many cameras record.
    public static let quickTimeMovie = UTType("com.apple.quicktime-movie", .movie, extensions: ["mov", "qt"], mime: ["video/quicktime"])
    /// WebM (VP8, VP9 or AV1 in Matroska), what most browsers record with `MediaRecorder`.
    public static let webM = UTType("org.webmproject.webm", .movie, extensions: ["webm"], mime: ["video/webm"])
    /// Audio Video Interleave, Windows' long-standing movie format.
    public static let avi = UTType("public.avi", .movie, extensions: ["avi", "vfw"], mime: ["video/x-msvideo", "video/avi", "video/msvideo"])
    /// 3GPP, the movie format of older mobile phones.
    public static let threeGPP = UTType("public.3gpp", .movie, extensions: ["3gp", "3gpp"], mime: ["video/3gpp"])
    /// 3GPP2, the variant of 3GPP from CDMA phones.
    public static let threeGPP2 = UTType("public.3gpp2", .movie, extensions: ["3g2", "3gp2"], mime: ["video/3gpp2"])
    /// Matroska, an open container for any codec.
    public static let matroska = UTType("org.matroska.mkv", .movie, extensions: ["mkv"], mime: ["video/x-matroska", "video/matroska"])
    /// MPEG-2 transport stream: AVCHD camcorders' `.MTS` and `.M2TS`.
    public static let mpeg2TransportStream = UTType("public.mpeg-2-transport-stream", .movie, extensions: ["m2ts", "mts", "ts"], mime: ["video/mp2t"])
    /// MPEG-1/MPEG-2 program stream: `.mpg`, DVD's `.vob`.
    public static let mpeg = UTType("public.mpeg", .movie, extensions: ["mpg", "mpeg", "mpe", "m1v", "m2v", "vob", "mod", "tod"], mime: ["video/mpeg"])
    /// DV, from tape camcorders.
    public static let dvMovie = UTType("public.dv-movie", .movie, extensions: ["dv", "dif"], mime: ["video/x-dv"])
    /// Adobe Flash Video, of early web video.
    public static let flashVideo = UTType("com.adobe.flash.video", .movie, extensions: ["flv", "f4v"], mime: ["video/x-flv"])
    /// Windows Media Video, in its ASF container.
    public static let windowsMediaVideo = UTType(
        "com.microsoft.windows-media-wmv", .movie, extensions: ["wmv", "asf"], mime: ["video/x-ms-wmv", "video/x-ms-asf"])
    /// Ogg video, usually Theora.
    public static let oggVideo = UTType("org.xiph.ogv", .movie, extensions: ["ogv"], mime: ["video/ogg"])
    /// Material Exchange Format, from professional camcorders.
    public static let mxf = UTType("org.smpte.mxf", .movie, extensions: ["mxf"], mime: ["application/mxf"])

    /// Every concrete type Shoebox knows, photos first.
    public static let allKnown: [UTType] = [
        jpeg, png, webP, heic, heif, avif, gif, tiff,
        dng, canonCR2, canonCR3, canonCRW, nikonNEF, nikonNRW, sonyARW, sonySR2, olympusORF, panasonicRW2, fujiRAF,
        pentaxPEF, samsungSRW, leicaRWL, hasselblad3FR, sigmaX3F, minoltaMRW,
        mpeg4Movie, appleM4V, quickTimeMovie, webM, avi, threeGPP, threeGPP2, matroska, mpeg2TransportStream, mpeg,
        dvMovie, flashVideo, windowsMediaVideo, oggVideo, mxf,
    ]
}
