import Foundation
import ShoeboxSupport

/// A raster image: a JPEG, PNG, WebP, HEIF/HEIC, GIF, TIFF or camera raw file or buffer opened
/// lazily, or pixels decoded in memory.
///
/// Camera raw files (DNG, CR2, CR3, NEF, ARW, ORF, RW2, RAF, PEF, …) are read by LibRaw:
/// thumbnails come from the camera's embedded preview where it is large enough and has the
/// picture's shape, and everything else (full size, crops, encodes) from LibRaw's development to
/// sRGB with the camera's white balance.
///
/// Opening reads only the header: the format (recognised from the bytes, never the file name),
/// the pixel size, the orientation and the metadata. Pixels are decoded when an operation needs
/// them — ``thumbnail(targetSize:contentMode:cropToFill:)``, ``cropping(to:)``,
/// ``encoded(as:options:)``, ``bitmap()`` — and the result of an operation is a new, upright
/// `Image` held in memory. An `Image` never changes after it is made and may be shared between
/// tasks and threads.
///
/// ```swift
/// let image = try Image(contentsOf: URL(fileURLWithPath: "IMG_0001.HEIC"))
/// print(image.format, image.pixelSize, image.orientation)       // heic 3024×4032 right
/// let thumbnail = try image.thumbnail(targetSize: PixelSize(square: 256), contentMode: .aspectFill)
/// try thumbnail.write(to: URL(fileURLWithPath: "thumb.jpg"))
/// ```
///
/// Untrusted input is expected: the pixel count is checked from the header against
/// ``ImageDecodingOptions/pixelLimit`` before anything is decoded, libvips's unfuzzed loaders are
/// blocked, and truncated or corrupt pixel data fails with ``ImageError/Code/corrupt`` instead
/// of producing a partly grey picture.
public final class Image: Sendable {
    /// Where pixels come from.
    enum Storage: Sendable {
        /// An encoded file, reopened by each operation (so no file stays open).
        case file(String)
        /// Encoded bytes in memory.
        case data(Data)
        /// Decoded, upright pixels.
        case raster(VipsImageHandle)
    }

    let storage: Storage
    let pixelLimit: Int
    /// Bytes of one decoded pixel: bands × bytes per band, from the header.
    let bytesPerPixel: Int
    /// An interlaced (Adam7) PNG, which its decoder must hold whole in memory.
    let isInterlaced: Bool
    /// A camera raw file LibRaw reads: its pixels come from LibRaw, not libvips's loaders.
    let raw: RawLayout?

    /// The format the data is in; `nil` for images made in memory (thumbnails, crops, bitmaps).
    public let format: ImageFormat?
    /// The size as displayed: after the EXIF orientation is applied.
    public let pixelSize: PixelSize
    /// The size as stored in the file, before the orientation is applied.
    ///
    /// For HEIF this is the coded size of the primary image (its `ispe` property): libheif applies
    /// the container's rotation while decoding, whatever the EXIF tag says. For camera raw files
    /// it is the sensor's size, margins included, while ``pixelSize`` is the developed picture's
    /// (LibRaw crops the margins); for a raw file LibRaw does not read and libvips opens, the
    /// full-resolution TIFF image's size, while ``pixelSize`` is the first image's (the preview).
    public let storedPixelSize: PixelSize
    /// The orientation the file declares (`.up` when it declares none). Images made in memory
    /// are always `.up`.
    public let orientation: ImageOrientation
    /// EXIF, GPS and colour-profile metadata.
    public let metadata: ImageMetadata

    /// Displayed width in pixels.
    public var pixelWidth: Int { pixelSize.width }
    /// Displayed height in pixels.
    public var pixelHeight: Int { pixelSize.height }

    /// The file this image was opened from, if any.
    public var path: String? {
        if case .file(let path) = storage { return path }
        return nil
    }

