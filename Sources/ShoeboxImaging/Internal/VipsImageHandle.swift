internal import CVips
import Foundation

/// Owns one reference to a `VipsImage` and drops it on `deinit`.
///
/// `@unchecked Sendable`: a `VipsImage` is never mutated after the operation that made it
/// returns (Shoebox only sets metadata on fresh copies, before sharing them), libvips's
/// reference counting is atomic, and libvips allows one image to feed pipelines on several
/// threads at once.
final class VipsImageHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        sb_image_unref(pointer)
    }

    var width: Int { Int(sb_image_width(pointer)) }
    var height: Int { Int(sb_image_height(pointer)) }
    var bands: Int { Int(sb_image_bands(pointer)) }
    /// Bytes per band as decoded (1 for 8-bit samples, 2 for 16-bit).
    var sampleSize: Int { Int(sb_image_sample_size(pointer)) }
    var hasAlpha: Bool { sb_image_has_alpha(pointer) != 0 }
    var size: PixelSize { PixelSize(width: width, height: height) }

    /// The orientation libvips itself will apply when rotating upright (1 when none).
    var vipsOrientation: Int { Int(sb_image_orientation(pointer)) }

    /// The loader's nickname, e.g. `jpegload_source`.
    var loader: String? {
        guard let name = sb_image_loader(pointer) else { return nil }
        return String(cString: name)
    }

    /// A string metadata field, such as `png-comment-0-Software`.
    func string(named name: String) -> String? {
        sb_image_string(pointer, name).map { String(cString: $0) }
    }

    /// A copy of a metadata blob such as `exif-data` or `icc-profile-data`.
    func blob(named name: String) -> Data? {
        var length = 0
        guard let bytes = sb_image_blob(pointer, name, &length), length > 0 else { return nil }
        return Data(bytes: bytes, count: length)
    }

    // MARK: Operations

    func autorotated() throws(ImageError) -> VipsImageHandle {
        try Vips.run({ sb_autorot(pointer, $0) }, error: ImageError.decodeFailure)
    }

    func extractingArea(_ rect: PixelRect) throws(ImageError) -> VipsImageHandle {
        try Vips.run(
            { sb_extract_area(pointer, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), $0) },
            error: ImageError.decodeFailure)
    }

    /// Turned clockwise by `quarterTurns` × 90°.
    func rotated(quarterTurns: Int) throws(ImageError) -> VipsImageHandle {
        try Vips.run({ sb_rotate(pointer, Int32(quarterTurns), $0) }, error: ImageError.decodeFailure)
    }

    func mirrored() throws(ImageError) -> VipsImageHandle {
        try Vips.run({ sb_flip_horizontal(pointer, $0) }, error: ImageError.decodeFailure)
    }

    /// Turned `degrees` clockwise about its centre; the `size` area centred on it (bilinear).
    func rotated(degrees: Double, keeping size: PixelSize) throws(ImageError) -> VipsImageHandle {
        try Vips.run({ sb_rotate_centred(pointer, degrees, Int32(size.width), Int32(size.height), $0) }, error: ImageError.decodeFailure)
    }

    /// Each band through `table` (256 entries), then the bands mixed by the 3 × 3 `matrix`.
    func toned(_ table: [UInt8], mixedBy matrix: [Double]) throws(ImageError) -> VipsImageHandle {
        try table.withUnsafeBufferPointer { table throws(ImageError) in
            try matrix.withUnsafeBufferPointer { matrix throws(ImageError) in
                try Vips.run({ sb_tone_and_mix(pointer, table.baseAddress, matrix.baseAddress, $0) }, error: ImageError.decodeFailure)
            }
        }
    }

    func resized(horizontalScale: Double, verticalScale: Double) throws(ImageError) -> VipsImageHandle {
        try Vips.run({ sb_resize(pointer, horizontalScale, verticalScale, $0) }, error: ImageError.decodeFailure)
    }

    /// `vips_thumbnail_image` inside `width` × `height`, never upscaling; `exactly` makes it that
    /// size whatever the aspect ratio.
    func thumbnail(width: Int, height: Int, crop: Bool, exactly: Bool = false) throws(ImageError) -> VipsImageHandle {
        try Vips.run(
            { sb_thumbnail_image(pointer, Int32(width), Int32(height), exactly ? 3 : 2, crop ? 1 : 0, $0) },
            error: ImageError.decodeFailure)
    }

    func flattened(red: Double = 255, green: Double = 255, blue: Double = 255) throws(ImageError) -> VipsImageHandle {
        try Vips.run({ sb_flatten(pointer, red, green, blue, $0) }, error: ImageError.decodeFailure)
    }

    func sRGB8() throws(ImageError) -> VipsImageHandle {
        let srgb = try Vips.run({ sb_colourspace_srgb(pointer, $0) }, error: ImageError.decodeFailure)
        return try Vips.run({ sb_cast_uchar(srgb.pointer, $0) }, error: ImageError.decodeFailure)
    }

    /// Computes every pixel into memory. Truncated or corrupt data fails here.
    func materialized() throws(ImageError) -> VipsImageHandle {
        try Vips.run({ sb_copy_memory(pointer, $0) }, error: ImageError.decodeFailure)
    }

    /// A copy whose metadata says orientation 1: its pixels are already upright.
    func markedUpright() throws(ImageError) -> VipsImageHandle {
        try Vips.run({ sb_copy_set_orientation(pointer, 1, $0) }, error: ImageError.decodeFailure)
    }

    /// A copy with a string metadata field set.
    func settingString(_ name: String, to value: String) throws(ImageError) -> VipsImageHandle {
        try Vips.run({ sb_copy_set_string(pointer, name, value, $0) }, error: ImageError.decodeFailure)
    }

    /// A copy carrying no metadata at all.
    func strippingMetadata() throws(ImageError) -> VipsImageHandle {
        try Vips.run({ sb_copy_strip_metadata(pointer, $0) }, error: ImageError.decodeFailure)
    }

    /// The interleaved pixel bytes.
    func pixelBytes() throws(ImageError) -> [UInt8] {
        var length = 0
        Vips.clearErrors()
        guard let memory = sb_write_to_memory(pointer, &length) else {
            throw ImageError.decodeFailure(Vips.takeError())
        }
        defer { sb_free(memory) }
        return [UInt8](UnsafeRawBufferPointer(start: memory, count: length))
    }

    /// Encodes with one of the `sb_*save_buffer` wrappers.
    ///
    /// `lazySource`: the pixels are still being decoded from a file as they are written, so a
    /// failure is almost always damage in the source and is reported as ``ImageError/Code/corrupt``.
    func save(
        _ body: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32,
        format: ImageFormat, lazySource: Bool = false
    ) throws(ImageError) -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        Vips.clearErrors()
        let status = body(&buffer, &length)
        guard status == 0, let buffer else {
            if let buffer { sb_free(buffer) }
            let reason = Vips.takeError()
            throw lazySource ? ImageError.corrupt(reason: reason) : ImageError.encodingFailed(format: format, reason: reason)
        }
        defer { sb_free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}
