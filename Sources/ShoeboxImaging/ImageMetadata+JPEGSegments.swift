import Foundation

extension ImageMetadata {
    /// Adds what a JPEG's own segments say, in exiftool's order (it reads segments in file order,
    /// and a later tag of the same name stands):
    /// - a FLIR camera record's lens and date (with milliseconds and zone) stand over EXIF's, which
    ///   FLIR cameras write first, without either; its GPS record's position and altitude fill
    ///   only what EXIF and XMP left empty;
    /// - a Casio `QVCI` segment's date and an APP12 picture-info segment's date and exposure fill
    ///   only what EXIF, XMP and IPTC left empty (the cameras that wrote them wrote no EXIF).
    package mutating func mergeJPEGSegments(_ data: Data) {
        mergeJPEGSegments(JPEGSegments(data))
    }

    /// The EXIF of a JPEG with more than one EXIF segment, as exiftool reads it: every block, in
    /// file order, a later block's value standing over an earlier one's, and a block continued
    /// over several segments joined (libvips hands over the first segment only). `nil` for a
    /// JPEG with one EXIF segment or none, whose EXIF libvips reads.
    ///
    /// The orientation is not taken from later blocks: libvips turns the pixels by the first
    /// block's, as browsers do, and the orientation must say how the pixels were turned.
    static func exifOfEveryBlock(_ segments: JPEGSegments) -> ImageMetadata? {
        guard segments.payloads(0xE1, startingWith: Array("Exif\0".utf8)).count > 1 else { return nil }
        let blocks = segments.exifBlocks()
        guard let first = blocks.first else { return nil }
        var merged = ImageMetadata(exif: first)
        for block in blocks.dropFirst() {
            var later = ImageMetadata(exif: block)
            later.orientation = nil
            merged.overlay(later)
        }
        return merged
    }

    /// Takes every value `later` holds, keeping this one's where `later` has none; a later
    /// block's coordinates stand together (one without the other leaves none).
    mutating func overlay(_ later: ImageMetadata) {
        takeValues(of: later)
        if later.latitude != nil || later.longitude != nil {
            latitude = later.latitude
            longitude = later.longitude
        }
        altitude = later.altitude ?? altitude
    }

    /// What `mergeJPEGSegments(_:)` adds, from segments already read.
    mutating func mergeJPEGSegments(_ segments: JPEGSegments) {
        let app1 = segments.payloads(0xE1)
        if let flir = FLIRRecord.metadata(segments: app1) {
            lensModel = flir.lensModel ?? lensModel
            dateTimeOriginal = flir.dateTimeOriginal ?? dateTimeOriginal
            // exiftool's position from EXIF GPS stands over the camera's own record.
            if latitude == nil, longitude == nil, let north = flir.latitude, let east = flir.longitude {
                latitude = north
                longitude = east
            }
            altitude = altitude ?? flir.altitude
        }
        if dateTimeOriginal == nil {
            dateTimeOriginal = app1.lazy.compactMap(CasioQVCISegment.dateTimeOriginal(segment:)).first
        }
        if dateTimeOriginal == nil, let segment = segments.payloads(0xEC).first {
            let pictureInfo = PictureInfoSegment.metadata(segment: segment)
            dateTimeOriginal = pictureInfo.dateTimeOriginal
            exposureTime = exposureTime ?? pictureInfo.exposureTime
            fNumber = fNumber ?? pictureInfo.fNumber
            flashFired = flashFired ?? pictureInfo.flashFired
        }
    }
}
