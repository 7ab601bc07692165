internal import CVips
import Foundation

/// What LibRaw found in a camera raw file when it was opened: the sizes, the turn, the embedded
/// preview, and what the header says of the shot.
struct RawLayout: Sendable {
    /// The sensor's size, margins included (a DNG or NEF's full-resolution TIFF image).
    let sensorSize: PixelSize
    /// The developed picture's size, upright.
    let developedSize: PixelSize
    /// LibRaw's flip of the stored picture (bit 0 mirrors left-right, bit 1 top-bottom, bit 2
    /// transposes first).
    let flip: Int
    /// The camera's preview, upright, when it is a JPEG or a bitmap Shoebox reads.
    let previewSize: PixelSize?
    /// Whether the preview is a JPEG (shrunk while decoded).
    let previewIsJPEG: Bool
    /// What LibRaw read of the shot, for the formats whose own metadata Shoebox does not parse.
    let metadata: ImageMetadata

    /// The EXIF orientation of the flip.
    var orientation: ImageOrientation {
        // LibRaw's flip bits to EXIF's eight orientations.
        let exif = [1, 2, 4, 3, 5, 8, 6, 7][flip & 7]
        return ImageOrientation(rawValue: exif) ?? .up
    }

    /// The stored size (before the turn): the developed size, transposed for a quarter turn.
    var storedDevelopedSize: PixelSize { flip & 4 != 0 ? developedSize.transposed : developedSize }
}

/// Camera raw files through LibRaw (C in `Sources/CVips/shoebox_raw.c`): the header, the camera's
/// embedded preview, the sensor data unpacked, and a development to 8-bit sRGB. Each call opens
/// the file again, as libvips's sources do, so no file stays open between operations.
enum RawDecoder {
    /// The most LibRaw may allocate for one file's sensor data and development, in megabytes:
    /// twice what a 400-megapixel back needs.
    static let memoryLimitMegabytes: Int32 = 4_096

    /// Reads the header. Throws ``ImageError/Code/unsupportedFormat`` when LibRaw does not know
    /// the file, ``ImageError/Code/corrupt`` when it cannot read what it knows.
    static func probe(_ storage: Image.Storage, format: ImageFormat) throws(ImageError) -> RawLayout {
        try Vips.initialize()
        var info = SBRawInfo()
        Vips.clearErrors()
        let status = try call(storage) { path, data, length in sb_raw_probe(path, data, length, &info) }
        guard status == 0 else {
            let text = Vips.takeError()
            let name = format.rawValue.uppercased()
            // LIBRAW_FILE_UNSUPPORTED: a camera LibRaw does not know, or a file cut before its data.
            if status == -2 {
                throw .unsupportedFormat("\(name) raw image that LibRaw cannot read (\(text)): damaged, or from a camera newer than LibRaw \(libraryVersion)")
            }
            throw .corrupt(reason: "\(name) raw image: \(text)")
        }
        let sensor = PixelSize(width: Int(info.raw_width), height: Int(info.raw_height))
        let developed = PixelSize(width: Int(info.width), height: Int(info.height))
        let flip = Int(info.flip) & 7
        var preview: PixelSize?
        // 1: JPEG, 2: an 8-bit bitmap; sizes as stored, turned like the picture.
        if info.thumbnail_format == 1 || info.thumbnail_format == 2, info.thumbnail_width > 0, info.thumbnail_height > 0,
            info.thumbnail_length > 0
        {
            let stored = PixelSize(width: Int(info.thumbnail_width), height: Int(info.thumbnail_height))
            preview = flip & 4 != 0 ? stored.transposed : stored
        }
        return RawLayout(
            sensorSize: sensor, developedSize: developed, flip: flip, previewSize: preview,
            previewIsJPEG: info.thumbnail_format == 1, metadata: metadata(of: &info))
    }

