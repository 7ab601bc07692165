internal import CVips
import Foundation

extension Image {
    /// `data` with `metadata`'s camera fields written into its EXIF, the pixels untouched: what
    /// `AssetChangeRequest.creationRequestForAsset(from:metadata:filename:)` stores.
    ///
    /// The fields are those ``writingMetadata(_:)`` writes (make, model, lens, software, serial
    /// number, exposure, f-number, ISO, focal length, flash, the capture date with sub-seconds and
    /// offset, the place), over the file's own where both have one; the file's other EXIF tags
    /// (its orientation, maker note, thumbnail) stay as libexif re-writes them, and its XMP and
    /// image data are copied byte for byte.
    ///
    /// - JPEG: the EXIF APP1 segment is replaced (or added after the JFIF header).
    /// - PNG: the `eXIf` chunk is replaced (or added before the image data).
    /// - Other formats (HEIF, WebP, GIF, TIFF, raw) are returned as given: rewriting their
    ///   containers is not done here; the library keeps the caller's date and place in its
    ///   catalog either way.
    ///
    /// Returns `data` itself when `metadata` adds nothing the file does not already say.
    ///
    /// ```swift
    /// var metadata = ImageMetadata()
    /// (metadata.make, metadata.model) = ("Shoebox", "Kiosk Camera")
    /// let tagged = try Image.embeddingMetadata(metadata, in: jpeg)
    /// ```
    ///
    /// - Throws: ``ImageError`` when `data` does not open as an image.
    public static func embeddingMetadata(_ metadata: ImageMetadata, in data: Data) throws(ImageError) -> Data {
        let image = try Image(data: data)
        guard image.format == .jpeg || image.format == .png else { return data }
        let merged = image.metadata.merging(metadata)
        guard !merged.sameWrittenFields(as: image.metadata) else { return data }
        // libvips (through libexif) serialises the file's own EXIF with the fields set over it;
        // a 1 × 1 JPEG of the picture's corner carries that block out.
        let header = try openHeader(.data(data), pixelLimit: image.pixelLimit, sequential: false)
        let corner = try tagged(header, with: merged).extractingArea(PixelRect(x: 0, y: 0, width: 1, height: 1))
        let pointer = corner.pointer
        let tiny = try corner.save({ sb_jpegsave_buffer(pointer, 90, 0, 0, $0, $1) }, format: .jpeg)
        guard var exif = JPEGSegments(tiny).payloads(0xE1, startingWith: exifPreamble).first.map({ Data($0) }) else {
            throw .encodingFailed(format: .jpeg, reason: "libvips wrote no EXIF block")
        }
        // libvips records the saved picture's size (1 × 1): the file's own is what belongs there.
        exif = EXIFSizeFields.settingPixelDimensions(in: exif, to: image.storedPixelSize)
        return image.format == .jpeg ? try JPEGSplice.replacingEXIF(in: data, with: exif) : try PNGSplice.replacingEXIF(in: data, with: Data(exif.dropFirst(6)))
    }

    private static let exifPreamble: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
}

extension ImageMetadata {
    /// Whether the fields ``Image/writingMetadata(_:)`` writes are the same in both, to the
    /// precision it writes them (a read-back 1/60 s or a place in hundredths of a second of arc
    /// is the same value).
    fileprivate func sameWrittenFields(as other: ImageMetadata) -> Bool {
        func near(_ a: Double?, _ b: Double?, _ tolerance: Double, relative: Bool = false) -> Bool {
            switch (a, b) {
            case (nil, nil): true
            case (let a?, let b?): abs(a - b) <= (relative ? tolerance * Swift.max(abs(a), abs(b)) : tolerance)
            default: false
            }
        }
        func sameDate(_ a: DateTime?, _ b: DateTime?) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            return a.exifString == b.exifString && a.utcOffset == b.utcOffset
                && near(a.fractionalSecond.map { ($0 * 1_000).rounded() }, b.fractionalSecond.map { ($0 * 1_000).rounded() }, 0)
        }
        return make == other.make && model == other.model && software == other.software && bodySerialNumber == other.bodySerialNumber
            && lensMake == other.lensMake && lensModel == other.lensModel && sameDate(dateTimeOriginal, other.dateTimeOriginal)
            && flashFired == other.flashFired && near(exposureTime, other.exposureTime, 0.001, relative: true)
            && near(fNumber, other.fNumber, 0.005) && isoSpeed == other.isoSpeed && near(focalLength, other.focalLength, 0.05)
            && near(latitude, other.latitude, 1e-5) && near(longitude, other.longitude, 1e-5) && near(altitude, other.altitude, 0.01)
    }
}
