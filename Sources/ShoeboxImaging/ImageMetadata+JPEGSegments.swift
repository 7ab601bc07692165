import Foundation

extension ImageMetadata {
    /// Adds what a JPEG's own segments say, in exiftool's order (it reads segments in file order,
    /// and a later tag of the same name stands):
    /// - a FLIR camera record's lens and date (with milliseconds and zone) stand over EXIF's, which
    ///   FLIR cameras write first, without either;
    /// - a Casio `QVCI` segment's date and an APP12 picture-info segment's date and exposure fill
    ///   only what EXIF, XMP and IPTC left empty (the cameras that wrote them wrote no EXIF).
    package mutating func mergeJPEGSegments(_ data: Data) {
        let segments = JPEGSegments(data)
        let app1 = segments.payloads(0xE1)
        if let flir = FLIRRecord.metadata(segments: app1) {
            lensModel = flir.lensModel ?? lensModel
            dateTimeOriginal = flir.dateTimeOriginal ?? dateTimeOriginal
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
