internal import CVips
import ShoeboxSupport

extension Image {
    /// Wraps pixels made in memory (a generated picture, a camera frame).
    ///
    /// - Parameter bitmap: 8-bit pixels; 3 or 4 channels are sRGB, 1 or 2 are grey.
    /// - Throws: ``ImageError/Code/libraryUnavailable`` if libvips cannot start.
    public convenience init(bitmap: Bitmap, metadata: ImageMetadata = ImageMetadata()) throws(ImageError) {
        try Vips.initialize()
        let pointer = bitmap.bytes.withUnsafeBytes { bytes in
            sb_image_new_from_memory_copy(bytes.baseAddress, bytes.count, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.channels))
        }
        guard let pointer else {
            throw .invalidArgument("cannot wrap bitmap: \(Vips.takeError())")
        }
        let handle = try VipsImageHandle(owning: pointer).markedUpright()
        self.init(raster: handle, metadata: metadata)
    }

    /// The upright pixels as 8-bit sRGB (3 channels, or 4 with alpha; grey images become RGB).
    ///
    /// - Returns: A ``Bitmap`` of ``pixelSize``.
    /// - Throws: ``ImageError/Code/corrupt`` when the pixel data cannot be decoded.
    public func bitmap() throws(ImageError) -> Bitmap {
        BlockingCheck.note("a libvips decode")
        let handle = try uprightPipeline().sRGB8()
        let bytes = try handle.pixelBytes()
        return try Bitmap(width: handle.width, height: handle.height, channels: handle.bands, bytes: bytes)
    }
}