    init(
        storage: Storage, pixelLimit: Int, bytesPerPixel: Int, isInterlaced: Bool, format: ImageFormat?, pixelSize: PixelSize,
        storedPixelSize: PixelSize, orientation: ImageOrientation, metadata: ImageMetadata, raw: RawLayout? = nil
    ) {
        self.storage = storage
        self.pixelLimit = pixelLimit
        self.bytesPerPixel = bytesPerPixel
        self.isInterlaced = isInterlaced
        self.raw = raw
        self.format = format
        self.pixelSize = pixelSize
        self.storedPixelSize = storedPixelSize
        self.orientation = orientation
        self.metadata = metadata
    }

    // MARK: Opening

    /// Opens the image file at `url` (a `file:` URL), reading only its header.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - options: Limits for untrusted input.
    /// - Throws: ``ImageError/Code/io`` when the file cannot be read (missing, a
    ///   directory, no permission); ``ImageError/Code/unsupportedFormat`` when the bytes are not an
    ///   accepted image, whatever the file is called; ``ImageError/Code/corrupt`` for a damaged
    ///   header; ``ImageError/Code/tooLarge`` over the pixel limit. Odd or broken
    ///   metadata is not an error: it reads as `nil`.
    public convenience init(contentsOf url: URL, options: ImageDecodingOptions = ImageDecodingOptions()) throws(ImageError) {
        guard url.isFileURL else {
            throw .invalidArgument("\(url.absoluteString) is not a file URL")
        }
        try self.init(contentsOfFile: url.path, options: options)
    }

    /// Opens the image file at `path`, reading only its header. See ``init(contentsOf:options:)``.
    public convenience init(contentsOfFile path: String, options: ImageDecodingOptions = ImageDecodingOptions()) throws(ImageError) {
        let prefix = try FileProbe.readPrefix(of: path, count: ImageFormat.sniffLength)
        try self.init(storage: .file(path), prefix: prefix, options: options)
    }

    /// Opens an encoded image held in memory, reading only its header.
    ///
    /// - Throws: as ``init(contentsOf:options:)``, without the I/O case.
    public convenience init(data: Data, options: ImageDecodingOptions = ImageDecodingOptions()) throws(ImageError) {
        try self.init(storage: .data(data), prefix: Array(data.prefix(ImageFormat.sniffLength)), options: options)
    }