    /// The embedded preview, upright, `shrink` times smaller on each side where it is a JPEG.
    static func preview(_ storage: Image.Storage, layout: RawLayout, shrink: Int) throws(ImageError) -> VipsImageHandle {
        var output: OpaquePointer?
        Vips.clearErrors()
        let factor = Int32(clamping: layout.previewIsJPEG ? [8, 4, 2, 1].first { $0 <= shrink } ?? 1 : 1)
        let status = try call(storage) { path, data, length in
            sb_raw_load_preview(path, data, length, factor, Int32(layout.flip), &output)
        }
        guard status == 0, let output else { throw .corrupt(reason: Vips.takeError()) }
        return VipsImageHandle(owning: output)
    }

    /// The developed picture, upright 8-bit sRGB in memory; `halfSize` averages 2 × 2 blocks of
    /// the sensor instead of interpolating (a quarter of the pixels, and much faster).
    static func develop(_ storage: Image.Storage, halfSize: Bool) throws(ImageError) -> VipsImageHandle {
        var output: OpaquePointer?
        Vips.clearErrors()
        let status = try call(storage) { path, data, length in
            sb_raw_develop(path, data, length, halfSize ? 1 : 0, memoryLimitMegabytes, &output)
        }
        guard status == 0, let output else { throw .corrupt(reason: Vips.takeError()) }
        return VipsImageHandle(owning: output)
    }

    /// Unpacks the sensor data without developing it: throws ``ImageError/Code/corrupt`` when
    /// it is cut short or damaged.
    static func verify(_ storage: Image.Storage) throws(ImageError) {
        Vips.clearErrors()
        let status = try call(storage) { path, data, length in sb_raw_verify(path, data, length, memoryLimitMegabytes) }
        guard status == 0 else { throw .corrupt(reason: Vips.takeError()) }
    }

    /// LibRaw's version, as error messages name it.
    static var libraryVersion: String { String(cString: sb_raw_version()) }

    /// Calls LibRaw's wrapper with the file's path, or the bytes in memory (held for the call).
    private static func call(
        _ storage: Image.Storage, _ body: (UnsafePointer<CChar>?, UnsafeRawPointer?, Int) -> Int32
    ) throws(ImageError) -> Int32 {
        switch storage {
        case .file(let path):
            return path.withCString { body($0, nil, 0) }
        case .data(let data):
            return data.withUnsafeBytes { bytes in body(nil, bytes.baseAddress, bytes.count) }
        case .raster:
            throw .invalidArgument("decoded pixels are not a raw file")
        }
    }

    /// What LibRaw read of the shot, as metadata.
    private static func metadata(of info: inout SBRawInfo) -> ImageMetadata {
        var metadata = ImageMetadata()
        func text<T>(_ field: inout T) -> String? {
            let value = withUnsafeBytes(of: &field) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            return ImageMetadata.cleanedText(value)
        }
        metadata.make = text(&info.make)
        metadata.model = text(&info.model)
        metadata.lensModel = text(&info.lens)
        if info.iso > 0, info.iso < 10_000_000 { metadata.isoSpeed = Int(info.iso.rounded()) }
        if info.shutter > 0, info.shutter < 100_000 { metadata.exposureTime = info.shutter }
        if info.aperture > 0, info.aperture < 1_000 { metadata.fNumber = info.aperture }
        if info.focal_length > 0, info.focal_length < 100_000 { metadata.focalLength = info.focal_length }
        if info.timestamp > 0 {
            // LibRaw made the number with mktime from the camera's wall clock: localtime gives it back.
            var seconds = time_t(info.timestamp)
            var parts = tm()
            if localtime_r(&seconds, &parts) != nil {
                metadata.dateTimeOriginal = ImageMetadata.DateTime(
                    year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
                    hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
            }
        }
        if info.has_gps != 0, abs(info.latitude) <= 90, abs(info.longitude) <= 180, info.latitude != 0 || info.longitude != 0 {
            metadata.latitude = info.latitude
            metadata.longitude = info.longitude
            if info.altitude.isFinite, abs(info.altitude) < 100_000 { metadata.altitude = info.altitude }
        }
        metadata.orientation = nil
        return metadata
    }
}
