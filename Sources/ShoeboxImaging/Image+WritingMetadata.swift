import Foundation

extension Image {
    /// A copy (upright, in memory) that carries `metadata`'s camera fields into the EXIF block
    /// written by ``encoded(as:options:)`` with `keepsMetadata` (the default): make, model,
    /// body serial number, software, lens make and model, capture date (`DateTimeOriginal` and `DateTime`, with
    /// `SubSecTimeOriginal` to the millisecond, and `OffsetTimeOriginal` and `OffsetTime` when the
    /// offset is known), exposure (1/N s, or to the microsecond), f-number, ISO, focal length, whether the flash
    /// fired, and the place (`GPSLatitude`/`Ref`, `GPSLongitude`/`Ref`, and `GPSAltitude` at or
    /// above sea level, to a hundredth of a second of arc and a centimetre). The written orientation is always 1 (the pixels are upright).
    ///
    /// ```swift
    /// var metadata = ImageMetadata()
    /// metadata.make = "Shoebox"; metadata.model = "Synthetic Camera"; metadata.flashFired = true
    /// let jpeg = try frame.writingMetadata(metadata).encoded(as: .jpeg)
    /// ```
    ///
    /// - Throws: ``ImageError/Code/corrupt`` when the pixels cannot be decoded.
    public func writingMetadata(_ metadata: ImageMetadata) throws(ImageError) -> Image {
        let handle = try Self.tagged(try uprightPipeline(), with: metadata)
        var kept = metadata
        kept.orientation = nil
        return Image(raster: try handle.materialized().markedUpright(), metadata: kept)
    }

    /// `handle` carrying `metadata`'s camera fields as libvips's EXIF fields (see
    /// ``writingMetadata(_:)``), which the JPEG, WebP and HEIF savers write.
    static func tagged(_ handle: VipsImageHandle, with metadata: ImageMetadata) throws(ImageError) -> VipsImageHandle {
        var handle = handle
        var fields: [(String, String)] = []
        if let make = metadata.make { fields.append(("exif-ifd0-Make", make)) }
        if let model = metadata.model { fields.append(("exif-ifd0-Model", model)) }
        if let software = metadata.software { fields.append(("exif-ifd0-Software", software)) }
        if let serial = metadata.bodySerialNumber { fields.append(("exif-ifd2-BodySerialNumber", serial)) }
        if let lensMake = metadata.lensMake { fields.append(("exif-ifd2-LensMake", lensMake)) }
        if let lensModel = metadata.lensModel { fields.append(("exif-ifd2-LensModel", lensModel)) }
        if let date = metadata.dateTimeOriginal {
            fields.append(("exif-ifd0-DateTime", date.exifString))
            fields.append(("exif-ifd2-DateTimeOriginal", date.exifString))
            if let fraction = date.fractionalSecond, fraction >= 0, fraction < 1 {
                fields.append(("exif-ifd2-SubSecTimeOriginal", String(format: "%03d", min(Int((fraction * 1_000).rounded()), 999))))
            }
            if let offset = date.offsetString {
                fields.append(("exif-ifd2-OffsetTime", offset))
                fields.append(("exif-ifd2-OffsetTimeOriginal", offset))
            }
        }
        if let fired = metadata.flashFired {
            // EXIF Flash: bit 0 = fired; 0x10 = "flash did not fire, compulsory flash suppression" is
            // more than we know, so 0 for not fired.
            fields.append(("exif-ifd2-Flash", fired ? "1" : "0"))
        }
        if let exposure = metadata.exposureTime, exposure > 0, exposure < 100_000 {
            // 1/N where the time is a whole fraction of a second (1/60), else in microseconds (2.5 s, 1/3.2).
            let reciprocal = 1 / exposure
            let whole = exposure < 1 && abs(reciprocal - reciprocal.rounded()) < 0.001 * reciprocal
            fields.append(("exif-ifd2-ExposureTime", whole ? "1/\(Int(reciprocal.rounded()))" : "\(Int((exposure * 1_000_000).rounded()))/1000000"))
        }
        if let number = metadata.fNumber, number > 0, number < 1_000 {
            fields.append(("exif-ifd2-FNumber", "\(Int((number * 100).rounded()))/100"))
        }
        if let iso = metadata.isoSpeed, iso > 0, iso < 65_536 { fields.append(("exif-ifd2-ISOSpeedRatings", "\(iso)")) }
        if let focal = metadata.focalLength, focal > 0, focal < 100_000 {
            fields.append(("exif-ifd2-FocalLength", "\(Int((focal * 10).rounded()))/10"))
        }
        fields += Self.gpsFields(metadata)
        for (name, value) in fields {
            handle = try handle.settingString(name, to: value)
        }
        return handle
    }

    /// The GPS directory's fields for libvips: degrees, minutes and seconds as rationals with a
    /// hemisphere letter, altitude in metres.
    static func gpsFields(_ metadata: ImageMetadata) -> [(String, String)] {
        guard let latitude = metadata.latitude, let longitude = metadata.longitude,
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
        else { return [] }
        func arc(_ value: Double) -> String {
            let hundredths = Int((abs(value) * 360_000).rounded())  // hundredths of a second of arc
            return "\(hundredths / 360_000)/1 \(hundredths / 6_000 % 60)/1 \(hundredths % 6_000)/100"
        }
        var fields = [
            ("exif-ifd3-GPSLatitudeRef", latitude < 0 ? "S" : "N"), ("exif-ifd3-GPSLatitude", arc(latitude)),
            ("exif-ifd3-GPSLongitudeRef", longitude < 0 ? "W" : "E"), ("exif-ifd3-GPSLongitude", arc(longitude)),
        ]
        // libvips 8.14 cannot set a BYTE field, so GPSAltitudeRef stays as libexif makes it (0,
        // above sea level): an altitude below sea level is left out rather than written wrong.
        if let altitude = metadata.altitude, altitude.isFinite, altitude >= 0, altitude < 100_000 {
            fields.append(("exif-ifd3-GPSAltitude", "\(Int((altitude * 100).rounded()))/100"))
        }
        return fields
    }
}