    private convenience init(storage: Storage, prefix: [UInt8], options: ImageDecodingOptions) throws(ImageError) {
        BlockingCheck.note("a libvips header read")
        guard options.pixelLimit > 0 else {
            throw .invalidArgument("pixel limit must be positive, not \(options.pixelLimit)")
        }
        guard !prefix.isEmpty else {
            throw .corrupt(reason: "the data is empty")
        }
        guard let sniffed = ImageFormat(sniffing: prefix) else {
            throw .unsupportedFormat(ImageFormat.describeUnrecognised(prefix))
        }
        var format = sniffed
        var metadata = ImageMetadata()
        var tiff: Data?
        if sniffed.hasTIFFDirectories {
            // TIFF files carry their metadata as TIFF tags; libvips does not hand them over as an
            // EXIF block, so read the file's own directories (mapped, not loaded).
            tiff = Self.mappedBytes(storage)
            if let tiff {
                format = TIFFDirectoryReader.refine(sniffed, tiffData: tiff)
                metadata = ImageMetadata(exif: tiff)
            }
        }
        if format.isRaw, let raw = try Self.openRaw(storage, format: format, tiffMetadata: tiff == nil ? nil : metadata, options: options) {
            // The sensor image's size as the file's TIFF tags give it (what exiftool reports),
            // else as LibRaw reads it.
            let sensor = tiff.flatMap { TIFFDirectoryReader.fullResolutionSize(tiffData: $0) } ?? raw.layout.sensorSize
            self.init(
                storage: storage, pixelLimit: options.pixelLimit, bytesPerPixel: 3, isInterlaced: false, format: format,
                pixelSize: raw.layout.developedSize, storedPixelSize: sensor,
                orientation: raw.layout.orientation, metadata: raw.metadata, raw: raw.layout)
            return
        }
        // HEIF declares its size in the container, which libheif refuses past its own limit
        // (16384 a side) as damage: a size over the pixel limit is the answer that names it.
        var heifSize: PixelSize?
        var heifExif: (primary: [Data], others: [Data]) = ([], [])
        var heifXMP: [Data] = []
        if format.isDecodedByLibheif, let data = Self.mappedBytes(storage) {
            (heifExif, heifXMP) = HEIFContainer.metadataBlocks(data)
            heifSize = HEIFContainer.primaryImageSize(data)
            if let heifSize, heifSize.pixelCount > options.pixelLimit {
                throw .tooLarge(pixels: heifSize.pixelCount, limit: options.pixelLimit)
            }
        }
        let header: VipsImageHandle
        do {
            header = try Self.openHeader(storage, pixelLimit: options.pixelLimit, sequential: true)
        } catch let error where error.code == .corrupt && format.isRaw {
            let reason = error.detail
            // A raw file LibRaw does not read is accepted only as far as libvips's TIFF reader
            // opens its first image.
            throw .unsupportedFormat("\(format.rawValue.uppercased()) raw image that neither LibRaw nor libvips can decode (\(reason))")
        } catch let error where error.code == .unsupportedFormat && Self.noLoaderTook(error.detail) && !format.isRaw {
            let text = error.detail
            // The bytes start like a format libvips reads, and no loader took them: damaged. (The
            // text alone cannot say: libvips keeps one error buffer for every thread.) A loader
            // that refuses the bytes outright (a TIFF whose directory was cut off) leaves libvips
            // trying the blocked ones, which say so.
            throw .corrupt(reason: "\(format.rawValue.uppercased()) that no decoder accepts: \(text)")
        }
        // A JPEG's segments, read once: its EXIF blocks (libvips hands over the first only) and
        // the records of cameras that wrote more than EXIF.
        let jpegSegments = format == .jpeg ? Self.mappedBytes(storage).map(JPEGSegments.init) : nil
        if tiff == nil {
            metadata = header.blob(named: "exif-data").map { ImageMetadata(exif: $0) } ?? ImageMetadata()
            if let jpegSegments, let everyBlock = ImageMetadata.exifOfEveryBlock(jpegSegments) {
                metadata = everyBlock
            }
            // libheif hands over only an Exif item that names the primary image, and as it is
            // stored (some phones store a JPEG APP1 segment's marker and length before `Exif`,
            // which libvips then cannot read); exiftool reads every one the container holds for
            // it (or for no image in particular), in order, then those of other images where the
            // file's own say nothing. So the container's own reading stands whenever it has one.
            if !heifExif.others.isEmpty || !heifExif.primary.isEmpty {
                metadata = heifExif.primary.reduce(into: ImageMetadata()) { $0.overlay(ImageMetadata(exif: $1)) }
                for block in heifExif.others {
                    var other = ImageMetadata(exif: block)
                    other.overlay(metadata)
                    metadata = other
                }
            }
        }
        let exifOrientation = metadata.orientation
        if let xmp = header.blob(named: "xmp-data") {
            metadata.mergeXMP(xmp)
        } else {
            // libvips hands over no XMP of a HEIF: the container's own `mime` items.
            for xmp in heifXMP { metadata.mergeXMP(xmp) }
        }
        // exiftool's order: EXIF, XMP, then IPTC's DateCreated with TimeCreated.
        if metadata.dateTimeOriginal == nil, let iptc = header.blob(named: "iptc-data") {
            metadata.dateTimeOriginal = IPTCRecord.dateCreated(iptc)
        }
        // Cameras from before EXIF (APP12 picture info, Casio's QVCI) and thermal cameras (FLIR)
        // keep what they know in segments of their own.
        if let jpegSegments {
            metadata.mergeJPEGSegments(jpegSegments)
        }
        var profile = header.blob(named: "icc-profile-data")
        if format == .gif, profile == nil, let data = Self.mappedBytes(storage) {
            profile = GIFBlocks.iccProfile(in: data)
        }
        metadata.colorProfileName = profile.flatMap(ICCProfile.description(of:))
        // A PNG names its software in a text chunk (EXIF first, where it has an eXIf chunk too).
        if format == .png, metadata.software == nil, let data = Self.mappedBytes(storage),
            let number = PNGTextChunks.firstUntranslated("Software", in: data)
        {
            metadata.software = header.string(named: "png-comment-\(number)-Software").flatMap { ImageMetadata.cleanedText($0) }
        }

        // libvips reports the size of the pixels it will decode and the orientation it will still
        // apply. For JPEG, PNG, WebP and TIFF that is the stored size and the EXIF orientation;
        // libheif applies HEIF's own rotation while decoding and libvips then drops the tag.
        let decoded = header.size
        let pendingOrientation = header.vipsOrientation
        let displayed = pendingOrientation >= 5 ? decoded.transposed : decoded
        let declared = exifOrientation ?? ImageOrientation(rawValue: pendingOrientation) ?? .up
        var stored = declared.swapsWidthAndHeight ? displayed.transposed : displayed
        if let heifSize {
            stored = heifSize
        } else if format.isRaw, let tiff, let sensor = TIFFDirectoryReader.fullResolutionSize(tiffData: tiff) {
            stored = sensor
        }

        // PNG's IHDR is at a fixed place: its last byte says whether the rows are interlaced.
        let interlaced = format == .png && prefix.count > 28 && prefix[28] != 0
        self.init(
            storage: storage, pixelLimit: options.pixelLimit, bytesPerPixel: header.bands * header.sampleSize,
            isInterlaced: interlaced, format: format, pixelSize: displayed,
            storedPixelSize: stored, orientation: declared, metadata: metadata)
    }

