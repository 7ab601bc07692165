import Foundation

/// The metadata of raw formats that are not a TIFF structure, where exiftool reads it: a CR3's
/// TIFF streams in Canon's `uuid` box, a RAF's embedded JPEG.
package enum RawContainerMetadata {
    /// Canon's box in a CR3's `moov` that holds the metadata streams.
    private static let canonUUID: [UInt8] = [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]

    /// A CR3's metadata: `CMT1` is IFD0 (make, model, orientation), `CMT2` the EXIF directory,
    /// `CMT4` the GPS directory, each a TIFF stream of its own.
    package static func cr3(_ data: Data) -> ImageMetadata? {
        let reader = HEIFContainer.BoxReader(data: data)
        guard let moov = reader.children(in: 0..<data.count).first(where: { $0.type == "moov" }),
            let canon = reader.children(in: moov.body).first(where: { box in
                box.type == "uuid" && box.body.count >= 16 && (0..<16).allSatisfy { reader.u8(box.body.lowerBound + $0) == canonUUID[$0] }
            })
        else { return nil }
        var streams: [String: Data] = [:]
        for box in reader.children(in: (canon.body.lowerBound + 16)..<canon.body.upperBound) where box.type.hasPrefix("CMT") {
            streams[box.type] = data.subdata(in: (data.startIndex + box.body.lowerBound)..<(data.startIndex + box.body.upperBound))
        }
        guard let main = streams["CMT1"] else { return nil }
        var metadata = ImageMetadata(exif: main)
        if let exif = streams["CMT2"].flatMap(TIFFDirectoryReader.init) {
            metadata.readExifDirectory(exif.directory(at: exif.firstDirectoryOffset), in: exif)
        }
        if let gps = streams["CMT4"].flatMap(TIFFDirectoryReader.init) {
            metadata.readGPSDirectory(gps.directory(at: gps.firstDirectoryOffset), in: gps)
        }
        return metadata
    }

    /// A RAF's metadata: the EXIF of the JPEG whose place the header gives at bytes 84–91.
    package static func raf(_ data: Data) -> ImageMetadata? {
        guard let jpeg = rafJPEG(data) else { return nil }
        let exif = JPEGSegments(jpeg).payloads(0xE1, startingWith: [0x45, 0x78, 0x69, 0x66, 0x00, 0x00])
        return exif.first.map { ImageMetadata(exif: $0) }
    }

    /// The JPEG a RAF carries (the camera's own rendering, with the shot's EXIF).
    package static func rafJPEG(_ data: Data) -> Data? {
        let header = EndianBytes(bytes: Array(data.prefix(92)), bigEndian: true)
        guard let offset = header.integer(84, 4).map(Int.init), let length = header.integer(88, 4).map(Int.init),
            offset >= 92, length > 4, offset <= data.count, length <= data.count - offset
        else { return nil }
        return data.subdata(in: (data.startIndex + offset)..<(data.startIndex + offset + length))
    }
}
