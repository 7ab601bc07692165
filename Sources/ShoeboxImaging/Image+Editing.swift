import Foundation

extension Image {
    /// The upright image with `edit` applied: turned, mirrored, straightened, cropped and
    /// coloured in one pipeline whose pixels are computed once.
    ///
    /// ```swift
    /// let level = try photo.applying(ImageEdit(straightenDegrees: -2.5, crop: NormalizedRect(x: 0.1, y: 0, width: 0.8, height: 1)))
    /// ```
    ///
    /// Colour steps work on 8-bit RGB: other images (grey, 16-bit, CMYK) are converted to sRGB
    /// first, and transparency is flattened onto white.
    ///
    /// - Returns: An upright in-memory image (orientation 1) with this image's metadata.
    /// - Throws: ``ImageError/Code/invalidArgument`` for values ``ImageEdit/validate()`` refuses or
    ///   a crop covering no pixel; ``ImageError/Code/corrupt`` when the pixels cannot be
    ///   decoded.
    public func applying(_ edit: ImageEdit) throws(ImageError) -> Image {
        try edit.validate()
        let turns = ((edit.quarterTurns % 4) + 4) % 4
        // Turning reads the pixels out of order: a file is then decoded with random access.
        var handle = try uprightPipeline(randomAccess: turns != 0 || edit.straightenDegrees != 0)
        if turns != 0 { handle = try handle.rotated(quarterTurns: turns) }
        if edit.isFlipped { handle = try handle.mirrored() }
        if edit.straightenDegrees != 0 {
            handle = try handle.rotated(
                degrees: edit.straightenDegrees,
                keeping: ImageEdit.straightenedSize(of: handle.size, degrees: edit.straightenDegrees))
        }
        if let crop = edit.crop, crop != .unit {
            guard let area = try crop.pixelRect(in: handle.size).clamped(to: handle.size) else {
                throw .invalidArgument("crop \(crop) covers no pixel of a \(handle.size) image")
            }
            handle = try handle.extractingArea(area)
        }
        if edit.changesColor {
            let rgb8 = handle.sampleSize == 1 && (handle.bands == 3 || (handle.bands == 4 && handle.hasAlpha))
            if !rgb8 { handle = try handle.sRGB8() }
            if handle.hasAlpha { handle = try handle.flattened() }
            guard handle.bands == 3 else {
                throw .invalidArgument("cannot colour a \(handle.bands)-band image: it does not convert to RGB")
            }
            let identity = (0...255).map { UInt8($0) }
            handle = try handle.toned(edit.toneCurve ?? identity, mixedBy: edit.colorMatrix ?? [1, 0, 0, 0, 1, 0, 0, 0, 1])
        }
        return Image(raster: try handle.materialized().markedUpright(), metadata: metadata)
    }
}