    /// A camera raw file as LibRaw reads it, with its metadata; `nil` when LibRaw does not read a
    /// file libvips's TIFF reader may still open (its first image, often the camera's preview).
    ///
    /// The metadata is the file's own records where Shoebox reads them (the TIFF directories of
    /// DNG, NEF, ARW, ORF, RW2, PEF, …, with the XMP packet in tag 700; a CR3's metadata streams;
    /// a RAF's embedded JPEG), else what LibRaw read.
    private static func openRaw(
        _ storage: Storage, format: ImageFormat, tiffMetadata: ImageMetadata?, options: ImageDecodingOptions
    ) throws(ImageError) -> (layout: RawLayout, metadata: ImageMetadata)? {
        let layout: RawLayout
        do {
            layout = try RawDecoder.probe(storage, format: format)
        } catch {
            guard format.isTIFFFamily else { throw error }
            // libvips would show the first image of a file whose sensor data is missing: refuse it.
            if let data = mappedBytes(storage), TIFFDirectoryReader.dataEndsEarly(tiffData: data) {
                throw .corrupt(reason: "\(format.rawValue.uppercased()) raw image that ends early: its image data lies past the end of the file")
            }
            return nil
        }
        // The sensor's pixels are what LibRaw holds: the limit applies to them.
        try checkLimit(layout.sensorSize, pixelLimit: options.pixelLimit)
        var metadata: ImageMetadata
        if var tiffMetadata, let data = mappedBytes(storage) {
            if let xmp = TIFFDirectoryReader.embeddedXMP(tiffData: data) {
                tiffMetadata.mergeXMP(xmp)
            }
            metadata = tiffMetadata
        } else if format == .cr3, let data = mappedBytes(storage), let own = RawContainerMetadata.cr3(data) {
            metadata = own
        } else if format == .raf, let data = mappedBytes(storage), let own = RawContainerMetadata.raf(data) {
            metadata = own
        } else {
            metadata = layout.metadata
        }
        return (layout, metadata)
    }

