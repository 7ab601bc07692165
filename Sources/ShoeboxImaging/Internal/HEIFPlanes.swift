import Foundation
internal import CVips

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
    /// The upright picture as a lazy 8-bit sRGB pipeline, or `nil` when libvips's loader should
    /// read it.
    static func pipeline(_ storage: Image.Storage) throws(ImageError) -> VipsImageHandle? {
        // libheif converts other subsamplings to 4:2:0 if asked for it: only pictures coded so.
        guard let bytes = Image.mappedBytes(storage), HEIFContainer.isChroma420(bytes) else { return nil }
        try Vips.initialize()
        var output: OpaquePointer?
        Vips.clearErrors()
        let status: Int32
        switch storage {
        case .file(let path):
            status = sb_heif_load_ycbcr(path, nil, 0, &output)
        case .data(let data):
            status = data.withUnsafeBytes { bytes in sb_heif_load_ycbcr(nil, bytes.baseAddress, bytes.count, &output) }
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
