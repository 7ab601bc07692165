internal import CVips
import Foundation

/// HEIF, HEIC and AVIF pictures decoded by libheif to their own YCbCr planes, for thumbnails.
///
/// libvips's loader asks libheif for interleaved RGB, so the decoder's planes and a whole RGB copy
/// are held at once. Here libheif keeps only the planes (1.5 bytes a pixel for 4:2:0) and libvips
/// converts to RGB a tile at a time while it shrinks, which is what keeps one 8192 × 8192 HEIC
/// upload under the 400 MB the server promises (SECURITY.md). The conversion is libheif's own:
/// the file's `nclx` matrix (BT.601 without one), chroma repeated rather than interpolated.
/// Pictures coded other than 4:2:0, with alpha, more than 8 bits a sample, limited range or an
/// unusual matrix are left to libvips's loader.
enum HEIFPlanes {
    /// A thumbnail inside `width` × `height` of the picture whose displayed size is `displayed`,
    /// the same size as `vips_thumbnail` makes from libvips's loader, or `nil` when that loader
    /// should read it.
    ///
    /// Without a crop, the planes are first shrunk by the largest whole factor that leaves twice
    /// the thumbnail (as `vips_resize` shrinks before it reduces), so the conversion to RGB and
    /// the reduction run on the small picture, and the reduction is then forced to the size
    /// libvips would have made from the whole picture.
    static func thumbnail(_ storage: Image.Storage, displayed: PixelSize, width: Int, height: Int, crop: Bool) throws(ImageError) -> VipsImageHandle? {
        guard !crop, displayed.isPositive else {
            return try pipeline(storage)?.thumbnail(width: width, height: height, crop: crop)
        }
        // vips_thumbnail's size: the larger of the two shrinks, never below 1, rounded.
        let factor = Swift.max(1, Double(displayed.width) / Double(Swift.max(1, width)), Double(displayed.height) / Double(Swift.max(1, height)))
        let target = PixelSize(
            width: Swift.max(1, Int((Double(displayed.width) / factor).rounded())),
            height: Swift.max(1, Int((Double(displayed.height) / factor).rounded())))
        let shrink = Swift.max(1, Int(factor) / 2)
        return try pipeline(storage, shrink: shrink)?.thumbnail(width: target.width, height: target.height, crop: false, exactly: true)
    }

    /// The upright picture as a lazy 8-bit sRGB pipeline, `shrink` times smaller on each side
    /// (averaged before the conversion to RGB, which is linear: a thumbnail's arithmetic runs on
    /// the small picture), or `nil` when libvips's loader should read it.
    static func pipeline(_ storage: Image.Storage, shrink: Int = 1) throws(ImageError) -> VipsImageHandle? {
        // libheif converts other subsamplings to 4:2:0 if asked for it: only pictures coded so.
        guard let bytes = Image.mappedBytes(storage), HEIFContainer.isChroma420(bytes) else { return nil }
        try Vips.initialize()
        let shrink = Int32(clamping: max(1, shrink))
        var output: OpaquePointer?
        Vips.clearErrors()
        let status: Int32
        switch storage {
        case .file(let path):
            status = sb_heif_load_ycbcr(path, nil, 0, shrink, &output)
        case .data(let data):
            status = data.withUnsafeBytes { bytes in sb_heif_load_ycbcr(nil, bytes.baseAddress, bytes.count, shrink, &output) }
        case .raster:
            return nil
        }
        switch (status, output) {
        case (0, let output?): return VipsImageHandle(owning: output)
        case (1, _): return nil
        default: throw ImageError.decodeFailure(Vips.takeError())
        }
    }
}