    /// Whether libvips's header failure says that no permitted loader took the bytes.
    private static func noLoaderTook(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.contains("not a known") || lowered.contains("is blocked")
    }

    /// Wraps decoded, upright pixels.
    init(raster: VipsImageHandle, metadata: ImageMetadata) {
        var metadata = metadata
        metadata.orientation = nil
        self.storage = .raster(raster)
        self.pixelLimit = ImageDecodingOptions.defaultPixelLimit
        self.bytesPerPixel = raster.bands * raster.sampleSize
        self.isInterlaced = false
        self.raw = nil
        self.format = nil
        self.pixelSize = raster.size
        self.storedPixelSize = raster.size
        self.orientation = .up
        self.metadata = metadata
    }

    // MARK: Access to pixels

    /// Opens the header through a fresh source and enforces the pixel limit.
    static func openHeader(_ storage: Storage, pixelLimit: Int, sequential: Bool) throws(ImageError) -> VipsImageHandle {
        let source = try makeSource(storage)
        let header = try source.openImage(sequential: sequential)
        try checkLimit(header.size, pixelLimit: pixelLimit)
        return header
    }

    static func makeSource(_ storage: Storage) throws(ImageError) -> VipsSourceHandle {
        switch storage {
        case .file(let path): try VipsSourceHandle.file(path)
        case .data(let data): try VipsSourceHandle.copying(data)
        case .raster: preconditionFailure("a raster has no source")
        }
    }

    static func checkLimit(_ size: PixelSize, pixelLimit: Int) throws(ImageError) {
        guard size.isPositive else {
            throw .corrupt(reason: "the header declares an empty image (\(size))")
        }
        if size.pixelCount > pixelLimit {
            throw .tooLarge(pixels: size.pixelCount, limit: pixelLimit)
        }
    }

    /// The encoded bytes, mapped rather than read for files.
    static func mappedBytes(_ storage: Storage) -> Data? {
        switch storage {
        case .file(let path): try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        case .data(let data): data
        case .raster: nil
        }
    }

    /// The full image, upright, as a lazy libvips pipeline (rasters are already upright).
    ///
    /// Sequential access streams top to bottom and keeps memory small; rotation needs random
    /// access, so it is used only when the orientation demands it, or when the caller will read
    /// the pixels out of order itself (`randomAccess`: a quarter turn, a straightening turn).
    func uprightPipeline(randomAccess: Bool = false) throws(ImageError) -> VipsImageHandle {
        if case .raster(let raster) = storage { return raster }
        if raw != nil {
            // LibRaw hands over pixels only: the shot's metadata goes with them as EXIF fields, so
            // an edit's render or a picked JPEG keeps the camera, the date and the place.
            return try Self.tagged(try RawDecoder.develop(storage, halfSize: false), with: metadata).markedUpright()
        }
        try verifyBeforeDecoding()
        let probe = try Self.openHeader(storage, pixelLimit: pixelLimit, sequential: !randomAccess)
        guard probe.vipsOrientation != 1 else {
            return try probe.markedUpright()
        }
        let header = try Self.openHeader(storage, pixelLimit: pixelLimit, sequential: false)
        return try header.autorotated().markedUpright()
    }

    /// Checks that libvips cannot settle alone, before pixels are decoded.
    func verifyBeforeDecoding() throws(ImageError) {
        if format == .png {
            try PNGChunkValidator.validate(storage)
        }
    }

    /// Decodes every pixel, upright, into memory.
    ///
    /// Use it to verify that a file decodes completely, or to pay the decoding cost once before
    /// many operations.
    ///
    /// - Returns: An upright in-memory image with the same metadata.
    /// - Throws: ``ImageError/Code/corrupt`` for truncated or damaged pixel data;
    ///   ``ImageError/Code/tooLarge`` if the file grew past the limit since opening.
    public func decoded() throws(ImageError) -> Image {
        if case .raster = storage { return self }
        let pipeline = try uprightPipeline()
        return Image(raster: try pipeline.materialized(), metadata: metadata)
    }
}
