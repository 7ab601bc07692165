extension Image {
    /// The part of the upright image inside `rect`.
    ///
    /// `rect` is in pixels of the upright (displayed) image, origin top-left. Like
    /// `CGImage.cropping(to:)`, a rectangle reaching past the edges is cut to the image.
    ///
    /// ```swift
    /// let face = try photo.cropping(to: PixelRect(x: 1200, y: 800, width: 600, height: 600))
    /// ```
    ///
    /// - Returns: An upright in-memory image.
    /// - Throws: ``ImageError/Code/invalidArgument`` when `rect` covers no pixel of the image;
    ///   ``ImageError/Code/corrupt`` when the pixels cannot be decoded.
    public func cropping(to rect: PixelRect) throws(ImageError) -> Image {
        guard let area = rect.clamped(to: pixelSize) else {
            throw .invalidArgument("crop \(rect) covers no pixel of a \(pixelSize) image")
        }
        let pipeline = try uprightPipeline()
        guard let current = area.clamped(to: pipeline.size) else {
            throw .invalidArgument("crop \(rect) covers no pixel of a \(pipeline.size) image")
        }
        let cropped = try pipeline.extractingArea(current).materialized().markedUpright()
        return Image(raster: cropped, metadata: metadata)
    }

    /// The part of the upright image inside a normalized rectangle (`0…1`, origin top-left), as
    /// `PHImageRequestOptions.normalizedCropRect` describes it.
    ///
    /// - Throws: ``ImageError/Code/invalidArgument`` when `rect` is empty, not finite or outside
    ///   `0…1`; otherwise as ``cropping(to:)``.
    public func cropping(toNormalized rect: NormalizedRect) throws(ImageError) -> Image {
        try cropping(to: rect.pixelRect(in: pixelSize))
    }

    /// The picker's square crop: the square `rect` of the upright image, scaled down so that its
    /// side is at most `maximumPixelSize` (never up).
    ///
    /// This is what `UIImagePickerController` does with `allowsEditing`: the user moves and scales
    /// a square over the photo, and the edited image is that square at a bounded size.
    ///
    /// ```swift
    /// let avatar = try photo.croppingToSquare(PixelRect(x: 500, y: 0, width: 3024, height: 3024), maximumPixelSize: 1024)
    /// // avatar.pixelSize == 1024×1024
    /// ```
    ///
    /// - Parameters:
    ///   - rect: A square (equal sides) lying wholly inside the upright image.
    ///   - maximumPixelSize: The largest side of the result; must be positive.
    /// - Throws: ``ImageError/Code/invalidArgument`` when `rect` is not square, not inside the image,
    ///   or `maximumPixelSize` is not positive.
    public func croppingToSquare(_ rect: PixelRect, maximumPixelSize: Int) throws(ImageError) -> Image {
        guard maximumPixelSize > 0 else {
            throw .invalidArgument("maximum pixel size must be positive, not \(maximumPixelSize)")
        }
        guard rect.width == rect.height, rect.width > 0 else {
            throw .invalidArgument("crop \(rect) is not a square")
        }
        guard rect.clamped(to: pixelSize) == rect else {
            throw .invalidArgument("square \(rect) is not inside the \(pixelSize) image")
        }
        let square = try cropping(to: rect)
        guard square.pixelWidth > maximumPixelSize else { return square }
        return try square.thumbnail(targetSize: PixelSize(square: maximumPixelSize), contentMode: .aspectFit)
    }
}
