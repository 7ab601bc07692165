import Foundation
import ShoeboxImaging

/// XMP packets (libvips hands over a JPEG's, PNG's, WebP's or HEIF's packet), IPTC records (a
/// JPEG's Photoshop APP13), a JPEG's own segments (APP12 picture info, Casio's QVCI, FLIR's
/// camera record), and the date and offset spellings they carry.
enum XMPFuzzTarget {
    static let names = [
        "tiff:Orientation", "exif:DateTimeOriginal", "photoshop:DateCreated", "tiff:Make", "tiff:Model",
        "exifEX:LensModel", "aux:Lens", "exif:GPSLatitude", "exif:GPSLongitude", "exif:GPSAltitude",
    ]

    static func run(_ data: Data) {
        // The packet is read twice (the bytes as given and a slice of a larger buffer), not once
        // per merge: reading it is most of the time an input takes.
        let packet = XMPPacket(data)
        var metadata = ImageMetadata()
        metadata.mergeXMP(packet)
        MetadataInvariants.check(metadata)
        var sliced = ImageMetadata()
        sliced.mergeXMP(XMPPacket(FuzzCheck.shifted(data)))
        FuzzCheck.require(sliced == metadata, "a slice of the same bytes reads differently")

        // XMP only fills what EXIF left empty.
        var fromEXIF = ImageMetadata()
        fromEXIF.make = "EXIF"
        fromEXIF.orientation = .up
        fromEXIF.dateTimeOriginal = ImageMetadata.DateTime(year: 2001, month: 2, day: 3, hour: 4, minute: 5, second: 6)
        var merged = fromEXIF
        merged.mergeXMP(packet)
        FuzzCheck.require(
            merged.make == fromEXIF.make && merged.orientation == fromEXIF.orientation
                && merged.dateTimeOriginal == fromEXIF.dateTimeOriginal, "XMP replaced what EXIF said")

        for name in names {
            guard let value = packet.value(name) else { continue }
            FuzzCheck.require(
                !value.isEmpty && !value.contains("<") && value == value.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(name) read as \(value.debugDescription)")
        }

        if let date = IPTCRecord.dateCreated(data) {
            MetadataInvariants.check(date)
            FuzzCheck.require(IPTCRecord.dateCreated(FuzzCheck.shifted(data)) == date, "a slice of the same IPTC reads differently")
        }

        // A JPEG's own segments: APP12 picture info, Casio's QVCI, FLIR's camera record.
        var segments = ImageMetadata()
        segments.mergeJPEGSegments(data)
        MetadataInvariants.check(segments)
        var slicedSegments = ImageMetadata()
        slicedSegments.mergeJPEGSegments(FuzzCheck.shifted(data))
        FuzzCheck.require(slicedSegments == segments, "a slice of the same JPEG reads differently")

        // The date and offset parsers on the input as text.
        let text = String(decoding: data.prefix(64), as: UTF8.self)
        if let date = ImageMetadata.DateTime(iso8601: text) {
            MetadataInvariants.check(date)
            var whole = date
            whole.fractionalSecond = nil
            FuzzCheck.require(
                ImageMetadata.DateTime(iso8601: date.iso8601String) == whole,
                "\(text.debugDescription) read as \(date.iso8601String), which reads back differently")
        }
        if let date = ImageMetadata.DateTime(exif: text) {
            MetadataInvariants.check(date)
            FuzzCheck.require(ImageMetadata.DateTime(exif: date.exifString) == date, "\(text.debugDescription) does not read back")
        }
        MetadataInvariants.checkOffsetSpelling(text, parsed: ImageMetadata.DateTime.parseOffset(text))
    }
}
