extension Image {
    /// libvips's "no limit" for one side of a thumbnail.
    private static let unboundedSide = 10_000_000

    /// A smaller, upright copy scaled to `targetSize` with Apple's content-mode semantics.
    ///
    /// - `.aspectFit`: the result fits inside `targetSize`.
    /// - `.aspectFill`: the result covers `targetSize` — each side is at least the target's — and
    ///   keeps the aspect ratio, so one side is usually larger (a 4000×3000 photo at 256×256 gives
    ///   341×256). With `cropToFill` the overflow is cut off around the centre, giving exactly
    ///   `targetSize`.
    ///
    /// The result is never larger than the original: a 100×50 image asked for 256×256 stays
    /// 100×50. Files are decoded with shrink-on-load (JPEG DCT scaling, HEIF and WebP
    /// thumbnails, pyramid levels), so a 256-pixel thumbnail of a 24-megapixel JPEG reads a
    /// fraction of its pixels.
    ///
    /// ```swift
    /// let grid = try photo.thumbnail(targetSize: PixelSize(square: 256), contentMode: .aspectFill, cropToFill: true)
    /// let preview = try photo.thumbnail(targetSize: PixelSize(square: 1024))
    /// ```
    ///
    /// - Parameters:
    ///   - targetSize: The size in pixels; both sides must be positive.
    ///   - contentMode: `.aspectFit` (default) or `.aspectFill`.
    ///   - cropToFill: With `.aspectFill`, crop the centre to exactly `targetSize` (or less where
    ///     the original is smaller). Ignored with `.aspectFit`.
    /// - Returns: An upright in-memory image whose metadata orientation is 1.
    /// - Throws: ``ImageError/Code/invalidArgument`` for a non-positive target;
    ///   ``ImageError/Code/corrupt`` when the pixels cannot be decoded;
    ///   ``ImageError/Code/tooLarge`` when the file grew past the limit since opening.
    public func thumbnail(
        targetSize: PixelSize, contentMode: ImageContentMode = .aspectFit, cropToFill: Bool = false
    ) throws(ImageError) -> Image {
        guard targetSize.isPositive else {
            throw .invalidArgument("target size \(targetSize) must be positive on both sides")
        }
        let crop = cropToFill && contentMode == .aspectFill
        switch storage {
        case .raster(let raster):
            let (width, height) = Self.thumbnailBounds(source: raster.size, target: targetSize, mode: contentMode, crop: crop)
            let result = try raster.thumbnail(width: width, height: height, crop: crop)
            return Image(raster: try result.materialized().markedUpright(), metadata: metadata)
        case .file, .data:
            if let raw {
                let (width, height) = Self.thumbnailBounds(source: raw.developedSize, target: targetSize, mode: contentMode, crop: crop)
                let source = try rawSource(for: raw.route(width: width, height: height, crop: crop))
                let result = try source.thumbnail(width: width, height: height, crop: crop)
                return Image(raster: try result.materialized().markedUpright(), metadata: metadata)
            }
            try verifyBeforeDecoding()
            let source = try Self.makeSource(storage)
            let displayed: PixelSize
            do {  // The header is dropped before thumbnailing reads the source again.
                let header = try source.openImage(sequential: true)
                try Self.checkLimit(header.size, pixelLimit: pixelLimit)
                displayed = header.vipsOrientation >= 5 ? header.size.transposed : header.size
            }
            let (width, height) = Self.thumbnailBounds(source: displayed, target: targetSize, mode: contentMode, crop: crop)
            let result: VipsImageHandle
            if format?.isDecodedByLibheif == true,
                let planes = try HEIFPlanes.thumbnail(storage, displayed: displayed, width: width, height: height, crop: crop)
            {
                result = planes
            } else {
                result = try source.thumbnail(width: width, height: height, crop: crop)
            }
            return Image(raster: try result.materialized().markedUpright(), metadata: metadata)
        }
    }

    /// The width and height bounds to hand `vips_thumbnail` (which always fits inside its
    /// bounds) so that it produces Apple's content mode. As sharp does for `outside`, a fill
    /// without a crop is a fit against the binding side only.
    static func thumbnailBounds(
        source: PixelSize, target: PixelSize, mode: ImageContentMode, crop: Bool
    ) -> (width: Int, height: Int) {
        switch mode {
        case .aspectFit:
            return (target.width, target.height)
        case .aspectFill where crop:
            return (target.width, target.height)
        case .aspectFill:
            let widthScale = Double(target.width) / Double(source.width)
            let heightScale = Double(target.height) / Double(source.height)
            return widthScale >= heightScale
                ? (target.width, unboundedSide)
                : (unboundedSide, target.height)
        }
    }
}
